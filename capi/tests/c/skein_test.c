/*
 * C tests of libskein_simd, written against its headers only (skein.h,
 * SHA3api_ref.h, skein_simd.h), linked statically or dynamically, run on the
 * host and on 32-bit PowerPC under QEMU.
 *
 *   skein_test GOLDEN_KAT PYSKEIN_VECTORS
 *
 * Expected values come from the official golden KAT file, from pyskein's
 * vectors (the reference C code), and from the reference C code itself
 * compiled in as a peer (ref_peer.c). The last line is
 * "c-api: N passed, M failed"; the exit status is 0 only with no failure and
 * every data file read. Cases that crashed or hung an earlier build run in a
 * child process with an alarm, so that a regression is a failure, not a
 * crash of the whole program or a hang.
 */
#define _POSIX_C_SOURCE 200809L /* fork, alarm, waitpid, setenv */

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
#include "test_data.h"
#include "check.h"
#include "layout.h"

/* ---- libskein_simd behind the api_t table ---- */

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

static const api_t OUR_API[3] = {
    TABLE(our256, 256, Skein_256_Ctxt_t),
    TABLE(our512, 512, Skein_512_Ctxt_t),
    TABLE(our1024, 1024, Skein1024_Ctxt_t),
};

static const api_t *ours(int bits) { return &OUR_API[bits == 256 ? 0 : bits == 512 ? 1 : 2]; }
static const api_t *peer(int bits) { return bits == 512 ? &REF_API[0] : bits == 1024 ? &REF_API[1] : NULL; }

/* Room for any context, aligned for u64b_t. */
typedef union {
    Skein1024_Ctxt_t big;
    u64b_t align;
} ctx_t;

typedef int (*init_fn)(void *ctx, const api_t *a, const void *arg);

/* Feed msg in pieces of `split` bytes (0: at once). */
static int update_split(const api_t *a, void *ctx, const uint8_t *msg, size_t len, size_t split) {
    size_t done = 0;
    int rc = SKEIN_SUCCESS;
    if (split == 0) split = len ? len : 1;
    if (len == 0) return a->update(ctx, msg, 0);
    while (done < len && rc == SKEIN_SUCCESS) {
        size_t n = len - done < split ? len - done : split;
        rc = a->update(ctx, msg + done, n);
        done += n;
    }
    return rc;
}

/* Update with a length in bits, the way the reference's NIST layer does it:
 * whole bytes, then the partial byte with its pad bit, then the flag. */
static int update_bits(const api_t *a, void *ctx, const uint8_t *msg, size_t bits, size_t split) {
    size_t whole = bits / 8;
    int rc = update_split(a, ctx, msg, whole, split);
    if (rc == SKEIN_SUCCESS && bits % 8) {
        uint8_t mask = (uint8_t)(1u << (7 - bits % 8));
        uint8_t last = (uint8_t)((msg[whole] & (0 - mask)) | mask);
        rc = a->update(ctx, &last, 1);
        a->set_bit_pad(ctx);
    }
    return rc;
}

/*
 * Tree hashing in the reference's calling convention: G is a context after
 * InitExt (or init_params) with the tree word; every node is a copy of G with
 * its position (Skein_Set_T0) and level (Skein_Set_Tree_Level), Update over
 * its children, Final_Pad; Output at the root.
 */
static int tree_hash(const api_t *a, const void *G, unsigned leaf, unsigned node, unsigned max_level,
                     const uint8_t *msg, size_t len, uint8_t *out) {
    size_t blk = (size_t)a->bits / 8;
    uint8_t *m = xmalloc(len + blk);
    size_t cnt = len;
    unsigned height;
    ctx_t s;
    int rc = SKEIN_SUCCESS;
    memcpy(m, msg, len);
    for (height = 0;; height++) {
        size_t node_len, src, dst;
        if (height && cnt == blk) break; /* one node output left: the root */
        if (height + 1 == max_level) {   /* the top level takes all the rest */
            memcpy(&s, G, a->ctx_size);
            a->set_tree_level(&s, height + 1);
            rc |= a->update(&s, m, cnt);
            rc |= a->final_pad(&s, m);
            break;
        }
        node_len = blk << (height ? node : leaf);
        for (src = dst = 0;;) {
            size_t n = cnt - src < node_len ? cnt - src : node_len;
            memcpy(&s, G, a->ctx_size);
            a->set_t0(&s, src);
            a->set_tree_level(&s, height + 1);
            rc |= a->update(&s, m + src, n);
            rc |= a->final_pad(&s, m + dst);
            dst += blk;
            src += n;
            if (src >= cnt) break; /* also ends the empty message's single leaf */
        }
        cnt = dst;
    }
    rc |= a->output(&s, out);
    free(m);
    return rc;
}

