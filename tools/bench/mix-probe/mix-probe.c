/* Threefish-512 rounds (MIX: add, rotate, xor; the word permutation by
 * renaming) on G independent groups of 8 zmm rows, without key injection:
 * how many vector operations per cycle the round pattern itself sustains
 * (docs/lanes.md, "Lane kernels against their limit"). Cycles are those of
 * the dependent-add clock passed as GHZ (printed by many_table or
 * latency-probe).
 *
 *   for g in 1 2 3 4; do gcc -O3 -mavx512f -DG=$g mix-probe.c -o mix$g; done
 *   for g in 1 2 3 4; do ./mix$g 50000000 3.5; ./mix$g 50000000 3.5 apart; done
 *
 * "apart": each group's four rounds one after the other in program order
 * (what a compiler that schedules chain by chain emits); otherwise the
 * groups are interleaved MIX by MIX. */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef G
#define G 1
#endif
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
#define MIX1(g, a, b, r)                                            \
    x[g][a] = _mm512_add_epi64(x[g][a], x[g][b]);                   \
    x[g][b] = _mm512_xor_si512(_mm512_rol_epi64(x[g][b], r), x[g][a]);
#define MIX(a, b, r) for (int g = 0; g < G; g++) { MIX1(g, a, b, r) }
#define ROUNDS(M)                                                   \
    M(0, 1, 46) M(2, 3, 36) M(4, 5, 19) M(6, 7, 37)                 \
    M(2, 1, 33) M(4, 7, 27) M(6, 5, 14) M(0, 3, 42)                 \
    M(4, 1, 17) M(6, 3, 49) M(0, 5, 36) M(2, 7, 39)                 \
    M(6, 1, 44) M(0, 7, 9) M(2, 5, 54) M(4, 3, 56)
int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s ITERATIONS GHZ [apart]\n", argv[0]);
        return 2;
    }
    long n = atol(argv[1]);
    double ghz = atof(argv[2]);
    int apart = argc > 3 && strcmp(argv[3], "apart") == 0;
    __m512i x[G][8];
    for (int g = 0; g < G; g++)
        for (int j = 0; j < 8; j++) x[g][j] = _mm512_set1_epi64(g * 8 + j + argc);
    double t0 = now();
    if (apart) {
        for (long i = 0; i < n; i++)
            for (int g = 0; g < G; g++) {
#define MIXG(a, b, r) MIX1(g, a, b, r)
                ROUNDS(MIXG)
            }
    } else {
        for (long i = 0; i < n; i++) { ROUNDS(MIX) }
    }
    double cycles = (now() - t0) * ghz * 1e9 / (n * 4.0);
    __m512i s = _mm512_setzero_si512();
    for (int g = 0; g < G; g++)
        for (int j = 0; j < 8; j++) s = _mm512_xor_si512(s, x[g][j]);
    long long o[8];
    _mm512_storeu_si512(o, s);
    printf("%d group(s)%s: %.2f cycles per round of one group, %.2f operations per cycle (%llx)\n",
           G, apart ? " apart" : ", interleaved", cycles / G, 12.0 * G / cycles, o[0]);
    return 0;
}
