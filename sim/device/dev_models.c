/* SPDX-License-Identifier: Apache-2.0 */
/* dev_models.c - models at any hardware combination (dev_models.h). */
#define _POSIX_C_SOURCE 200809L
#include "device/dev_models.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device/dev_hw.h"

#define BUILDER "scripts/model-build.sh"

void dev_models_init(struct dev_models *m)
{
    memset(m, 0, sizeof(*m));
}

void dev_models_close(struct dev_models *m)
{
    if (m->so)
        dlclose(m->so);
    dev_models_init(m);
}

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

int dev_models_dirs(char *root, size_t rn, char *cache, size_t cn, char *err, size_t n)
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
            snprintf(probe, sizeof(probe), "%s/%s", dir, BUILDER);
            found = is_file(probe);
        }
    }
    if (!found) {
        snprintf(err, n, "cannot find the nictx repository (%s) above the binary: set "
                         "NICTX_ROOT", BUILDER);
        return -1;
    }
    snprintf(root, rn, "%s", dir);
    if (c && *c)
        snprintf(cache, cn, "%s", c);
    else
        snprintf(cache, cn, "%s/build/models", dir);
    return 0;
}

int dev_models_script(const char *root, const char *script, const char *cache, unsigned w,
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

/* The Verilated model of the key, loaded. */
static int load_rtl(struct dev_models *m, unsigned w, char *err, size_t n)
{
    char root[PATH_MAX], cache[PATH_MAX], so[2 * PATH_MAX], key[DEV_HW_KEY_MAX];
    const struct device_ops *ops;

    if (m->so)
        return 0;
    if (dev_models_dirs(root, sizeof(root), cache, sizeof(cache), err, n) != 0)
        return -1;
    dev_hw_key(w, &m->hw, key);
    snprintf(so, sizeof(so), "%s/%s/model.so", cache, key);
    if (!is_file(so) && dev_models_script(root, BUILDER, cache, w, &m->hw, err, n) != 0)
        return -1;
    if (!(m->so = dlopen(so, RTLD_NOW | RTLD_LOCAL))) {
        snprintf(err, n, "%s: %s", so, dlerror());
        return -1;
    }
    ops = dlsym(m->so, "dev_rtl_so_ops");
    if (!ops || ops->width != w) {
        snprintf(err, n, "%s: no dev_rtl_so_ops of width %u in it", so, w);
        return -1;
    }
    m->rtl = *ops;
    m->rtl.hw = &m->hw;
    m->rtl.traced = NULL;
    return 0;
}

static void *ls_create_with(const struct device_ops *self)
{
    const struct dev_models *m = self->ctx;

    return dev_lockstep_create(&m->rtl, &m->cm);
}

const struct device_ops *dev_models_ops(struct dev_models *m, enum dev_backend b, unsigned w,
                                        const struct dev_hw *hw, char *err, size_t n)
{
    if (dev_hw_is_default(hw))
        return dev_ops_for(b, w);
    if (dev_hw_check(w, hw, err, n) != 0)
        return NULL;
    m->hw = *hw;
    m->cm = *dev_cm_ops_width(w);
    m->cm.create_with = dev_cm_create_with;
    m->cm.hw = &m->hw;
    m->cmw = *m->cm.traced;
    m->cmw.create_with = dev_cm_wave_create_with;
    m->cmw.hw = &m->hw;
    m->cmw.traced = &m->cmw;
    m->cm.traced = &m->cmw;
    if (b == DEV_BACKEND_CM)
        return &m->cm;
    if (load_rtl(m, w, err, n) != 0)
        return NULL;
    if (b == DEV_BACKEND_RTL)
        return &m->rtl;
    m->ls = *dev_lockstep_ops_width(w);
    m->ls.create_with = ls_create_with;
    m->ls.hw = &m->hw;
    m->ls.ctx = m;
    m->ls.traced = NULL;
    return &m->ls;
}