/* ---- layout ---- */

static void test_layout(void) {
    static const char *names[LAYOUT_COUNT] = {
        "sizeof(Skein_Ctxt_Hdr_t)", "hdr.hashBitLen", "hdr.bCnt", "hdr.T",
        "sizeof(Skein_256_Ctxt_t)", "256.h", "256.X", "256.b",
        "sizeof(Skein_512_Ctxt_t)", "512.h", "512.X", "512.b",
        "sizeof(Skein1024_Ctxt_t)", "1024.h", "1024.X", "1024.b",
        "sizeof(hashState)", "hashState.statebits", "hashState.u"};
    size_t mine[LAYOUT_COUNT], ref[LAYOUT_COUNT], z = sizeof(size_t), i;
    fill_layout(mine);
    ref_layout(ref);
    for (i = 0; i < LAYOUT_COUNT; i++) CHECK(mine[i] == ref[i], "%s: %zu, reference %zu", names[i], mine[i], ref[i]);
    /* and as derived from the reference's definitions: size_t, size_t, u64b_t[2]; X; b */
    CHECK(sizeof(Skein_Ctxt_Hdr_t) == 2 * z + 16, "header size");
    CHECK(sizeof(Skein_256_Ctxt_t) == 2 * z + 16 + 64, "256 size");
    CHECK(sizeof(Skein_512_Ctxt_t) == 2 * z + 16 + 128, "512 size");
    CHECK(sizeof(Skein1024_Ctxt_t) == 2 * z + 16 + 256, "1024 size");
    printf("layout: size_t %zu bytes; contexts %zu %zu %zu, hashState %zu bytes\n", z, sizeof(Skein_256_Ctxt_t),
           sizeof(Skein_512_Ctxt_t), sizeof(Skein1024_Ctxt_t), sizeof(hashState));
}

/* ---- the golden KAT file (parsed by test_data.c) ---- */

static int our_init(int bits, void *ctx, size_t hash_bits) {
    switch (bits) {
    case 256: return Skein_256_Init((Skein_256_Ctxt_t *)ctx, hash_bits);
    case 512: return Skein_512_Init((Skein_512_Ctxt_t *)ctx, hash_bits);
    default: return Skein1024_Init((Skein1024_Ctxt_t *)ctx, hash_bits);
    }
}

/* A context copied by assignment, as ZFS copies its template. */
static void assign(int bits, void *dst, const void *src) {
    switch (bits) {
    case 256: *(Skein_256_Ctxt_t *)dst = *(const Skein_256_Ctxt_t *)src; break;
    case 512: *(Skein_512_Ctxt_t *)dst = *(const Skein_512_Ctxt_t *)src; break;
    default: *(Skein1024_Ctxt_t *)dst = *(const Skein1024_Ctxt_t *)src; break;
    }
}

static unsigned long golden_entries, nist_checked, template_checked;

