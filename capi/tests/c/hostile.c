/*
 * skein_test's hostile input (the program is described in skein_test.c):
 * corrupted contexts (bCnt or hashBitLen out of range, all 0xFF bytes,
 * never initialized) and hashState, output lengths whose byte count wraps,
 * hash_many of nothing with huge output lengths, outputs over their own
 * messages, hash_many in a child after fork(); and the NIST API's state size
 * for every length up to 1100 bits. Cases that crashed or hung an earlier
 * build run in a child process with an alarm, so that a regression is a
 * failure, not a crash of the whole program or a hang.
 */
#define _POSIX_C_SOURCE 200809L /* fork, alarm, waitpid */

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "SHA3api_ref.h"
#include "skein.h"
#include "skein_simd.h"

#include "capi_test.h"
#include "skein_test.h"
#include "test_data.h"
#include "check.h"

/* Run check(arg) in a child process that an alarm of `seconds` ends: passes
 * when the child exits 0 (check returned non-zero); a crash or a hang is a
 * failure, reported with its signal, instead of ending this program. */
static void in_child(const char *what, int (*check)(void *), void *arg, unsigned seconds) {
    int status = 0;
    pid_t pid;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        CHECK(0, "%s: fork failed", what);
        return;
    }
    if (pid == 0) {
        alarm(seconds);
        _exit(check(arg) ? 0 : 1);
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status))
        CHECK(0, "%s: killed by signal %d%s", what, WTERMSIG(status),
              WTERMSIG(status) == SIGALRM ? " (hung: no end within the alarm)" : "");
    else
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: failed", what);
}

/* A 4 KiB output buffer that must stay as it was. */
#define CANARY_BYTES 4096
static int canary_intact(const uint8_t *buf) {
    size_t i;
    for (i = 0; i < CANARY_BYTES; i++)
        if (buf[i] != 0x5A) return 0;
    return 1;
}

/* Each function that takes a context, on a copy of `bad`: SKEIN_FAIL, nothing
 * written to the output, the context unchanged. */
static int refuses_context(const api_t *a, const ctx_t *bad, const char *what) {
    static const uint8_t msg[300] = {1, 2, 3};
    uint8_t *out = xmalloc(CANARY_BYTES);
    int (*const finish[3])(void *, uint8_t *) = {a->final, a->final_pad, a->output};
    static const char *const names[3] = {"Final", "Final_Pad", "Output"};
    int ok = 1, i, rc;
    size_t n;
    ctx_t c;
    for (n = 0; n < 3; n++) {
        size_t len = (size_t[]){0, 1, 300}[n];
        memcpy(&c, bad, sizeof c);
        rc = a->update(&c, msg, len);
        if (rc != SKEIN_FAIL || memcmp(&c, bad, a->ctx_size) != 0) {
            fprintf(stderr, "Skein-%d Update(%zu bytes) on %s: %d%s\n", a->bits, len, what, rc,
                    rc == SKEIN_FAIL ? ", context changed" : "");
            ok = 0;
        }
    }
    for (i = 0; i < 3; i++) {
        memset(out, 0x5A, CANARY_BYTES);
        memcpy(&c, bad, sizeof c);
        rc = finish[i](&c, out);
        if (rc != SKEIN_FAIL || !canary_intact(out) || memcmp(&c, bad, a->ctx_size) != 0) {
            fprintf(stderr, "Skein-%d %s on %s: %d%s%s\n", a->bits, names[i], what, rc,
                    canary_intact(out) ? "" : ", output written", memcmp(&c, bad, a->ctx_size) ? ", context changed" : "");
            ok = 0;
        }
    }
    free(out);
    return ok;
}

typedef struct {
    int bits;
    int kind; /* 0: bCnt = block + 1, 1: bCnt = SIZE_MAX, 2: all 0xFF, 3: all zero,
                 4: hashBitLen = SIZE_MAX, 5: hashBitLen = SIZE_MAX - 6 */
} corrupt_t;

