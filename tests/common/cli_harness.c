/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli_harness.c - running the nictx binary from tests (see cli_harness.h).
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/cli_harness.h"

/* ---- fixture: a scratch directory, and the binary under test -------------- */

int cli_setup(void **state)
{
    struct cli *c = calloc(1, sizeof(*c));
    const char *env = getenv("NICTX");

    if (!c)
        return -1;
    c->bin = env && *env ? env : "./build/nictx";
    snprintf(c->root, sizeof(c->root), "/tmp/test_cli.XXXXXX");
    if (!mkdtemp(c->root)) {
        free(c);
        return -1;
    }
    snprintf(c->work, sizeof(c->work), "%s/work", c->root);
    snprintf(c->out_path, sizeof(c->out_path), "%s/stdout", c->root);
    snprintf(c->err_path, sizeof(c->err_path), "%s/stderr", c->root);
    if (mkdir(c->work, 0700) != 0) {
        rmdir(c->root);
        free(c);
        return -1;
    }
    *state = c;
    return 0;
}

/* Remove a directory and everything under it (tests make only a few levels). */
void remove_tree(const char *path)
{
    DIR *dp = opendir(path);
    struct dirent *e;
    char sub[512];
    struct stat st;

    if (!dp) {
        remove(path);
        return;
    }
    chmod(path, 0700); /* a test may have made it read-only */
    while ((e = readdir(dp)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
        if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(sub);
        else
            remove(sub);
    }
    closedir(dp);
    rmdir(path);
}

int cli_teardown(void **state)
{
    struct cli *c = *state;

    remove_tree(c->root);
    free(c);
    return 0;
}

/* ---- running the binary --------------------------------------------------- */

char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t len = 0, cap = 0, n;

    if (!f)
        return NULL;
    do {
        if (cap - len < 4096) {
            char *nb = realloc(buf, cap + 8192);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
            cap += 8192;
        }
        n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
    } while (n > 0);
    fclose(f);
    buf[len] = '\0';
    return buf;
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void run_free(struct run *r)
{
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof(*r));
}

/* Run "nictx ARGS..." (NULL-terminated, argv[0] excluded) to completion. */
void nictx_argv(struct cli *c, struct run *r, const char *const *args)
{
    char *argv[64];
    size_t n = 0;
    pid_t pid;
    int wst, fo, fe;
    double t0;

    argv[n++] = (char *)c->bin;
    while (args[n - 1] && n < 63) {
        argv[n] = (char *)args[n - 1];
        n++;
    }
    argv[n] = NULL;
    fo = open(c->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    fe = open(c->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fo >= 0 && fe >= 0);
    t0 = now_s();
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fo, STDOUT_FILENO);
        dup2(fe, STDERR_FILENO);
        alarm(CLI_TIMEOUT_S);
        execvp(argv[0], argv);
        dprintf(STDERR_FILENO, "exec %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fo);
    close(fe);
    while (waitpid(pid, &wst, 0) < 0)
        assert_int_equal(errno, EINTR);
    r->secs = now_s() - t0;
    r->status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
    r->out = slurp(c->out_path);
    r->err = slurp(c->err_path);
    assert_non_null(r->out);
    assert_non_null(r->err);
}


/* Fail with what the binary printed, so a failure explains itself. */
void expect_status(const struct run *r, int status)
{
    if (r->status != status)
        print_error("exit status %d, expected %d\n--- stdout:\n%.2000s\n--- stderr:\n%.2000s\n",
                    r->status, status, r->out, r->err);
    assert_int_equal(r->status, status);
}

void expect_has(const char *text, const char *what)
{
    if (!strstr(text, what))
        print_error("expected \"%s\" in:\n%.2000s\n", what, text);
    assert_non_null(strstr(text, what));
}

/* ---- files ------------------------------------------------------------------ */

int dir_entries(const char *path)
{
    DIR *dp = opendir(path);
    struct dirent *e;
    int n = 0;

    if (!dp)
        return -1;
    while ((e = readdir(dp)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(dp);
    return n;
}

/* No "<name>.tmp.<pid>" left from an atomic write. */
int dir_has_tmp(const char *path)
{
    DIR *dp = opendir(path);
    struct dirent *e;
    int found = 0;

    if (!dp)
        return 0;
    while ((e = readdir(dp)) != NULL)
        found |= strstr(e->d_name, ".tmp.") != NULL;
    closedir(dp);
    return found;
}
