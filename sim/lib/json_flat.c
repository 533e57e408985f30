/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json_flat.c - a recursive-descent JSON reader that flattens a document
 * into dotted keys and values (see json_flat.h).
 */
#include "lib/json_flat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"

/* The reader's state: the text, where it is, the key of the value being
 * read (a growable buffer), and the first error. */
struct jp {
    const char *s;
    size_t len, pos;
    char *key;
    size_t keylen, keycap;
    int depth;
    struct json_flat *out;
    char *err;
    size_t errlen;
    int failed;
};

static void jp_fail(struct jp *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Record the first error with its line and column (1-based). */
static void jp_fail(struct jp *p, const char *fmt, ...)
{
    size_t line = 1, col = 1, k;
    char msg[256];
    va_list ap;

    if (p->failed)
        return;
    p->failed = 1;
    for (k = 0; k < p->pos && k < p->len; k++, col++)
        if (p->s[k] == '\n') {
            line++;
            col = 0;
        }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(p->err, p->errlen, "line %zu, column %zu: %s", line, col, msg);
}

void json_flat_init(struct json_flat *f)
{
    memset(f, 0, sizeof(*f));
}

void json_flat_free(struct json_flat *f)
{
    for (size_t k = 0; k < f->n; k++) {
        free(f->items[k].key);
        free(f->items[k].text);
    }
    free(f->items);
    json_flat_init(f);
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);

    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

int json_flat_add(struct json_flat *f, const char *key, enum json_flat_type type,
                  const char *text)
{
    struct json_flat_item *it;

    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        struct json_flat_item *ni = realloc(f->items, cap * sizeof(*ni));
        if (!ni)
            return -1;
        f->items = ni;
        f->cap = cap;
    }
    it = &f->items[f->n];
    it->key = dup_n(key, strlen(key));
    it->text = dup_n(text, strlen(text));
    it->type = type;
    if (!it->key || !it->text) {
        free(it->key);
        free(it->text);
        return -1;
    }
    f->n++;
    return 0;
}

const struct json_flat_item *json_flat_get(const struct json_flat *f, const char *key)
{
    for (size_t k = 0; k < f->n; k++)
        if (strcmp(f->items[k].key, key) == 0)
            return &f->items[k];
    return NULL;
}

/* ---- the key of the value being read ----------------------------------- */

/* Append ".name" (or "name" at the top) to the key: the old length, or
 * (size_t)-1 out of memory. */
static size_t key_push(struct jp *p, const char *name, size_t n)
{
    size_t old = p->keylen, need = old + n + 2;

    if (need > p->keycap) {
        size_t cap = need * 2;
        char *nk = realloc(p->key, cap);
        if (!nk)
            return (size_t)-1;
        p->key = nk;
        p->keycap = cap;
    }
    if (old)
        p->key[p->keylen++] = '.';
    memcpy(p->key + p->keylen, name, n);
    p->keylen += n;
    p->key[p->keylen] = '\0';
    return old;
}

static void key_pop(struct jp *p, size_t old)
{
    p->keylen = old;
    if (p->key)
        p->key[old] = '\0';
}

/* ---- lexing --------------------------------------------------------------- */

static void skip_ws(struct jp *p)
{
    while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos])
        p->pos++;
}

static int peek(struct jp *p)
{
    skip_ws(p);
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int expect(struct jp *p, char c)
{
    if (peek(p) != (unsigned char)c) {
        jp_fail(p, "expected '%c'", c);
        return -1;
    }
    p->pos++;
    return 0;
}

static int hex4(struct jp *p, unsigned *v)
{
    *v = 0;
    for (int k = 0; k < 4; k++) {
        char c = p->pos < p->len ? p->s[p->pos] : '\0';
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) {
            jp_fail(p, "bad \\u escape");
            return -1;
        }
        *v = *v * 16 + (unsigned)d;
        p->pos++;
    }
    return 0;
}

