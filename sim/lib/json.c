/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json.c - streaming JSON writer and atomic output file (see json.h).
 */
#define _POSIX_C_SOURCE 200809L /* getpid */

#include "lib/json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void json_init(struct json *j, FILE *f)
{
    memset(j, 0, sizeof *j);
    j->f = f;
}

static void json_put(struct json *j, const char *s)
{
    if (!j->err && fputs(s, j->f) == EOF)
        j->err = 1;
}

static void json_indent(struct json *j, int depth)
{
    static const char spaces[] = "                                "; /* 32 */
    int n = 2 * depth;
    while (n > 0 && !j->err) {
        int m = n < 32 ? n : 32;
        if (fwrite(spaces, 1, (size_t)m, j->f) != (size_t)m)
            j->err = 1;
        n -= m;
    }
}

static void json_put_string(struct json *j, const char *s)
{
    FILE *f = j->f;
    int bad = putc('"', f) == EOF;
    for (const unsigned char *p = (const unsigned char *)s; *p && !bad; p++) {
        unsigned char c = *p;
        const char *esc = NULL;
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        default: break;
        }
        if (esc)
            bad = fputs(esc, f) == EOF;
        else if (c < 0x20)
            bad = fprintf(f, "\\u%04x", (unsigned)c) < 0;
        else
            bad = putc(c, f) == EOF;
    }
    if (!bad)
        bad = putc('"', f) == EOF;
    if (bad)
        j->err = 1;
}

/* Check the key against the context and write what precedes a value:
 * separator, newline, indent, key.  Returns 0, or -1 (error set, nothing
 * written) on misuse or an earlier error. */
static int json_pre(struct json *j, const char *key)
{
    if (j->err)
        return -1;
    if (j->depth == 0) {
        if (j->root_done || key) {
            j->err = 1;
            return -1;
        }
        return 0;
    }
    int d = j->depth - 1;
    if (j->is_arr[d] ? key != NULL : key == NULL) {
        j->err = 1;
        return -1;
    }
    if (!j->first[d])
        json_put(j, ",");
    j->first[d] = 0;
    json_put(j, "\n");
    json_indent(j, j->depth);
    if (key) {
        json_put_string(j, key);
        json_put(j, ": ");
    }
    return j->err ? -1 : 0;
}

/* After a complete value: a top-level one ends the document. */
static void json_post(struct json *j)
{
    if (j->depth == 0 && !j->err) {
        j->root_done = 1;
        json_put(j, "\n");
    }
}

static void json_begin(struct json *j, const char *key, int is_arr)
{
    if (j->depth >= JSON_MAX_DEPTH) {
        j->err = 1;
        return;
    }
    if (json_pre(j, key) != 0)
        return;
    json_put(j, is_arr ? "[" : "{");
    j->is_arr[j->depth] = (unsigned char)is_arr;
    j->first[j->depth] = 1;
    j->depth++;
}

static void json_end(struct json *j, int is_arr)
{
    if (j->err)
        return;
    if (j->depth == 0 || j->is_arr[j->depth - 1] != is_arr) {
        j->err = 1;
        return;
    }
    j->depth--;
    if (!j->first[j->depth]) {
        json_put(j, "\n");
        json_indent(j, j->depth);
    }
    json_put(j, is_arr ? "]" : "}");
    json_post(j);
}

void json_obj_begin(struct json *j, const char *key)
{
    json_begin(j, key, 0);
}

void json_obj_end(struct json *j)
{
    json_end(j, 0);
}

void json_arr_begin(struct json *j, const char *key)
{
    json_begin(j, key, 1);
}

void json_arr_end(struct json *j)
{
    json_end(j, 1);
}

void json_str(struct json *j, const char *key, const char *val)
{
    if (json_pre(j, key) != 0)
        return;
    if (val)
        json_put_string(j, val);
    else
        json_put(j, "null");
    json_post(j);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
    if (json_pre(j, key) != 0)
        return;
    if (fprintf(j->f, "%" PRIu64, v) < 0)
        j->err = 1;
    json_post(j);
}

/* The shortest of %.15g, %.16g and %.17g that strtod() reads back as v
 * (%.17g always does for a finite double: 17 significant digits identify
 * every IEEE 754 binary64 value). */
