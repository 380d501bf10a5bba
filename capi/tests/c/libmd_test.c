/*
 * C tests of FreeBSD libmd's Skein functions in libskein_simd, written from
 * FreeBSD's skein(3) man page and its skein.h prototypes, using only the
 * library's skein.h: SKEIN{256,512,1024}_{Init,Update,Final,End,Data,File,
 * FileChunk,Fd,FdChunk}.
 *
 *   libmd_test GOLDEN_KAT PYSKEIN_VECTORS
 *
 * Expected digests come from the official golden KAT file (every plain
 * Skein-256-256 / 512-512 / 1024-1024 entry of whole bytes), pyskein's
 * vectors (the reference C code through pyskein) and, for files longer
 * than both have, the reference C code compiled in (ref_peer.c, Skein-512
 * and Skein-1024). The last line is "libmd: N passed, M failed"; the exit
 * status is 0 only with no failure and both data files read. Calls that must
 * abort run in a child process.
 */
#define _XOPEN_SOURCE 700 /* fork, setitimer, sigaction, mkdtemp, pread */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "skein.h"

#include "capi_test.h"
#include "test_data.h"
#include "check.h"

/* ---- the three sizes behind one table ---- */

typedef struct {
    int bits;
    size_t ctx_size, digest_len, string_len;
    void (*init)(void *ctx);
    void (*update)(void *ctx, const void *in, size_t len);
    void (*final)(unsigned char *digest, void *ctx);
    char *(*end)(void *ctx, char *buf);
    char *(*data)(const void *data, unsigned int len, char *buf);
    char *(*file)(const char *filename, char *buf);
    char *(*file_chunk)(const char *filename, char *buf, off_t offset, off_t length);
    char *(*fd)(int fd, char *buf);
    char *(*fd_chunk)(int fd, char *buf, off_t offset, off_t length);
} md_t;

#define MD(P)                                                                                   \
    static void P##_init(void *c) { P##_Init((P##_CTX *)c); }                                  \
    static void P##_update(void *c, const void *in, size_t n) { P##_Update((P##_CTX *)c, in, n); } \
    static void P##_final(unsigned char *d, void *c) { P##_Final(d, (P##_CTX *)c); }           \
    static char *P##_end(void *c, char *buf) { return P##_End((P##_CTX *)c, buf); }

MD(SKEIN256)
MD(SKEIN512)
MD(SKEIN1024)

#define TABLE(P, BITS)                                                                               \
    {BITS, sizeof(P##_CTX), P##_DIGEST_LENGTH, P##_DIGEST_STRING_LENGTH, P##_init, P##_update, P##_final, \
     P##_end, P##_Data, P##_File, P##_FileChunk, P##_Fd, P##_FdChunk}

static const md_t MDS[3] = {TABLE(SKEIN256, 256), TABLE(SKEIN512, 512), TABLE(SKEIN1024, 1024)};

static const md_t *md_of(int bits) { return &MDS[bits == 256 ? 0 : bits == 512 ? 1 : 2]; }

/* Room for any context, aligned as one. */
typedef union {
    SKEIN1024_CTX big;
    uint64_t align;
} ctx_t;

/* A string buffer with room for the longest digest string and a canary. */
#define CANARY 0x5A
typedef struct {
    char s[SKEIN1024_DIGEST_STRING_LENGTH + 16];
} strbuf_t;

static void fill_canary(strbuf_t *b) { memset(b->s, CANARY, sizeof b->s); }

/* buf holds exactly `want` with its NUL and nothing was written after it. */
static int string_is(const md_t *m, const strbuf_t *b, const char *want) {
    size_t i;
    if (strlen(want) != m->string_len - 1 || memcmp(b->s, want, m->string_len) != 0) return 0;
    for (i = m->string_len; i < sizeof b->s; i++)
        if ((unsigned char)b->s[i] != CANARY) return 0;
    return 1;
}

/* A returned malloc'ed string equal to want (freed here). */
static int malloced_is(char *got, const char *want) {
    int ok = got != NULL && strcmp(got, want) == 0;
    free(got);
    return ok;
}

static void to_hex(const uint8_t *d, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < n; i++) out[2 * i] = digits[d[i] >> 4], out[2 * i + 1] = digits[d[i] & 15];
    out[2 * n] = 0;
}

static int all_zero(const void *p, size_t n) {
    const unsigned char *b = p;
    size_t i;
    for (i = 0; i < n; i++)
        if (b[i]) return 0;
    return 1;
}

/* ---- scratch files ---- */

static char scratch[256];

static void path_of(char *out, const char *name) { snprintf(out, 300, "%s/%s", scratch, name); }

static int write_all(int fd, const uint8_t *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return 0;
        p += w, n -= (size_t)w;
    }
    return 1;
}

