/*
 * libskein_simd: what the Skein reference API lacks.
 *
 *  - skein_simd_*_init_params: a context initialized with every argument of
 *    the Skein specification (3.5): key, tree word, personalization, public
 *    key, key identifier, nonce; then Update / Final of skein.h as usual.
 *  - skein_simd_*_hash_many: many messages with the same arguments in one
 *    call (e.g. ZFS block checksums with one salt), hashed side by side on
 *    the CPU's SIMD lanes and, for large batches, on several threads.
 *  - skein_simd_*_hash_many_from: many messages that each continue a copy
 *    of one context (a shared key, personalization or header hashed once).
 *  - skein_simd_backend & co.: which implementation this process uses.
 *
 * The environment variable SKEIN_SIMD_BACKEND (a backend's name:
 * docs/backends.md in the source, or `skeinsum --list-backends`), read once
 * at the first call, forces a backend when this CPU has it; otherwise the
 * fastest one is detected.
 */
#ifndef SKEIN_SIMD_H
#define SKEIN_SIMD_H 1

#include "skein.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Arguments: pointer and length each, NULL and 0 when absent. */
typedef struct {
    size_t hashBitLen; /* result length in bits, >= 1 */
    u64b_t treeInfo;   /* SKEIN_CFG_TREE_INFO(...) or SKEIN_CFG_TREE_INFO_SEQUENTIAL */
    const u08b_t *key;
    size_t keyBytes;
    const u08b_t *pers;
    size_t persBytes;
    const u08b_t *publicKey;
    size_t publicKeyBytes;
    const u08b_t *keyId;
    size_t keyIdBytes;
    const u08b_t *nonce;
    size_t nonceBytes;
} skein_simd_params_t;

/*
 * Init with every argument, hashed in the specification's order (key,
 * configuration, personalization, public key, key identifier, nonce). With
 * only key and treeInfo set, the same as InitExt; like InitExt, a non-zero
 * treeInfo only goes into the configuration: the tree itself is walked by
 * the caller (copy the context per node, Skein_Set_T0, Skein_Set_Tree_Level,
 * Update, Final_Pad; Output at the root).
 */
int skein_simd_256_init_params(Skein_256_Ctxt_t *ctx, const skein_simd_params_t *params);
int skein_simd_512_init_params(Skein_512_Ctxt_t *ctx, const skein_simd_params_t *params);
int skein_simd_1024_init_params(Skein1024_Ctxt_t *ctx, const skein_simd_params_t *params);

/*
 * Hash msgs[i] (msgByteCnts[i] bytes) for i < count with the same
 * arguments; result i, (hashBitLen + 7) / 8 bytes, goes to
 * hashVals + i * ((hashBitLen + 7) / 8). Each result equals
 * init_params + Update + Final, except that a non-zero treeInfo hashes each
 * message as a whole tree (spec 3.5.6, the library's tree hashing), which
 * SKEIN_FAIL refuses unless leaf >= 1, node >= 1, 2 <= maxLevel <= 255.
 *
 * The results must not overlap any message: messages are read while
 * results are written, on several threads for a large batch. A message that
 * shares a byte with hashVals[0 .. count * ((hashBitLen + 7) / 8)) gives
 * SKEIN_FAIL and nothing is written (empty messages overlap nothing).
 * The arguments are checked before count: a NULL params or a bad treeInfo
 * gives SKEIN_FAIL, hashBitLen 0 or above SIZE_MAX - 7 SKEIN_BAD_HASHLEN (as
 * init does), even with count 0. With valid arguments, count 0 returns
 * SKEIN_SUCCESS, reads no message and writes nothing.
 *
 * Fork: a child process of a program that called these may call them again
 * (the child runs them on its calling thread: the parent's threads do not
 * exist in it).
 */
int skein_simd_256_hash_many(const skein_simd_params_t *params, const u08b_t *const *msgs,
                             const size_t *msgByteCnts, size_t count, u08b_t *hashVals);
int skein_simd_512_hash_many(const skein_simd_params_t *params, const u08b_t *const *msgs,
                             const size_t *msgByteCnts, size_t count, u08b_t *hashVals);
int skein_simd_1024_hash_many(const skein_simd_params_t *params, const u08b_t *const *msgs,
                              const size_t *msgByteCnts, size_t count, u08b_t *hashVals);

