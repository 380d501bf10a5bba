/* Single stream through the reference API (Init, Update, Final), every
 * implementation in one process: each shared library given on the command
 * line is dlopen'ed with its own symbols (RTLD_LOCAL | RTLD_DEEPBIND), and
 * the libraries take turns trial by trial, so a loaded machine slows them
 * alike; best trial kept, in time-stamp counter ticks a message. Built and
 * run by same-process.sh.
 *
 *   same_process TRIALS NAME=LIB.so...
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

/* The largest context (Skein-1024: two size_t, 2 + 16 + 16 words). */
typedef struct {
    uint64_t words[40];
} ctx_t;
typedef int init_fn(ctx_t *, size_t);
typedef int update_fn(ctx_t *, const uint8_t *, size_t);
typedef int final_fn(ctx_t *, uint8_t *);

struct impl {
    const char *name;
    init_fn *init[3];
    update_fn *update[3];
    final_fn *final[3];
};

static uint8_t buf[65536 + 64];
static uint8_t out[128];
static const int BITS[3] = {256, 512, 1024};
static const char *const PREFIX[3] = {"Skein_256_", "Skein_512_", "Skein1024_"};
static const size_t LENS[3] = {64, 1024, 65536};

static void *sym(void *lib, const char *lib_name, const char *prefix, const char *what) {
    char name[64];
    snprintf(name, sizeof name, "%s%s", prefix, what);
    void *f = dlsym(lib, name);
    if (!f) {
        fprintf(stderr, "same_process: %s: no symbol %s\n", lib_name, name);
        exit(1);
    }
    return f;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: same_process TRIALS NAME=LIB.so...\n");
        return 2;
    }
    int trials = atoi(argv[1]);
    int n = argc - 2;
    struct impl *impls = calloc((size_t)n, sizeof *impls);
    for (int i = 0; i < n; i++) {
        char *eq = strchr(argv[i + 2], '=');
        if (!eq) {
            fprintf(stderr, "same_process: %s: want NAME=LIB.so\n", argv[i + 2]);
            return 2;
        }
        *eq = 0;
        impls[i].name = argv[i + 2];
        void *lib = dlopen(eq + 1, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
        if (!lib) {
            fprintf(stderr, "same_process: %s\n", dlerror());
            return 1;
        }
        for (int s = 0; s < 3; s++) {
            impls[i].init[s] = (init_fn *)sym(lib, eq + 1, PREFIX[s], "Init");
            impls[i].update[s] = (update_fn *)sym(lib, eq + 1, PREFIX[s], "Update");
            impls[i].final[s] = (final_fn *)sym(lib, eq + 1, PREFIX[s], "Final");
        }
    }
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 7 + 3);
    /* The digests must agree before anything is timed. */
    for (int s = 0; s < 3; s++)
        for (int k = 0; k < 3; k++) {
            uint8_t first[128];
            for (int i = 0; i < n; i++) {
                ctx_t c;
                impls[i].init[s](&c, (size_t)BITS[s]);
                impls[i].update[s](&c, buf, LENS[k]);
                impls[i].final[s](&c, out);
                if (i == 0)
                    memcpy(first, out, sizeof first);
                else if (memcmp(first, out, (size_t)BITS[s] / 8)) {
                    fprintf(stderr, "same_process: %s and %s differ (Skein-%d, %zu B)\n",
                            impls[0].name, impls[i].name, BITS[s], LENS[k]);
                    return 1;
                }
            }
        }
    printf("| Skein | bytes |");
    for (int i = 0; i < n; i++)
        printf(" %s |", impls[i].name);
    for (int i = 1; i < n; i++)
        printf(" %s / %s |", impls[i].name, impls[0].name);
    printf("\n|---|---:|");
    for (int i = 0; i < 2 * n - 1; i++)
        printf("---:|");
    printf("\n");
    double *best = malloc((size_t)n * sizeof *best);
    for (int s = 0; s < 3; s++)
        for (int k = 0; k < 3; k++) {
            size_t len = LENS[k];
            long iters = (long)(200000 / (len + 64)) + 1;
            for (int i = 0; i < n; i++)
                best[i] = 1e30;
            for (int t = 0; t < trials; t++)
                for (int i = 0; i < n; i++) {
                    uint64_t t0 = __rdtsc();
                    for (long m = 0; m < iters; m++) {
                        ctx_t c;
                        impls[i].init[s](&c, (size_t)BITS[s]);
                        impls[i].update[s](&c, buf, len);
                        impls[i].final[s](&c, out);
                    }
                    double ticks = (double)(__rdtsc() - t0) / (double)iters;
                    if (ticks < best[i])
                        best[i] = ticks;
                }
            printf("| %d | %zu |", BITS[s], len);
            for (int i = 0; i < n; i++)
                printf(" %.0f |", best[i]);
            /* The first library's time over each other's: above 1, faster. */
            for (int i = 1; i < n; i++)
                printf(" %.3fx |", best[0] / best[i]);
            printf("\n");
        }
    return 0;
}