/* Write prefix bytes of junk, msg, suffix bytes of junk to scratch/name. */
static int make_file(const char *name, size_t prefix, const uint8_t *msg, size_t len, size_t suffix) {
    char path[300];
    uint8_t junk[4096];
    int fd, ok = 1;
    size_t i;
    for (i = 0; i < sizeof junk; i++) junk[i] = (uint8_t)(0xA5 ^ (i * 31));
    path_of(path, name);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return 0;
    while (prefix && ok) {
        size_t n = prefix < sizeof junk ? prefix : sizeof junk;
        ok = write_all(fd, junk, n), prefix -= n;
    }
    ok = ok && write_all(fd, msg, len);
    while (suffix && ok) {
        size_t n = suffix < sizeof junk ? suffix : sizeof junk;
        ok = write_all(fd, junk, n), suffix -= n;
    }
    return close(fd) == 0 && ok;
}

/* ---- one message with its expected digest, through every function ---- */

static const size_t PREFIX = 1001, SUFFIX = 333;
static char empty_hex[3][SKEIN1024_DIGEST_STRING_LENGTH]; /* each size's digest of nothing */

static void check_message(const md_t *m, const uint8_t *msg, size_t len, const char *want, const char *what) {
    uint8_t digest[SKEIN1024_DIGEST_LENGTH + 8];
    char path[300], path_tail[300];
    strbuf_t b;
    ctx_t c, copy;
    size_t i, step;
    int fd;

    /* Init / Update / Final; Final erases the context (skein(3)). */
    m->init(&c);
    m->update(&c, msg, len);
    memset(digest, CANARY, sizeof digest);
    m->final(digest, &c);
    to_hex(digest, m->digest_len, b.s);
    CHECK(strcmp(b.s, want) == 0, "%s: SKEIN%d_Final", what, m->bits);
    CHECK(digest[m->digest_len] == CANARY, "%s: SKEIN%d_Final wrote past the digest", what, m->bits);
    CHECK(all_zero(&c, m->ctx_size), "%s: SKEIN%d_Final left the context unerased", what, m->bits);

    /* Update in pieces (one byte, then a block and one), End into buf. */
    for (step = 1; step <= (size_t)m->bits / 8 + 1; step += (size_t)m->bits / 8) {
        m->init(&c);
        for (i = 0; i < len; i += step) m->update(&c, msg + i, len - i < step ? len - i : step);
        fill_canary(&b);
        CHECK(m->end(&c, b.s) == b.s && string_is(m, &b, want), "%s: SKEIN%d_End, Update by %zu", what, m->bits,
              step);
        CHECK(all_zero(&c, m->ctx_size), "%s: SKEIN%d_End left the context unerased", what, m->bits);
    }
    /* A context is plain data: a copy made mid-message finishes alike. */
    m->init(&c);
    m->update(&c, msg, len / 2);
    memcpy(&copy, &c, m->ctx_size);
    m->update(&copy, msg + len / 2, len - len / 2);
    CHECK(malloced_is(m->end(&copy, NULL), want), "%s: SKEIN%d_End (NULL buf) of a copied context", what, m->bits);
    m->update(&c, msg + len / 2, len - len / 2);
    CHECK(malloced_is(m->end(&c, NULL), want), "%s: SKEIN%d_End (NULL buf) of the original", what, m->bits);

    /* Data, into buf and malloc'ed. */
    fill_canary(&b);
    CHECK(m->data(msg, (unsigned)len, b.s) == b.s && string_is(m, &b, want), "%s: SKEIN%d_Data", what, m->bits);
    CHECK(malloced_is(m->data(msg, (unsigned)len, NULL), want), "%s: SKEIN%d_Data (NULL buf)", what, m->bits);

    /* File: the message alone. */
    path_of(path, "whole");
    CHECK(make_file("whole", 0, msg, len, 0), "%s: writing %s", what, path);
    fill_canary(&b);
    CHECK(m->file(path, b.s) == b.s && string_is(m, &b, want), "%s: SKEIN%d_File", what, m->bits);
    CHECK(malloced_is(m->file(path, NULL), want), "%s: SKEIN%d_File (NULL buf)", what, m->bits);

    /* FileChunk: junk, the message, junk; then junk and the message, whose
     * length 0, one past the end and far past the end mean "to the end". */
    path_of(path, "middle");
    CHECK(make_file("middle", PREFIX, msg, len, SUFFIX), "%s: writing %s", what, path);
    path_of(path_tail, "tail");
    CHECK(make_file("tail", PREFIX, msg, len, 0), "%s: writing %s", what, path_tail);
    if (len > 0) {
        fill_canary(&b);
        CHECK(m->file_chunk(path, b.s, (off_t)PREFIX, (off_t)len) == b.s && string_is(m, &b, want),
              "%s: SKEIN%d_FileChunk(offset %zu, length %zu)", what, m->bits, PREFIX, len);
        CHECK(malloced_is(m->file_chunk(path, NULL, (off_t)PREFIX, (off_t)len), want),
              "%s: SKEIN%d_FileChunk (NULL buf)", what, m->bits);
    }
    CHECK(malloced_is(m->file_chunk(path_tail, NULL, (off_t)PREFIX, 0), want), "%s: SKEIN%d_FileChunk length 0",
          what, m->bits);
    CHECK(malloced_is(m->file_chunk(path_tail, NULL, (off_t)PREFIX, (off_t)len + 1), want),
          "%s: SKEIN%d_FileChunk one past the end", what, m->bits);
    CHECK(malloced_is(m->file_chunk(path_tail, NULL, (off_t)PREFIX, (off_t)len + 1000000), want),
          "%s: SKEIN%d_FileChunk far past the end", what, m->bits);
    CHECK(malloced_is(m->file_chunk(path_tail, NULL, (off_t)(PREFIX + len), 0), empty_hex[m - MDS]),
          "%s: SKEIN%d_FileChunk at the end: the digest of nothing", what, m->bits);

    /* Fd: from the descriptor's position to the end; FdChunk with an
     * offset (a seek from the start) and with offset 0 (where it is). */
    fd = open(path_tail, O_RDONLY);
    CHECK(fd >= 0, "%s: open %s", what, path_tail);
    if (fd >= 0) {
        CHECK(lseek(fd, (off_t)PREFIX, SEEK_SET) == (off_t)PREFIX && malloced_is(m->fd(fd, NULL), want),
              "%s: SKEIN%d_Fd from offset %zu", what, m->bits, PREFIX);
        CHECK(lseek(fd, 0, SEEK_CUR) == (off_t)(PREFIX + len), "%s: SKEIN%d_Fd left the descriptor elsewhere than the end",
              what, m->bits);
        fill_canary(&b);
        CHECK(m->fd_chunk(fd, b.s, (off_t)PREFIX, 0) == b.s && string_is(m, &b, want),
              "%s: SKEIN%d_FdChunk(offset %zu, length 0)", what, m->bits, PREFIX);
        close(fd);
    }
    fd = open(path, O_RDONLY);
    if (fd >= 0 && len > 0) {
        CHECK(malloced_is(m->fd_chunk(fd, NULL, (off_t)PREFIX, (off_t)len), want),
              "%s: SKEIN%d_FdChunk(offset %zu, length %zu)", what, m->bits, PREFIX, len);
        CHECK(lseek(fd, (off_t)PREFIX, SEEK_SET) == (off_t)PREFIX &&
                  malloced_is(m->fd_chunk(fd, NULL, 0, (off_t)len), want),
              "%s: SKEIN%d_FdChunk(offset 0 = the current position, length %zu)", what, m->bits, len);
    }
    if (fd >= 0) close(fd);

    /* Fd of a pipe (no seeking), when the message fits its buffer. */
    if (len <= 4096) {
        int p[2];
        CHECK(pipe(p) == 0, "pipe");
        CHECK(write_all(p[1], msg, len), "%s: writing a pipe", what);
        close(p[1]);
        CHECK(malloced_is(m->fd(p[0], NULL), want), "%s: SKEIN%d_Fd of a pipe", what, m->bits);
        close(p[0]);
    }
}

