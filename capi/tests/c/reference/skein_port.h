/* The platform definitions the reference code (c_skein.c, c_skein.h) needs,
 * written for these tests in place of the reference package's skein_port.h:
 * its integer types, the rotation, and the portable byte-order functions
 * (the reference's own "slow but portable" versions). ref_peer.c sets
 * SKEIN_NEED_SWAP for the target's byte order before including the code. */
#ifndef _SKEIN_PORT_H_
#define _SKEIN_PORT_H_

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#ifndef SKEIN_NEED_SWAP
#error "define SKEIN_NEED_SWAP (0 little-endian, 1 big-endian) before including the reference code"
#endif

typedef unsigned int uint_t; /* native unsigned integer */
typedef uint8_t u08b_t;      /* 8-bit unsigned integer */
typedef uint64_t u64b_t;     /* 64-bit unsigned integer */

#define RotL_64(x, N) (((x) << (N)) | ((x) >> (64 - (N))))

/* Words to little-endian order and back: a byte swap on big-endian CPUs. */
#if SKEIN_NEED_SWAP
#define Skein_Swap64(w64)                                                                          \
    ((((u64b_t)(w64)&0xFF) << 56) | (((((u64b_t)(w64)) >> 8) & 0xFF) << 48) |                     \
     (((((u64b_t)(w64)) >> 16) & 0xFF) << 40) | (((((u64b_t)(w64)) >> 24) & 0xFF) << 32) |         \
     (((((u64b_t)(w64)) >> 32) & 0xFF) << 24) | (((((u64b_t)(w64)) >> 40) & 0xFF) << 16) |         \
     (((((u64b_t)(w64)) >> 48) & 0xFF) << 8) | (((((u64b_t)(w64)) >> 56) & 0xFF)))
#else
#define Skein_Swap64(w64) (w64)
#endif

/* Bytes out of words and words out of bytes, least significant byte first,
 * on either byte order. c_skein.c defines SKEIN_PORT_CODE for the bodies. */
void Skein_Put64_LSB_First(u08b_t *dst, const u64b_t *src, size_t bCnt)
#ifdef SKEIN_PORT_CODE
{
    size_t n;
    for (n = 0; n < bCnt; n++) dst[n] = (u08b_t)(src[n >> 3] >> (8 * (n & 7)));
}
#else
    ;
#endif

void Skein_Get64_LSB_First(u64b_t *dst, const u08b_t *src, size_t wCnt)
#ifdef SKEIN_PORT_CODE
{
    size_t n;
    for (n = 0; n < 8 * wCnt; n += 8)
        dst[n / 8] = (((u64b_t)src[n])) + (((u64b_t)src[n + 1]) << 8) + (((u64b_t)src[n + 2]) << 16) +
                     (((u64b_t)src[n + 3]) << 24) + (((u64b_t)src[n + 4]) << 32) +
                     (((u64b_t)src[n + 5]) << 40) + (((u64b_t)src[n + 6]) << 48) +
                     (((u64b_t)src[n + 7]) << 56);
}
#else
    ;
#endif

#endif /* _SKEIN_PORT_H_ */
