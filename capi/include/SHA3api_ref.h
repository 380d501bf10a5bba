/*
 * libskein_simd: the NIST SHA-3 competition API of the Skein submission
 * (its SHA3api_ref.h), on the Skein reference API of skein.h.
 *
 * Init selects the state size from the result length: Skein-512 for up to
 * 512 bits, Skein-1024 above (as the reference code does). Update takes the
 * message length in bits; only its last call may end inside a byte (the
 * first databitlen % 8 bits of the last byte, most significant first).
 *
 * These four functions have generic names. The library exports them unless
 * it was built without its `nist-api` feature.
 */
#ifndef _AHS_API_H_
#define _AHS_API_H_

#include "skein.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    SUCCESS = SKEIN_SUCCESS,
    FAIL = SKEIN_FAIL,
    BAD_HASHLEN = SKEIN_BAD_HASHLEN
} HashReturn;

typedef size_t DataLength;  /* a length in bits */
typedef u08b_t BitSequence; /* message and result bytes */

typedef struct {
    uint_t statebits; /* 256, 512 or 1024 */
    union {
        Skein_Ctxt_Hdr_t h; /* the header all three share */
        Skein_256_Ctxt_t ctx_256;
        Skein_512_Ctxt_t ctx_512;
        Skein1024_Ctxt_t ctx1024;
    } u;
} hashState;

HashReturn Init(hashState *state, int hashbitlen);
HashReturn Update(hashState *state, const BitSequence *data, DataLength databitlen);
HashReturn Final(hashState *state, BitSequence *hashval);

/* Init, Update and Final in one call. */
HashReturn Hash(int hashbitlen, const BitSequence *data, DataLength databitlen, BitSequence *hashval);

/*
 * The state-size selection limits of Init (informative: fixed here, as in
 * the reference code): Skein-256 for results of up to
 * SKEIN_256_NIST_MAX_HASHBITS bits (0: never), Skein-512 up to
 * SKEIN_512_NIST_MAX_HASHBITS, Skein-1024 above.
 */
#ifndef SKEIN_256_NIST_MAX_HASHBITS
#define SKEIN_256_NIST_MAX_HASHBITS (0)
#endif
#ifndef SKEIN_512_NIST_MAX_HASHBITS
#define SKEIN_512_NIST_MAX_HASHBITS (512)
#endif

#ifdef __cplusplus
}
#endif

#endif /* _AHS_API_H_ */