/* Code point cp as UTF-8 into buf: its length. */
static size_t utf8_put(unsigned long cp, char *buf)
{
    if (cp < 0x80) {
        buf[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        buf[0] = (char)(0xc0 | (cp >> 6));
        buf[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        buf[0] = (char)(0xe0 | (cp >> 12));
        buf[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        buf[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    buf[0] = (char)(0xf0 | (cp >> 18));
    buf[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    buf[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    buf[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* After "\u": one code point, a surrogate pair taken whole. */
static int unicode_escape(struct jp *p, char *buf, size_t *n)
{
    unsigned hi, lo;

    if (hex4(p, &hi) != 0)
        return -1;
    if (hi >= 0xdc00 && hi <= 0xdfff) {
        jp_fail(p, "unpaired surrogate in \\u escape");
        return -1;
    }
    if (hi >= 0xd800 && hi <= 0xdbff) {
        if (p->pos + 2 > p->len || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u') {
            jp_fail(p, "unpaired surrogate in \\u escape");
            return -1;
        }
        p->pos += 2;
        if (hex4(p, &lo) != 0)
            return -1;
        if (lo < 0xdc00 || lo > 0xdfff) {
            jp_fail(p, "unpaired surrogate in \\u escape");
            return -1;
        }
        *n = utf8_put(0x10000 + (((unsigned long)hi - 0xd800) << 10) + (lo - 0xdc00), buf);
        return 0;
    }
    if (hi == 0) {
        jp_fail(p, "\\u0000 is not accepted");
        return -1;
    }
    *n = utf8_put(hi, buf);
    return 0;
}

/* One escape after '\': its bytes into buf. */
static int escape(struct jp *p, char *buf, size_t *n)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    char c = p->pos < p->len ? p->s[p->pos++] : '\0';
    const char *k = c ? strchr(from, c) : NULL;

    if (c == 'u')
        return unicode_escape(p, buf, n);
    if (!k) {
        jp_fail(p, "bad escape in a string");
        return -1;
    }
    buf[0] = to[k - from];
    *n = 1;
    return 0;
}

/* A string at pos (its '"' next): the unescaped text, malloc'd, or NULL. */
static char *read_string(struct jp *p)
{
    size_t cap = 32, n = 0;
    char *out, piece[4];

    if (expect(p, '"') != 0 || !(out = malloc(cap)))
        return NULL;
    for (;;) {
        size_t m = 1;
        unsigned char c = p->pos < p->len ? (unsigned char)p->s[p->pos] : 0;
        if (p->pos >= p->len || c < 0x20) {
            jp_fail(p, c ? "control character in a string" : "unterminated string");
            break;
        }
        p->pos++;
        if (c == '"') {
            out[n] = '\0';
            return out;
        }
        piece[0] = (char)c;
        if (c == '\\' && escape(p, piece, &m) != 0)
            break;
        if (n + m + 1 > cap) {
            char *no = realloc(out, cap *= 2);
            if (!no)
                break;
            out = no;
        }
        memcpy(out + n, piece, m);
        n += m;
    }
    free(out);
    return NULL;
}

/* ---- values --------------------------------------------------------------- */

static int read_value(struct jp *p);

/* One item under the current key; a repeated key is an error. */
static int emit(struct jp *p, enum json_flat_type type, const char *text)
{
    const char *key = p->key ? p->key : "";

    if (json_flat_get(p->out, key)) {
        jp_fail(p, "key '%s' appears twice", key);
        return -1;
    }
    if (json_flat_add(p->out, key, type, text) != 0) {
        jp_fail(p, "out of memory");
        return -1;
    }
    return 0;
}

static int read_literal(struct jp *p)
{
    static const char *const words[] = {"true", "false", "null"};

    for (int k = 0; k < 3; k++) {
        size_t n = strlen(words[k]);
        if (p->len - p->pos >= n && memcmp(p->s + p->pos, words[k], n) == 0) {
            p->pos += n;
            return emit(p, k < 2 ? JSON_FLAT_BOOL : JSON_FLAT_NULL, words[k]);
        }
    }
    jp_fail(p, "expected a value");
    return -1;
}

static int read_number(struct jp *p)
{
    size_t n = json_number_len(p->s + p->pos, p->len - p->pos);
    char *text;
    int rc;

    if (n == 0) {
        jp_fail(p, "bad number");
        return -1;
    }
    if (!(text = dup_n(p->s + p->pos, n))) {
        jp_fail(p, "out of memory");
        return -1;
    }
    p->pos += n;
    rc = emit(p, JSON_FLAT_NUM, text);
    free(text);
    return rc;
}

static int read_str_value(struct jp *p)
{
    char *text = read_string(p);
    int rc;

    if (!text)
        return -1;
    rc = emit(p, JSON_FLAT_STR, text);
    free(text);
    return rc;
}

/* The value at pos under name (n bytes) appended to the key. */
static int read_member(struct jp *p, const char *name, size_t n)
{
    size_t old = key_push(p, name, n);
    int rc;

    if (old == (size_t)-1) {
        jp_fail(p, "out of memory");
        return -1;
    }
    rc = read_value(p);
    key_pop(p, old);
    return rc;
}

static int read_object(struct jp *p)
{
    p->pos++; /* '{' */
    if (peek(p) == '}') {
        p->pos++;
        return 0;
    }
    for (;;) {
        char *name;
        int rc;
        if (peek(p) != '"') {
            jp_fail(p, "expected a member name");
            return -1;
        }
        if (!(name = read_string(p)))
            return -1;
        rc = expect(p, ':') == 0 ? read_member(p, name, strlen(name)) : -1;
        free(name);
        if (rc != 0)
            return -1;
        if (peek(p) == '}') {
            p->pos++;
            return 0;
        }
        if (expect(p, ',') != 0)
            return -1;
    }
}

static int read_array(struct jp *p)
{
    char idx[24];
    size_t i = 0;

    p->pos++; /* '[' */
    if (peek(p) == ']') {
        p->pos++;
        return 0;
    }
    for (;; i++) {
        int n = snprintf(idx, sizeof(idx), "%zu", i);
        if (read_member(p, idx, (size_t)n) != 0)
            return -1;
        if (peek(p) == ']') {
            p->pos++;
            return 0;
        }
        if (expect(p, ',') != 0)
            return -1;
    }
}

static int read_value(struct jp *p)
{
    int c = peek(p), rc;

    if (c == '{' || c == '[') {
        if (++p->depth > JSON_FLAT_DEPTH) {
            jp_fail(p, "nested deeper than %d", JSON_FLAT_DEPTH);
            return -1;
        }
        rc = c == '{' ? read_object(p) : read_array(p);
        p->depth--;
        return rc;
    }
    if (c == '"')
        return read_str_value(p);
    if (c == '-' || (c >= '0' && c <= '9'))
        return read_number(p);
    if (c < 0) {
        jp_fail(p, "unexpected end of the document");
        return -1;
    }
    return read_literal(p);
}

int json_flat_parse(struct json_flat *out, const char *text, size_t len, char *err, size_t errlen)
{
    struct jp p;

    memset(&p, 0, sizeof(p));
    p.s = text;
    p.len = len;
    p.out = out;
    p.err = err;
    p.errlen = errlen;
    json_flat_init(out);
    if (read_value(&p) == 0 && peek(&p) >= 0)
        jp_fail(&p, "more after the end of the document");
    free(p.key);
    if (p.failed) {
        json_flat_free(out);
        return -1;
    }
    return 0;
}

int json_flat_load(struct json_flat *out, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL, why[256];
    size_t len = 0, cap = 0, n = 0;
    int rc = -1, oom = 0;

    json_flat_init(out);
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    do {
        if (cap - len < 4096) {
            char *nb = realloc(buf, cap + 65536);
            if (!nb) {
                oom = 1;
                break;
            }
            buf = nb;
            cap += 65536;
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
    } while (n > 0);
    if (ferror(f) || oom)
        snprintf(err, errlen, "%s: %s", path, oom ? "out of memory" : "read error");
    else if ((rc = json_flat_parse(out, buf, len, why, sizeof(why))) != 0)
        snprintf(err, errlen, "%s: %s", path, why);
    fclose(f);
    free(buf);
    return rc;
}
