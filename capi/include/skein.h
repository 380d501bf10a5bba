/*
 * libskein_simd: the Skein 1.3 reference C API.
 *
 * The names, types, context layout, macros and return codes of the Skein
 * team's reference skein.h (compiled with SKEIN_TREE_HASH), so that programs
 * written to it build and link against libskein_simd unchanged. The hashing
 * is done by the skein-simd Rust crate with SIMD backends chosen once per
 * process at run time (skein_simd.h tells which).
 *
 * Contexts are plain data: every piece of state is in the struct below, so a
 * context may be copied by assignment or memcpy and used afterwards (e.g. an
 * InitExt done once, copied for each message), and its tweak words may be set
 * with the macros below (tree hashing by the reference's convention).
 *
 * Behaviour differs from the reference's default build only where the
 * reference's is undefined, and every such case is refused before anything
 * is written:
 *  - hashBitLen 0, or above SIZE_MAX - 7 (where the reference's byte count
 *    (hashBitLen + 7) >> 3 wraps around), gives SKEIN_BAD_HASHLEN from the
 *    init functions, checked before any other argument (as the reference
 *    compiled with SKEIN_ERR_CHECK);
 *  - a context no init produces (bCnt above the block size, hashBitLen
 *    outside 1 .. SIZE_MAX - 7: uninitialized, or overwritten) gives
 *    SKEIN_FAIL from every function that takes one (Update, Final,
 *    Final_Pad, Output, and the NIST functions), which then writes no output
 *    and leaves the context unchanged. The tweak and chaining words are the
 *    caller's to set (tree hashing), so any value of them is accepted;
 *  - a NULL context, a NULL buffer with a non-zero length, and a message,
 *    key or output buffer that overlaps the context give SKEIN_FAIL.
 */
#ifndef _SKEIN_H_
#define _SKEIN_H_ 1

#include <stddef.h>
#include "skein_port.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    SKEIN_SUCCESS = 0, /* return codes of the Skein functions */
    SKEIN_FAIL = 1,
    SKEIN_BAD_HASHLEN = 2
};

#define SKEIN_MODIFIER_WORDS (2) /* tweak words */

#define SKEIN_256_STATE_WORDS (4)
#define SKEIN_512_STATE_WORDS (8)
#define SKEIN1024_STATE_WORDS (16)
#define SKEIN_MAX_STATE_WORDS (16)

#define SKEIN_256_STATE_BYTES (8 * SKEIN_256_STATE_WORDS)
#define SKEIN_512_STATE_BYTES (8 * SKEIN_512_STATE_WORDS)
#define SKEIN1024_STATE_BYTES (8 * SKEIN1024_STATE_WORDS)

#define SKEIN_256_STATE_BITS (64 * SKEIN_256_STATE_WORDS)
#define SKEIN_512_STATE_BITS (64 * SKEIN_512_STATE_WORDS)
#define SKEIN1024_STATE_BITS (64 * SKEIN1024_STATE_WORDS)

#define SKEIN_256_BLOCK_BYTES (8 * SKEIN_256_STATE_WORDS)
#define SKEIN_512_BLOCK_BYTES (8 * SKEIN_512_STATE_WORDS)
#define SKEIN1024_BLOCK_BYTES (8 * SKEIN1024_STATE_WORDS)

/* Shared by the three context types. */
typedef struct {
    size_t hashBitLen;              /* result length in bits */
    size_t bCnt;                    /* bytes buffered in b[] */
    u64b_t T[SKEIN_MODIFIER_WORDS]; /* tweak: T[0] position, T[1] flags */
} Skein_Ctxt_Hdr_t;

typedef struct {
    Skein_Ctxt_Hdr_t h;
    u64b_t X[SKEIN_256_STATE_WORDS]; /* chaining value */
    u08b_t b[SKEIN_256_BLOCK_BYTES]; /* buffered input */
} Skein_256_Ctxt_t;

