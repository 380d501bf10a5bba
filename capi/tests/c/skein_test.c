/*
 * C tests of libskein_simd, written against its headers only (skein.h,
 * SHA3api_ref.h, skein_simd.h), linked statically or dynamically, run on the
 * host and on 32-bit PowerPC under QEMU.
 *
 *   skein_test GOLDEN_KAT PYSKEIN_VECTORS
 *
 * Built from this file, our_api.c (libskein_simd behind the api_t table),
 * hostile.c (hostile input, each case that crashed or hung an earlier build
 * in a child process), check.c, test_data.c and ref_peer.c. Expected values
 * come from the official golden KAT file, from pyskein's vectors (the
 * reference C code), and from the reference C code itself compiled in as a
 * peer (ref_peer.c). The last line is "c-api: N passed, M failed"; the exit
 * status is 0 only with no failure and every data file read.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "SHA3api_ref.h"
#include "skein.h"
#include "skein_simd.h"

#include "capi_test.h"
#include "skein_test.h"
#include "test_data.h"
#include "check.h"
#include "layout.h"

/* ---- feeding a context ---- */

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
    static const size_t outs[] = {8, 160, 256, 511, 512, 1000, 1024, 2056, 4200};
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
                    uint8_t x[600], y[600], z[600];
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
                    /* Final leaves the context as the reference's: the output
                     * tweak after its block, an empty buffer, and the chaining
                     * value, from which Output gives the same bytes again */
                    CHECK(a->b_cnt(&c1) == r->b_cnt(&c2) && a->tweak(&c1, 0) == r->tweak(&c2, 0) &&
                              a->tweak(&c1, 1) == r->tweak(&c2, 1),
                          "peer fields after Final: Skein-%d-%zu, %zu bytes", bits, outs[o], lens[l]);
                    rc = a->output(&c1, z);
                    CHECK(rc == 0 && memcmp(z, y, n) == 0, "Output after Final: Skein-%d-%zu, %zu bytes", bits,
                          outs[o], lens[l]);
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
        /* the context is checked before the count (the header's promise) */
        CHECK(skein_simd_512_hash_many_from(NULL, NULL, NULL, 0, NULL) == SKEIN_FAIL, "many_from: NULL context, nothing");
        CHECK(skein_simd_512_hash_many_from(&zero, NULL, NULL, 0, NULL) == SKEIN_FAIL, "many_from: zeroed context, nothing");
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

/* ---- subtree hashing: ranges hashed apart, merged, against the walk ---- */

static void test_subtrees(void) {
    static const unsigned trees[][3] = {{1, 1, 2}, {1, 2, 3}, {2, 1, 255}, {1, 3, 255}};
    uint8_t key[20], *msg = message(20000);
    size_t t, l, i, parts, cases = 0;
    int k;
    for (i = 0; i < sizeof key; i++) key[i] = (uint8_t)(7 * i + 5);
    for (k = 0; k < 3; k++) {
        int bits = 256 << k;
        const api_t *a = ours(bits);
        for (t = 0; t < 4; t++)
            for (l = 0; l < 5; l++) {
                size_t len = (size_t[]){0, 1, 2 * (size_t)bits, 5000, 20000}[l];
                uint64_t info = SKEIN_CFG_TREE_INFO(trees[t][0], trees[t][1], trees[t][2]);
                uint8_t walked[64];
                skein_simd_params_t p;
                skein_simd_object_tree_t *tree = NULL;
                ctx_t g;
                int rc = a->init_ext(&g, 392, info, key, sizeof key);
                rc |= tree_hash(a, &g, trees[t][0], trees[t][1], trees[t][2], msg, len, walked);
                memset(&p, 0, sizeof p);
                p.hashBitLen = 392, p.treeInfo = info, p.key = key, p.keyBytes = sizeof key;
                rc |= skein_simd_object_tree_new((size_t)bits, &p, len, &tree);
                for (parts = 1; parts <= 4 && rc == SKEIN_SUCCESS; parts++) {
                    skein_simd_subtree_range_t ranges[4];
                    uint8_t *values[4];
                    size_t lens[4], n = skein_simd_object_tree_split(tree, parts, ranges, 4), r;
                    uint8_t merged[49];
                    CHECK(n >= 1 && n <= parts, "split: %zu ranges for %zu parts", n, parts);
                    for (r = 0; r < n; r++) {
                        lens[r] = skein_simd_subtree_values_len(tree, &ranges[r]);
                        values[r] = malloc(lens[r]);
                        rc |= skein_simd_subtree_hash(tree, &ranges[r], msg + ranges[r].start,
                                                      (size_t)(ranges[r].end - ranges[r].start), values[r], lens[r]);
                    }
                    memset(merged, 0xAA, sizeof merged);
                    rc |= skein_simd_object_tree_root(tree, (const uint8_t *const *)values, lens, n, merged);
                    CHECK(rc == SKEIN_SUCCESS && memcmp(walked, merged, 49) == 0,
                          "subtrees: Skein-%d, tree %u,%u,%u, %zu bytes, %zu parts", bits, trees[t][0], trees[t][1],
                          trees[t][2], len, parts);
                    if (n > 1) {
                        CHECK(skein_simd_object_tree_root(tree, (const uint8_t *const *)values, lens, n - 1, merged) ==
                                  SKEIN_FAIL,
                              "subtrees: a missing range");
                        CHECK(skein_simd_subtree_hash(tree, &ranges[0], msg, (size_t)(ranges[0].end - 1), values[0],
                                                      lens[0]) == SKEIN_FAIL,
                              "subtrees: a short range");
                    }
                    for (r = 0; r < n; r++) free(values[r]);
                    cases++;
                }
                skein_simd_object_tree_free(tree);
            }
    }
    {
        skein_simd_params_t p;
        skein_simd_object_tree_t *tree = NULL;
        memset(&p, 0, sizeof p);
        p.hashBitLen = 512;
        CHECK(skein_simd_object_tree_new(512, &p, 10, &tree) == SKEIN_FAIL && tree == NULL, "subtrees: no tree word");
        p.treeInfo = SKEIN_CFG_TREE_INFO(1, 1, 255);
        CHECK(skein_simd_object_tree_new(384, &p, 10, &tree) == SKEIN_FAIL, "subtrees: a bad state size");
        p.hashBitLen = 0;
        CHECK(skein_simd_object_tree_new(512, &p, 10, &tree) == SKEIN_BAD_HASHLEN, "subtrees: 0 bits");
        CHECK(skein_simd_object_tree_split(NULL, 2, NULL, 0) == 0, "subtrees: split(NULL)");
        skein_simd_object_tree_free(NULL);
    }
    printf("subtrees: %zu split-and-merge comparisons\n", cases);
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
    test_subtrees();
    test_many_from();
    printf("c-api: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 && read_all ? 0 : 1;
}
