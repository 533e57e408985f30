/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_slurm.c - an sbatch array script for a sweep's pending points (see
 * sweep_slurm.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_slurm.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/json.h"
#include "sweep/sweep_exec.h"
#include "sweep/sweep_point.h"

#define ARRAY_BYTES 65536

int sweep_slurm_ranges(const unsigned char *todo, size_t n, char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        int w;
        if (!todo[i])
            continue;
        while (j + 1 < n && todo[j + 1])
            j++;
        w = j > i ? snprintf(buf + used, len - used, "%s%zu-%zu", used ? "," : "", i + 1, j + 1)
                  : snprintf(buf + used, len - used, "%s%zu", used ? "," : "", i + 1);
        if (w < 0 || (size_t)w >= len - used)
            return -1;
        used += (size_t)w;
        i = j;
    }
    return 0;
}

static void write_script(FILE *f, const struct sweep_spec *s, const struct sweep_run_opts *o,
                         const char *array, size_t ntodo, size_t n)
{
    char bin[SWEEP_PATH_BYTES + 64] = "", dir[SWEEP_PATH_BYTES + 64] = "";

    sweep_shell_quote(o->bin, bin, sizeof(bin));
    sweep_shell_quote(o->dir, dir, sizeof(dir));
    fprintf(f, "#!/bin/bash\n"
               "# nictx sweep %s: one Slurm array task per point still to run (%zu of %zu).\n"
               "#   submit:  sbatch THIS-FILE\n"
               "#   then:    %s sweep merge %s\n"
               "# (merge any time: it collects the points done so far).  Slurm's\n"
               "# MaxArraySize (often 1001) caps the task numbers; split a bigger sweep.\n",
            *s->name ? s->name : "sweep", ntodo, n, bin, dir);
    fprintf(f, "#SBATCH --job-name=nictx-%s\n"
               "#SBATCH --array=%s\n"
               "#SBATCH --ntasks=1\n"
               "#SBATCH --cpus-per-task=1\n"
               "#SBATCH --chdir=%s\n"
               "#SBATCH --output=%s/slurm/%%A_%%a.out\n"
               "exec %s sweep point %s \"$SLURM_ARRAY_TASK_ID\"\n",
            *s->name ? s->name : "sweep", array, o->cwd, o->dir, bin, dir);
}

int sweep_slurm_write(const struct sweep_spec *s, const struct sweep_run_opts *o,
                      const unsigned char *todo, const char *path, char *err, size_t errlen)
{
    static const char what[] = "cannot write the Slurm script";
    char array[ARRAY_BYTES], logs[SWEEP_PATH_BYTES + 16];
    size_t n = sweep_npoints(s), ntodo = 0;
    struct afile af;

    for (size_t i = 0; i < n; i++)
        ntodo += todo[i] != 0;
    if (sweep_slurm_ranges(todo, n, array, sizeof(array)) != 0) {
        snprintf(err, errlen, "%s: too many ranges of pending points for one array", path);
        return -1;
    }
    snprintf(logs, sizeof(logs), "%s/slurm", o->dir);
    if ((mkdir(logs, 0777) != 0 && errno != EEXIST) || afile_open(&af, path) != 0) {
        snprintf(err, errlen, "%s: %s: %s", path, what, strerror(errno));
        return -1;
    }
    write_script(af.f, s, o, array, ntodo, n);
    if (fchmod(fileno(af.f), 0755) != 0 || afile_commit(&af) != 0) {
        afile_abort(&af);
        snprintf(err, errlen, "%s: %s: %s", path, what, strerror(errno));
        return -1;
    }
    return 0;
}
