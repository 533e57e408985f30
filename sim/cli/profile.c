/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile.c - run profiles: the INI parser (libinih), --set assignments and
 * the key listing, on the keys of the settings table (sim/run/settings.h;
 * see profile.h).
 */
#define _POSIX_C_SOURCE 200809L /* fdopen, O_CLOEXEC */
#include "cli/profile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ini.h>

#include "run/settings.h"

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"
#define PATH_BYTES 4096
#define MSG_BYTES 256

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* ------------------------------------------------------------ the keys */

static int section_known(const char *s, size_t len)
{
    size_t n;
    const char *const *sections = sim_setting_sections(&n);

    for (size_t i = 0; i < n; i++)
        if (strlen(sections[i]) == len && strncmp(sections[i], s, len) == 0)
            return 1;
    return 0;
}

/* Set section.name from value: 0, or -1 with a message in msg. */
static int key_apply(struct sim_cfg *cfg, const char *section, const char *name,
                     const char *value, char *msg, size_t n)
{
    const struct sim_setting *k = sim_setting_by_key(section, name);

    if (k == NULL && *section == '\0') {
        snprintf(msg, n, "key %s outside a section", name);
        return -1;
    }
    if (k == NULL) {
        snprintf(msg, n, "unknown key %s.%s", section, name);
        return -1;
    }
    return sim_setting_parse_key(k, cfg, value, msg, n);
}

/* ------------------------------------------------------------ INI files */

struct pf_parse {
    struct sim_cfg *cfg;
    FILE *f;
    const char *path;
    int lineno;   /* of the line last read */
    int failed;   /* a message is in err; stop */
    char *err;
    size_t errlen;
};

