/* Single-stream Skein through the reference API (Init, Update, Final),
 * the API every peer implements: the same program is linked against the
 * reference C, the reference C with the submission's x86-64 assembly, and
 * libskein_simd.a (tools/bench/ref-api-bench/run.sh builds all three).
 *
 *   ref_api_bench             best ns a message, every state size and length
 *   ref_api_bench N BITS LEN  N messages, no timing (for callgrind)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "skein.h"

static unsigned char buf[65536 + 64];
static unsigned char out[128];
volatile unsigned char sink;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void hash(int bits, size_t len)
{
    if (bits == 256) {
        Skein_256_Ctxt_t c;
        Skein_256_Init(&c, 256);
        Skein_256_Update(&c, buf, len);
        Skein_256_Final(&c, out);
    } else if (bits == 512) {
        Skein_512_Ctxt_t c;
        Skein_512_Init(&c, 512);
        Skein_512_Update(&c, buf, len);
        Skein_512_Final(&c, out);
    } else {
        Skein1024_Ctxt_t c;
        Skein1024_Init(&c, 1024);
        Skein1024_Update(&c, buf, len);
        Skein1024_Final(&c, out);
    }
    sink ^= out[0];
}

int main(int argc, char **argv)
{
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 7 + 3);
    if (argc == 4) {
        long n = atol(argv[1]);
        int bits = atoi(argv[2]);
        size_t len = (size_t)atol(argv[3]);
        for (long i = 0; i < n; i++)
            hash(bits, len);
        return 0;
    }
    static const size_t lens[] = {64, 1024, 65536};
    static const int sizes[] = {256, 512, 1024};
    for (int k = 0; k < 3; k++) {
        for (int s = 0; s < 3; s++) {
            size_t len = lens[k];
            long iters = (long)(2e7 / (double)(len + 64));
            if (iters < 20)
                iters = 20;
            double best = 1e30;
            for (int r = 0; r < 15; r++) {
                double t0 = now_ns();
                for (long i = 0; i < iters; i++)
                    hash(sizes[s], len);
                double t = (now_ns() - t0) / (double)iters;
                if (t < best)
                    best = t;
            }
            printf("%d\t%zu\t%.1f\n", sizes[s], len, best);
        }
    }
    return 0;
}