static void golden_entry(const kat_t *e) {
    const api_t *a = ours(e->state), *ref = peer(e->state);
    const uint8_t *key = e->has_key ? e->key : NULL;
    size_t blk = (size_t)e->state / 8, splits[4] = {0, 1, 7, 0}, i;
    uint8_t out[512];
    ctx_t c, tmpl;
    splits[3] = blk + 1;
    if (e->tree) {
        uint64_t info = SKEIN_CFG_TREE_INFO(e->leaf, e->node, e->max_level);
        int rc = a->init_ext(&tmpl, e->out_bits, info, key, e->key_len);
        rc |= tree_hash(a, &tmpl, e->leaf, e->node, e->max_level, e->msg, e->msg_len, out);
        CHECK(rc == SKEIN_SUCCESS && memcmp(out, e->result, e->result_len) == 0, "golden tree: Skein-%d-%zu, %zu bits",
              e->state, e->out_bits, e->msg_bits);
        return;
    }
    for (i = 0; i < 4; i++) {
        int rc = (!key && i == 0) ? our_init(e->state, &c, e->out_bits)
                                  : a->init_ext(&c, e->out_bits, SKEIN_CFG_TREE_INFO_SEQUENTIAL, key, e->key_len);
        rc |= update_bits(a, &c, e->msg, e->msg_bits, splits[i]);
        rc |= a->final(&c, out);
        CHECK(rc == SKEIN_SUCCESS && memcmp(out, e->result, e->result_len) == 0,
              "golden: Skein-%d-%zu, %zu bits, key %zu bytes, split %zu", e->state, e->out_bits, e->msg_bits,
              e->key_len, splits[i]);
    }
    /* The ZFS pattern: one InitExt, then a copy per message, by assignment
     * and by memcpy; the template must stay usable. */
    if (a->init_ext(&tmpl, e->out_bits, SKEIN_CFG_TREE_INFO_SEQUENTIAL, key, e->key_len) == SKEIN_SUCCESS) {
        for (i = 0; i < 2; i++) {
            int rc;
            if (i == 0) assign(e->state, &c, &tmpl);
            else memcpy(&c, &tmpl, a->ctx_size);
            rc = update_bits(a, &c, e->msg, e->msg_bits, 64);
            rc |= a->final(&c, out);
            CHECK(rc == SKEIN_SUCCESS && memcmp(out, e->result, e->result_len) == 0,
                  "golden template copy %zu: Skein-%d-%zu, %zu bits", i, e->state, e->out_bits, e->msg_bits);
        }
        template_checked++;
    }
    /* The NIST API selects the state size from the result length. */
    if (!key && e->state == (e->out_bits <= 512 ? 512 : 1024)) {
        hashState s;
        size_t whole = e->msg_bits / 8 * 8, half = whole / 16 * 8;
        int rc = Hash((int)e->out_bits, e->msg, e->msg_bits, out);
        CHECK(rc == SUCCESS && memcmp(out, e->result, e->result_len) == 0, "NIST Hash: %zu-bit, %zu bits",
              e->out_bits, e->msg_bits);
        rc = Init(&s, (int)e->out_bits);
        rc |= Update(&s, e->msg, half);
        rc |= Update(&s, e->msg + half / 8, whole - half);
        rc |= Update(&s, e->msg + whole / 8, e->msg_bits - whole);
        rc |= Final(&s, out);
        CHECK(rc == SUCCESS && memcmp(out, e->result, e->result_len) == 0, "NIST Init/Update/Final: %zu-bit, %zu bits",
              e->out_bits, e->msg_bits);
        CHECK(ref_nist_hash((int)e->out_bits, e->msg, e->msg_bits, out) == 0 &&
                  memcmp(out, e->result, e->result_len) == 0,
              "reference peer NIST Hash: %zu-bit, %zu bits", e->out_bits, e->msg_bits);
        nist_checked++;
    }
    /* The reference peer itself, so that its comparisons below mean something. */
    if (!key && ref) {
        int rc = ref->init_ext(&c, e->out_bits, 0, NULL, 0);
        rc |= update_bits(ref, &c, e->msg, e->msg_bits, 13);
        rc |= ref->final(&c, out);
        CHECK(rc == 0 && memcmp(out, e->result, e->result_len) == 0, "reference peer: Skein-%d-%zu, %zu bits", e->state,
              e->out_bits, e->msg_bits);
    }
}

static int test_golden(const char *path) {
    int r = for_each_kat(path, golden_entry, &golden_entries);
    if (r < 0) {
        CHECK(0, "cannot read the golden KAT file %s", path);
        return 0;
    }
    CHECK(r == 1, "malformed golden KAT entry after %lu entries", golden_entries);
    CHECK(golden_entries == 491, "golden KAT: %lu entries, expected 491", golden_entries);
    printf("golden KAT: %lu entries (%lu through the NIST API, %lu as template copies)\n", golden_entries,
           nist_checked, template_checked);
    return 1;
}

/* ---- pyskein's vectors (the reference C code through pyskein) ---- */

static skein_simd_params_t params_of(const vec_t *v) {
    skein_simd_params_t p = {0};
    p.hashBitLen = v->bits;
    p.treeInfo = v->tree ? SKEIN_CFG_TREE_INFO(v->leaf, v->node, v->max_level) : SKEIN_CFG_TREE_INFO_SEQUENTIAL;
    p.key = v->field_len[0] ? v->field[0] : NULL, p.keyBytes = v->field_len[0];
    p.pers = v->field_len[1] ? v->field[1] : NULL, p.persBytes = v->field_len[1];
    p.publicKey = v->field_len[2] ? v->field[2] : NULL, p.publicKeyBytes = v->field_len[2];
    p.keyId = v->field_len[3] ? v->field[3] : NULL, p.keyIdBytes = v->field_len[3];
    p.nonce = v->field_len[4] ? v->field[4] : NULL, p.nonceBytes = v->field_len[4];
    return p;
}

