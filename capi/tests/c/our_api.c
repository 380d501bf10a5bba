/* libskein_simd behind the api_t table of capi_test.h, and the calls that
 * pick a state size, for the files of skein_test (see skein_test.h). */
#include "skein_test.h"

#define OURS(P, NAME)                                                                          \
    static int NAME##_init_ext(void *c, size_t bits, uint64_t tree, const uint8_t *k, size_t kb) { \
        return P##InitExt((P##Ctxt_t *)c, bits, tree, k, kb);                                  \
    }                                                                                          \
    static int NAME##_final_pad(void *c, uint8_t *out) { return P##Final_Pad((P##Ctxt_t *)c, out); } \
    static int NAME##_output(void *c, uint8_t *out) { return P##Output((P##Ctxt_t *)c, out); } \
    API_SHARED(P, NAME)

OURS(Skein_256_, our256)
OURS(Skein_512_, our512)
OURS(Skein1024_, our1024)

#define TABLE(NAME, BITS, T)                                                                         \
    {"libskein_simd", BITS, sizeof(T), NAME##_init_ext, NAME##_update, NAME##_final, NAME##_final_pad, \
     NAME##_output, NAME##_set_t0, NAME##_set_level, NAME##_set_bit_pad, NAME##_b_cnt, NAME##_tweak}

const api_t OUR_API[3] = {
    TABLE(our256, 256, Skein_256_Ctxt_t),
    TABLE(our512, 512, Skein_512_Ctxt_t),
    TABLE(our1024, 1024, Skein1024_Ctxt_t),
};

const api_t *ours(int bits) { return &OUR_API[bits == 256 ? 0 : bits == 512 ? 1 : 2]; }
const api_t *peer(int bits) { return bits == 512 ? &REF_API[0] : bits == 1024 ? &REF_API[1] : NULL; }

int our_init(int bits, void *ctx, size_t hash_bits) {
    switch (bits) {
    case 256: return Skein_256_Init((Skein_256_Ctxt_t *)ctx, hash_bits);
    case 512: return Skein_512_Init((Skein_512_Ctxt_t *)ctx, hash_bits);
    default: return Skein1024_Init((Skein1024_Ctxt_t *)ctx, hash_bits);
    }
}

int init_params(int bits, void *ctx, const skein_simd_params_t *p) {
    switch (bits) {
    case 256: return skein_simd_256_init_params((Skein_256_Ctxt_t *)ctx, p);
    case 512: return skein_simd_512_init_params((Skein_512_Ctxt_t *)ctx, p);
    default: return skein_simd_1024_init_params((Skein1024_Ctxt_t *)ctx, p);
    }
}

int hash_many(int bits, const skein_simd_params_t *p, const uint8_t *const *msgs, const size_t *lens, size_t count,
              uint8_t *out) {
    switch (bits) {
    case 256: return skein_simd_256_hash_many(p, msgs, lens, count, out);
    case 512: return skein_simd_512_hash_many(p, msgs, lens, count, out);
    default: return skein_simd_1024_hash_many(p, msgs, lens, count, out);
    }
}
