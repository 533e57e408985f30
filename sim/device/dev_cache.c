/* SPDX-License-Identifier: Apache-2.0 */
/* dev_cache.c - where models and areas are cached, and the scripts that
 * fill the cache (dev_cache.h). */
#define _POSIX_C_SOURCE 200809L
#include "device/dev_cache.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device/dev_hw.h"

static int is_file(const char *p)
{
    struct stat st;

    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The directory above `dir` (in place); 0 at the top. */
static int up(char *dir)
{
    char *s = strrchr(dir, '/');

    if (!s || s == dir)
        return 0;
    *s = 0;
    return 1;
}

int dev_cache_dirs(char *root, size_t rn, char *cache, size_t cn, char *err, size_t n)
{
    const char *env = getenv("NICTX_ROOT"), *c = getenv("NICTX_MODEL_CACHE");
    char dir[PATH_MAX], probe[PATH_MAX + 32];
    ssize_t k;
    int found = 0;

    if (env && *env) {
        snprintf(dir, sizeof(dir), "%s", env);
        found = 1;
    } else if ((k = readlink("/proc/self/exe", dir, sizeof(dir) - 1)) > 0) {
        dir[k] = 0;
        while (!found && up(dir)) {
            snprintf(probe, sizeof(probe), "%s/%s", dir, DEV_CACHE_BUILDER);
            found = is_file(probe);
        }
    }
    if (!found) {
        snprintf(err, n, "cannot find the nictx repository (%s) above the binary: set "
                         "NICTX_ROOT", DEV_CACHE_BUILDER);
        return -1;
    }
    snprintf(root, rn, "%s", dir);
    if (c && *c)
        snprintf(cache, cn, "%s", c);
    else
        snprintf(cache, cn, "%s/build/models", dir);
    return 0;
}

int dev_cache_script(const char *root, const char *script, const char *cache, unsigned w,
                      const struct dev_hw *hw, char *err, size_t n)
{
    char path[PATH_MAX + 64], key[DEV_HW_KEY_MAX], wbuf[16], g[DEV_HW_NPARAMS][48];
    char *argv[4 + DEV_HW_NPARAMS + 1];
    int status;
    pid_t pid;

    snprintf(path, sizeof(path), "%s/%s", root, script);
    dev_hw_key(w, hw, key);
    snprintf(wbuf, sizeof(wbuf), "%u", w);
    argv[0] = path;
    argv[1] = (char *)cache;
    argv[2] = key;
    argv[3] = wbuf;
    for (unsigned i = 0; i < DEV_HW_NPARAMS; i++) {
        snprintf(g[i], sizeof(g[i]), "%s=%u", dev_hw_param_name(i), dev_hw_param_value(i, w, hw));
        argv[4 + i] = g[i];
    }
    argv[4 + DEV_HW_NPARAMS] = NULL;
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        execv(path, argv);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        snprintf(err, n, "%s %s failed (its output is above)", script, key);
        return -1;
    }
    return 0;
}
