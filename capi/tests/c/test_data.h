/* The C tests' data files and messages, shared by skein_test.c and
 * libmd_test.c: the golden KAT file's entries, pyskein's vectors
 * (tests/data/pyskein_vectors.txt) and the message pattern they use. */
#ifndef TEST_DATA_H
#define TEST_DATA_H

#include <stddef.h>
#include <stdint.h>

/* calloc, or exit(2) with a message. */
void *xmalloc(size_t n);

/* A whole file, NUL-terminated (its size in *size when size is not NULL),
 * or NULL when it cannot be read. Free it with free(). */
char *read_file(const char *path, size_t *size);

/* The next line of a text buffer (the buffer is modified), or NULL. */
char *next_line(char **cursor);

/* Append the hex byte pairs of `s` to buf (at most cap bytes in all). */
size_t append_hex(const char *s, uint8_t *buf, size_t len, size_t cap);

/* ---- the golden KAT file ---- */

typedef struct {
    int state, has_key, tree;
    size_t out_bits, msg_bits, msg_len, key_len, result_len;
    unsigned leaf, node, max_level;
    uint8_t msg[4096], key[512], result[512];
} kat_t;

/* The next entry: 1, or 0 at the end, or -1 for a malformed one. */
int next_kat(char **cursor, kat_t *e);

/* visit(e) for each entry of the golden KAT file at `path`, in order, with
 * their count in *entries: 1 when all were read, 0 at a malformed entry, -1
 * when the file cannot be read. */
int for_each_kat(const char *path, void (*visit)(const kat_t *e), unsigned long *entries);

/* ---- pyskein's vectors (the reference C code through pyskein) ---- */

/* One line: state output_bits msg_len key pers public_key key_id nonce tree
 * digest; the message is message(msg_len). */
typedef struct {
    int state, tree;
    size_t bits, len, field_len[5], digest_len;
    unsigned leaf, node, max_level;
    uint8_t field[5][256], digest[512]; /* key, pers, public key, key id, nonce */
} vec_t;

/* 1 for a well-formed line (modified by the parsing), else 0. */
int parse_vector(char *line, vec_t *v);

/* The vectors' message of `len` bytes, (7 i + 3) mod 256, from xmalloc. */
uint8_t *message(size_t len);

#endif
