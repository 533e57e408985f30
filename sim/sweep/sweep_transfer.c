/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_transfer.c - the profiles a sweep's runs read, to send with
 * --transfer (see sweep_transfer.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_transfer.h"

#include <stdio.h>
#include <string.h>
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
