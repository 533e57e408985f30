/* SPDX-License-Identifier: Apache-2.0 */
/* dev_models.c - models at any hardware combination (dev_models.h). */
#define _POSIX_C_SOURCE 200809L
#include "device/dev_models.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "device/dev_cache.h"
#include "device/dev_hw.h"

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

/* The Verilated model of the key, loaded. */
static int load_rtl(struct dev_models *m, unsigned w, char *err, size_t n)
{
    char root[PATH_MAX], cache[PATH_MAX], so[2 * PATH_MAX], key[DEV_HW_KEY_MAX];
    const struct device_ops *ops;

    if (m->so)
        return 0;
    if (dev_cache_dirs(root, sizeof(root), cache, sizeof(cache), err, n) != 0)
        return -1;
    dev_hw_key(w, &m->hw, key);
    snprintf(so, sizeof(so), "%s/%s/model.so", cache, key);
    /* The builder returns at once when the model is current. */
    if (dev_cache_script(root, DEV_CACHE_BUILDER, cache, w, &m->hw, err, n) != 0)
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