static int corrupted_context_check(void *arg) {
    const corrupt_t *k = arg;
    static const char *const what[] = {"bCnt = block + 1", "bCnt = SIZE_MAX", "a context of 0xFF bytes",
                                       "a zeroed (never initialized) context", "hashBitLen = SIZE_MAX",
                                       "hashBitLen = SIZE_MAX - 6"};
    const api_t *a = ours(k->bits);
    Skein_Ctxt_Hdr_t *h = (Skein_Ctxt_Hdr_t *)NULL;
    ctx_t c;
    memset(&c, 0, sizeof c);
    if (a->init_ext(&c, 512, 0, NULL, 0) != SKEIN_SUCCESS || a->update(&c, (const uint8_t *)"abc", 3) != SKEIN_SUCCESS)
        return 0;
    h = (Skein_Ctxt_Hdr_t *)(void *)&c; /* every context starts with the header */
    switch (k->kind) {
    case 0: h->bCnt = (size_t)k->bits / 8 + 1; break;
    case 1: h->bCnt = SIZE_MAX; break;
    case 2: memset(&c, 0xFF, sizeof c); break;
    case 3: memset(&c, 0, sizeof c); break;
    case 4: h->hashBitLen = SIZE_MAX; break;
    default: h->hashBitLen = SIZE_MAX - 6; break;
    }
    return refuses_context(a, &c, what[k->kind]);
}

/* The NIST API on a corrupted hashState: FAIL, nothing written. */
static int corrupted_nist_check(void *arg) {
    int kind = *(const int *)arg, ok = 1, rc;
    uint8_t *out = xmalloc(CANARY_BYTES);
    hashState s;
    memset(out, 0x5A, CANARY_BYTES);
    Init(&s, 256);
    switch (kind) {
    case 0: memset(&s.u, 0xFF, sizeof s.u); break;
    case 1: s.u.h.bCnt = 65; break;
    default: s.u.h.hashBitLen = SIZE_MAX; break;
    }
    rc = Update(&s, out, 8);
    if (rc != FAIL) fprintf(stderr, "NIST Update on corrupted state %d: %d\n", kind, rc), ok = 0;
    rc = Final(&s, out);
    if (rc != FAIL || !canary_intact(out)) fprintf(stderr, "NIST Final on corrupted state %d: %d\n", kind, rc), ok = 0;
    free(out);
    return ok;
}

static void test_corrupted_contexts(void) {
    static const int sizes[3] = {256, 512, 1024};
    char what[96];
    int s, kind;
    for (s = 0; s < 3; s++)
        for (kind = 0; kind < 6; kind++) {
            corrupt_t k;
            k.bits = sizes[s], k.kind = kind;
            snprintf(what, sizeof what, "corrupted Skein-%d context, kind %d", sizes[s], kind);
            in_child(what, corrupted_context_check, &k, 20);
        }
    for (kind = 0; kind < 3; kind++) {
        snprintf(what, sizeof what, "corrupted hashState, kind %d", kind);
        in_child(what, corrupted_nist_check, &kind, 20);
    }
}

/* Output lengths whose byte count (hashBitLen + 7) >> 3 wraps around in the
 * reference: refused at init, so nothing can write from them. */
static int huge_hash_len_check(void *arg) {
    size_t bits = *(const size_t *)arg;
    uint8_t *out = xmalloc(CANARY_BYTES);
    skein_simd_params_t p;
    hashState s;
    int ok = 1, k;
    memset(&p, 0, sizeof p);
    p.hashBitLen = bits;
    for (k = 0; k < 3; k++) {
        const api_t *a = &OUR_API[k];
        ctx_t c;
        int rc[3];
        memset(&c, 0, sizeof c);
        rc[0] = our_init(a->bits, &c, bits);
        rc[1] = a->init_ext(&c, bits, 0, NULL, 0);
        rc[2] = init_params(a->bits, &c, &p);
        memset(out, 0x5A, CANARY_BYTES);
        /* whatever init said, Final must not write beyond the 4 KiB */
        a->final(&c, out);
        if (rc[0] != SKEIN_BAD_HASHLEN || rc[1] != SKEIN_BAD_HASHLEN || rc[2] != SKEIN_BAD_HASHLEN || !canary_intact(out)) {
            fprintf(stderr, "Skein-%d, hashBitLen SIZE_MAX - %zu: Init %d, InitExt %d, init_params %d%s\n", a->bits,
                    SIZE_MAX - bits, rc[0], rc[1], rc[2], canary_intact(out) ? "" : ", Final wrote");
            ok = 0;
        }
    }
    /* the NIST Final on a state whose length was set that high */
    Init(&s, 512);
    s.u.h.hashBitLen = bits;
    memset(out, 0x5A, CANARY_BYTES);
    if (Final(&s, out) != FAIL || !canary_intact(out)) fprintf(stderr, "NIST Final with hashBitLen %zu\n", bits), ok = 0;
    free(out);
    return ok;
}

