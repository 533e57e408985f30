/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli_harness.h - the command line as a user meets it, for tests: run the
 * nictx binary ($NICTX, or ./build/nictx from the repository root) in a
 * child process with stdout and stderr captured to files, in a scratch
 * directory the fixture creates and removes.  Shared by test_cli and
 * test_sweep_cli.
 */
#ifndef NICTX_CLI_HARNESS_H
#define NICTX_CLI_HARNESS_H

/* A child that outlives this is hung: SIGALRM ends it (alarm survives exec). */
#define CLI_TIMEOUT_S 30

struct cli {
    const char *bin;  /* $NICTX, or ./build/nictx (tests run from the repo root) */
    char root[64];    /* mkdtemp: captured stdout and stderr live here */
    char work[96];    /* root/work: where the JSON files go, nothing else */
    char out_path[128];
    char err_path[128];
};

/* One finished run of the binary. */
struct run {
    int status;  /* exit status; 128 + signal if killed */
    double secs; /* wall-clock time of the run */
    char *out;   /* everything it wrote to stdout, NUL-terminated */
    char *err;   /* ... and to stderr */
};

/* cmocka fixtures: a scratch directory root/work (*state is a struct cli). */
int cli_setup(void **state);
int cli_teardown(void **state);

/* Run "nictx ARGS..." (NULL-terminated, argv[0] excluded) to completion. */
void nictx_argv(struct cli *c, struct run *r, const char *const *args);
#define NICTX(c, r, ...)                                          \
    do {                                                          \
        const char *const args_[] = {__VA_ARGS__, NULL};          \
        nictx_argv((c), (r), args_);                              \
    } while (0)
void run_free(struct run *r);

/* Fail with what the binary printed, so a failure explains itself. */
void expect_status(const struct run *r, int status);
void expect_has(const char *text, const char *what);

/* A whole file, NUL-terminated (malloc'd), or NULL. */
char *slurp(const char *path);
/* Remove a directory and everything under it. */
void remove_tree(const char *path);
/* Entries in a directory (-1 if it cannot be read); whether one is a
 * "<name>.tmp.<pid>" left from an atomic write. */
int dir_entries(const char *path);
int dir_has_tmp(const char *path);

#endif /* NICTX_CLI_HARNESS_H */
