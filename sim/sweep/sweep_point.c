/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_point.c - one point run, with its JSON and log written whole (see
 * sweep_point.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_point.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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
    if (fd >= 0 && log_header(fd, &argv) == 0)
        status = sweep_exec_to_fd(argv.v, fd, sig);
    strv_free(&argv);
    if (fd >= 0 && !*sig && status > 0 && reject_ok_json(json, fd, status) != 0)
        status = -1;
    if (fd >= 0 && close(fd) != 0)
        status = -1;
    if (*sig || status < 0 || rename(tmp, log) != 0) {
        unlink(tmp);
        return *sig ? SWEEP_POINT_STOPPED : SWEEP_POINT_ERROR;
    }
    return status == 0 ? SWEEP_POINT_OK : SWEEP_POINT_FAILED;
}