static int init_params(int bits, void *ctx, const skein_simd_params_t *p) {
    switch (bits) {
    case 256: return skein_simd_256_init_params((Skein_256_Ctxt_t *)ctx, p);
    case 512: return skein_simd_512_init_params((Skein_512_Ctxt_t *)ctx, p);
    default: return skein_simd_1024_init_params((Skein1024_Ctxt_t *)ctx, p);
    }
}

static int hash_many(int bits, const skein_simd_params_t *p, const uint8_t *const *msgs, const size_t *lens,
                     size_t count, uint8_t *out) {
    switch (bits) {
    case 256: return skein_simd_256_hash_many(p, msgs, lens, count, out);
    case 512: return skein_simd_512_hash_many(p, msgs, lens, count, out);
    default: return skein_simd_1024_hash_many(p, msgs, lens, count, out);
    }
}

/* pyskein clears the unused low bits of a partial last byte. */
static void mask_tail(uint8_t *out, size_t bits) {
    if (bits % 8) out[bits / 8] &= (uint8_t)(0xFF << (8 - bits % 8));
}

static int same_args(const vec_t *a, const vec_t *b) {
    int i;
    if (a->state != b->state || a->bits != b->bits || a->tree || b->tree) return 0;
    for (i = 0; i < 5; i++)
        if (a->field_len[i] != b->field_len[i] || memcmp(a->field[i], b->field[i], a->field_len[i]) != 0) return 0;
    return 1;
}

static unsigned long vectors_read, vectors_tree, vectors_keyed_tree, many_batches;

/* Check group[0..n) (same arguments) with one hash_many call. */
static void many_group(vec_t *group, size_t n) {
    skein_simd_params_t p = params_of(&group[0]);
    size_t out_len = (group[0].bits + 7) / 8, i;
    const uint8_t **msgs = xmalloc(n * sizeof *msgs);
    size_t *lens = xmalloc(n * sizeof *lens);
    uint8_t *out = xmalloc(n * out_len);
    int rc;
    for (i = 0; i < n; i++) msgs[i] = message(group[i].len), lens[i] = group[i].len;
    rc = hash_many(group[0].state, &p, msgs, lens, n, out);
    for (i = 0; i < n; i++) {
        mask_tail(out + i * out_len, group[i].bits);
        CHECK(rc == SKEIN_SUCCESS && memcmp(out + i * out_len, group[i].digest, out_len) == 0,
              "hash_many: Skein-%d-%zu, message %zu of %zu (%zu bytes)", group[i].state, group[i].bits, i, n,
              group[i].len);
        free((void *)msgs[i]);
    }
    many_batches++;
    free(msgs), free(lens), free(out);
}

static void vector_case(const vec_t *v, size_t index) {
    const api_t *a = ours(v->state);
    skein_simd_params_t p = params_of(v);
    uint8_t *msg = message(v->len), out[512];
    size_t split = (size_t[]){0, 1, 7, 64, 129}[index % 5];
    ctx_t c;
    int rc;
    if (v->tree) {
        rc = init_params(v->state, &c, &p);
        rc |= tree_hash(a, &c, v->leaf, v->node, v->max_level, msg, v->len, out);
        mask_tail(out, v->bits);
        CHECK(rc == SKEIN_SUCCESS && memcmp(out, v->digest, v->digest_len) == 0,
              "pyskein tree walk: Skein-%d-%zu, %zu bytes, tree %u,%u,%u, key %zu", v->state, v->bits, v->len, v->leaf,
              v->node, v->max_level, v->field_len[0]);
        /* The same tree through the library's own tree hashing. */
        rc = hash_many(v->state, &p, (const uint8_t *const *)&msg, &v->len, 1, out);
        mask_tail(out, v->bits);
        CHECK(rc == SKEIN_SUCCESS && memcmp(out, v->digest, v->digest_len) == 0,
              "pyskein tree hash_many: Skein-%d-%zu, %zu bytes, tree %u,%u,%u", v->state, v->bits, v->len, v->leaf,
              v->node, v->max_level);
        vectors_tree++;
        if (v->field_len[0]) vectors_keyed_tree++;
        free(msg);
        return;
    }
    rc = init_params(v->state, &c, &p);
    rc |= update_split(a, &c, msg, v->len, split);
    rc |= a->final(&c, out);
    mask_tail(out, v->bits);
    CHECK(rc == SKEIN_SUCCESS && memcmp(out, v->digest, v->digest_len) == 0,
          "pyskein init_params: Skein-%d-%zu, %zu bytes, split %zu", v->state, v->bits, v->len, split);
    if (!v->field_len[1] && !v->field_len[2] && !v->field_len[3] && !v->field_len[4]) {
        rc = a->init_ext(&c, v->bits, SKEIN_CFG_TREE_INFO_SEQUENTIAL, v->field_len[0] ? v->field[0] : NULL,
                         v->field_len[0]);
        rc |= update_split(a, &c, msg, v->len, split);
        rc |= a->final(&c, out);
        mask_tail(out, v->bits);
        CHECK(rc == SKEIN_SUCCESS && memcmp(out, v->digest, v->digest_len) == 0,
              "pyskein InitExt: Skein-%d-%zu, %zu bytes, key %zu", v->state, v->bits, v->len, v->field_len[0]);
    }
    free(msg);
}

