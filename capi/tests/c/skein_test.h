/* What the files of the skein_test program share (skein_test.c, our_api.c,
 * hostile.c): libskein_simd behind the api_t table of capi_test.h, a context
 * buffer for any state size, calls that pick a state size, and the test
 * groups kept in files of their own. */
#ifndef SKEIN_TEST_H
#define SKEIN_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "skein.h"
#include "skein_simd.h"

#include "capi_test.h"

/* libskein_simd's tables, Skein-256, -512 and -1024 (our_api.c). */
extern const api_t OUR_API[3];

/* libskein_simd's table for a state size; the reference's (ref_peer.c), or
 * NULL for Skein-256, which it lacks. */
const api_t *ours(int bits);
const api_t *peer(int bits);

/* Room for any context, aligned for u64b_t. */
typedef union {
    Skein1024_Ctxt_t big;
    u64b_t align;
} ctx_t;

/* Skein_*_Init, skein_simd_*_init_params and skein_simd_*_hash_many of the
 * state size `bits`. */
int our_init(int bits, void *ctx, size_t hash_bits);
int init_params(int bits, void *ctx, const skein_simd_params_t *p);
int hash_many(int bits, const skein_simd_params_t *p, const uint8_t *const *msgs, const size_t *lens, size_t count,
              uint8_t *out);

/* Hostile input: corrupted contexts, huge lengths, overlap, fork (hostile.c). */
void test_hostile(void);

#endif