/*
 * Hash msgs[i] (msgByteCnts[i] bytes) for i < count, each as the
 * continuation of a copy of ctx: result i, (ctx->h.hashBitLen + 7) / 8
 * bytes, goes to hashVals + i * that and equals copying ctx, Update with
 * msgs[i], then Final. ctx is left as it is (the results may even overwrite
 * it). E.g. 80-byte headers sharing 64 bytes: Update the 64 once, then pass
 * the 16-byte tails here. Return codes as hash_many: SKEIN_FAIL, with
 * nothing written, for a NULL context or one no init made (as Update
 * refuses it) or a message that overlaps the results. The context is checked
 * before count: count 0 gives SKEIN_FAIL for a NULL or uninitialized
 * context, and SKEIN_SUCCESS, with nothing read or written, for a valid one.
 */
int skein_simd_256_hash_many_from(const Skein_256_Ctxt_t *ctx, const u08b_t *const *msgs,
                                  const size_t *msgByteCnts, size_t count, u08b_t *hashVals);
int skein_simd_512_hash_many_from(const Skein_512_Ctxt_t *ctx, const u08b_t *const *msgs,
                                  const size_t *msgByteCnts, size_t count, u08b_t *hashVals);
int skein_simd_1024_hash_many_from(const Skein1024_Ctxt_t *ctx, const u08b_t *const *msgs,
                                   const size_t *msgByteCnts, size_t count, u08b_t *hashVals);

/*
 * Subtree hashing (docs/subtree.md): one tree digest computed by many
 * processes or machines, each hashing a byte range of the object, merged
 * into the digest init_params + Update + Final with the same tree word
 * gives. Sharp tool: values of another object or other arguments give a
 * wrong digest, not an error; build the same tree everywhere.
 *
 * skein_simd_object_tree_new: the tree of an object of `length` bytes hashed
 * with `params` (treeInfo a tree word) and a state of stateBits (256, 512,
 * 1024), in *tree; free it with skein_simd_object_tree_free. SKEIN_FAIL for
 * a NULL pointer, a bad state size or tree word (none: sequential is not a
 * tree), SKEIN_BAD_HASHLEN for hashBitLen 0.
 * skein_simd_object_tree_split: at most `parts` consecutive ranges of about
 * equal size, each whole subtrees of one level; writes the first
 * min(n, maxRanges) and returns n (ask with maxRanges 0).
 * skein_simd_subtree_hash: the values of `range` from its bytes (exactly
 * end - start of them) into `values`, skein_simd_subtree_values_len bytes
 * (10 + count * stateBits / 8): a self-describing byte string to send as is.
 * skein_simd_object_tree_root: the digest ((hashBitLen + 7) / 8 bytes) from
 * `count` such strings, consecutive runs of one level holding all of it.
 * Both give SKEIN_FAIL, with nothing written, for a range or values that do
 * not fit the tree, a wrong length, NULL pointers or overlapping buffers.
 */
typedef struct skein_simd_object_tree skein_simd_object_tree_t;
typedef struct {
    unsigned level; /* 1: leaves */
    u64b_t first;   /* nodes first .. first + count of the level */
    u64b_t count;
    u64b_t start;   /* the object's bytes start .. end under them */
    u64b_t end;
} skein_simd_subtree_range_t;

int skein_simd_object_tree_new(size_t stateBits, const skein_simd_params_t *params, u64b_t length,
                               skein_simd_object_tree_t **tree);
void skein_simd_object_tree_free(skein_simd_object_tree_t *tree);
size_t skein_simd_object_tree_split(const skein_simd_object_tree_t *tree, size_t parts,
                                    skein_simd_subtree_range_t *ranges, size_t maxRanges);
size_t skein_simd_subtree_values_len(const skein_simd_object_tree_t *tree,
                                     const skein_simd_subtree_range_t *range);
int skein_simd_subtree_hash(const skein_simd_object_tree_t *tree, const skein_simd_subtree_range_t *range,
                            const u08b_t *data, size_t dataLen, u08b_t *values, size_t valuesLen);
int skein_simd_object_tree_root(const skein_simd_object_tree_t *tree, const u08b_t *const *values,
                                const size_t *valuesLens, size_t count, u08b_t *hashVal);

/* Backend of the block function for stateBits 256, 512 or 1024 ("portable",
 * "avx2", ...); NULL for another size. Static strings. */
const char *skein_simd_backend(size_t stateBits);
/* Backend of the multi-lane kernel of the hash_many functions. */
const char *skein_simd_many_backend(size_t stateBits);
/* Messages that kernel hashes side by side (1 for portable; 0 for a bad size).
 * Where the kernel has several forms (two interleaved groups of lanes, or a
 * scalar lane beside them), a fixed rule per CPU picks one, so the count is
 * the same on every run on a machine (4, 5 or 8 with AVX2); digests never
 * depend on it. */
size_t skein_simd_many_lanes(size_t stateBits);
/* The library's version, e.g. "0.1.0". */
const char *skein_simd_version(void);

#ifdef __cplusplus
}
#endif

#endif /* SKEIN_SIMD_H */
