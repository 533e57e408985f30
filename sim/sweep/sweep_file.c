/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_file.c - sweep files in INI, read with libinih and written back
 * (see sweep_file.h).
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */

#include "sweep/sweep_file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "lib/json.h"
#include "sweep/sweep_values.h"

#define MSG_BYTES 512
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"
#define WRAP_AT 72 /* a written list continues on a new line after this */

/* One file being read. */
struct sf_parse {
    struct sweep_spec *s;
    FILE *f;
    const char *path;
    int lineno;
    int failed;
    char msg[MSG_BYTES];
    int indented;             /* the line read last starts with a blank */
    char last[SWEEP_FILE_LINE + 8]; /* the key a continuation line continues */
    struct strv keys;         /* "section.key" of every key line so far */
    int *key_lines;           /* ... and the line each was on */
};

static void sf_fail(struct sf_parse *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void sf_fail(struct sf_parse *p, const char *fmt, ...)
{
    char msg[MSG_BYTES - 64];
    va_list ap;

    if (p->failed)
        return;
    p->failed = 1;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(p->msg, sizeof(p->msg), "%s:%d: %s", p->path, p->lineno, msg);
}

int sweep_name_ok(const char *name)
{
    return *name && *name != '.' && strspn(name, NAME_CHARS) == strlen(name) &&
           strlen(name) < SWEEP_NAME_BYTES;
}

/* Strict decimal, no sign, no leading zero, within 64 bits. */
static int parse_dec(const char *v, uint64_t *seed)
{
    size_t n = strspn(v, "0123456789");
    unsigned long long x;

    if (n == 0 || v[n] != '\0' || (v[0] == '0' && n > 1))
        return -1;
    errno = 0;
    x = strtoull(v, NULL, 10);
    if (errno == ERANGE)
        return -1;
    *seed = x;
    return 0;
}

/* "--packets 200000 --cpu cheap": each blank-separated word is an argument. */
static int add_args(struct strv *args, const char *v)
{
    char buf[SWEEP_FILE_LINE + 8], *tok, *save = NULL;

    snprintf(buf, sizeof(buf), "%s", v);
    for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
        if (strv_push(args, tok) != 0)
            return -1;
    return 0;
}

static int sweep_key(struct sf_parse *p, const char *name, const char *v)
{
    struct sweep_spec *s = p->s;

    if (strcmp(name, "name") == 0) {
        if (!sweep_name_ok(v))
            sf_fail(p, "name '%s': letters, digits, '.', '_' and '-' only", v);
        else
            snprintf(s->name, sizeof(s->name), "%s", v);
    } else if (strcmp(name, "seed") == 0) {
        if (parse_dec(v, &s->seed) != 0)
            sf_fail(p, "seed '%s': expected a decimal integer 0..18446744073709551615", v);
    } else if (strcmp(name, "x") == 0) {
        if (!*v || strlen(v) >= sizeof(s->x))
            sf_fail(p, "x '%s': expected a parameter name", v);
        else
            snprintf(s->x, sizeof(s->x), "%s", v);
    } else if (strcmp(name, "args") == 0) {
        if (add_args(&s->args, v) != 0)
            sf_fail(p, "out of memory");
    } else if (strcmp(name, "lockstep_packets") == 0) {
        uint64_t k;
        if (parse_dec(v, &k) != 0 || k > SWEEP_LOCKSTEP_MAX)
            sf_fail(p, "lockstep_packets '%s': expected packets, 0..%u (0: no check)", v,
                    SWEEP_LOCKSTEP_MAX);
        else
            s->lockstep_packets = (unsigned)k;
    } else {
        sf_fail(p, "unknown key '%s' in [sweep] (name, seed, x, args, lockstep_packets)", name);
    }
    return !p->failed;
}

/*
 * A key line (not a continuation: libinih hands an indented line after a
 * key to the handler under that key's name) whose key the section had
 * already: refused, naming both lines.  0 to go on.
 */
static int repeated_key(struct sf_parse *p, const char *section, const char *name)
{
    char key[2 * SWEEP_FILE_LINE + 8];
    long k;
    int *nl;

    if (p->indented && strcmp(p->last, name) == 0)
        return 0; /* a continuation line */
    snprintf(p->last, sizeof(p->last), "%s", name);
    snprintf(key, sizeof(key), "%s.%s", section, name);
    if ((k = strv_find(&p->keys, key)) >= 0) {
        sf_fail(p, "%s '%s' given again (first on line %d): one line each; continue a list "
                   "on indented lines", strcmp(section, "params") == 0 ? "parameter" : "key",
                name, p->key_lines[k]);
        return -1;
    }
    nl = realloc(p->key_lines, (p->keys.n + 1) * sizeof(*nl));
    if (!nl || strv_push(&p->keys, key) != 0) {
        if (nl)
            p->key_lines = nl;
        sf_fail(p, "out of memory");
        return -1;
    }
    p->key_lines = nl;
    p->key_lines[p->keys.n - 1] = p->lineno;
    return 0;
}

static int sf_handler(void *user, const char *section, const char *name, const char *value)
{
    struct sf_parse *p = user;
    char why[MSG_BYTES - 64], list[SWEEP_FILE_LINE + 8];
    size_t n;

    if (p->failed || repeated_key(p, section, name) != 0)
        return 0;
    if (strcmp(section, "sweep") == 0)
        return sweep_key(p, name, value);
    if (strcmp(section, "params") != 0) {
        sf_fail(p, "unknown section [%s] (sweep, params)", section);
        return 0;
    }
    /* "tail," before a continuation line: the comma only says more follows. */
    n = (size_t)snprintf(list, sizeof(list), "%s", value);
    if (n > 1 && n < sizeof(list) && list[n - 1] == ',' && list[n - 2] != '\\')
        list[n - 1] = '\0';
    if (sweep_spec_add(p->s, name, list, why, sizeof(why)) != 0) {
        sf_fail(p, "%s", why);
        return 0;
    }
    return 1;
}

/* inih's line reader: fgets, counting lines, refusing long ones. */
static char *sf_reader(char *buf, int size, void *stream)
{
    struct sf_parse *p = stream;
    int max = size - 3 < SWEEP_FILE_LINE ? size - 3 : SWEEP_FILE_LINE;

    if (p->failed || fgets(buf, size, p->f) == NULL)
        return NULL;
    p->lineno++;
    p->indented = buf[0] == ' ' || buf[0] == '\t';
    if (buf[0] == '[')
        p->last[0] = '\0'; /* a section: no key to continue */
    if ((int)strcspn(buf, "\r\n") > max || (strchr(buf, '\n') == NULL && !feof(p->f))) {
        sf_fail(p, "line longer than %d characters; continue a list on an indented line", max);
        return NULL;
    }
    return buf;
}

int sweep_file_load(struct sweep_spec *s, const char *path, char *err, size_t errlen)
{
    struct sf_parse p;
    int line;

    memset(&p, 0, sizeof(p));
    p.s = s;
    p.path = path;
    strv_init(&p.keys);
    if (!(p.f = fopen(path, "r"))) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    line = ini_parse_stream(sf_reader, &p, sf_handler, &p);
    if (!p.failed && line > 0)
        snprintf(p.msg, sizeof(p.msg), "%s:%d: expected [section] or key = value", path, line);
    else if (!p.failed && (line < 0 || ferror(p.f)))
        snprintf(p.msg, sizeof(p.msg), "%s: read error", path);
    fclose(p.f);
    strv_free(&p.keys);
    free(p.key_lines);
    if (p.failed || line != 0) {
        snprintf(err, errlen, "%s", p.msg);
        return -1;
    }
    return 0;
}

/* ---- writing ------------------------------------------------------------ */

/* `key = w1<sep>w2...`, continued on indented lines after WRAP_AT columns. */
static int write_list(FILE *f, const char *key, const struct strv *words, const char *sep)
{
    char esc[SWEEP_FILE_LINE];
    size_t col = (size_t)fprintf(f, "%s =", key);

    for (size_t k = 0; k < words->n; k++) {
        const char *w = words->v[k];
        if (*sep == ',' ? sweep_value_escape(w, esc, sizeof(esc)) != 0
                        : snprintf(esc, sizeof(esc), "%s", w) >= (int)sizeof(esc))
            return -1;
        if (k > 0 && col + strlen(esc) + 2 > WRAP_AT) {
            fprintf(f, "\n   "); /* a continuation line adds to the list */
            col = 3;
        } else if (k > 0) {
            col += (size_t)fprintf(f, "%s", sep);
        }
        col += (size_t)fprintf(f, " %s", esc);
        if (col > SWEEP_FILE_LINE)
            return -1;
    }
    fputc('\n', f);
    return 0;
}

static int write_spec(FILE *f, const struct sweep_spec *s)
{
    fprintf(f, "; The sweep this directory holds, written by `nictx sweep`.  `nictx sweep\n"
               "; merge DIR` and each point's job (`nictx sweep point DIR N`) read it.\n"
               "[sweep]\n");
    if (*s->name)
        fprintf(f, "name = %s\n", s->name);
    fprintf(f, "seed = %" PRIu64 "\nx = %s\nlockstep_packets = %u\n", s->seed, s->x,
            s->lockstep_packets);
    if (s->args.n && write_list(f, "args", &s->args, "") != 0)
        return -1;
    fprintf(f, "\n[params]\n");
    for (size_t p = 0; p < s->nparams; p++)
        if (write_list(f, s->params[p].name, &s->params[p].values, ",") != 0)
            return -1;
    return 0;
}

int sweep_file_write(const struct sweep_spec *s, const char *path, char *err, size_t errlen)
{
    struct afile af;

    if (afile_open(&af, path) != 0) {
        snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    if (write_spec(af.f, s) != 0) {
        afile_abort(&af);
        snprintf(err, errlen, "%s: a value or argument is too long for a sweep file line", path);
        return -1;
    }
    if (afile_commit(&af) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