static int test_pyskein(const char *path) {
    char *text = read_file(path, NULL), *cursor = text, *line;
    vec_t *group = xmalloc(64 * sizeof *group);
    size_t n = 0;
    if (!text) {
        CHECK(0, "cannot read the pyskein vectors %s", path);
        free(group);
        return 0;
    }
    while ((line = next_line(&cursor)) != NULL) {
        vec_t v;
        if (line[0] == '#' || line[0] == 0) continue;
        if (!parse_vector(line, &v)) {
            CHECK(0, "malformed pyskein vector at %lu", vectors_read);
            continue;
        }
        vector_case(&v, vectors_read++);
        if (n && (!same_args(&group[0], &v) || n == 64)) many_group(group, n), n = 0;
        if (!v.tree) group[n++] = v;
    }
    if (n) many_group(group, n);
    CHECK(vectors_read == 468, "pyskein: %lu vectors, expected 468", vectors_read);
    printf("pyskein vectors: %lu (%lu trees walked, %lu of them keyed), %lu hash_many batches\n", vectors_read,
           vectors_tree, vectors_keyed_tree, many_batches);
    free(text);
    free(group);
    return 1;
}

/* ---- against the reference code, plain hashing ---- */

static void test_peer(void) {
    static const size_t outs[] = {8, 160, 256, 511, 512, 1000, 1024, 2056};
    static const size_t lens[] = {0, 1, 63, 64, 65, 127, 128, 129, 1000, 4099};
    static const size_t splits[] = {0, 1, 13, 64, 128};
    unsigned long cases = 0;
    uint8_t *msg = message(5000);
    int k;
    for (k = 0; k < 2; k++) {
        int bits = k ? 1024 : 512;
        const api_t *a = ours(bits), *r = peer(bits);
        size_t o, l, s;
        for (o = 0; o < sizeof outs / sizeof *outs; o++)
            for (l = 0; l < sizeof lens / sizeof *lens; l++)
                for (s = 0; s < sizeof splits / sizeof *splits; s++) {
                    uint8_t x[300], y[300];
                    ctx_t c1, c2;
                    size_t n = (outs[o] + 7) / 8;
                    int rc = our_init(bits, &c1, outs[o]) | r->init_ext(&c2, outs[o], 0, NULL, 0);
                    rc |= update_split(a, &c1, msg, lens[l], splits[s]) | update_split(r, &c2, msg, lens[l], splits[s]);
                    /* the same fields in the same places */
                    CHECK(a->b_cnt(&c1) == r->b_cnt(&c2) && a->tweak(&c1, 0) == r->tweak(&c2, 0) &&
                              a->tweak(&c1, 1) == r->tweak(&c2, 1),
                          "peer fields: Skein-%d, %zu bytes", bits, lens[l]);
                    rc |= a->final(&c1, x) | r->final(&c2, y);
                    CHECK(rc == 0 && memcmp(x, y, n) == 0, "peer: Skein-%d-%zu, %zu bytes, split %zu", bits, outs[o],
                          lens[l], splits[s]);
                    cases++;
                }
    }
    /* bit lengths through both NIST layers */
    {
        size_t bits;
        for (bits = 0; bits < 2100; bits += 37) {
            uint8_t x[300], y[300];
            int hb = (int)outs[bits % 8];
            int rc = Hash(hb, msg, bits, x) | ref_nist_hash(hb, msg, bits, y);
            CHECK(rc == 0 && memcmp(x, y, (size_t)(hb + 7) / 8) == 0, "peer NIST: %d-bit, %zu bits", hb, bits);
            cases++;
        }
    }
    printf("reference peer: %lu comparisons\n", cases);
    free(msg);
}

/* ---- the ZFS checksum: Skein-512-256 keyed with a 32-byte salt ---- */