/* ---- the golden KAT file and pyskein's vectors ---- */

static unsigned long golden_entries, golden_checked, vectors_checked;

/* The plain entries of whole bytes (no key, no tree, the state's own output
 * length): the message through every libmd function. */
static void golden_entry(const kat_t *e) {
    char want[SKEIN1024_DIGEST_STRING_LENGTH], what[64];
    if (e->out_bits != (size_t)e->state || e->msg_bits % 8 || e->has_key || e->tree) return;
    to_hex(e->result, e->result_len, want);
    if (e->msg_len == 0) strcpy(empty_hex[md_of(e->state) - MDS], want);
    snprintf(what, sizeof what, "golden entry %lu (%zu bytes)", golden_entries, e->msg_len);
    check_message(md_of(e->state), e->msg, e->msg_len, want, what);
    golden_checked++;
}

static int test_golden(const char *path) {
    int r = for_each_kat(path, golden_entry, &golden_entries);
    if (r < 0) {
        CHECK(0, "cannot read the golden KAT file %s", path);
        return 0;
    }
    CHECK(r == 1 && golden_entries == 491, "golden KAT: %lu entries, expected 491", golden_entries);
    CHECK(golden_checked == 108, "golden KAT: %lu plain entries of whole bytes, expected 108", golden_checked);
    return 1;
}

