/* The Skein team's reference C code as a peer for the C tests: its source
 * (c_skein.c in reference/, public domain: see reference/README.md; the
 * directory must be on the include path) is compiled into this file, and its static
 * functions and types are exposed through the api_t tables of capi_test.h. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SKEIN_NEED_SWAP 1 /* its auto-detection always picks big-endian */
#else
#define SKEIN_NEED_SWAP 0
#endif
#include "c_skein.c"

#include "capi_test.h"
#include "layout.h"

#define PEER(P, NAME)                                                                          \
    static int NAME##_init_ext(void *c, size_t bits, uint64_t tree, const uint8_t *k, size_t kb) { \
        (void)k;                                                                               \
        if (tree != 0 || kb != 0) return SKEIN_FAIL;                                           \
        return P##Init((P##Ctxt_t *)c, bits);                                                  \
    }                                                                                          \
    API_SHARED(P, NAME)

PEER(Skein_512_, ref512)
PEER(Skein1024_, ref1024)

const api_t REF_API[2] = {
    {"reference", 512, sizeof(Skein_512_Ctxt_t), ref512_init_ext, ref512_update, ref512_final, NULL, NULL,
     ref512_set_t0, ref512_set_level, ref512_set_bit_pad, ref512_b_cnt, ref512_tweak},
    {"reference", 1024, sizeof(Skein1024_Ctxt_t), ref1024_init_ext, ref1024_update, ref1024_final, NULL, NULL,
     ref1024_set_t0, ref1024_set_level, ref1024_set_bit_pad, ref1024_b_cnt, ref1024_tweak},
};

void ref_layout(size_t out[LAYOUT_COUNT]) { fill_layout(out); }

const int REF_NIST_256_MAX_HASHBITS = SKEIN_256_NIST_MAX_HASHBITS;
const int REF_NIST_512_MAX_HASHBITS = SKEIN_512_NIST_MAX_HASHBITS;

int ref_nist_hash(int hashbitlen, const uint8_t *data, size_t databitlen, uint8_t *out) {
    return skein_hash(hashbitlen, data, databitlen, out);
}