static void json_fmt_num(char *buf, size_t len, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

void json_num(struct json *j, const char *key, double v)
{
    char buf[40]; /* "-1.2345678901234567e-308": 24 characters */

    if (json_pre(j, key) != 0)
        return;
    if (!isfinite(v)) {
        json_put(j, "null");
    } else {
        json_fmt_num(buf, sizeof buf, v);
        json_put(j, buf);
    }
    json_post(j);
}

/* How many digits start at s[i]. */
static size_t digits_at(const char *s, size_t len, size_t i)
{
    size_t j = i;

    while (j < len && s[j] >= '0' && s[j] <= '9')
        j++;
    return j - i;
}

size_t json_number_len(const char *s, size_t len)
{
    size_t k = 0, d;

    if (k < len && s[k] == '-')
        k++;
    if (k < len && s[k] == '0')
        k++;
    else if ((d = digits_at(s, len, k)) > 0)
        k += d;
    else
        return 0;
    if (k < len && s[k] == '.') {
        if ((d = digits_at(s, len, k + 1)) == 0)
            return 0;
        k += 1 + d;
    }
    if (k < len && (s[k] == 'e' || s[k] == 'E')) {
        k++;
        if (k < len && (s[k] == '+' || s[k] == '-'))
            k++;
        if ((d = digits_at(s, len, k)) == 0)
            return 0;
        k += d;
    }
    return k;
}

int json_is_number(const char *s)
{
    size_t n = strlen(s);

    return n > 0 && json_number_len(s, n) == n;
}

void json_num_text(struct json *j, const char *key, const char *text)
{
    if (!json_is_number(text)) {
        j->err = 1;
        return;
    }
    if (json_pre(j, key) != 0)
        return;
    json_put(j, text);
    json_post(j);
}

void json_bool(struct json *j, const char *key, int v)
{
    if (json_pre(j, key) != 0)
        return;
    json_put(j, v ? "true" : "false");
    json_post(j);
}

void json_null(struct json *j, const char *key)
{
    if (json_pre(j, key) != 0)
        return;
    json_put(j, "null");
    json_post(j);
}

int json_error(const struct json *j)
{
    return j->err;
}

int json_finish(struct json *j)
{
    if (!j->err && (fflush(j->f) != 0 || ferror(j->f)))
        j->err = 1;
    return j->err || j->depth != 0 || !j->root_done ? -1 : 0;
}

/* ---- atomic output file --------------------------------------------------- */

#define AFILE_MAX_LINKS 40 /* as the kernel's path walk (ELOOP) */

/* path, with every symbolic link it names followed, into out (n bytes): a
 * relative link is relative to its own directory.  The last file need not
 * exist.  0, or -1 with errno set. */
static int afile_resolve(const char *path, char *out, size_t n)
{
    char link[4096];
    struct stat st;

    if ((size_t)snprintf(out, n, "%s", path) >= n) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (int hops = 0; lstat(out, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
        ssize_t len = hops < AFILE_MAX_LINKS ? readlink(out, link, sizeof link - 1) : -1;
        if (hops >= AFILE_MAX_LINKS)
            errno = ELOOP;
        if (len < 0)
            return -1;
        link[len] = '\0';
        char *slash = strrchr(out, '/');
        size_t dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - out) + 1;
        if (dir + (size_t)len >= n) {
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(out + dir, link, (size_t)len + 1);
    }
    return 0;
}

int afile_open(struct afile *a, const char *path)
{
    a->f = NULL;
    a->tmp[0] = a->path[0] = '\0';
    char target[sizeof a->path];
    if (afile_resolve(path, target, sizeof target) != 0)
        return -1;
    int n = snprintf(a->path, sizeof a->path, "%s", target);
    int m = snprintf(a->tmp, sizeof a->tmp, "%s.tmp.%ld", target, (long)getpid());
    if (n < 0 || m < 0 || (size_t)n >= sizeof a->path || (size_t)m >= sizeof a->tmp) {
        a->tmp[0] = a->path[0] = '\0';
        errno = ENAMETOOLONG;
        return -1;
    }
    a->f = fopen(a->tmp, "w");
    return a->f ? 0 : -1;
}

int afile_commit(struct afile *a)
{
    if (!a->f) {
        errno = EINVAL;
        return -1;
    }
    FILE *f = a->f;
    a->f = NULL;
    int e = 0;
    if (fflush(f) != 0)
        e = errno ? errno : EIO;
    else if (ferror(f))
        e = EIO; /* an earlier write failed */
    if (fclose(f) != 0 && !e)
        e = errno ? errno : EIO;
    if (!e && rename(a->tmp, a->path) != 0)
        e = errno ? errno : EIO;
    if (e) {
        remove(a->tmp);
        errno = e;
        return -1;
    }
    return 0;
}

void afile_abort(struct afile *a)
{
    if (!a->f)
        return;
    int e = errno;
    fclose(a->f);
    a->f = NULL;
    remove(a->tmp);
    errno = e;
}
