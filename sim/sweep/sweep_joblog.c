/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_joblog.c - parallel's job log of an ssh sweep read back, and why a
 * point has no result (see sweep_joblog.h).
 */
#define _GNU_SOURCE /* strdup, getline */

#include "sweep/sweep_joblog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/json.h"
#include "sweep/sweep_hosts.h"
#include "sweep/sweep_point.h"

void sweep_joblog_free(struct sweep_joblog *jl)
{
    for (size_t k = 0; k < jl->n; k++)
        free(jl->j[k].host);
    free(jl->j);
    jl->j = NULL;
    jl->n = 0;
    jl->present = 0;
}

int sweep_joblog_write_empty(const char *dir)
{
    char path[SWEEP_PATH_BYTES + 16];
    struct afile af;

    snprintf(path, sizeof(path), "%s/%s", dir, SWEEP_JOBLOG);
    if (afile_open(&af, path) != 0)
        return -1;
    fputs("Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\n", af.f);
    return afile_commit(&af);
}

/* The host without the options the sweep adds, and "ssh HOST" as HOST. */
static char *shown_host(const char *host)
{
    char *h = strdup(host), *o, opts[160];
    unsigned t;

    if (!h)
        return NULL;
    o = strstr(h, " -o ConnectTimeout=");
    if (o && sscanf(o, " -o ConnectTimeout=%u", &t) == 1) {
        sweep_hosts_ssh_opts(t, opts, sizeof(opts));
        if (strncmp(o, opts, strlen(opts)) == 0)
            memmove(o, o + strlen(opts), strlen(o + strlen(opts)) + 1);
    }
    if (strncmp(h, "ssh ", 4) == 0 && !strpbrk(h + 4, " \t"))
        memmove(h, h + 4, strlen(h + 4) + 1);
    return h;
}

/* "Seq Host Starttime JobRuntime Send Receive Exitval Signal Command",
 * tab-separated: 0 with *j filled in, 1 to skip the line, -1 out of memory. */
static int parse_job(char *line, struct sweep_job *j)
{
    char *f[8], *p = line, *cmd, *last;

    for (int k = 0; k < 8; k++) {
        f[k] = p;
        if (!(p = strchr(p, '\t')))
            return 1;
        *p++ = '\0';
    }
    cmd = p;
    if (strcmp(f[0], "Seq") == 0)
        return 1;
    cmd[strcspn(cmd, "\r\n")] = '\0';
    last = strrchr(cmd, ' ');
    last = last ? last + 1 : cmd;
    if (strspn(last, "0123456789") != strlen(last) || !*last || strtoul(last, NULL, 10) == 0)
        return 1;
    j->point = strtoul(last, NULL, 10) - 1;
    j->exitval = atoi(f[6]);
    j->signal = atoi(f[7]);
    j->host = shown_host(f[1]);
    return j->host ? 0 : -1;
}

int sweep_joblog_load(struct sweep_joblog *jl, const char *dir)
{
    char path[SWEEP_PATH_BYTES + 16], *line = NULL;
    size_t cap = 0;
    FILE *f;
    int rc = 0;

    jl->j = NULL;
    jl->n = 0;
    jl->present = 0;
    snprintf(path, sizeof(path), "%s/%s", dir, SWEEP_JOBLOG);
    if (!(f = fopen(path, "r")))
        return 0;
    jl->present = 1;
    while (rc == 0 && getline(&line, &cap, f) > 0) {
        struct sweep_job j, *nj;
        int r = parse_job(line, &j);
        if (r != 0) {
            rc = r < 0 ? -1 : 0;
            continue;
        }
        nj = realloc(jl->j, (jl->n + 1) * sizeof(*nj));
        if (!nj) {
            free(j.host);
            rc = -1;
            break;
        }
        jl->j = nj;
        jl->j[jl->n++] = j;
    }
    free(line);
    fclose(f);
    if (rc != 0)
        sweep_joblog_free(jl);
    return rc;
}

const struct sweep_job *sweep_joblog_find(const struct sweep_joblog *jl, size_t i)
{
    for (size_t k = jl->n; k-- > 0;)
        if (jl->j[k].point == i)
            return &jl->j[k];
    return NULL;
}

void sweep_missing_why(const struct sweep_spec *s, const char *dir, size_t i,
                       const struct sweep_joblog *jl, char *buf, size_t len)
{
    char id[SWEEP_ID_BYTES], json[SWEEP_PATH_BYTES], log[SWEEP_PATH_BYTES];
    char slurm[SWEEP_PATH_BYTES + 16];
    const struct sweep_job *j = jl ? sweep_joblog_find(jl, i) : NULL;

    sweep_point_id(s, i, id);
    snprintf(slurm, sizeof(slurm), "%s/slurm", dir);
    if (sweep_point_paths(dir, id, json, log, sizeof(json)) == 0 && access(log, F_OK) == 0)
        snprintf(buf, len, "its run left no result; see `points/%s.log`", id);
    else if (!j && jl && jl->present)
        snprintf(buf, len, "no ssh host ran it (no log; the hosts left out are named when the "
                           "sweep starts)");
    else if (!j && access(slurm, F_OK) == 0)
        snprintf(buf, len, "no log: no Slurm task has run it yet (their output: `slurm/`)");
    else if (!j)
        snprintf(buf, len, "not run (no log)");
    else if (j->signal)
        snprintf(buf, len, "its job on `%s` was killed by signal %d", j->host, j->signal);
    else if (j->exitval == 0)
        snprintf(buf, len, "its job ended on `%s`, but its result is not in this directory: "
                           "that host does not share it (--transfer returns results)",
                 j->host);
    else if (j->exitval == 255)
        snprintf(buf, len, "its job could not reach `%s` (ssh exit 255)", j->host);
    else if (j->exitval == 127 || j->exitval == 126)
        snprintf(buf, len, "its job could not start nictx on `%s` (exit %d)", j->host,
                 j->exitval);
    else
        snprintf(buf, len, "its job on `%s` exited %d, with no log here", j->host, j->exitval);
}
