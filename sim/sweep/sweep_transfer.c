/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_transfer.c - the profiles a sweep's runs read, to send with
 * --transfer (see sweep_transfer.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_transfer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH_BYTES 4096

static int ends_with_ini(const char *v)
{
    size_t n = strlen(v);

    return n > 4 && strcmp(v + n - 4, ".ini") == 0;
}

/* A path component "..". */
static int has_dotdot(const char *p)
{
    for (const char *q = p; (q = strstr(q, "..")) != NULL; q += 2)
        if ((q == p || q[-1] == '/') && (q[2] == '\0' || q[2] == '/'))
            return 1;
    return 0;
}

/* One --profile value. */
static int add_profile(const char *v, const char *cwd, struct strv *files, char *err,
                       size_t errlen)
{
    char rel[PATH_BYTES], path[2 * PATH_BYTES];

    if (ends_with_ini(v)) {
        if (v[0] == '/' || has_dotdot(v)) {
            snprintf(err, errlen, "--transfer: --profile %s: give the profile's path relative "
                                  "to this directory, inside it, so it can be sent", v);
            return -1;
        }
        snprintf(rel, sizeof(rel), "%s", v);
    } else {
        snprintf(rel, sizeof(rel), "profiles/%s.ini", v);
        if (access(rel, R_OK) != 0) {
            snprintf(err, errlen, "--transfer: profile %s is not %s under this directory "
                                  "(found through $NICTX_PROFILE_DIR?): copy it there, or "
                                  "give its path relative to here", v, rel);
            return -1;
        }
    }
    snprintf(path, sizeof(path), "%s/./%s", cwd, rel);
    if (strv_find(files, path) >= 0)
        return 0;
    return strv_push(files, path);
}

int sweep_transfer_inputs(const struct sweep_spec *s, const char *cwd, struct strv *files,
                          char *err, size_t errlen)
{
    const struct strv *a = &s->args;
    long p = sweep_param_find(s, "profile");

    for (size_t k = 0; k < a->n; k++) {
        const char *v = NULL;
        if (strcmp(a->v[k], "--profile") == 0 && k + 1 < a->n)
            v = a->v[++k];
        else if (strncmp(a->v[k], "--profile=", 10) == 0)
            v = a->v[k] + 10;
        if (v && add_profile(v, cwd, files, err, errlen) != 0)
            return -1;
    }
    for (size_t k = 0; p >= 0 && k < s->params[p].values.n; k++)
        if (add_profile(s->params[p].values.v[k], cwd, files, err, errlen) != 0)
            return -1;
    return 0;
}

/* ---- staging ----------------------------------------------------------------- */

/* src to dst: a hard link, else a copy with src's mode: 0, or -1. */
static int link_or_copy(const char *src, const char *dst)
{
    char buf[65536];
    struct stat st;
    ssize_t r = 0;
    int in, out, rc = 0;

    if (link(src, dst) == 0)
        return 0;
    if ((in = open(src, O_RDONLY | O_CLOEXEC)) < 0)
        return -1;
    if (fstat(in, &st) != 0 ||
        (out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 0777)) < 0) {
        close(in);
        return -1;
    }
    while (rc == 0 && (r = read(in, buf, sizeof(buf))) > 0)
        if (write(out, buf, (size_t)r) != r)
            rc = -1;
    if (r < 0)
        rc = -1;
    close(in);
    return close(out) != 0 ? -1 : rc;
}

/* mkdir -p for the directories of REL under base. */
static int make_parents(const char *base, const char *rel)
{
    char path[2 * PATH_BYTES];
    size_t n = strlen(base);

    snprintf(path, sizeof(path), "%s/%s", base, rel);
    for (char *p = path + n + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return 0;
}

void sweep_transfer_unstage(const char *stage)
{
    char sub[2 * PATH_BYTES];
    struct dirent *e;
    struct stat st;
    DIR *dp = opendir(stage);

    if (!dp)
        return;
    while ((e = readdir(dp)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(sub, sizeof(sub), "%s/%s", stage, e->d_name);
        if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
            sweep_transfer_unstage(sub);
        else
            unlink(sub);
    }
    closedir(dp);
    rmdir(stage);
}

int sweep_transfer_stage(const char *dir, const char *bin, const struct strv *inputs,
                         char *stage, size_t len, char *err, size_t errlen)
{
    const char *base = strrchr(bin, '/') ? strrchr(bin, '/') + 1 : bin;
    char src[2 * PATH_BYTES], dst[2 * PATH_BYTES];
    int rc;

    snprintf(stage, len, "%s/send.tmp.%ld", dir, (long)getpid());
    if (mkdir(stage, 0777) != 0) {
        snprintf(err, errlen, "%s: %s", stage, strerror(errno));
        return -1;
    }
    snprintf(dst, sizeof(dst), "%s/%s", stage, base);
    rc = link_or_copy(bin, dst);
    snprintf(src, sizeof(src), "%s/sweep.ini", dir);
    snprintf(dst, sizeof(dst), "%s/sweep.ini", stage);
    if (rc == 0)
        rc = link_or_copy(src, dst);
    for (size_t k = 0; rc == 0 && inputs && k < inputs->n; k++) {
        const char *rel = strstr(inputs->v[k], "/./");
        if (!rel) {
            errno = EINVAL;
            rc = -1;
            break;
        }
        rel += 3;
        snprintf(dst, sizeof(dst), "%s/%s", stage, rel);
        rc = make_parents(stage, rel) == 0 ? link_or_copy(inputs->v[k], dst) : -1;
        snprintf(src, sizeof(src), "%s", inputs->v[k]);
    }
    if (rc != 0) {
        snprintf(err, errlen, "%s: cannot gather the files to send there (%s): %s", stage, src,
                 strerror(errno));
        sweep_transfer_unstage(stage);
        return -1;
    }
    return 0;
}
