/* The sizes and offsets of the reference's context types, in the order of
 * test_layout's names: included by skein_test.c (after skein_simd's
 * headers) and by ref_peer.c (after the reference's code), so the same
 * function measures both sets of types. */
#ifndef LAYOUT_H
#define LAYOUT_H

#include <stddef.h>

#include "capi_test.h"

static void fill_layout(size_t out[LAYOUT_COUNT]) {
    size_t i = 0;
    out[i++] = sizeof(Skein_Ctxt_Hdr_t);
    out[i++] = offsetof(Skein_Ctxt_Hdr_t, hashBitLen);
    out[i++] = offsetof(Skein_Ctxt_Hdr_t, bCnt);
    out[i++] = offsetof(Skein_Ctxt_Hdr_t, T);
#define CTX(T)                 \
    out[i++] = sizeof(T);      \
    out[i++] = offsetof(T, h); \
    out[i++] = offsetof(T, X); \
    out[i++] = offsetof(T, b);
    CTX(Skein_256_Ctxt_t)
    CTX(Skein_512_Ctxt_t)
    CTX(Skein1024_Ctxt_t)
    out[i++] = sizeof(hashState);
    out[i++] = offsetof(hashState, statebits);
    out[i++] = offsetof(hashState, u);
#undef CTX
}

#endif