static void pf_fail(struct pf_parse *p, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* "path:line: message" into err, once. */
static void pf_fail(struct pf_parse *p, const char *fmt, ...)
{
    char msg[MSG_BYTES];
    va_list ap;

    if (p->failed)
        return;
    p->failed = 1;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (p->err != NULL && p->errlen > 0)
        snprintf(p->err, p->errlen, "%s:%d: %s", p->path, p->lineno, msg);
}

/*
 * What inih would take differently from what it says: an indented line
 * after a key is a continuation of that key's value (inih's multi-line
 * values), so indentation is refused; a section header is checked here so
 * that an unknown section is an error even when it has no keys.
 */
static int pf_check_line(struct pf_parse *p, const char *line)
{
    const char *s = line + strspn(line, " \t\r\n");
    const char *end;

    if (*s == '\0' || *s == ';' || *s == '#')
        return 0;
    if (s != line) {
        pf_fail(p, "indented line: start keys and sections in the first column");
        return -1;
    }
    if (*s != '[' || (end = strchr(s, ']')) == NULL)
        return 0;
    if (!section_known(s + 1, (size_t)(end - s - 1))) {
        pf_fail(p, "unknown section [%.*s]", (int)(end - s - 1), s + 1);
        return -1;
    }
    return 0;
}

/* inih's line reader: fgets, counting lines, refusing long ones. */
static char *pf_reader(char *buf, int size, void *stream)
{
    struct pf_parse *p = stream;

    if (p->failed || fgets(buf, size, p->f) == NULL)
        return NULL;
    p->lineno++;
    if (strchr(buf, '\n') == NULL && !feof(p->f)) {
        pf_fail(p, "line longer than %d characters", size - 2);
        return NULL;
    }
    return pf_check_line(p, buf) == 0 ? buf : NULL;
}

static int pf_handler(void *user, const char *section, const char *name, const char *value)
{
    struct pf_parse *p = user;
    char msg[MSG_BYTES];

    if (p->failed)
        return 0;
    if (key_apply(p->cfg, section, name, value, msg, sizeof(msg)) != 0) {
        pf_fail(p, "%s", msg);
        return 0;
    }
    return 1;
}

static void err_set(char *err, size_t errlen, const char *fmt, ...) PRINTF_LIKE(3, 4);

static void err_set(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* A profile is text: a NUL byte says it is not (inih would take the line
 * as ending there, and a binary file as an empty profile).  0, or -1 with
 * a message; the stream is back at its start. */
static int pf_check_text(FILE *f, const char *path, char *err, size_t errlen)
{
    long off = 0;
    int ch;

    while ((ch = getc(f)) != EOF && ch != '\0')
        off++;
    if (ch == '\0') {
        err_set(err, errlen, "%s: not a text file (a NUL byte at offset %ld); a profile is "
                "INI text", path, off);
        return -1;
    }
    if (ferror(f) || fseek(f, 0, SEEK_SET) != 0) {
        err_set(err, errlen, "%s: read error", path);
        return -1;
    }
    return 0;
}

/* Apply the keys of an open INI file to *cfg. */
static int pf_parse_file(struct sim_cfg *cfg, FILE *f, const char *path, char *err, size_t errlen)
{
    struct pf_parse p = {cfg, f, path, 0, 0, err, errlen};
    if (pf_check_text(f, path, err, errlen) != 0)
        return -1;
    int line = ini_parse_stream(pf_reader, &p, pf_handler, &p);

    if (p.failed)
        return -1;
    if (line > 0) {
        err_set(err, errlen, "%s:%d: syntax error: expected [section] or key = value", path, line);
        return -1;
    }
    if (line < 0 || ferror(f)) {
        err_set(err, errlen, "%s: read error", path);
        return -1;
    }
    return 0;
}

static int ends_with_ini(const char *s)
{
    size_t n = strlen(s);
    return n > 4 && strcmp(s + n - 4, ".ini") == 0;
}

static int name_ok(const char *s)
{
    return *s != '\0' && strspn(s, NAME_CHARS) == strlen(s);
}

/* Open path, a regular file; NULL with a message unless it simply does not
 * exist (*missing).  Opened without blocking, so a FIFO or a device is
 * refused rather than waited on. */
static FILE *open_try(const char *path, int *missing, char *err, size_t errlen)
{
    struct stat st;
    FILE *f = NULL;
    int fd;

    errno = 0;
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    *missing = fd < 0 && errno == ENOENT;
    if (fd < 0) {
        if (!*missing)
            err_set(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0)
        err_set(err, errlen, "%s: %s", path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        err_set(err, errlen, "%s: not a regular file; a profile is an INI file", path);
    else if (fcntl(fd, F_SETFL, 0) != 0 || (f = fdopen(fd, "r")) == NULL)
        err_set(err, errlen, "%s: %s", path, strerror(errno));
    if (f == NULL)
        close(fd);
    return f;
}

/* profiles/NAME.ini, then $NICTX_PROFILE_DIR/NAME.ini; the path into path. */
static FILE *open_by_name(const char *name, char *path, size_t n, char *err, size_t errlen)
{
    const char *dir = getenv(PROFILE_DIR_ENV);
    char first[PATH_BYTES];
    int missing;
    FILE *f;

    snprintf(path, n, "profiles/%s.ini", name);
    if ((f = open_try(path, &missing, err, errlen)) != NULL || !missing)
        return f;
    if (dir == NULL || *dir == '\0') {
        err_set(err, errlen, "profile %s: %s not found (%s is not set)", name, path,
                PROFILE_DIR_ENV);
        return NULL;
    }
    snprintf(first, sizeof(first), "%s", path);
    if ((size_t)snprintf(path, n, "%s/%s.ini", dir, name) >= n) {
        err_set(err, errlen, "profile %s: %s is too long", name, PROFILE_DIR_ENV);
        return NULL;
    }
    if ((f = open_try(path, &missing, err, errlen)) == NULL && missing)
        err_set(err, errlen, "profile %s: not found as %s nor as %s", name, first, path);
    return f;
}

static FILE *profile_open(const char *name_or_path, char *path, size_t n, char *err, size_t errlen)
{
    int missing;
    FILE *f;

    if (ends_with_ini(name_or_path)) {
        if ((size_t)snprintf(path, n, "%s", name_or_path) >= n) {
            err_set(err, errlen, "profile path too long");
            return NULL;
        }
        if ((f = open_try(path, &missing, err, errlen)) == NULL && missing)
            err_set(err, errlen, "%s: no such file", path);
        return f;
    }
    if (!name_ok(name_or_path)) {
        err_set(err, errlen, "profile '%s': neither a name (letters, digits, '.', '_', '-') "
                "nor a path ending in .ini", name_or_path);
        return NULL;
    }
    return open_by_name(name_or_path, path, n, err, errlen);
}

/* Copy at most len bytes of src, truncated to fit dst[n], NUL-terminated. */
static void copy_trunc(char *dst, size_t n, const char *src, size_t len)
{
    if (len >= n)
        len = n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* The profile's name: the file name without directory and ".ini". */
static void record_name(struct sim_cfg *cfg, const char *path)
{
    const char *base = strrchr(path, '/');
    size_t len;

    base = base ? base + 1 : path;
    len = strlen(base) - 4;
    copy_trunc(cfg->profile, sizeof(cfg->profile), base, len);
    copy_trunc(cfg->cpu_profile, sizeof(cfg->cpu_profile), base, len);
}

int profile_load(struct sim_cfg *cfg, const char *name_or_path, char *err, size_t errlen)
{
    char path[PATH_BYTES];
    struct sim_cfg tmp = *cfg;
    FILE *f = profile_open(name_or_path, path, sizeof(path), err, errlen);
    int rc;

    if (f == NULL)
        return -1;
    rc = pf_parse_file(&tmp, f, path, err, errlen);
    fclose(f);
    if (rc != 0)
        return -1;
    record_name(&tmp, path);
    *cfg = tmp;
    return 0;
}

/* ------------------------------------------------------------ --set */

/* s without leading and trailing blanks, in place. */
static char *trim(char *s)
{
    char *end;

    s += strspn(s, " \t");
    end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
        *--end = '\0';
    return s;
}

int profile_set(struct sim_cfg *cfg, const char *assignment, char *err, size_t errlen)
{
    char buf[MSG_BYTES], msg[MSG_BYTES];
    char *eq, *key, *dot;

    if ((size_t)snprintf(buf, sizeof(buf), "%s", assignment) >= sizeof(buf)) {
        err_set(err, errlen, "--set: assignment longer than %zu characters", sizeof(buf) - 1);
        return -1;
    }
    if ((eq = strchr(buf, '=')) == NULL) {
        err_set(err, errlen, "--set %s: expected section.key=value", assignment);
        return -1;
    }
    *eq = '\0';
    key = trim(buf);
    if ((dot = strchr(key, '.')) == NULL) {
        err_set(err, errlen, "--set %s: unknown key %s (keys are section.key)", assignment, key);
        return -1;
    }
    *dot = '\0';
    if (key_apply(cfg, key, dot + 1, trim(eq + 1), msg, sizeof(msg)) != 0) {
        err_set(err, errlen, "--set %s: %s", assignment, msg);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ listing */

void profile_list_keys(FILE *f)
{
    char full[64], type[96];
    size_t n, nsec;
    const struct sim_setting *s = sim_settings(&n);
    const char *const *sections = sim_setting_sections(&nsec);

    for (size_t sec = 0; sec < nsec; sec++) {
        for (size_t i = 0; i < n; i++) {
            if (!s[i].key || strcmp(s[i].section, sections[sec]) != 0)
                continue;
            snprintf(full, sizeof(full), "%s.%s", s[i].section, s[i].key);
            sim_setting_type_text(&s[i], 0, "|", "|", type, sizeof(type));
            fprintf(f, "%-22s %-36s %s\n", full, type, s[i].help);
        }
    }
}