static void test_huge_hash_len(void) {
    size_t lens[3] = {SIZE_MAX, SIZE_MAX - 6, SIZE_MAX - 3}, i;
    ctx_t c;
    skein_simd_params_t p;
    for (i = 0; i < 3; i++) in_child("hashBitLen near SIZE_MAX", huge_hash_len_check, &lens[i], 20);
    /* The largest accepted length: its byte count does not wrap. */
    CHECK(Skein_512_Init((Skein_512_Ctxt_t *)(void *)&c, SIZE_MAX - 7) == SKEIN_SUCCESS, "Init(SIZE_MAX - 7)");
    /* The length is checked first, as the reference does: a bad key pointer
     * with a zero length is BAD_HASHLEN. */
    CHECK(Skein_512_InitExt((Skein_512_Ctxt_t *)(void *)&c, 0, 0, NULL, 4) == SKEIN_BAD_HASHLEN,
          "InitExt(0 bits, NULL key of 4 bytes)");
    CHECK(Skein_256_InitExt((Skein_256_Ctxt_t *)(void *)&c, 0, 0, NULL, 4) == SKEIN_BAD_HASHLEN &&
              Skein1024_InitExt((Skein1024_Ctxt_t *)(void *)&c, 0, 0, NULL, 4) == SKEIN_BAD_HASHLEN,
          "InitExt(0 bits, NULL key of 4 bytes), 256 and 1024");
    CHECK(Skein_512_InitExt((Skein_512_Ctxt_t *)(void *)&c, 8, 0, NULL, 4) == SKEIN_FAIL, "InitExt(NULL key of 4 bytes)");
    memset(&p, 0, sizeof p);
    p.keyBytes = 4;
    CHECK(skein_simd_512_init_params((Skein_512_Ctxt_t *)(void *)&c, &p) == SKEIN_BAD_HASHLEN,
          "init_params(0 bits, NULL key of 4 bytes)");
}

/* hash_many of no messages: the arguments are still checked (the header's
 * promise), then nothing is read or written. */
static int many_of_nothing_check(void *arg) {
    int ok = 1, k;
    (void)arg;
    for (k = 0; k < 3; k++) {
        int bits = 256 << k;
        skein_simd_params_t p;
        memset(&p, 0, sizeof p);
        p.hashBitLen = SIZE_MAX - 7; /* the largest accepted */
        if (hash_many(bits, &p, NULL, NULL, 0, NULL) != SKEIN_SUCCESS) ok = 0;
        p.hashBitLen = SIZE_MAX / 16; /* a 2^(n-7)-byte output, n the bits of size_t */
        if (hash_many(bits, &p, NULL, NULL, 0, NULL) != SKEIN_SUCCESS) ok = 0;
        p.hashBitLen = SIZE_MAX; /* refused, as at init */
        if (hash_many(bits, &p, NULL, NULL, 0, NULL) != SKEIN_BAD_HASHLEN) ok = 0;
        p.hashBitLen = 0;
        if (hash_many(bits, &p, NULL, NULL, 0, NULL) != SKEIN_BAD_HASHLEN) ok = 0;
        if (hash_many(bits, NULL, NULL, NULL, 0, NULL) != SKEIN_FAIL) ok = 0;
        p.hashBitLen = bits;
        p.treeInfo = 1; /* leaf 1, node 0: not a tree */
        if (hash_many(bits, &p, NULL, NULL, 0, NULL) != SKEIN_FAIL) ok = 0;
        if (!ok) fprintf(stderr, "hash_many of nothing, Skein-%d\n", bits);
    }
    return ok;
}

/* Plain Skein-512-512 parameters for hash_many. */
static skein_simd_params_t params_512(void) {
    skein_simd_params_t p;
    memset(&p, 0, sizeof p);
    p.hashBitLen = 512;
    return p;
}

