/*
 * insn_count.c - QEMU TCG plugin that counts executed guest instructions.
 *
 * Declares the QEMU plugin API (version 1, as shipped by QEMU 7.2 in
 * Debian 12) by hand, so no qemu headers or glib are needed:
 *
 *     gcc -shared -fPIC -O2 -o libinsn_count.so insn_count.c
 *     qemu-ppc -cpu 7450 -L /usr/powerpc-linux-gnu \
 *         -plugin ./libinsn_count.so -d plugin ./prog args...
 *
 * At exit it writes one line "insns: N" through qemu_plugin_outs(), i.e. to
 * QEMU's log: stderr by default, or the file given with -D.
 *
 * Counting: by default one inline "add n_insns" per translation block, done
 * when the block starts executing (cheap; exact unless a block is left in
 * the middle by a fault or interrupt, which does not happen in ordinary
 * user-mode code). Plugin argument "mode=insn" counts with one inline add
 * per executed instruction instead (exact, slower):
 *     -plugin ./libinsn_count.so,mode=insn
 * (the older spelling "arg=mode=insn" is accepted too; QEMU 7.2 warns that
 * it is deprecated).
 *
 * Plugin argument "mode=hist" counts per instruction, keyed by mnemonic
 * (the first word of qemu_plugin_insn_disas(), with a trailing "." of the
 * record forms kept), and at exit writes one line "mnem: NAME N" per
 * mnemonic executed, then the "insns: N" total:
 *     -plugin ./libinsn_count.so,mode=hist
 * (tools/bench/g4-viu1-table.sh sums the lines of one execution unit's mnemonics).
 *
 * The counter is a single non-atomic uint64_t: exact for single-threaded
 * guests; for multi-threaded guests concurrent vCPU threads may lose
 * updates.
 */
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- QEMU plugin API v1 (subset), declared by hand ---- */
#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

typedef struct qemu_info_t {
    const char *target_name;
    struct {
        int min;
        int cur;
    } version;
    bool system_emulation;
    union {
        struct {
            int smp_vcpus;
            int max_vcpus;
        } system;
    };
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_op {
    QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
                                               struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

extern void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                                  qemu_plugin_vcpu_tb_trans_cb_t cb);
extern void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
                                                     enum qemu_plugin_op op,
                                                     void *ptr, uint64_t imm);
extern void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
                                                       enum qemu_plugin_op op,
                                                       void *ptr, uint64_t imm);
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
extern struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
                                                        size_t idx);
extern void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
                                           qemu_plugin_udata_cb_t cb,
                                           void *userdata);
extern void qemu_plugin_outs(const char *string);
extern char *qemu_plugin_insn_disas(const struct qemu_plugin_insn *insn);

/* ---- the plugin ---- */
QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

static uint64_t insn_count;
static bool per_insn;
static bool histogram;

/* mode=hist: one counter per mnemonic, found by linear search at translation
 * time only (a few hundred distinct mnemonics at most). Never freed: the
 * inline adds point into it until exit. */
struct mnem_count {
    char name[24];
    uint64_t count;
};
#define MAX_MNEMS 1024
static struct mnem_count mnems[MAX_MNEMS];
static size_t n_mnems;
static uint64_t other_count; /* mnemonics beyond MAX_MNEMS */

static uint64_t *mnem_counter(const struct qemu_plugin_insn *insn)
{
    char *text = qemu_plugin_insn_disas(insn);
    char name[24];
    size_t len = 0;
    const char *p = text ? text : "?";
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    while (p[len] && p[len] != ' ' && p[len] != '\t' && len < sizeof name - 1) {
        name[len] = p[len];
        len++;
    }
    name[len] = 0;
    if (len == 0) {
        strcpy(name, "?");
    }
    free(text); /* g_free and free are the same allocator since glib 2.46 */
    for (size_t i = 0; i < n_mnems; i++) {
        if (strcmp(mnems[i].name, name) == 0) {
            return &mnems[i].count;
        }
    }
    if (n_mnems == MAX_MNEMS) {
        return &other_count;
    }
    strcpy(mnems[n_mnems].name, name);
    return &mnems[n_mnems++].count;
}

static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    (void)id;
    if (histogram) {
        for (size_t i = 0; i < n; i++) {
            struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
            qemu_plugin_register_vcpu_insn_exec_inline(
                insn, QEMU_PLUGIN_INLINE_ADD_U64, mnem_counter(insn), 1);
            qemu_plugin_register_vcpu_insn_exec_inline(
                insn, QEMU_PLUGIN_INLINE_ADD_U64, &insn_count, 1);
        }
    } else if (per_insn) {
        for (size_t i = 0; i < n; i++) {
            struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
            qemu_plugin_register_vcpu_insn_exec_inline(
                insn, QEMU_PLUGIN_INLINE_ADD_U64, &insn_count, 1);
        }
    } else {
        qemu_plugin_register_vcpu_tb_exec_inline(
            tb, QEMU_PLUGIN_INLINE_ADD_U64, &insn_count, n);
    }
}

static void plugin_exit(qemu_plugin_id_t id, void *p)
{
    char buf[64];
    (void)id;
    (void)p;
    if (histogram) {
        char line[96];
        for (size_t i = 0; i < n_mnems; i++) {
            snprintf(line, sizeof line, "mnem: %.23s %llu\n", mnems[i].name,
                     (unsigned long long)mnems[i].count);
            qemu_plugin_outs(line);
        }
        if (other_count) {
            snprintf(line, sizeof line, "mnem: (other) %llu\n",
                     (unsigned long long)other_count);
            qemu_plugin_outs(line);
        }
    }
    snprintf(buf, sizeof buf, "insns: %llu\n", (unsigned long long)insn_count);
    qemu_plugin_outs(buf);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "arg=", 4) == 0) {
            a += 4;
        }
        if (strcmp(a, "mode=insn") == 0) {
            per_insn = true;
            histogram = false;
        } else if (strcmp(a, "mode=hist") == 0) {
            histogram = true;
        } else if (strcmp(a, "mode=tb") == 0) {
            per_insn = false;
            histogram = false;
        } else {
            fprintf(stderr, "insn_count: unknown argument '%s' "
                            "(expected mode=tb, mode=insn or mode=hist)\n", argv[i]);
            return -1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
    qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
    return 0;
}
