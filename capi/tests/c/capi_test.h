/* The C tests' view of one implementation of the Skein reference API for
 * one state size: libskein_simd's (our_api.c) or the reference code's
 * (ref_peer.c), behind the same function table. */
#ifndef CAPI_TEST_H
#define CAPI_TEST_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *name;
    int bits;        /* state size */
    size_t ctx_size; /* sizeof the context type */
    int (*init_ext)(void *ctx, size_t hashBitLen, uint64_t treeInfo, const uint8_t *key, size_t keyBytes);
    int (*update)(void *ctx, const uint8_t *msg, size_t n);
    int (*final)(void *ctx, uint8_t *out);
    int (*final_pad)(void *ctx, uint8_t *out);
    int (*output)(void *ctx, uint8_t *out);
    void (*set_t0)(void *ctx, uint64_t t0);         /* Skein_Set_T0 */
    void (*set_tree_level)(void *ctx, unsigned lv); /* Skein_Set_Tree_Level */
    void (*set_bit_pad)(void *ctx);                 /* Skein_Set_Bit_Pad_Flag */
    size_t (*b_cnt)(const void *ctx);               /* h.bCnt */
    uint64_t (*tweak)(const void *ctx, int i);      /* Skein_Get_Tweak */
} api_t;

/* The api_t functions both libraries spell alike, for the context type
 * P##Ctxt_t of the file that expands it (libskein_simd's in our_api.c,
 * the reference's in ref_peer.c): NAME##_update, _final, _set_t0,
 * _set_level, _set_bit_pad, _b_cnt and _tweak. */
#define API_SHARED(P, NAME)                                                                    \
    static int NAME##_update(void *c, const uint8_t *m, size_t n) { return P##Update((P##Ctxt_t *)c, m, n); } \
    static int NAME##_final(void *c, uint8_t *out) { return P##Final((P##Ctxt_t *)c, out); }   \
    static void NAME##_set_t0(void *c, uint64_t t0) { Skein_Set_T0((P##Ctxt_t *)c, t0); }      \
    static void NAME##_set_level(void *c, unsigned lv) { Skein_Set_Tree_Level(((P##Ctxt_t *)c)->h, lv); } \
    static void NAME##_set_bit_pad(void *c) { Skein_Set_Bit_Pad_Flag(((P##Ctxt_t *)c)->h); }   \
    static size_t NAME##_b_cnt(const void *c) { return ((const P##Ctxt_t *)c)->h.bCnt; }      \
    static uint64_t NAME##_tweak(const void *c, int i) { return Skein_Get_Tweak((const P##Ctxt_t *)c, i); }

/* The reference code's tables for Skein-512 and Skein-1024. The copy of the
 * reference code at hand (reference/c_skein.c, from crates.io skein-ffi 0.5.0)
 * compiles out InitExt, Final_Pad, Output and Skein_256_Init, so these do
 * plain hashing only: init_ext without key or tree calls Init and refuses
 * anything else; final_pad and output are NULL. */
extern const api_t REF_API[2];

/* sizeof and offsetof of the reference's types, in this order:
 * Skein_Ctxt_Hdr_t: size, hashBitLen, bCnt, T;
 * Skein_256_Ctxt_t, Skein_512_Ctxt_t, Skein1024_Ctxt_t: size, h, X, b each;
 * hashState: size, statebits, u. */
#define LAYOUT_COUNT 19
void ref_layout(size_t out[LAYOUT_COUNT]);

/* The reference's NIST API, all in one call. */
/* Its state-size limits: Init picks Skein-256 up to the first (0: never),
 * Skein-512 up to the second, Skein-1024 above. */
extern const int REF_NIST_256_MAX_HASHBITS, REF_NIST_512_MAX_HASHBITS;
int ref_nist_hash(int hashbitlen, const uint8_t *data, size_t databitlen, uint8_t *out);

#endif
