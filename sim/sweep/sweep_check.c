/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_check.c - the sweep's names and points checked by nictx run itself
 * (see sweep_check.h).
 */
#include "sweep/sweep_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/strv.h"
#include "sweep/sweep_exec.h"

#define WORD_BYTES 128

/* Run `bin run ARG...` (a NULL-terminated list) and capture it. */
static int run_capture(const char *bin, const struct strv *args, struct sweep_capture *c)
{
    struct strv argv;
    int rc;

    strv_init(&argv);
    rc = strv_push(&argv, bin) | strv_push(&argv, "run") | strv_extend(&argv, args);
    rc = rc ? -1 : sweep_exec_capture(argv.v, NULL, c);
    strv_free(&argv);
    return rc;
}

/* Does a listing (one entry a line, its first word the name) have `name`?
 * *second gets the line's second word. */
static int listing_has(const char *text, const char *name, char *second, size_t len)
{
    size_t n = strlen(name);

    for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        if (strncmp(l, name, n) != 0 || (l[n] != ' ' && l[n] != '\t'))
            continue;
        l += n + strspn(l + n, " \t");
        snprintf(second, len, "%.*s", (int)strcspn(l, " \t\n"), l);
        return 1;
    }
    return 0;
}

/* The listing printed by `bin run FLAG`, into c. */
static int listing(const char *bin, const char *flag, struct sweep_capture *c, char *err,
                   size_t errlen)
{
    struct strv args;
    int rc;

    strv_init(&args);
    rc = strv_push(&args, flag) == 0 ? run_capture(bin, &args, c) : -1;
    strv_free(&args);
    if (rc != 0 || c->status != 0) {
        snprintf(err, errlen, "%s run %s failed: %s", bin, flag,
                 rc == 0 && *c->err ? c->err : "cannot run it");
        err[strcspn(err, "\n")] = '\0';
        if (rc == 0)
            sweep_capture_free(c);
        return -1;
    }
    return 0;
}

static int check_name(const char *name, const struct sweep_capture *opts,
                      const struct sweep_capture *keys, char *err, size_t errlen)
{
    char kind[WORD_BYTES];

    if (sweep_param_is_key(name)) {
        if (listing_has(keys->out, name, kind, sizeof(kind)))
            return 0;
        snprintf(err, errlen, "parameter %s: not a profile key (see nictx run --list-keys)",
                 name);
        return -1;
    }
    if (!listing_has(opts->out, name, kind, sizeof(kind))) {
        char dashed[WORD_BYTES];
        snprintf(dashed, sizeof(dashed), "%s", name);
        for (char *c = dashed; *c; c++)
            *c = *c == '_' ? '-' : *c;
        if (strcmp(dashed, name) != 0 && listing_has(opts->out, dashed, kind, sizeof(kind)))
            snprintf(err, errlen, "parameter %s: not an option of nictx run; the option is "
                     "%s (--%s)", name, dashed, dashed);
        else
            snprintf(err, errlen, "parameter %s: not an option of nictx run (see nictx run "
                     "--help)", name);
        return -1;
    }
    if (strcmp(kind, "value") != 0) {
        snprintf(err, errlen, "parameter %s: --%s takes no value, so it cannot be swept; "
                 "pass it to every run after --", name, name);
        return -1;
    }
    return 0;
}

int sweep_check_names(const struct sweep_spec *s, const char *bin, char *err, size_t errlen)
{
    struct sweep_capture opts, keys;
    int rc = 0;

    if (s->nparams == 0)
        return 0;
    if (listing(bin, "--list-options", &opts, err, errlen) != 0)
        return -1;
    if (listing(bin, "--list-keys", &keys, err, errlen) != 0) {
        sweep_capture_free(&opts);
        return -1;
    }
    for (size_t p = 0; p < s->nparams && rc == 0; p++)
        rc = check_name(s->params[p].name, &opts, &keys, err, errlen);
    sweep_capture_free(&opts);
    sweep_capture_free(&keys);
    return rc;
}

/* ---- whole commands ------------------------------------------------------- */

/* `bin run ARGS --check`: 0 if accepted; else -1 with nictx's first line
 * of complaint in why. */
static int check_args(const char *bin, struct strv *args, char *why, size_t len)
{
    struct sweep_capture c;
    int rc;

    if (strv_push(args, "--check") != 0 || run_capture(bin, args, &c) != 0) {
        snprintf(why, len, "cannot run %s", bin);
        return -1;
    }
    rc = c.status == 0 ? 0 : -1;
    if (rc != 0) {
        const char *msg = *c.err ? c.err : *c.out ? c.out : "refused";
        snprintf(why, len, "%.*s", (int)strcspn(msg, "\n"), msg);
    }
    sweep_capture_free(&c);
    return rc;
}

/* Point i's parameter p alone on top of the fixed arguments. */
static int check_one_param(const struct sweep_spec *s, size_t i, size_t p, const char *bin,
                           char *why, size_t len)
{
    struct sweep_spec one = *s;
    struct sweep_param only = s->params[p];
    const char *v = sweep_point_value(s, i, p);
    struct strv args;
    char *vals[2] = {(char *)v, NULL};
    int rc;

    /* A view of s with just this parameter and this value. */
    only.values.v = vals;
    only.values.n = 1;
    one.params = &only;
    one.nparams = 1;
    strv_init(&args);
    rc = sweep_point_args(&one, 0, &args) == 0 ? check_args(bin, &args, why, len) : -1;
    strv_free(&args);
    return rc;
}

/* Point i was refused (why): name the parameter if one is refused alone. */
static void explain_point(const struct sweep_spec *s, size_t i, const char *bin,
                          const char *why, char *err, size_t errlen)
{
    char alone[512], label[1024];

    for (size_t p = 0; p < s->nparams; p++)
        if (check_one_param(s, i, p, bin, alone, sizeof(alone)) != 0) {
            snprintf(err, errlen, "parameter %s=%s: %s", s->params[p].name,
                     sweep_point_value(s, i, p), alone);
            return;
        }
    sweep_point_label(s, i, label, sizeof(label));
    snprintf(err, errlen, "point %zu (%s): %s", i + 1, label, why);
}

int sweep_check_points(const struct sweep_spec *s, const char *bin, const unsigned char *todo,
                       char *err, size_t errlen)
{
    size_t n = sweep_npoints(s);
    char why[512];
    struct strv args;
    int rc;

    strv_init(&args);
    rc = strv_extend(&args, &s->args) == 0 ? check_args(bin, &args, why, sizeof(why)) : -1;
    strv_free(&args);
    if (rc != 0) {
        snprintf(err, errlen, "run arguments: %s", why);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (todo && !todo[i])
            continue;
        strv_init(&args);
        rc = sweep_point_args(s, i, &args) == 0 ? check_args(bin, &args, why, sizeof(why)) : -1;
        strv_free(&args);
        if (rc != 0) {
            explain_point(s, i, bin, why, err, errlen);
            return -1;
        }
    }
    return 0;
}
