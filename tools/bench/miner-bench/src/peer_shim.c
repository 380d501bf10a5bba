/* cpuminer-opt's multi-lane Skein-512-512 over batches of separate
 * messages, end to end: interleave WAYS messages with the peer's own
 * intrlv_*x64, hash them with its *_full (or prehash64 + final16), and
 * de-interleave the digests with its dintrlv_*x64. Built twice by build.rs:
 * WAYS=4 with -mavx2 (skein512_4x64_*) and WAYS=8 with AVX-512
 * (skein512_8x64_*), each with its own PEER_PREFIX (see peer_names.h).
 *
 * The peer's interleave functions load and store 16 bytes at a time with
 * aligned accesses: every message, tail and digest must be 16-byte aligned
 * (the Rust side gives them 64). */
#include <stdint.h>
#include <stddef.h>
#include "skein-hash-4way.h"

#if WAYS == 4
typedef skein512_4x64_context ctx_t;
#define PEER_FULL skein512_4x64_full
#define PEER_PREHASH64 skein512_4x64_prehash64
#define PEER_FINAL16 skein512_4x64_final16
#define INTRLV(d, s, off, bits) \
    intrlv_4x64(d, s[0] + (off), s[1] + (off), s[2] + (off), s[3] + (off), bits)
#define INTRLV_SAME(d, p, bits) intrlv_4x64(d, p, p, p, p, bits)
#define DINTRLV(d, s, bits) dintrlv_4x64(d[0], d[1], d[2], d[3], s, bits)
#define SHIM(name) miner_peer4_##name
#elif WAYS == 8
typedef skein512_8x64_context ctx_t;
#define PEER_FULL skein512_8x64_full
#define PEER_PREHASH64 skein512_8x64_prehash64
#define PEER_FINAL16 skein512_8x64_final16
#define INTRLV(d, s, off, bits)                                                 \
    intrlv_8x64(d, s[0] + (off), s[1] + (off), s[2] + (off), s[3] + (off),     \
                s[4] + (off), s[5] + (off), s[6] + (off), s[7] + (off), bits)
#define INTRLV_SAME(d, p, bits) intrlv_8x64(d, p, p, p, p, p, p, p, p, bits)
#define DINTRLV(d, s, bits) \
    dintrlv_8x64(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], s, bits)
#define SHIM(name) miner_peer8_##name
#else
#error "WAYS must be 4 or 8"
#endif

/* Bytes of interleave buffer the caller provides to SHIM(full_batch). */
size_t SHIM(vbuf_len)(size_t len) { return WAYS * len; }

/* Skein-512-512 of `count` (a multiple of WAYS) messages of `len` bytes
 * each: 64, 80, or a multiple of 128 (the sizes intrlv_*x64 covers: it
 * interleaves 256, 512, 640 or 1024 bits, so longer messages go 128 bytes at
 * a time). `vbuf` holds vbuf_len(len) bytes, 64-byte aligned. Returns 0, or
 * -1 for a length it cannot do. */
int SHIM(full_batch)(const uint8_t *const *msgs, size_t count, size_t len,
                     uint8_t *const *digests, void *vbuf)
{
    if (count % WAYS != 0 || !(len == 64 || len == 80 || len % 128 == 0))
        return -1;
    ctx_t ctx;
    uint64_t vhash[8 * WAYS] __attribute__((aligned(64)));
    for (size_t i = 0; i < count; i += WAYS) {
        const uint8_t *const *m = msgs + i;
        if (len <= 80) {
            INTRLV(vbuf, m, 0, (int)(8 * len));
        } else {
            for (size_t off = 0; off < len; off += 128)
                INTRLV((uint8_t *)vbuf + WAYS * off, m, off, 1024);
        }
        PEER_FULL(&ctx, vhash, vbuf, len);
        DINTRLV((digests + i), vhash, 512);
    }
    return 0;
}

/* Skein-512-512 of `count` (a multiple of WAYS) 80-byte headers that share
 * their first 64 bytes `prefix`: prehash64 once for the batch (on the prefix
 * interleaved into every lane, as a miner does), then per WAYS headers
 * final16 on their 16-byte tails. intrlv_*x64 takes no less than 256 bits, so
 * it reads 32 bytes at each tail: the caller leaves 16 readable bytes after
 * each. Returns 0, or -1 when count is not a multiple of WAYS. */
int SHIM(headers_batch)(const uint8_t *prefix, const uint8_t *const *tails,
                        size_t count, uint8_t *const *digests)
{
    if (count % WAYS != 0)
        return -1;
    ctx_t ctx;
    uint64_t vpre[8 * WAYS] __attribute__((aligned(64)));
    uint64_t vtail[4 * WAYS] __attribute__((aligned(64)));
    uint64_t vhash[8 * WAYS] __attribute__((aligned(64)));
    INTRLV_SAME(vpre, prefix, 512);
    PEER_PREHASH64(&ctx, vpre);
    for (size_t i = 0; i < count; i += WAYS) {
        INTRLV(vtail, (tails + i), 0, 256);
        /* final16 leaves the prehashed chain in ctx untouched. */
        PEER_FINAL16(&ctx, vhash, vtail);
        DINTRLV((digests + i), vhash, 512);
    }
    return 0;
}