static int test_pyskein(const char *path) {
    char *text = read_file(path, NULL), *cursor = text, *line, want[SKEIN1024_DIGEST_STRING_LENGTH], what[64];
    if (!text) {
        CHECK(0, "cannot read the pyskein vectors %s", path);
        return 0;
    }
    while ((line = next_line(&cursor)) != NULL) {
        vec_t v;
        int i, plain = 1;
        uint8_t *msg;
        if (line[0] == '#' || line[0] == 0) continue;
        if (!parse_vector(line, &v)) {
            CHECK(0, "malformed pyskein vector");
            continue;
        }
        for (i = 0; i < 5; i++) plain &= v.field_len[i] == 0;
        if (!plain || v.tree || v.bits != (size_t)v.state) continue;
        to_hex(v.digest, v.digest_len, want);
        msg = message(v.len);
        snprintf(what, sizeof what, "pyskein vector (%zu bytes)", v.len);
        check_message(md_of(v.state), msg, v.len, want, what);
        free(msg);
        vectors_checked++;
    }
    CHECK(vectors_checked == 18, "pyskein: %lu plain vectors of the state size, expected 18", vectors_checked);
    free(text);
    return 1;
}

/* ---- long files, pipes and interrupted reads ---- */

/* The reference code's digest (Skein-512/1024) or, for Skein-256, which
 * the reference copy at hand lacks, Data's (checked above). */