static void test_zfs_pattern(void) {
    uint8_t salt[32], *blocks = message(8 * 131072), out[32], want[8 * 32];
    Skein_512_Ctxt_t tmpl, saved, c;
    const uint8_t *msgs[8];
    size_t lens[8], i;
    skein_simd_params_t p;
    for (i = 0; i < 32; i++) salt[i] = (uint8_t)(0xA5 ^ i);
    CHECK(Skein_512_InitExt(&tmpl, 256, SKEIN_CFG_TREE_INFO_SEQUENTIAL, salt, sizeof salt) == SKEIN_SUCCESS, "InitExt");
    saved = tmpl;
    for (i = 0; i < 8; i++) msgs[i] = blocks + i * 131072, lens[i] = (size_t)512 << i; /* 512 B .. 64 KiB */
    memset(&p, 0, sizeof p);
    p.hashBitLen = 256, p.key = salt, p.keyBytes = sizeof salt;
    CHECK(skein_simd_512_hash_many(&p, msgs, lens, 8, want) == SKEIN_SUCCESS, "hash_many");
    for (i = 0; i < 8; i++) {
        Skein_512_Ctxt_t fresh;
        uint8_t alone[32];
        c = tmpl; /* the template, copied by assignment */
        Skein_512_Update(&c, msgs[i], lens[i]);
        Skein_512_Final(&c, out);
        Skein_512_InitExt(&fresh, 256, SKEIN_CFG_TREE_INFO_SEQUENTIAL, salt, sizeof salt);
        Skein_512_Update(&fresh, msgs[i], lens[i]);
        Skein_512_Final(&fresh, alone);
        CHECK(memcmp(out, alone, 32) == 0 && memcmp(out, want + 32 * i, 32) == 0, "ZFS pattern, block %zu", i);
    }
    CHECK(memcmp(&tmpl, &saved, sizeof tmpl) == 0, "the template is unchanged by its copies");
    /* a copy taken mid-message continues on its own */
    {
        uint8_t a1[32], b1[32], a2[32], b2[32];
        Skein_512_Ctxt_t x = tmpl, y;
        Skein_512_Update(&x, blocks, 100);
        y = x;
        Skein_512_Update(&x, blocks + 100, 50);
        Skein_512_Update(&y, blocks + 100, 51);
        Skein_512_Final(&x, a1), Skein_512_Final(&y, b1);
        x = tmpl, Skein_512_Update(&x, blocks, 150), Skein_512_Final(&x, a2);
        y = tmpl, Skein_512_Update(&y, blocks, 151), Skein_512_Final(&y, b2);
        CHECK(memcmp(a1, a2, 32) == 0 && memcmp(b1, b2, 32) == 0 && memcmp(a1, b1, 32) != 0, "mid-message copy");
    }
    free(blocks);
}

/* ---- hash_many_from: many messages continuing one context ---- */

static int many_from(int bits, const void *ctx, const uint8_t *const *msgs, const size_t *lens, size_t count,
                     uint8_t *out) {
    switch (bits) {
    case 256: return skein_simd_256_hash_many_from((const Skein_256_Ctxt_t *)ctx, msgs, lens, count, out);
    case 512: return skein_simd_512_hash_many_from((const Skein_512_Ctxt_t *)ctx, msgs, lens, count, out);
    default: return skein_simd_1024_hash_many_from((const Skein1024_Ctxt_t *)ctx, msgs, lens, count, out);
    }
}

/* Each result against a copy of the context + Update + Final, and, for
 * Skein-512 and -1024 unkeyed, against the reference fed prefix || suffix. */