typedef struct {
    Skein_Ctxt_Hdr_t h;
    u64b_t X[SKEIN_512_STATE_WORDS];
    u08b_t b[SKEIN_512_BLOCK_BYTES];
} Skein_512_Ctxt_t;

typedef struct {
    Skein_Ctxt_Hdr_t h;
    u64b_t X[SKEIN1024_STATE_WORDS];
    u08b_t b[SKEIN1024_BLOCK_BYTES];
} Skein1024_Ctxt_t;

/* Plain hashing: Init, any number of Update calls, Final. */
int Skein_256_Init(Skein_256_Ctxt_t *ctx, size_t hashBitLen);
int Skein_512_Init(Skein_512_Ctxt_t *ctx, size_t hashBitLen);
int Skein1024_Init(Skein1024_Ctxt_t *ctx, size_t hashBitLen);

int Skein_256_Update(Skein_256_Ctxt_t *ctx, const u08b_t *msg, size_t msgByteCnt);
int Skein_512_Update(Skein_512_Ctxt_t *ctx, const u08b_t *msg, size_t msgByteCnt);
int Skein1024_Update(Skein1024_Ctxt_t *ctx, const u08b_t *msg, size_t msgByteCnt);

/* Writes (hashBitLen + 7) / 8 bytes; SKEIN_FAIL for a corrupted context. */
int Skein_256_Final(Skein_256_Ctxt_t *ctx, u08b_t *hashVal);
int Skein_512_Final(Skein_512_Ctxt_t *ctx, u08b_t *hashVal);
int Skein1024_Final(Skein1024_Ctxt_t *ctx, u08b_t *hashVal);

/*
 * Init with a MAC key (keyBytes == 0: none) and tree parameters
 * (SKEIN_CFG_TREE_INFO(...), or SKEIN_CFG_TREE_INFO_SEQUENTIAL), then
 * Update / Final as after Init. With neither, the same as Init. A context
 * initialized once may be copied and reused for every message with the same
 * key.
 */
int Skein_256_InitExt(Skein_256_Ctxt_t *ctx, size_t hashBitLen, u64b_t treeInfo, const u08b_t *key, size_t keyBytes);
int Skein_512_InitExt(Skein_512_Ctxt_t *ctx, size_t hashBitLen, u64b_t treeInfo, const u08b_t *key, size_t keyBytes);
int Skein1024_InitExt(Skein1024_Ctxt_t *ctx, size_t hashBitLen, u64b_t treeInfo, const u08b_t *key, size_t keyBytes);

/*
 * Final_Pad: finish the current UBI without the output stage and write the
 * chaining value (the state size in bytes, whatever hashBitLen is): MACs and
 * tree nodes. Output: only the output stage, from X ((hashBitLen + 7) / 8
 * bytes).
 */
int Skein_256_Final_Pad(Skein_256_Ctxt_t *ctx, u08b_t *hashVal);
int Skein_512_Final_Pad(Skein_512_Ctxt_t *ctx, u08b_t *hashVal);
int Skein1024_Final_Pad(Skein1024_Ctxt_t *ctx, u08b_t *hashVal);

#ifndef SKEIN_TREE_HASH
#define SKEIN_TREE_HASH (1)
#endif
#if SKEIN_TREE_HASH
int Skein_256_Output(Skein_256_Ctxt_t *ctx, u08b_t *hashVal);
int Skein_512_Output(Skein_512_Ctxt_t *ctx, u08b_t *hashVal);
int Skein1024_Output(Skein1024_Ctxt_t *ctx, u08b_t *hashVal);
#endif

/*
 * Tweak word 1 (bits 64..127 of the tweak): tree level, bit-pad flag, block
 * type, first and final flags.
 */
#define SKEIN_T1_BIT(BIT) ((BIT) - 64)