static void expected_hex(const md_t *m, const uint8_t *msg, size_t len, char *want) {
    const api_t *ref = m->bits == 512 ? &REF_API[0] : m->bits == 1024 ? &REF_API[1] : NULL;
    if (ref) {
        ctx_t c;
        uint8_t d[SKEIN1024_DIGEST_LENGTH];
        int rc = ref->init_ext(&c, (size_t)m->bits, 0, NULL, 0);
        rc |= ref->update(&c, msg, len);
        rc |= ref->final(&c, d);
        CHECK(rc == 0, "reference peer: Skein-%d of %zu bytes", m->bits, len);
        to_hex(d, m->digest_len, want);
    } else {
        char *s = m->data(msg, (unsigned)len, NULL);
        strcpy(want, s ? s : "");
        free(s);
    }
}

/* Files of several read(2)s: whole, chunks crossing the reads' 64 KiB,
 * lengths past the end. */
static void test_long_files(void) {
    const size_t len = 300007, off = 65536 - 7, chunk = 150001;
    uint8_t *msg = message(len);
    char path[300], want[SKEIN1024_DIGEST_STRING_LENGTH];
    int i;
    path_of(path, "long");
    CHECK(make_file("long", 0, msg, len, 0), "writing %s", path);
    for (i = 0; i < 3; i++) {
        const md_t *m = &MDS[i];
        int fd;
        expected_hex(m, msg, len, want);
        CHECK(malloced_is(m->file(path, NULL), want), "SKEIN%d_File of %zu bytes", m->bits, len);
        expected_hex(m, msg + off, chunk, want);
        CHECK(malloced_is(m->file_chunk(path, NULL, (off_t)off, (off_t)chunk), want),
              "SKEIN%d_FileChunk(%zu, %zu) of %zu bytes", m->bits, off, chunk, len);
        expected_hex(m, msg + off, len - off, want);
        CHECK(malloced_is(m->file_chunk(path, NULL, (off_t)off, (off_t)(len - off + 1)), want),
              "SKEIN%d_FileChunk one past the end", m->bits);
        fd = open(path, O_RDONLY);
        CHECK(fd >= 0 && malloced_is(m->fd_chunk(fd, NULL, (off_t)off, 0), want), "SKEIN%d_FdChunk(%zu, 0)", m->bits,
              off);
        if (fd >= 0) close(fd);
    }
    free(msg);
}

/* An offset past 4 GiB, where off_t has 64 bits (64-bit systems, and
 * 32-bit programs built with _FILE_OFFSET_BITS=64): the message written
 * there into a sparse file, found by FileChunk and FdChunk. */
static void test_far_offset(void) {
    const size_t len = 1000;
    uint8_t *msg = message(len);
    char path[300], want[SKEIN1024_DIGEST_STRING_LENGTH];
    off_t far = 65536;
    int fd, i, ok;
    if (sizeof(off_t) < 8) {
        printf("libmd: off_t has %zu bytes: no offset past 4 GiB\n", sizeof(off_t));
        free(msg);
        return;
    }
    far = far * 65536 + 5;
    path_of(path, "sparse");
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ok = fd >= 0 && lseek(fd, far, SEEK_SET) == far && write_all(fd, msg, len);
    if (fd >= 0) ok &= close(fd) == 0;
    CHECK(ok, "writing %zu bytes at offset 2^32 + 5 of a sparse file", len);
    for (i = 0; ok && i < 3; i++) {
        const md_t *m = &MDS[i];
        expected_hex(m, msg, len, want);
        CHECK(malloced_is(m->file_chunk(path, NULL, far, (off_t)len), want), "SKEIN%d_FileChunk at offset 2^32 + 5",
              m->bits);
        fd = open(path, O_RDONLY);
        CHECK(fd >= 0 && malloced_is(m->fd_chunk(fd, NULL, far, 0), want), "SKEIN%d_FdChunk at offset 2^32 + 5",
              m->bits);
        if (fd >= 0) close(fd);
    }
    unlink(path);
    free(msg);
}

