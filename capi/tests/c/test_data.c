/* See test_data.h. */
#include "test_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xmalloc(size_t n) {
    void *p = calloc(n ? n : 1, 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

static int hex_value(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    char *text;
    long n;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = xmalloc((size_t)n + 1);
    if (fread(text, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(text);
        return NULL;
    }
    text[n] = 0;
    fclose(f);
    if (size) *size = (size_t)n;
    return text;
}

char *next_line(char **cursor) {
    char *line = *cursor, *end;
    size_t n;
    if (!line || !*line) return NULL;
    end = strchr(line, '\n');
    if (end) {
        *end = 0;
        *cursor = end + 1;
    } else {
        *cursor = line + strlen(line);
    }
    n = strlen(line);
    if (n && line[n - 1] == '\r') line[n - 1] = 0;
    return line;
}

size_t append_hex(const char *s, uint8_t *buf, size_t len, size_t cap) {
    while (*s && len < cap) {
        int hi = hex_value((unsigned char)s[0]), lo;
        if (hi < 0) {
            s++;
            continue;
        }
        lo = hex_value((unsigned char)s[1]);
        if (lo < 0) break;
        buf[len++] = (uint8_t)(hi << 4 | lo);
        s += 2;
    }
    return len;
}

int next_kat(char **cursor, kat_t *e) {
    char *line;
    int section = 0; /* 1 message, 2 key, 3 result */
    memset(e, 0, offsetof(kat_t, msg));
    for (;;) {
        char *tree;
        if (!(line = next_line(cursor))) return 0;
        if (strncmp(line, ":Skein-", 7) != 0) continue;
        if (sscanf(line, ":Skein-%d: %zu-bit hash, msgLen = %zu bits", &e->state, &e->out_bits, &e->msg_bits) != 3)
            return -1;
        if ((tree = strstr(line, "Tree:")) != NULL) {
            e->tree = 1;
            if (sscanf(tree, "Tree: leaf=%x, node=%x, maxLevels=%x", &e->leaf, &e->node, &e->max_level) != 3)
                return -1;
        }
        break;
    }
    while ((line = next_line(cursor)) != NULL) {
        if (strncmp(line, "----", 4) == 0) {
            int ok = e->msg_len == (e->msg_bits + 7) / 8 && e->result_len == (e->out_bits + 7) / 8;
            return ok ? 1 : -1;
        }
        if (strncmp(line, "Message data:", 13) == 0) section = 1;
        else if (strncmp(line, "MAC key", 7) == 0) section = 2, e->has_key = 1;
        else if (strncmp(line, "Result:", 7) == 0) section = 3;
        else if (strstr(line, "(none)")) continue;
        else if (section == 1) e->msg_len = append_hex(line, e->msg, e->msg_len, sizeof e->msg);
        else if (section == 2) e->key_len = append_hex(line, e->key, e->key_len, sizeof e->key);
        else if (section == 3) e->result_len = append_hex(line, e->result, e->result_len, sizeof e->result);
    }
    return -1;
}

int for_each_kat(const char *path, void (*visit)(const kat_t *e), unsigned long *entries) {
    kat_t *e;
    char *text = read_file(path, NULL), *cursor = text;
    int r;
    *entries = 0;
    if (!text) return -1;
    e = xmalloc(sizeof *e);
    while ((r = next_kat(&cursor, e)) == 1) {
        ++*entries;
        visit(e);
    }
    free(text);
    free(e);
    return r == 0;
}

int parse_vector(char *line, vec_t *v) {
    char *tok[10];
    int n = 0, i;
    memset(v, 0, sizeof *v);
    while (n < 10 && (tok[n] = strtok(n ? NULL : line, " ")) != NULL) n++;
    if (n != 10) return 0;
    v->state = atoi(tok[0]);
    v->bits = (size_t)strtoul(tok[1], NULL, 10);
    v->len = (size_t)strtoul(tok[2], NULL, 10);
    for (i = 0; i < 5; i++)
        if (strcmp(tok[3 + i], "-") != 0) v->field_len[i] = append_hex(tok[3 + i], v->field[i], 0, 256);
    if (strcmp(tok[8], "-") != 0) {
        v->tree = 1;
        if (sscanf(tok[8], "%u,%u,%u", &v->leaf, &v->node, &v->max_level) != 3) return 0;
    }
    v->digest_len = append_hex(tok[9], v->digest, 0, sizeof v->digest);
    return v->digest_len == (v->bits + 7) / 8;
}

uint8_t *message(size_t len) {
    uint8_t *m = xmalloc(len);
    size_t i;
    for (i = 0; i < len; i++) m[i] = (uint8_t)(7 * i + 3);
    return m;
}
