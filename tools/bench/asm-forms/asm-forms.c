/* Cycles (time-stamp counter ticks) per block of each form of the generated
 * Skein-256/512 loops against the reference C's and the submission
 * assembly's Process_Block, all in one process, interleaved call by call,
 * best of many trials. Built and run by tools/bench/asm-forms.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
#include "skein.h"

typedef void loop_fn(uint64_t *chain, uint64_t *tweak, const uint8_t *blocks, size_t n,
                     uint64_t bytes_per_block);
loop_fn skein_loop_grouped_256, skein_loop_interleaved_256, skein_loop_grouped_512,
    skein_loop_interleaved_512;
/* The reference's Process_Block, renamed by objcopy: c_ from skein_block.c,
 * asm_ from skein_block_x64.s. */
void c_256(Skein_256_Ctxt_t *, const u08b_t *, size_t, size_t);
void asm_256(Skein_256_Ctxt_t *, const u08b_t *, size_t, size_t);
void c_512(Skein_512_Ctxt_t *, const u08b_t *, size_t, size_t);
void asm_512(Skein_512_Ctxt_t *, const u08b_t *, size_t, size_t);

static const struct {
    int words;
    const char *name;
    loop_fn *loop;
    void (*ref256)(Skein_256_Ctxt_t *, const u08b_t *, size_t, size_t);
    void (*ref512)(Skein_512_Ctxt_t *, const u08b_t *, size_t, size_t);
} IMPLS[] = {
    {4, "grouped", skein_loop_grouped_256, 0, 0},
    {4, "interleaved", skein_loop_interleaved_256, 0, 0},
    {4, "reference C", 0, c_256, 0},
    {4, "submission asm", 0, asm_256, 0},
    {8, "grouped", skein_loop_grouped_512, 0, 0},
    {8, "interleaved", skein_loop_interleaved_512, 0, 0},
    {8, "reference C", 0, 0, c_512},
    {8, "submission asm", 0, 0, asm_512},
};
#define N_IMPLS (sizeof IMPLS / sizeof IMPLS[0])
static uint8_t data[64 * 1024 + 64];

/* One run of n blocks from chain/tweak; leaves the result in them. */
static void run(size_t i, uint64_t *chain, uint64_t *tweak, const uint8_t *blocks, size_t n) {
    int w = IMPLS[i].words;
    if (IMPLS[i].loop) {
        IMPLS[i].loop(chain, tweak, blocks, n, 8 * w);
    } else if (w == 4) {
        Skein_256_Ctxt_t c;
        memcpy(c.X, chain, 32), memcpy(c.h.T, tweak, 16);
        IMPLS[i].ref256(&c, blocks, n, 32);
        memcpy(chain, c.X, 32), memcpy(tweak, c.h.T, 16);
    } else {
        Skein_512_Ctxt_t c;
        memcpy(c.X, chain, 64), memcpy(c.h.T, tweak, 16);
        IMPLS[i].ref512(&c, blocks, n, 64);
        memcpy(chain, c.X, 64), memcpy(tweak, c.h.T, 16);
    }
}

int main(int argc, char **argv) {
    if (argc != 3 || atoi(argv[1]) < 1 || atoi(argv[1]) > 1024 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: asm-forms BLOCKS(1-1024) TRIALS\n");
        return 2;
    }
    size_t n = (size_t)atoi(argv[1]);
    int trials = atoi(argv[2]);
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 7 + 3);
    /* Every implementation gives the reference C's result (which does not
     * carry t0 into t1, so the position stays small): 5 unaligned blocks. */
    uint64_t want[2][10];
    for (size_t i = 0; i < N_IMPLS; i++) {
        int w = IMPLS[i].words, k = w == 8;
        uint64_t got[10] = {1000, 0x7000000000000000ULL | 1ULL << 62};
        for (int j = 0; j < w; j++) got[2 + j] = 0x0123456789abcdefULL * (j + 1);
        run(i, got + 2, got, data + 1, 5);
        if (IMPLS[i].ref256 == c_256 && IMPLS[i].ref512 == 0 && w == 4) memcpy(want[k], got, sizeof got);
        if (IMPLS[i].ref512 == c_512 && w == 8) memcpy(want[k], got, sizeof got);
    }
    for (size_t i = 0; i < N_IMPLS; i++) {
        int w = IMPLS[i].words, k = w == 8;
        uint64_t got[10] = {1000, 0x7000000000000000ULL | 1ULL << 62};
        for (int j = 0; j < w; j++) got[2 + j] = 0x0123456789abcdefULL * (j + 1);
        run(i, got + 2, got, data + 1, 5);
        if (memcmp(got, want[k], 8 * (2 + w))) {
            fprintf(stderr, "asm-forms: Skein-%d %s differs from the reference C\n", 64 * w, IMPLS[i].name);
            return 1;
        }
    }
    double best[N_IMPLS];
    for (size_t i = 0; i < N_IMPLS; i++) best[i] = 1e300;
    for (int r = 0; r < trials; r++) {
        for (size_t i = 0; i < N_IMPLS; i++) {
            uint64_t chain[8] = {1, 2, 3, 4, 5, 6, 7, 8}, tweak[2] = {0, 0x7000000000000000ULL};
            uint64_t t0 = __rdtsc();
            run(i, chain, tweak, data, n);
            double t = (double)(__rdtsc() - t0) / (double)n;
            if (t < best[i]) best[i] = t;
        }
    }
    printf("| state | loop | ticks a block (%zu blocks a call) | reference C / this |\n|---|---|---:|---:|\n", n);
    for (size_t i = 0; i < N_IMPLS; i++) {
        size_t c = i / 4 * 4 + 2;
        printf("| Skein-%d | %s | %.1f | %.3fx |\n", 64 * IMPLS[i].words, IMPLS[i].name, best[i],
               best[c] / best[i]);
    }
    return 0;
}