static volatile sig_atomic_t alarms;
static int idle_writer = -1; /* closed by the handler after many signals */
static void on_alarm(int sig) {
    (void)sig;
    alarms++;
    /* A library that retried EINTR would wait for ever on an idle writer:
     * end the pipe after 10 signals so that such a read returns (and the
     * test fails) rather than hangs. */
    if (alarms >= 10 && idle_writer >= 0) {
        close(idle_writer);
        idle_writer = -1;
    }
}

static void sleep_ms(long ms) {
    struct timespec t;
    t.tv_sec = ms / 1000, t.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

/* SIGALRM every 20 ms with or without SA_RESTART; returns the old action. */
static void start_alarms(int flags, struct sigaction *old) {
    struct sigaction sa;
    struct itimerval every = {{0, 20000}, {0, 20000}};
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = flags;
    sigaction(SIGALRM, &sa, old);
    alarms = 0;
    setitimer(ITIMER_REAL, &every, NULL);
}

static void stop_alarms(const struct sigaction *old) {
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    sigaction(SIGALRM, old, NULL);
}

/* A read(2) interrupted by a signal whose handler does not ask for
 * restarting fails with EINTR, and Fd returns NULL with errno EINTR, as
 * FreeBSD's mdXhl.c does: that is how a program bounds a read of a pipe or
 * socket with alarm(). The writer stays open and idle, so only the signal
 * can end the read. */
static void test_interrupted_read(void) {
    const md_t *m = md_of(512);
    struct sigaction old;
    char *got;
    int p[2], err;
    CHECK(pipe(p) == 0, "pipe");
    idle_writer = p[1];
    start_alarms(0, &old); /* no SA_RESTART */
    errno = 0;
    got = m->fd(p[0], NULL);
    err = errno;
    stop_alarms(&old);
    CHECK(alarms > 0, "no signal arrived while SKEIN512_Fd waited");
    CHECK(got == NULL && err == EINTR,
          "SKEIN512_Fd of an idle pipe interrupted by a signal without SA_RESTART: %s, errno %d (want NULL, EINTR) "
          "after %d signals",
          got ? got : "(null)", err, (int)alarms);
    free(got);
    if (idle_writer >= 0) close(idle_writer);
    idle_writer = -1;
    close(p[0]);
}

/* Fd of a pipe fed in two parts by a child, while a timer's signal, whose
 * handler asks for restarting (SA_RESTART), arrives during the blocked
 * read(2): the kernel restarts the read and Fd hashes the whole stream. */
static void test_restarted_pipe(void) {
    const md_t *m = md_of(512);
    const size_t len = 100000, half = 40000;
    uint8_t *msg = message(len);
    char want[SKEIN1024_DIGEST_STRING_LENGTH], *got;
    struct sigaction old;
    int p[2], status;
    pid_t pid;
    expected_hex(m, msg, len, want);
    CHECK(pipe(p) == 0, "pipe");
    pid = fork();
    if (pid == 0) {
        close(p[0]);
        if (!write_all(p[1], msg, half)) _exit(1);
        sleep_ms(250);
        _exit(write_all(p[1], msg + half, len - half) ? 0 : 1);
    }
    close(p[1]);
    start_alarms(SA_RESTART, &old);
    got = m->fd(p[0], NULL);
    stop_alarms(&old);
    close(p[0]);
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "the pipe's writer failed");
    CHECK(alarms > 0, "no signal arrived while SKEIN512_Fd waited");
    CHECK(malloced_is(got, want), "SKEIN512_Fd of a pipe with reads restarted after %d signals", (int)alarms);
    free(msg);
}

/* ---- bad input ---- */