#define SKEIN_T1_POS_TREE_LVL SKEIN_T1_BIT(112) /* bits 112..118 */
#define SKEIN_T1_POS_BIT_PAD SKEIN_T1_BIT(119)  /* bit 119 */
#define SKEIN_T1_POS_BLK_TYPE SKEIN_T1_BIT(120) /* bits 120..125 */
#define SKEIN_T1_POS_FIRST SKEIN_T1_BIT(126)    /* bit 126 */
#define SKEIN_T1_POS_FINAL SKEIN_T1_BIT(127)    /* bit 127 */

#define SKEIN_T1_FLAG_FIRST (((u64b_t)1) << SKEIN_T1_POS_FIRST)
#define SKEIN_T1_FLAG_FINAL (((u64b_t)1) << SKEIN_T1_POS_FINAL)
#define SKEIN_T1_FLAG_BIT_PAD (((u64b_t)1) << SKEIN_T1_POS_BIT_PAD)

#define SKEIN_T1_TREE_LVL_MASK (((u64b_t)0x7F) << SKEIN_T1_POS_TREE_LVL)
#define SKEIN_T1_TREE_LEVEL(n) (((u64b_t)(n)) << SKEIN_T1_POS_TREE_LVL)

#define SKEIN_BLK_TYPE_KEY (0)    /* MAC key */
#define SKEIN_BLK_TYPE_CFG (4)    /* configuration */
#define SKEIN_BLK_TYPE_PERS (8)   /* personalization */
#define SKEIN_BLK_TYPE_PK (12)    /* public key */
#define SKEIN_BLK_TYPE_KDF (16)   /* key identifier */
#define SKEIN_BLK_TYPE_NONCE (20) /* nonce */
#define SKEIN_BLK_TYPE_MSG (48)   /* message */
#define SKEIN_BLK_TYPE_OUT (63)   /* output stage */
#define SKEIN_BLK_TYPE_MASK (63)

#define SKEIN_T1_BLK_TYPE(T) (((u64b_t)(SKEIN_BLK_TYPE_##T)) << SKEIN_T1_POS_BLK_TYPE)
#define SKEIN_T1_BLK_TYPE_KEY SKEIN_T1_BLK_TYPE(KEY)
#define SKEIN_T1_BLK_TYPE_CFG SKEIN_T1_BLK_TYPE(CFG)
#define SKEIN_T1_BLK_TYPE_PERS SKEIN_T1_BLK_TYPE(PERS)
#define SKEIN_T1_BLK_TYPE_PK SKEIN_T1_BLK_TYPE(PK)
#define SKEIN_T1_BLK_TYPE_KDF SKEIN_T1_BLK_TYPE(KDF)
#define SKEIN_T1_BLK_TYPE_NONCE SKEIN_T1_BLK_TYPE(NONCE)
#define SKEIN_T1_BLK_TYPE_MSG SKEIN_T1_BLK_TYPE(MSG)
#define SKEIN_T1_BLK_TYPE_OUT SKEIN_T1_BLK_TYPE(OUT)
#define SKEIN_T1_BLK_TYPE_MASK SKEIN_T1_BLK_TYPE(MASK)

#define SKEIN_T1_BLK_TYPE_CFG_FINAL (SKEIN_T1_BLK_TYPE_CFG | SKEIN_T1_FLAG_FINAL)
#define SKEIN_T1_BLK_TYPE_OUT_FINAL (SKEIN_T1_BLK_TYPE_OUT | SKEIN_T1_FLAG_FINAL)

/* The configuration string (spec 3.5.2). */
#define SKEIN_VERSION (1)
#ifndef SKEIN_ID_STRING_LE
#define SKEIN_ID_STRING_LE (0x33414853) /* "SHA3", little-endian */
#endif
#define SKEIN_MK_64(hi32, lo32) ((lo32) + (((u64b_t)(hi32)) << 32))
#define SKEIN_SCHEMA_VER SKEIN_MK_64(SKEIN_VERSION, SKEIN_ID_STRING_LE)
#define SKEIN_KS_PARITY SKEIN_MK_64(0x1BD11BDA, 0xA9FC1A22)

