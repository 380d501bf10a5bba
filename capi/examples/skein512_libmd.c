/* A program written for FreeBSD's libmd (skein(3)), as FreeBSD's own
 * skein512 command prints: "SKEIN512 (FILE) = digest" for each FILE, or the
 * digest of standard input without arguments. It builds unchanged against
 * libskein_simd (pkg-config skein_simd): tools/ci/capi-link-check.sh. */
#include <sys/types.h>

#include <skein.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    char digest[SKEIN512_DIGEST_STRING_LENGTH];
    int i, status = 0;
    if (argc < 2) {
        if (SKEIN512_Fd(STDIN_FILENO, digest) == NULL) {
            perror("stdin");
            return 1;
        }
        printf("%s\n", digest);
        return 0;
    }
    for (i = 1; i < argc; i++) {
        if (SKEIN512_File(argv[i], digest) != NULL) {
            printf("SKEIN512 (%s) = %s\n", argv[i], digest);
        } else {
            perror(argv[i]);
            status = 1;
        }
    }
    return status;
}