/* Run check(arg) in a child with stderr closed; 1 if it died of SIGABRT. */
static int aborts(void (*check)(const md_t *, int), const md_t *m, int how) {
    int status;
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 2);
        alarm(20);
        check(m, how);
        _exit(0);
    }
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void final_misuse(const md_t *m, int how) {
    unsigned char digest[SKEIN1024_DIGEST_LENGTH];
    unsigned char *volatile none = NULL; /* hidden from the digest[static N] check */
    ctx_t c;
    memset(&c, 0, sizeof c);
    switch (how) {
    case 0: m->final(digest, &c); break;          /* never initialized */
    case 1: m->init(&c), m->final(none, &c); break; /* NULL digest */
    case 2: m->final(digest, NULL); break;        /* NULL context */
    default: m->init(&c), m->final(digest, &c), m->final(digest, &c); break; /* finished twice */
    }
}

static void test_bad_input(const md_t *m) {
    static const char *const misuse[4] = {"an uninitialized context", "a NULL digest", "a NULL context",
                                          "a finished context"};
    char path[300];
    strbuf_t b;
    ctx_t c;
    int i, fd;

    /* A file that cannot be opened: NULL (skein(3)), errno from open. */
    path_of(path, "does-not-exist");
    errno = 0;
    CHECK(m->file(path, b.s) == NULL && errno == ENOENT, "SKEIN%d_File of a missing file: errno %d", m->bits, errno);
    CHECK(m->file(path, NULL) == NULL, "SKEIN%d_File (NULL buf) of a missing file", m->bits);
    CHECK(m->file_chunk(path, NULL, 5, 5) == NULL, "SKEIN%d_FileChunk of a missing file", m->bits);
    errno = 0;
    CHECK(m->file(NULL, NULL) == NULL && errno == EINVAL, "SKEIN%d_File(NULL)", m->bits);
    /* A directory opens but cannot be read. */
    CHECK(m->file(scratch, NULL) == NULL, "SKEIN%d_File of a directory", m->bits);

    /* Negative lengths and offsets; descriptors that are not open. */
    path_of(path, "whole");
    errno = 0;
    CHECK(m->file_chunk(path, NULL, 0, -1) == NULL && errno == EINVAL, "SKEIN%d_FileChunk length -1", m->bits);
    errno = 0;
    CHECK(m->file_chunk(path, NULL, -1, 0) == NULL && errno == EINVAL, "SKEIN%d_FileChunk offset -1", m->bits);
    errno = 0;
    CHECK(m->fd(-1, NULL) == NULL && errno == EBADF, "SKEIN%d_Fd(-1)", m->bits);
    fd = open(path, O_RDONLY);
    close(fd);
    errno = 0;
    CHECK(fd >= 0 && m->fd_chunk(fd, NULL, 0, 0) == NULL && errno == EBADF, "SKEIN%d_FdChunk of a closed descriptor",
          m->bits);
    /* A pipe cannot seek to a non-zero offset. */
    {
        int p[2];
        CHECK(pipe(p) == 0, "pipe");
        close(p[1]);
        CHECK(m->fd_chunk(p[0], NULL, 3, 0) == NULL && errno == ESPIPE, "SKEIN%d_FdChunk(pipe, offset 3)", m->bits);
        close(p[0]);
    }

    /* Data: NULL with a length is refused, NULL with none is nothing. */
    errno = 0;
    CHECK(m->data(NULL, 5, b.s) == NULL && errno == EINVAL, "SKEIN%d_Data(NULL, 5)", m->bits);
    CHECK(malloced_is(m->data(NULL, 0, NULL), empty_hex[m - MDS]), "SKEIN%d_Data(NULL, 0)", m->bits);

    /* Update with NULL and a length: the End after it refuses. */
    m->init(&c);
    m->update(&c, "abc", 3);
    m->update(&c, NULL, 7);
    errno = 0;
    CHECK(m->end(&c, b.s) == NULL && errno == EINVAL, "SKEIN%d_End after Update(NULL, 7)", m->bits);
    m->init(&c);
    m->update(&c, NULL, 0);
    CHECK(malloced_is(m->end(&c, NULL), empty_hex[m - MDS]), "SKEIN%d_Update(NULL, 0) is nothing", m->bits);
    m->init(NULL);           /* ignored */
    m->update(NULL, "x", 1); /* ignored */

    /* End of a context Init did not produce, of a finished one, of NULL. */
    memset(&c, 0, sizeof c);
    CHECK(m->end(&c, NULL) == NULL && errno == EINVAL, "SKEIN%d_End of a zeroed context", m->bits);
    memset(&c, 0xFF, sizeof c);
    CHECK(m->end(&c, NULL) == NULL, "SKEIN%d_End of a context of 0xFF bytes", m->bits);
    m->init(&c);
    fill_canary(&b);
    CHECK(m->end(&c, b.s) == b.s && m->end(&c, b.s) == NULL, "SKEIN%d_End twice", m->bits);
    CHECK(m->end(NULL, b.s) == NULL, "SKEIN%d_End(NULL)", m->bits);
    /* The reference API's init with another length is not this digest. */
    switch (m->bits) {
    case 256: Skein_256_Init((Skein_256_Ctxt_t *)&c, 128); break;
    case 512: Skein_512_Init((Skein_512_Ctxt_t *)&c, 384); break;
    default: Skein1024_Init((Skein1024_Ctxt_t *)&c, 512); break;
    }
    CHECK(m->end(&c, NULL) == NULL, "SKEIN%d_End of a context with another output length", m->bits);

    /* Final has no error return: it aborts rather than leave a wrong digest. */
    for (i = 0; i < 4; i++)
        CHECK(aborts(final_misuse, m, i), "SKEIN%d_Final of %s did not abort", m->bits, misuse[i]);
}

