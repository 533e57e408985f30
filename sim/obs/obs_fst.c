/* SPDX-License-Identifier: Apache-2.0 */
/* obs_fst.c - FST for signals the caller holds (obs_fst.h). */
#include "obs/obs_fst.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstapi.h"
#include "obs/obs_file.h"

#define FST_VARS 512
#define FST_MAXB 64 /* bytes of the widest value */

struct fst_var {
    fstHandle h;
    unsigned width;
    int alias;            /* the signal it repeats, or -1 */
    uint8_t have;         /* a value was written */
    uint8_t val[FST_MAXB];
};

struct obs_fst {
    struct obs_file of;
    void *ctx;
    char scope[256];      /* the current scope path */
    unsigned nvars;
    struct fst_var var[FST_VARS];
    sim_ps_t t;
    int timed;
};

struct obs_fst *obs_fst_open(const char *path, char *err, size_t n)
{
    struct obs_fst *w = calloc(1, sizeof(*w));

    if (!w) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    if (obs_file_begin(&w->of, path, 0, err, n) != 0) {
        free(w);
        return NULL;
    }
    w->ctx = fstWriterCreate(w->of.tmp, 1);
    if (!w->ctx) {
        snprintf(err, n, "cannot create a file in its directory");
        free(w);
        return NULL;
    }
    fstWriterSetPackType(w->ctx, FST_WR_PT_LZ4);
    fstWriterSetTimescale(w->ctx, -12);
    fstWriterSetVersion(w->ctx, "nictx C model");
    return w;
}

/* Split a scope path into its parts (at most 16): their count. */
static unsigned scope_parts(const char *path, char parts[16][64])
{
    unsigned k = 0;

    while (*path && k < 16) {
        size_t len = strcspn(path, ".");
        snprintf(parts[k++], 64, "%.*s", (int)len, path);
        path += len;
        if (*path == '.')
            path++;
    }
    return k;
}

/* Move the writer's scope from w->scope to `to`: up to the common part,
 * then down. */
static void scope_to(struct obs_fst *w, const char *to)
{
    char cur[16][64], nxt[16][64];
    unsigned nc = scope_parts(w->scope, cur), nn = scope_parts(to, nxt), common = 0;

    while (common < nc && common < nn && strcmp(cur[common], nxt[common]) == 0)
        common++;
    for (unsigned i = common; i < nc; i++)
        fstWriterSetUpscope(w->ctx);
    for (unsigned i = common; i < nn; i++)
        fstWriterSetScope(w->ctx, FST_ST_VCD_MODULE, nxt[i], NULL);
    snprintf(w->scope, sizeof(w->scope), "%s", to);
}

int obs_fst_var(struct obs_fst *w, const char *scope, const char *name, unsigned width,
                int alias)
{
    struct fst_var *v;
    char full[160];

    if (w->nvars == FST_VARS || width < 1 || width > 8 * FST_MAXB)
        return -1;
    if (strcmp(w->scope, scope) != 0)
        scope_to(w, scope);
    if (width > 1)
        snprintf(full, sizeof(full), "%s [%u:0]", name, width - 1);
    else
        snprintf(full, sizeof(full), "%s", name);
    v = &w->var[w->nvars];
    v->width = width;
    v->alias = alias;
    v->h = fstWriterCreateVar(w->ctx, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, width, full,
                              alias >= 0 ? w->var[alias].h : 0);
    return (int)w->nvars++;
}

void obs_fst_time(struct obs_fst *w, sim_ps_t t)
{
    if (w->timed && t <= w->t)
        return;
    w->t = t;
    w->timed = 1;
    fstWriterEmitTimeChange(w->ctx, t);
}

void obs_fst_bytes(struct obs_fst *w, int id, const uint8_t *le)
{
    struct fst_var *v;
    unsigned nb;
    char bits[8 * FST_MAXB + 1];

    if (id < 0 || (unsigned)id >= w->nvars)
        return;
    v = &w->var[id];
    if (v->alias >= 0)
        return; /* an alias shows its signal's values */
    nb = (v->width + 7) / 8;
    if (v->have && memcmp(v->val, le, nb) == 0)
        return;
    memcpy(v->val, le, nb);
    v->have = 1;
    for (unsigned i = 0; i < v->width; i++) { /* most significant bit first */
        unsigned b = v->width - 1 - i;
        bits[i] = (char)('0' + ((le[b / 8] >> (b % 8)) & 1));
    }
    bits[v->width] = '\0';
    fstWriterEmitValueChange(w->ctx, v->h, bits);
}

void obs_fst_u64(struct obs_fst *w, int id, uint64_t x)
{
    uint8_t le[8];

    for (unsigned i = 0; i < 8; i++)
        le[i] = (uint8_t)(x >> (8 * i));
    if (id >= 0 && (unsigned)id < w->nvars && w->var[id].width < 64)
        le[w->var[id].width / 8] &= (uint8_t)((1u << (w->var[id].width % 8)) - 1);
    obs_fst_bytes(w, id, le);
}

int obs_fst_close(struct obs_fst *w, char *err, size_t n)
{
    int rc;

    if (!w)
        return 0;
    fstWriterClose(w->ctx);
    rc = obs_file_commit(&w->of, err, n);
    free(w);
    return rc;
}

void obs_fst_abort(struct obs_fst *w)
{
    if (!w)
        return;
    fstWriterClose(w->ctx);
    obs_file_abort(&w->of);
    free(w);
}