/* Skein-512-512 of `n` messages of `len` bytes laid out one after another
 * from `data` (pointers and lengths left in msgs and lens) through hash_many
 * into `out`, every `step`-th digest checked against the reference. */
static void hash_many_laid_out(uint8_t *data, size_t len, size_t n, const uint8_t **msgs, size_t *lens, uint8_t *out,
                               size_t step, const char *what) {
    skein_simd_params_t p = params_512();
    size_t i;
    for (i = 0; i < n; i++) msgs[i] = data + i * len, lens[i] = len;
    CHECK(skein_simd_512_hash_many(&p, msgs, lens, n, out) == SKEIN_SUCCESS, "%s", what);
    for (i = 0; i < n; i += step) {
        uint8_t one[64];
        ctx_t c;
        int rc = REF_API[0].init_ext(&c, 512, 0, NULL, 0) | REF_API[0].update(&c, msgs[i], lens[i]) |
                 REF_API[0].final(&c, one);
        CHECK(rc == 0 && memcmp(one, out + 64 * i, 64) == 0, "%s, message %zu, against the reference", what, i);
    }
}

/* Messages laid out in one buffer, 64 of 4 KiB (256 KiB in all: the
 * parallel path), and outputs placed over them. */
#define OVERLAP_MSGS 64
#define OVERLAP_LEN 4096
static void test_overlap(void) {
    uint8_t *buf = message(OVERLAP_MSGS * OVERLAP_LEN + 4096), *want = xmalloc(OVERLAP_MSGS * 64),
            *copy = xmalloc(OVERLAP_MSGS * OVERLAP_LEN + 4096), *out = xmalloc(OVERLAP_MSGS * 64 + 1);
    const uint8_t *msgs[OVERLAP_MSGS];
    size_t lens[OVERLAP_MSGS], i, k;
    skein_simd_params_t p = params_512();
    /* out of place, against the reference */
    hash_many_laid_out(buf, OVERLAP_LEN, OVERLAP_MSGS, msgs, lens, want, 21, "hash_many out of place");
    memcpy(copy, buf, OVERLAP_MSGS * OVERLAP_LEN + 4096);
    /* result i over message i + K: in place (K = 0) and shifted */
    for (k = 0; k < 4; k++) {
        size_t shift = (size_t[]){0, 1, 7, 63}[k];
        uint8_t *dst = buf + shift * OVERLAP_LEN + 5;
        int rc = skein_simd_512_hash_many(&p, msgs, lens, OVERLAP_MSGS, dst);
        CHECK(rc == SKEIN_FAIL && memcmp(buf, copy, OVERLAP_MSGS * OVERLAP_LEN + 4096) == 0,
              "hash_many with result i over message i + %zu: %d, %s", shift, rc,
              rc == SKEIN_FAIL ? "output written" : "not refused");
    }
    memcpy(buf, copy, OVERLAP_MSGS * OVERLAP_LEN + 4096); /* in case a call above wrote */
    /* one message of the batch overlapping the output's last byte */
    msgs[OVERLAP_MSGS - 1] = out + OVERLAP_MSGS * 64 - 1, lens[OVERLAP_MSGS - 1] = 2;
    CHECK(skein_simd_512_hash_many(&p, msgs, lens, OVERLAP_MSGS, out) == SKEIN_FAIL, "hash_many, one byte of overlap");
    /* adjacent on both sides is not overlap; empty messages overlap nothing */
    msgs[OVERLAP_MSGS - 1] = out + OVERLAP_MSGS * 64, lens[OVERLAP_MSGS - 1] = 1;
    msgs[0] = out, lens[0] = 0;
    for (i = 1; i < 4; i++) msgs[i] = buf + i * OVERLAP_LEN, lens[i] = 0;
    CHECK(skein_simd_512_hash_many(&p, msgs, lens, OVERLAP_MSGS, out) == SKEIN_SUCCESS &&
              memcmp(out + 4 * 64, want + 4 * 64, (OVERLAP_MSGS - 5) * 64) == 0,
          "hash_many with messages next to the output");
    /* the output buffer right after a message */
    for (i = 0; i < OVERLAP_MSGS; i++) msgs[i] = buf + i * OVERLAP_LEN, lens[i] = OVERLAP_LEN;
    CHECK(skein_simd_512_hash_many(&p, msgs, lens, OVERLAP_MSGS, buf + OVERLAP_MSGS * OVERLAP_LEN) == SKEIN_SUCCESS &&
              memcmp(buf + OVERLAP_MSGS * OVERLAP_LEN, want, OVERLAP_MSGS * 64) == 0,
          "hash_many with the output right after the last message");
    free(buf), free(want), free(copy), free(out);
}

