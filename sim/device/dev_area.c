/* SPDX-License-Identifier: Apache-2.0 */
/* dev_area.c - the engine's area by Yosys, cached by key (dev_area.h). */
#define _POSIX_C_SOURCE 200809L
#include "device/dev_area.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "device/dev_hw.h"
#include "device/dev_cache.h"

#define AREA_SCRIPT "scripts/area.sh"

static const char *const names[] = {
#define DEV_AREA_NAME(name, help) #name,
    DEV_AREA_FIELDS(DEV_AREA_NAME)
#undef DEV_AREA_NAME
};
_Static_assert(sizeof(names) / sizeof(names[0]) == DEV_AREA_N, "DEV_AREA_N");

const char *dev_area_name(unsigned i)
{
    return i < DEV_AREA_N ? names[i] : NULL;
}

unsigned long dev_area_value(const struct dev_area *a, unsigned i)
{
    const unsigned long *v = &a->gates;

    _Static_assert(sizeof(struct dev_area) == DEV_AREA_N * sizeof(unsigned long),
                   "struct dev_area is DEV_AREA_N unsigned longs, in order");
    return i < DEV_AREA_N ? v[i] : 0;
}

int dev_area_parse(FILE *f, struct dev_area *a)
{
    unsigned long *v = &a->gates;
    unsigned seen = 0;
    char line[256];

    while (fgets(line, sizeof(line), f)) {
        char *eq = strchr(line, '='), *end;
        if (!eq)
            continue;
        *eq = 0;
        for (unsigned i = 0; i < DEV_AREA_N; i++)
            if (strcmp(line, names[i]) == 0) {
                v[i] = strtoul(eq + 1, &end, 10);
                if (end != eq + 1)
                    seen |= 1u << i;
            }
    }
    return seen == (1u << DEV_AREA_N) - 1 ? 0 : -1;
}

static int area_read(const char *path, struct dev_area *a)
{
    FILE *f = fopen(path, "r");
    int rc;

    if (!f)
        return -1;
    rc = dev_area_parse(f, a);
    fclose(f);
    return rc;
}

int dev_area_get(unsigned w, const struct dev_hw *hw, struct dev_area *a, char *err, size_t n)
{
    char root[PATH_MAX], models[PATH_MAX], cache[PATH_MAX + 16], path[PATH_MAX + 128];
    char key[DEV_HW_KEY_MAX];
    const char *env = getenv("NICTX_AREA_CACHE");

    if (dev_hw_check(w, hw, err, n) != 0 ||
        dev_cache_dirs(root, sizeof(root), models, sizeof(models), err, n) != 0)
        return -1;
    if (env && *env)
        snprintf(cache, sizeof(cache), "%s", env);
    else
        snprintf(cache, sizeof(cache), "%s/build/area", root);
    dev_hw_key(w, hw, key);
    snprintf(path, sizeof(path), "%s/%s.txt", cache, key);
    /* The script returns at once when the file is current (area.sh). */
    if (dev_cache_script(root, AREA_SCRIPT, cache, w, hw, err, n) != 0)
        return -1;
    if (area_read(path, a) != 0) {
        snprintf(err, n, "%s: not the area of %s (%s)", path, key, AREA_SCRIPT);
        return -1;
    }
    return 0;
}