#define SKEIN_CFG_STR_LEN (4 * 8)

/* The tree word of the configuration: leaf size, fan-out, maximum height. */
#define SKEIN_CFG_TREE_LEAF_SIZE_POS (0)
#define SKEIN_CFG_TREE_NODE_SIZE_POS (8)
#define SKEIN_CFG_TREE_MAX_LEVEL_POS (16)

#define SKEIN_CFG_TREE_LEAF_SIZE_MSK (((u64b_t)0xFF) << SKEIN_CFG_TREE_LEAF_SIZE_POS)
#define SKEIN_CFG_TREE_NODE_SIZE_MSK (((u64b_t)0xFF) << SKEIN_CFG_TREE_NODE_SIZE_POS)
#define SKEIN_CFG_TREE_MAX_LEVEL_MSK (((u64b_t)0xFF) << SKEIN_CFG_TREE_MAX_LEVEL_POS)

#define SKEIN_CFG_TREE_INFO(leaf, node, maxLvl)              \
    ((((u64b_t)(leaf)) << SKEIN_CFG_TREE_LEAF_SIZE_POS) |    \
     (((u64b_t)(node)) << SKEIN_CFG_TREE_NODE_SIZE_POS) |    \
     (((u64b_t)(maxLvl)) << SKEIN_CFG_TREE_MAX_LEVEL_POS))

/* treeInfo for InitExt without tree hashing */
#define SKEIN_CFG_TREE_INFO_SEQUENTIAL SKEIN_CFG_TREE_INFO(0, 0, 0)

/*
 * Tweak access, for partial bytes and tree hashing: set the position of a
 * node with Skein_Set_T0 and its level with Skein_Set_Tree_Level on a copy of
 * the InitExt context, then Update and Final_Pad it.
 */
#define Skein_Get_Tweak(ctxPtr, TWK_NUM) ((ctxPtr)->h.T[TWK_NUM])
#define Skein_Set_Tweak(ctxPtr, TWK_NUM, tVal) \
    { (ctxPtr)->h.T[TWK_NUM] = (tVal); }

#define Skein_Get_T0(ctxPtr) Skein_Get_Tweak(ctxPtr, 0)
#define Skein_Get_T1(ctxPtr) Skein_Get_Tweak(ctxPtr, 1)
#define Skein_Set_T0(ctxPtr, T0) Skein_Set_Tweak(ctxPtr, 0, T0)
#define Skein_Set_T1(ctxPtr, T1) Skein_Set_Tweak(ctxPtr, 1, T1)

#define Skein_Set_T0_T1(ctxPtr, T0, T1) \
    {                                   \
        Skein_Set_T0(ctxPtr, (T0));     \
        Skein_Set_T1(ctxPtr, (T1));     \
    }

#define Skein_Set_Type(ctxPtr, BLK_TYPE) Skein_Set_T1(ctxPtr, SKEIN_T1_BLK_TYPE_##BLK_TYPE)