/* hash_many on 256 messages of 4 KiB (the parallel path, which starts the
 * thread pool), then fork(): the child hashes them again (an alarm ends it if
 * it hangs) and sends its results through a pipe; they must equal the
 * parent's, which equal the reference's. */
#define FORK_MSGS 256
#define FORK_LEN 4096
static void test_fork(void) {
    uint8_t *data = message(FORK_MSGS * FORK_LEN), *before = xmalloc(FORK_MSGS * 64), *after = xmalloc(FORK_MSGS * 64);
    const uint8_t *msgs[FORK_MSGS];
    size_t lens[FORK_MSGS], got = 0;
    skein_simd_params_t p = params_512();
    int fds[2], status = 0;
    pid_t pid;
    hash_many_laid_out(data, FORK_LEN, FORK_MSGS, msgs, lens, before, 51, "hash_many before fork");
    if (pipe(fds) != 0) {
        CHECK(0, "pipe failed");
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        CHECK(0, "fork failed");
        return;
    }
    if (pid == 0) {
        size_t done = 0;
        close(fds[0]);
        alarm(60);
        if (skein_simd_512_hash_many(&p, msgs, lens, FORK_MSGS, after) != SKEIN_SUCCESS) _exit(3);
        while (done < FORK_MSGS * 64) {
            ssize_t n = write(fds[1], after + done, FORK_MSGS * 64 - done);
            if (n <= 0) _exit(4);
            done += (size_t)n;
        }
        _exit(0);
    }
    close(fds[1]);
    for (;;) {
        ssize_t n = read(fds[0], after + got, FORK_MSGS * 64 - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
        if (got == FORK_MSGS * 64) break;
    }
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status))
        CHECK(0, "hash_many in a forked child: killed by signal %d%s", WTERMSIG(status),
              WTERMSIG(status) == SIGALRM ? " (hung)" : "");
    else
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "hash_many in a forked child: exit status %d",
              WEXITSTATUS(status));
    CHECK(got == FORK_MSGS * 64 && memcmp(before, after, FORK_MSGS * 64) == 0,
          "hash_many in a forked child: %zu result bytes, equal to the parent's: %s", got,
          got == FORK_MSGS * 64 && memcmp(before, after, FORK_MSGS * 64) == 0 ? "yes" : "no");
    free(data), free(before), free(after);
}

/* SHA3api_ref.h's limits say what Init does, and are the reference's. */
static void test_nist_sizes(void) {
    unsigned long wrong = 0;
    hashState s;
    int bits;
    CHECK(SKEIN_256_NIST_MAX_HASHBITS == REF_NIST_256_MAX_HASHBITS &&
              SKEIN_512_NIST_MAX_HASHBITS == REF_NIST_512_MAX_HASHBITS,
          "SKEIN_256/512_NIST_MAX_HASHBITS: %d/%d, reference %d/%d", SKEIN_256_NIST_MAX_HASHBITS,
          SKEIN_512_NIST_MAX_HASHBITS, REF_NIST_256_MAX_HASHBITS, REF_NIST_512_MAX_HASHBITS);
    for (bits = 1; bits <= 1100; bits++) {
        unsigned want = bits <= SKEIN_256_NIST_MAX_HASHBITS ? 256 : bits <= SKEIN_512_NIST_MAX_HASHBITS ? 512 : 1024;
        if (Init(&s, bits) != SUCCESS || s.statebits != want) wrong++;
    }
    CHECK(wrong == 0, "NIST Init: %lu of 1100 lengths on another state size than the header's limits say", wrong);
}

void test_hostile(void) {
    test_nist_sizes();
    test_corrupted_contexts();
    test_huge_hash_len();
    in_child("hash_many of no messages with huge output lengths", many_of_nothing_check, NULL, 20);
    test_overlap();
    test_fork();
}
