/* Skein-512-512 of standard input, in hex: a program that uses only the
 * reference API of skein.h (here to check that libskein_simd installs and
 * links, with pkg-config, statically and dynamically). */
#include <stdio.h>

#include "skein.h"

int main(void) {
    Skein_512_Ctxt_t ctx;
    u08b_t buf[65536], out[64];
    size_t n, i;
    if (Skein_512_Init(&ctx, 512) != SKEIN_SUCCESS) return 1;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
        if (Skein_512_Update(&ctx, buf, n) != SKEIN_SUCCESS) return 1;
    if (ferror(stdin) || Skein_512_Final(&ctx, out) != SKEIN_SUCCESS) return 1;
    for (i = 0; i < sizeof out; i++) printf("%02x", out[i]);
    printf("\n");
    return 0;
}
