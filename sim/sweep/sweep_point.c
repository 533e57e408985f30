/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_point.c - one point run, with its JSON and log written whole (see
 * sweep_point.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_point.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/json_flat.h"
#include "sweep/sweep_exec.h"

int sweep_point_paths(const char *dir, const char *id, char *json, char *log, size_t len)
{
    int a = snprintf(json, len, "%s/points/%s.json", dir, id);
    int b = snprintf(log, len, "%s/points/%s.log", dir, id);

    return a < 0 || b < 0 || (size_t)a >= len || (size_t)b >= len ? -1 : 0;
}

static int not_older(const struct stat *a, const struct stat *b)
{
    if (a->st_mtim.tv_sec != b->st_mtim.tv_sec)
        return a->st_mtim.tv_sec > b->st_mtim.tv_sec;
    return a->st_mtim.tv_nsec >= b->st_mtim.tv_nsec;
}

int sweep_point_done(const struct sweep_spec *s, const char *dir, size_t i, const char *bin)
{
    char id[SWEEP_ID_BYTES], json[SWEEP_PATH_BYTES], log[SWEEP_PATH_BYTES];
    struct stat sj, sb;

    sweep_point_id(s, i, id);
    if (sweep_point_paths(dir, id, json, log, sizeof(json)) != 0 || stat(json, &sj) != 0)
        return 0;
    if (!bin || stat(bin, &sb) != 0)
        return 1;
    return not_older(&sj, &sb);
}

int sweep_point_argv(const struct sweep_spec *s, const char *dir, size_t i, const char *bin,
                     struct strv *argv)
{
    char id[SWEEP_ID_BYTES], json[SWEEP_PATH_BYTES], log[SWEEP_PATH_BYTES];

    sweep_point_id(s, i, id);
    if (sweep_point_paths(dir, id, json, log, sizeof(json)) != 0)
        return -1;
    if (strv_push(argv, bin) != 0 || strv_push(argv, "run") != 0 ||
        sweep_point_args(s, i, argv) != 0 || strv_push(argv, "--json") != 0 ||
        strv_push(argv, json) != 0)
        return -1;
    return 0;
}

/* "$ cmd args...\n" at the top of the log. */
static int log_header(int fd, const struct strv *argv)
{
    char word[8192];

    if (dprintf(fd, "$") < 0)
        return -1;
    for (size_t k = 0; k < argv->n; k++) {
        word[0] = '\0';
        if (sweep_shell_quote(argv->v[k], word, sizeof(word)) != 0 ||
            dprintf(fd, " %s", word) < 0)
            return -1;
    }
    return dprintf(fd, "\n") < 0 ? -1 : 0;
}

/* A run that exited non-zero cannot have a result whose status is "ok"
 * (nictx run's exit status is its verdict's): a JSON that says so was left
 * by an earlier run, or written before the run failed (a sanitizer, a
 * signal).  It is set aside as ID.json.rejected, and the log says so, so
 * the point has no result and report.md lists it.  0, or -1 if it could
 * not be moved. */
static int reject_ok_json(const char *json, int fd, int status)
{
    char path[SWEEP_PATH_BYTES + 16], err[256];
    struct json_flat f;
    const struct json_flat_item *st;
    int ok;

    if (access(json, F_OK) != 0 || json_flat_load(&f, json, err, sizeof(err)) != 0)
        return 0;
    st = json_flat_get(&f, "status");
    ok = st && strcmp(st->text, "ok") == 0;
    json_flat_free(&f);
    if (!ok)
        return 0;
    snprintf(path, sizeof(path), "%s.rejected", json);
    if (rename(json, path) != 0)
        return -1;
    dprintf(fd, "nictx sweep: the run exited %d, but %s says status ok; set aside as %s: "
                "no result\n", status, json, path);
    return 0;
}

/* Run argv with its output after its command in fd: its exit status, or
 * -1 if it could not be run or logged. */
static int run_logged(const struct strv *argv, int fd, int *sig)
{
    if (log_header(fd, argv) != 0)
        return -1;
    return sweep_exec_to_fd(argv->v, fd, sig);
}

/* The lockstep check's command: the point's, on --device lockstep, its
 * first `packets` packets (0: all of them), its JSON to `json`. */
static int check_argv(const struct sweep_spec *s, size_t i, const char *bin, unsigned packets,
                      const char *json, struct strv *argv)
{
    if (strv_push(argv, bin) != 0 || strv_push(argv, "run") != 0 ||
        sweep_point_args(s, i, argv) != 0 || strv_push(argv, "--device") != 0 ||
        strv_push(argv, "lockstep") != 0)
        return -1;
    if (packets && (strv_push(argv, "--packets") != 0 || strv_pushf(argv, "%u", packets) != 0))
        return -1;
    return strv_push(argv, "--json") != 0 || strv_push(argv, json) != 0 ? -1 : 0;
}

/* The packets the lockstep check runs: the spec's, or the point's own
 * --packets if fewer; 0 when the point is not on the C model or there is
 * no check. */
static unsigned check_packets(const struct sweep_spec *s, const struct strv *point)
{
    const char *dev = sweep_argv_option(point->v, point->n, "device");
    const char *pk = sweep_argv_option(point->v, point->n, "packets");
    unsigned long long n;
    char *end;

    if (s->lockstep_packets == 0 || !dev || strcmp(dev, "c") != 0)
        return 0;
    if (pk && (n = strtoull(pk, &end, 10)) > 0 && *end == '\0' && n < s->lockstep_packets)
        return (unsigned)n;
    return s->lockstep_packets;
}

/*
 * A point on the C model first runs its first packets with the RTL beside
 * it (--device lockstep), which compares the two on every clock: a
 * divergence fails the point, the check's JSON is its result and the log's
 * first line the command that shows it.  A check refused for its length
 * (a fault planned past it) runs the whole point.  0 when the check passed
 * or there is none, else the check's exit status (or -1).
 */
static int lockstep_check(const struct sweep_spec *s, size_t i, const char *bin,
                          const struct strv *point, const char *json, int fd, int *sig)
{
    char cj[SWEEP_PATH_BYTES + 16];
    unsigned k = check_packets(s, point);
    int st = 0;

    if (k == 0)
        return 0;
    snprintf(cj, sizeof(cj), "%.*s.lockstep.json", (int)(strlen(json) - 5), json);
    for (int whole = 0; whole < 2; whole++) {
        struct strv argv;
        strv_init(&argv);
        st = check_argv(s, i, bin, whole ? 0 : k, cj, &argv) == 0 ? run_logged(&argv, fd, sig)
                                                                  : -1;
        strv_free(&argv);
        if (st != 2 || *sig)
            break;
    }
    if (st > 0 && st < 128 && !*sig && rename(cj, json) == 0)
        return st; /* the divergence's JSON is the point's result */
    unlink(cj);
    return st;
}

enum sweep_point_status sweep_point_run(const struct sweep_spec *s, const char *dir, size_t i,
                                        const char *bin, int *sig)
{
    char id[SWEEP_ID_BYTES], json[SWEEP_PATH_BYTES], log[SWEEP_PATH_BYTES];
    char tmp[SWEEP_PATH_BYTES + 32];
    struct strv argv;
    int fd, status = -1;

    *sig = 0;
    sweep_point_id(s, i, id);
    strv_init(&argv);
    if (sweep_point_paths(dir, id, json, log, sizeof(json)) != 0 ||
        sweep_point_argv(s, dir, i, bin, &argv) != 0) {
        strv_free(&argv);
        return SWEEP_POINT_ERROR;
    }
    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", log, (long)getpid());
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0 && (status = lockstep_check(s, i, bin, &argv, json, fd, sig)) == 0)
        status = run_logged(&argv, fd, sig);
    strv_free(&argv);
    if (fd >= 0 && !*sig && status > 0 && reject_ok_json(json, fd, status) != 0)
        status = -1;
    if (fd >= 0 && close(fd) != 0)
        status = -1;
    /* Ended by the signal (or never run): no log, and no JSON either. */
    if (*sig && (status < 0 || status >= 128)) {
        unlink(tmp);
        unlink(json);
        return SWEEP_POINT_STOPPED;
    }
    if (status < 0 || rename(tmp, log) != 0) {
        unlink(tmp);
        return SWEEP_POINT_ERROR;
    }
    return status == 0 ? SWEEP_POINT_OK : SWEEP_POINT_FAILED;
}

int sweep_point_result(const struct sweep_spec *s, const char *dir, size_t i)
{
    char id[SWEEP_ID_BYTES], json[SWEEP_PATH_BYTES], log[SWEEP_PATH_BYTES], why[256];
    const struct json_flat_item *st;
    struct json_flat f;
    int r;

    sweep_point_id(s, i, id);
    if (sweep_point_paths(dir, id, json, log, sizeof(json)) != 0 ||
        json_flat_load(&f, json, why, sizeof(why)) != 0)
        return 0;
    st = json_flat_get(&f, "status");
    r = !st ? 0 : strcmp(st->text, "ok") == 0 ? 1 : 2;
    json_flat_free(&f);
    return r;
}