static void test_many_from(void) {
    static const size_t outs[] = {0 /* the state size */, 160, 2056};
    uint8_t *data = message(6000), key[40];
    unsigned long cases = 0;
    int k, keyed;
    for (k = 0; k < 32; k++) key[k] = (uint8_t)(3 * k + 1);
    for (k = 0; k < 3; k++)
        for (keyed = 0; keyed < 2; keyed++) {
            int bits = 256 << k;
            size_t B = (size_t)bits / 8, o;
            size_t prefixes[] = {0, 1, B - 1, B, B + 1, 2 * B, 3 * B + 5};
            /* With empty ones, and none empty (the buffered block once). */
            size_t mixed[] = {0, 1, 16, B - 1, B, B + 1, 2 * B + 3, 100, 0, 16, 16, 700};
            size_t full[] = {16, 16, 16, 16, 16, 16, 16, 16, 16, 1, B, 3 * B};
            const api_t *a = ours(bits), *r = keyed ? NULL : peer(bits);
            for (o = 0; o < sizeof outs / sizeof *outs; o++) {
                size_t hb = outs[o] ? outs[o] : (size_t)bits, n = (hb + 7) / 8, p, batch;
                for (p = 0; p < sizeof prefixes / sizeof *prefixes; p++)
                    for (batch = 0; batch < 2; batch++) {
                        const size_t *lens = batch ? full : mixed;
                        const uint8_t *msgs[12];
                        uint8_t got[12 * 257], want[257];
                        ctx_t c, saved, one;
                        size_t i, at = 3000;
                        int rc = keyed ? a->init_ext(&c, hb, 0, key, sizeof key) : our_init(bits, &c, hb);
                        rc |= a->update(&c, data, prefixes[p]);
                        for (i = 0; i < 12; i++) msgs[i] = data + at, at += lens[i];
                        saved = c;
                        rc |= many_from(bits, &c, msgs, lens, 12, got);
                        CHECK(rc == 0 && memcmp(&c, &saved, sizeof c) == 0, "many_from: context unchanged");
                        for (i = 0; i < 12; i++) {
                            assign(bits, &one, &saved);
                            rc = a->update(&one, msgs[i], lens[i]) | a->final(&one, want);
                            CHECK(rc == 0 && memcmp(got + i * n, want, n) == 0,
                                  "many_from: Skein-%d-%zu%s, prefix %zu, suffix %zu (%zu bytes) vs a copy", bits, hb,
                                  keyed ? " keyed" : "", prefixes[p], i, lens[i]);
                            if (r) {
                                rc = r->init_ext(&one, hb, 0, NULL, 0) | r->update(&one, data, prefixes[p]) |
                                     r->update(&one, msgs[i], lens[i]) | r->final(&one, want);
                                CHECK(rc == 0 && memcmp(got + i * n, want, n) == 0,
                                      "many_from: Skein-%d-%zu, prefix %zu, suffix %zu (%zu bytes) vs reference", bits,
                                      hb, prefixes[p], i, lens[i]);
                            }
                            cases++;
                        }
                    }
            }
        }
    {
        /* refusals, as Update refuses: no context, one no init made */
        Skein_512_Ctxt_t zero;
        const uint8_t *m = data;
        size_t len = 1;
        uint8_t out[64];
        memset(&zero, 0, sizeof zero);
        CHECK(skein_simd_512_hash_many_from(NULL, &m, &len, 1, out) == SKEIN_FAIL, "many_from: NULL context");
        CHECK(skein_simd_512_hash_many_from(&zero, &m, &len, 1, out) == SKEIN_FAIL, "many_from: zeroed context");
        Skein_512_Init(&zero, 512);
        CHECK(skein_simd_512_hash_many_from(&zero, NULL, NULL, 0, NULL) == SKEIN_SUCCESS, "many_from: nothing");
        CHECK(skein_simd_512_hash_many_from(&zero, &m, &len, 1, (uint8_t *)data) == SKEIN_FAIL,
              "many_from: a message overlapping the results");
    }
    printf("hash_many_from: %lu comparisons\n", cases);
    free(data);
}

/* ---- keyed trees: InitExt's walk against the library's tree hashing ---- */

static void test_keyed_tree(void) {
    static const unsigned trees[][3] = {{1, 1, 2}, {1, 2, 3}, {2, 1, 255}, {3, 3, 4}};
    uint8_t key[40], *msg = message(9000);
    size_t t, l, i;
    int k;
    for (i = 0; i < sizeof key; i++) key[i] = (uint8_t)(3 * i + 1);
    for (k = 0; k < 3; k++) {
        int bits = 256 << k;
        const api_t *a = ours(bits);
        for (t = 0; t < 4; t++)
            for (l = 0; l < 4; l++) {
                size_t len = (size_t[]){0, 100, 2048, 9000}[l];
                uint64_t info = SKEIN_CFG_TREE_INFO(trees[t][0], trees[t][1], trees[t][2]);
                uint8_t walked[64], whole[64];
                skein_simd_params_t p;
                ctx_t g;
                int rc = a->init_ext(&g, 384, info, key, sizeof key);
                rc |= tree_hash(a, &g, trees[t][0], trees[t][1], trees[t][2], msg, len, walked);
                memset(&p, 0, sizeof p);
                p.hashBitLen = 384, p.treeInfo = info, p.key = key, p.keyBytes = sizeof key;
                rc |= hash_many(bits, &p, (const uint8_t *const *)&msg, &len, 1, whole);
                CHECK(rc == SKEIN_SUCCESS && memcmp(walked, whole, 48) == 0, "keyed tree: Skein-%d, tree %u,%u,%u, %zu bytes",
                      bits, trees[t][0], trees[t][1], trees[t][2], len);
            }
    }
    free(msg);
}

/* ---- return codes and the extension's introspection ---- */

