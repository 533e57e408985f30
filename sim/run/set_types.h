/* SPDX-License-Identifier: Apache-2.0 */
/*
 * set_types.h - the value types of the settings table (settings.h): for
 * each, how a value is parsed (as an option or a key), printed, written to
 * JSON and checked against a row's range; and the names of the enumerated
 * choices (the sim_*_name / sim_parse_* of harness.h are theirs).
 *
 * A type works on the row's field, (char *)cfg + row->off; the few that
 * set more than one field (the --cpu profile, --fc-update-ns) know which.
 * Used by settings.c and sim_cfg.c only; the rest of the tree goes through
 * settings.h.  Const data and pure functions.
 */
#ifndef NICTX_SET_TYPES_H
#define NICTX_SET_TYPES_H

#include <stddef.h>
#include <stdio.h>

#include "lib/json.h"
#include "lib/num.h"
#include "run/settings.h"

/* A number's C type. */
enum set_num { SET_NUM_NONE, SET_NUM_UINT, SET_NUM_U64, SET_NUM_REAL };

struct set_type {
    const char *name;   /* its form in listings ("unsigned"); NULL: the choices */
    const char *expect; /* what a bad value should be ("a decimal integer ..."); NULL: the choices */
    const char *const *names; /* enums: the name of each value, in value order */
    unsigned nnames;
    /* The name of choice i, NULL past the last (enums: names[i]); NULL: no choices. */
    const char *(*choice)(const struct set_type *t, unsigned i);
    /* Parse v into the row's field (rules: the number rules): 0, or
     * SET_BAD_VALUE / SET_BAD_MSG with why; on failure the field may be
     * half-written (callers work on a copy). */
    int (*parse)(const struct set_type *t, const struct sim_setting *s, struct sim_cfg *c,
                 const char *v, enum num_rules rules, char *why, size_t n);
    void (*format)(const struct set_type *t, const struct sim_setting *s,
                   const struct sim_cfg *c, char *buf, size_t n);
    void (*json)(const struct set_type *t, const struct sim_setting *s,
                 const struct sim_cfg *c, struct json *j, const char *key);
    /* Within the row's range (numbers) or the type's values (enums); NULL: any. */
    int (*in_range)(const struct set_type *t, const struct sim_setting *s,
                    const struct sim_cfg *c);
    void (*list)(FILE *f); /* the choices at length (--driver-bug list); NULL: none */
    int flag;              /* takes no value (an option given alone) */
    int auto_ok;           /* "auto" is a value too (set_timeout) */
    enum set_num num;      /* a number's C type; SET_NUM_NONE: not a number */
};

extern const struct set_type set_unsigned, set_u64, set_number, set_flag, set_onoff, set_timeout;
extern const struct set_type set_proto, set_barrier, set_ordering, set_layout, set_dql,
    set_source, set_qdisc_root, set_napi, set_completion, set_clean, set_sched, set_device,
    set_desc_wb;
extern const struct set_type set_buf_place, set_link, set_rate, set_weights, set_xps, set_fc,
    set_fc_update, set_cpu,
    set_bug, set_inject, set_string, set_path, set_pcap_in, set_point;

/* The choices joined: "a|b|c" (sep "|", last "|"), "a, b or c". */
void set_choices(const struct set_type *t, const char *sep, const char *last, char *buf,
                 size_t n);
/* The number a numeric field holds (t->num; NAN for the others). */
double set_value(const struct set_type *t, const struct sim_setting *s, const struct sim_cfg *c);
/* v within the row's range. */
int set_range_has(const struct set_range *r, double v);

#endif /* NICTX_SET_TYPES_H */