/* The macros and types of FreeBSD's header. */
static void test_header(void) {
    CHECK(SKEIN256_DIGEST_LENGTH == 32 && SKEIN512_DIGEST_LENGTH == 64 && SKEIN1024_DIGEST_LENGTH == 128,
          "SKEIN*_DIGEST_LENGTH");
    CHECK(SKEIN256_DIGEST_STRING_LENGTH == 65 && SKEIN512_DIGEST_STRING_LENGTH == 129 &&
              SKEIN1024_DIGEST_STRING_LENGTH == 257,
          "SKEIN*_DIGEST_STRING_LENGTH");
    CHECK(SKEIN256_BLOCK_LENGTH == 32 && SKEIN512_BLOCK_LENGTH == 64 && SKEIN1024_BLOCK_LENGTH == 128,
          "SKEIN*_BLOCK_LENGTH");
    CHECK(sizeof(SKEIN256_CTX) == sizeof(Skein_256_Ctxt_t) && sizeof(SKEIN512_CTX) == sizeof(Skein_512_Ctxt_t) &&
              sizeof(SKEIN1024_CTX) == sizeof(Skein1024_Ctxt_t),
          "SKEIN*_CTX are the reference contexts");
}

int main(int argc, char **argv) {
    int read_all, i;
    const char *tmp = getenv("TMPDIR");
    if (argc != 3) {
        fprintf(stderr, "usage: %s GOLDEN_KAT PYSKEIN_VECTORS\n", argv[0]);
        return 2;
    }
    snprintf(scratch, sizeof scratch, "%s/libmd-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(scratch)) {
        perror("mkdtemp");
        return 2;
    }
    test_header();
    read_all = test_golden(argv[1]);
    read_all &= test_pyskein(argv[2]);
    for (i = 0; i < 3; i++) CHECK(empty_hex[i][0] != 0, "no golden digest of nothing for SKEIN%d", MDS[i].bits);
    test_long_files();
    test_far_offset();
    test_interrupted_read();
    test_restarted_pipe();
    for (i = 0; i < 3; i++) test_bad_input(&MDS[i]);
    {
        static const char *const names[] = {"whole", "middle", "tail", "long"};
        char path[300];
        for (i = 0; i < 4; i++) path_of(path, names[i]), unlink(path);
        rmdir(scratch);
    }
    printf("libmd: golden entries %lu, pyskein vectors %lu\n", golden_checked, vectors_checked);
    printf("libmd: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 && read_all ? 0 : 1;
}