static void test_edges(void) {
    Skein_512_Ctxt_t c;
    hashState s;
    uint8_t out[64], bad[64];
    skein_simd_params_t p;
    const uint8_t *none = NULL;
    size_t zero = 0;
    CHECK(Skein_512_Init(&c, 0) == SKEIN_BAD_HASHLEN, "Init(0)");
    CHECK(Skein_512_Init(NULL, 512) == SKEIN_FAIL, "Init(NULL)");
    CHECK(Skein_512_Init(&c, 512) == SKEIN_SUCCESS && Skein_512_Update(&c, NULL, 0) == SKEIN_SUCCESS, "Update(NULL, 0)");
    CHECK(Skein_512_Update(&c, NULL, 1) == SKEIN_FAIL, "Update(NULL, 1)");
    c.h.bCnt = 65;
    CHECK(Skein_512_Update(&c, out, 1) == SKEIN_FAIL && Skein_512_Final(&c, out) == SKEIN_FAIL, "bad bCnt");
    CHECK(Init(&s, 0) == BAD_HASHLEN && Init(&s, -8) == BAD_HASHLEN, "NIST Init(0)");
    CHECK(Init(&s, 256) == SUCCESS && s.statebits == 512 && Init(&s, 513) == SUCCESS && s.statebits == 1024,
          "NIST state size");
    Init(&s, 512);
    CHECK(Update(&s, out, 13) == SUCCESS && Update(&s, out, 8) == FAIL && Update(&s, out, 0) == SUCCESS,
          "NIST: nothing after a partial byte");
    memset(&p, 0, sizeof p);
    p.hashBitLen = 512;
    CHECK(skein_simd_512_init_params(&c, &p) == SKEIN_SUCCESS && Skein_512_Final(&c, out) == SKEIN_SUCCESS, "init_params");
    Skein_512_Init(&c, 512), Skein_512_Final(&c, bad);
    CHECK(memcmp(out, bad, 64) == 0, "init_params without arguments is Init");
    CHECK(skein_simd_512_init_params(&c, NULL) == SKEIN_FAIL, "init_params(NULL)");
    p.keyBytes = 3;
    CHECK(skein_simd_512_init_params(&c, &p) == SKEIN_FAIL, "init_params with a NULL key of 3 bytes");
    p.keyBytes = 0, p.treeInfo = SKEIN_CFG_TREE_INFO(1, 1, 1);
    CHECK(skein_simd_512_hash_many(&p, &none, &zero, 1, out) == SKEIN_FAIL, "hash_many: tree height 1");
    p.treeInfo = 0;
    CHECK(skein_simd_512_hash_many(&p, NULL, NULL, 0, NULL) == SKEIN_SUCCESS, "hash_many of nothing");
    p.hashBitLen = 0;
    CHECK(skein_simd_512_hash_many(&p, &none, &zero, 1, out) == SKEIN_BAD_HASHLEN, "hash_many: 0 bits");
    CHECK(skein_simd_backend(512) != NULL && skein_simd_backend(100) == NULL, "skein_simd_backend");
    CHECK(skein_simd_many_lanes(256) >= 1 && skein_simd_many_lanes(7) == 0, "skein_simd_many_lanes");
    printf("libskein_simd %s: backends %s / %s / %s, hash_many on %s with %zu lanes (Skein-512)\n", skein_simd_version(),
           skein_simd_backend(256), skein_simd_backend(512), skein_simd_backend(1024), skein_simd_many_backend(512),
           skein_simd_many_lanes(512));
}

/* ---- hostile input: corrupted contexts, huge lengths, overlap, fork ---- */

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

/* hash_many of no messages returns at once, whatever the output length. */
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

static void test_hostile(void) {
    test_nist_sizes();
    test_corrupted_contexts();
    test_huge_hash_len();
    in_child("hash_many of no messages with huge output lengths", many_of_nothing_check, NULL, 20);
    test_overlap();
    test_fork();
}

int main(int argc, char **argv) {
    int read_all;
    if (argc != 3) {
        fprintf(stderr, "usage: %s GOLDEN_KAT PYSKEIN_VECTORS\n", argv[0]);
        return 2;
    }
    /* More than one thread even on one core, so that hash_many's parallel
     * path and its thread pool are what the tests exercise. */
    setenv("RAYON_NUM_THREADS", "4", 0);
    test_layout();
    test_edges();
    test_hostile();
    read_all = test_golden(argv[1]);
    read_all &= test_pyskein(argv[2]);
    test_peer();
    test_zfs_pattern();
    test_keyed_tree();
    test_many_from();
    printf("c-api: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 && read_all ? 0 : 1;
}