/* Start a new UBI of type BLK_TYPE: position 0, first-block flag, empty buffer. */
#define Skein_Start_New_Type(ctxPtr, BLK_TYPE)                                        \
    {                                                                                 \
        Skein_Set_T0_T1(ctxPtr, 0, SKEIN_T1_FLAG_FIRST | SKEIN_T1_BLK_TYPE_##BLK_TYPE); \
        (ctxPtr)->h.bCnt = 0;                                                         \
    }

#define Skein_Clear_First_Flag(hdr) \
    { (hdr).T[1] &= ~SKEIN_T1_FLAG_FIRST; }
#define Skein_Set_Bit_Pad_Flag(hdr) \
    { (hdr).T[1] |= SKEIN_T1_FLAG_BIT_PAD; }
#define Skein_Set_Tree_Level(hdr, height) \
    { (hdr).T[1] |= SKEIN_T1_TREE_LEVEL(height); }

/* Threefish rounds per block (the reference's SKEIN_ROUNDS is not supported). */
#define SKEIN_256_ROUNDS_TOTAL (72)
#define SKEIN_512_ROUNDS_TOTAL (72)
#define SKEIN1024_ROUNDS_TOTAL (80)

#ifndef SKEIN_SIMD_NO_LIBMD
/*
 * FreeBSD libmd's Skein functions, as its skein.h declares them and skein(3)
 * describes them: Skein-256-256, Skein-512-512 and Skein-1024-1024 on the
 * contexts above. Define SKEIN_SIMD_NO_LIBMD before including this header to
 * leave them out (for a program with functions of these names).
 *
 *  - Init, then Update any number of times, then Final(digest, ctx), which
 *    writes SKEIN*_DIGEST_LENGTH bytes and erases the context.
 *  - End is Final as a lowercase hex string (SKEIN*_DIGEST_STRING_LENGTH
 *    bytes with the NUL) in buf, or, when buf is NULL, in memory from
 *    malloc(3) that the caller frees; it returns the string.
 *  - Data, File, FileChunk, Fd and FdChunk hash memory, a named file or a
 *    descriptor and return the string as End does. FileChunk and FdChunk
 *    start at offset (0: for FdChunk, the descriptor's current position;
 *    else a seek from the start of the file) and hash length bytes, or to
 *    the end of the file when length is 0 or more than what remains. Fd
 *    reads from the current position to the end (pipes too); the
 *    descriptor stays open, positioned where the reading stopped.
 *  - End, Data and the file functions return NULL with errno set when they
 *    fail: the file cannot be opened (open's errno), a read or seek fails
 *    (a read interrupted by a signal whose handler has no SA_RESTART too:
 *    EINTR, as FreeBSD's), malloc fails (ENOMEM), or
 *    an argument is bad (EINVAL: a NULL data pointer with a length, a NULL
 *    file name, a negative offset or length, a context that Init did not
 *    produce or that was finished since; EBADF: a descriptor that is not
 *    open).
 *
 * Where FreeBSD's would crash or return a wrong digest, these refuse: an
 * Update with a NULL data pointer and a length erases the context, so that
 * the End after it returns NULL; Final, which cannot return an error, prints
 * a line to stderr and aborts for a NULL digest or a context that End would
 * refuse (NULL, not initialized by Init, or already finished).
 */
#include <stdint.h>
#include <sys/types.h> /* off_t */

#define SKEIN256_BLOCK_LENGTH SKEIN_256_BLOCK_BYTES
#define SKEIN256_DIGEST_LENGTH 32
#define SKEIN256_DIGEST_STRING_LENGTH (SKEIN256_DIGEST_LENGTH * 2 + 1)
#define SKEIN512_BLOCK_LENGTH SKEIN_512_BLOCK_BYTES
#define SKEIN512_DIGEST_LENGTH 64
#define SKEIN512_DIGEST_STRING_LENGTH (SKEIN512_DIGEST_LENGTH * 2 + 1)
#define SKEIN1024_BLOCK_LENGTH SKEIN1024_BLOCK_BYTES
#define SKEIN1024_DIGEST_LENGTH 128
#define SKEIN1024_DIGEST_STRING_LENGTH (SKEIN1024_DIGEST_LENGTH * 2 + 1)

typedef Skein_256_Ctxt_t SKEIN256_CTX;
typedef Skein_512_Ctxt_t SKEIN512_CTX;
typedef Skein1024_Ctxt_t SKEIN1024_CTX;

/* digest[static N] where the language has it, as FreeBSD's header. */
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
#define SKEIN_SIMD_MIN_SIZE(n) static n
#else
#define SKEIN_SIMD_MIN_SIZE(n) n
#endif

void SKEIN256_Init(SKEIN256_CTX *ctx);
void SKEIN512_Init(SKEIN512_CTX *ctx);
void SKEIN1024_Init(SKEIN1024_CTX *ctx);

void SKEIN256_Update(SKEIN256_CTX *ctx, const void *in, size_t len);
void SKEIN512_Update(SKEIN512_CTX *ctx, const void *in, size_t len);
void SKEIN1024_Update(SKEIN1024_CTX *ctx, const void *in, size_t len);

void SKEIN256_Final(unsigned char digest[SKEIN_SIMD_MIN_SIZE(SKEIN256_DIGEST_LENGTH)], SKEIN256_CTX *ctx);
void SKEIN512_Final(unsigned char digest[SKEIN_SIMD_MIN_SIZE(SKEIN512_DIGEST_LENGTH)], SKEIN512_CTX *ctx);
void SKEIN1024_Final(unsigned char digest[SKEIN_SIMD_MIN_SIZE(SKEIN1024_DIGEST_LENGTH)], SKEIN1024_CTX *ctx);

char *SKEIN256_End(SKEIN256_CTX *ctx, char *buf);
char *SKEIN512_End(SKEIN512_CTX *ctx, char *buf);
char *SKEIN1024_End(SKEIN1024_CTX *ctx, char *buf);
char *SKEIN256_Data(const void *data, unsigned int len, char *buf);
char *SKEIN512_Data(const void *data, unsigned int len, char *buf);
char *SKEIN1024_Data(const void *data, unsigned int len, char *buf);
char *SKEIN256_Fd(int fd, char *buf);
char *SKEIN512_Fd(int fd, char *buf);
char *SKEIN1024_Fd(int fd, char *buf);
char *SKEIN256_File(const char *filename, char *buf);
char *SKEIN512_File(const char *filename, char *buf);
char *SKEIN1024_File(const char *filename, char *buf);

/*
 * The library's FileChunk and FdChunk take 64-bit offsets whatever a
 * program's off_t is (on 32-bit systems it depends on _FILE_OFFSET_BITS);
 * FreeBSD's names, with off_t, call them.
 */
char *SKEIN256_FileChunk64(const char *filename, char *buf, int64_t offset, int64_t length);
char *SKEIN512_FileChunk64(const char *filename, char *buf, int64_t offset, int64_t length);
char *SKEIN1024_FileChunk64(const char *filename, char *buf, int64_t offset, int64_t length);
char *SKEIN256_FdChunk64(int fd, char *buf, int64_t offset, int64_t length);
char *SKEIN512_FdChunk64(int fd, char *buf, int64_t offset, int64_t length);
char *SKEIN1024_FdChunk64(int fd, char *buf, int64_t offset, int64_t length);

#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define SKEIN_SIMD_INLINE static inline
#elif defined(__GNUC__)
#define SKEIN_SIMD_INLINE static __inline__
#else
#define SKEIN_SIMD_INLINE static
#endif

#define SKEIN_SIMD_CHUNK_FUNCTIONS(P)                                                                  \
    SKEIN_SIMD_INLINE char *P##_FileChunk(const char *filename, char *buf, off_t offset, off_t length) { \
        return P##_FileChunk64(filename, buf, (int64_t)offset, (int64_t)length);                      \
    }                                                                                                  \
    SKEIN_SIMD_INLINE char *P##_FdChunk(int fd, char *buf, off_t offset, off_t length) {                \
        return P##_FdChunk64(fd, buf, (int64_t)offset, (int64_t)length);                              \
    }
SKEIN_SIMD_CHUNK_FUNCTIONS(SKEIN256)
SKEIN_SIMD_CHUNK_FUNCTIONS(SKEIN512)
SKEIN_SIMD_CHUNK_FUNCTIONS(SKEIN1024)
#undef SKEIN_SIMD_CHUNK_FUNCTIONS
#endif /* SKEIN_SIMD_NO_LIBMD */

#ifdef __cplusplus
}
#endif

#endif /* _SKEIN_H_ */
