/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_cli.c - libFuzzer target: the `nictx run` command line and the
 * profiles it loads (sim/cli/main.c, sim/cli/profile.c, sim/run/sim_cfg.c).
 *
 * Input: arguments separated by NUL or newline bytes; a line "@@ini" ends
 * them, and whatever follows it is written as fuzz.ini, which an argument
 * may load with --profile fuzz.ini.  The target runs
 *
 *     nictx run --check ARG...
 *
 * through the real main() (compiled as nictx_main, so nothing else in it
 * changes): every option is parsed (strict numbers, --set section.key=V,
 * --fc-dev lists, profiles) and the whole configuration validated, and
 * --check stops it before a run.  Findings: any sanitizer report, a leak,
 * and an exit status other than 0 (valid) or 2 (refused with a message).
 *
 * Side effects are kept in a private directory: the target works in a
 * fresh temporary directory and every '/' in an argument becomes '_', so a
 * --json probe or a profile path stays inside it; profiles by NAME come
 * from the source tree's profiles/ (NICTX_PROFILE_DIR, set at start when
 * the fuzzer runs from the top of the tree).  Run it with
 * -close_fd_mask=3 to silence nictx's messages (scripts/fuzz-run.sh does),
 * and give it absolute corpus paths: it changes directory at start.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/dev_models.h"
#include "device/device.h"

int nictx_main(int argc, char **argv);

/* The CLI target never creates a device (--check stops before the run);
 * this stands in for the Verilated one so the parser links alone. */
static void *no_dev_create(void) { return NULL; }
static void no_dev_destroy(void *d) { (void)d; }
static void no_dev_reset(void *d) { (void)d; }
static void no_dev_step(void *d, const struct dev_in *in, struct dev_out *out)
{
    (void)d;
    (void)in;
    memset(out, 0, sizeof(*out));
}
static const struct device_ops no_dev_ops = {
    "none", DEV_WIDTH_DEFAULT, no_dev_create, no_dev_destroy, no_dev_reset, no_dev_step, NULL,
    NULL,   NULL,              NULL,              NULL, NULL, NULL, NULL, NULL};
const struct device_ops *dev_ops_for(enum dev_backend b, unsigned w)
{
    (void)b;
    (void)w;
    return &no_dev_ops;
}

/* The models of other hardware combinations (sim/device/dev_models.c)
 * likewise: --check stops before a model is asked for. */
void dev_models_init(struct dev_models *m)
{
    memset(m, 0, sizeof(*m));
}

const struct device_ops *dev_models_ops(struct dev_models *m, enum dev_backend b, unsigned w,
                                        const struct dev_hw *hw, char *err, size_t n)
{
    (void)m;
    (void)hw;
    (void)err;
    (void)n;
    return dev_ops_for(b, w);
}

void dev_models_close(struct dev_models *m)
{
    (void)m;
}

#define FZ_MAX_ARGS 40
#define FZ_MAX_ARG 256
#define FZ_INI_MARK "@@ini"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fz_dir[64];

static void fz_cleanup(void)
{
    unlink("fuzz.ini");
    if (chdir("/") == 0)
        rmdir(fz_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char dir[] = "/tmp/nictx_fuzz_cli_XXXXXX", prof[4096];

    (void)argc;
    (void)argv;
    if (getcwd(prof, sizeof(prof) - 16) && strcat(prof, "/profiles") &&
        access(prof, R_OK) == 0)
        setenv("NICTX_PROFILE_DIR", prof, 1);
    if (!mkdtemp(dir) || chdir(dir) != 0) {
        perror("fuzz_cli: temporary directory");
        abort();
    }
    snprintf(fz_dir, sizeof(fz_dir), "%s", dir);
    atexit(fz_cleanup);
    return 0;
}

/* glibc's getopt keeps a pointer into the previous argv between calls
 * (nextchar) unless optind is 0, which makes it start afresh: a real
 * process parses once, the fuzzer many times over freed argvs. */
static void fz_reset_getopt(void)
{
    static const struct option none[] = {{NULL, 0, NULL, 0}};
    char *dummy[] = {(char *)"nictx", NULL};

    optind = 0;
    opterr = 0;
    (void)getopt_long(1, dummy, ":", none, NULL);
}

/* The profile text after the "@@ini" line, as fuzz.ini (or no file). */
static void fz_write_ini(const uint8_t *p, size_t n)
{
    FILE *f;

    unlink("fuzz.ini");
    if (!p)
        return;
    f = fopen("fuzz.ini", "wb");
    if (!f)
        abort();
    if (n && fwrite(p, 1, n, f) != n)
        abort();
    fclose(f);
}

/* Split data into argv[3..]; returns argc.  args holds the strings. */
static int fz_split(const uint8_t *data, size_t size, char args[][FZ_MAX_ARG], char **argv)
{
    int argc = 0;
    size_t i = 0;
    const uint8_t *ini = NULL;
    size_t ini_n = 0;

    argv[argc++] = (char *)"nictx";
    argv[argc++] = (char *)"run";
    argv[argc++] = (char *)"--check"; /* first: no later argument can undo it */
    while (i < size && argc < FZ_MAX_ARGS) {
        size_t j = i, n;
        char *a = args[argc];
        while (j < size && data[j] != 0 && data[j] != '\n')
            j++;
        n = j - i;
        if (n == strlen(FZ_INI_MARK) && memcmp(data + i, FZ_INI_MARK, n) == 0) {
            ini = j < size ? data + j + 1 : data + j;
            ini_n = j < size ? size - j - 1 : 0;
            break;
        }
        if (n >= FZ_MAX_ARG)
            n = FZ_MAX_ARG - 1;
        memcpy(a, data + i, n);
        a[n] = '\0';
        for (char *c = a; (c = strchr(c, '/')) != NULL;) /* no paths: stay here */
            *c = '_';
        argv[argc++] = a;
        i = j + 1;
    }
    argv[argc] = NULL;
    fz_write_ini(ini, ini_n);
    return argc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char args[FZ_MAX_ARGS + 1][FZ_MAX_ARG];
    char *argv[FZ_MAX_ARGS + 1];
    int argc, rc;

    argc = fz_split(data, size, args, argv);
    fz_reset_getopt();
    rc = nictx_main(argc, argv);
    if (rc != 0 && rc != 2) {
        fprintf(stderr, "fuzz_cli: nictx run --check exited %d\n", rc);
        abort();
    }
    return 0;
}
