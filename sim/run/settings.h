/* SPDX-License-Identifier: Apache-2.0 */
/*
 * settings.h - every setting of a run, declared once.
 *
 * What it models: nothing; it is configuration.  One const table
 * (settings.c) has a row per field of struct sim_cfg that a user can set or
 * that a run reports: its name (the key in the JSON "config" block), its
 * command-line option, its profile section and key, its value type (the
 * parser and printer of sim/run/set_types.c), its range, its default, its
 * --help group, its place in the text report and its help.  Everything that
 * names a setting reads that table:
 *  - sim_cfg_default() applies the defaults, sim_cfg_validate() the ranges
 *    (rules between settings stay in sim_cfg.c);
 *  - the command line (sim/cli/options.c) builds its getopt table, --help,
 *    --list-options and --list-keys from it; profiles (sim/cli/profile.c)
 *    look their keys up in it;
 *  - the report (sim/cli/report.c) writes the JSON "config" block and the
 *    text report's header from it; docs/profiles.md's option table is its
 *    `nictx run --list-keys --markdown`.
 * Adding a setting: a field in struct sim_cfg, a row here, and, if it
 * depends on another setting, a rule in sim_cfg_validate (docs/profiles.md,
 * Adding a setting).
 *
 * Contract: the table is const data, the functions pure; no global state.
 * Functions that can fail return 0 or -1 and write a one-line message.
 */
#ifndef NICTX_SETTINGS_H
#define NICTX_SETTINGS_H

#include <stddef.h>
#include <stdio.h>

#include "lib/json.h"
#include "run/harness.h"

/* --help's headings, in their order. */
enum set_group {
    SET_G_NONE, /* not an option */
    SET_G_WORKLOAD,
    SET_G_PROFILES,
    SET_G_HOST,
    SET_G_PCIE,
    SET_G_DEVICE,
    SET_G_HARDWARE,
    SET_G_OWNERSHIP,
    SET_G_FAULTS,
    SET_G_OBS,
    SET_G_RUN,
    SET_GROUPS
};

/* A number's allowed values. */
enum set_range_kind {
    SET_RANGE_NONE,   /* any the type takes */
    SET_RANGE_SPAN,   /* lo..hi */
    SET_RANGE_OR_0,   /* 0, or lo..hi */
    SET_RANGE_POW2,   /* a power of two in lo..hi */
};

struct set_range {
    double lo, hi;
    enum set_range_kind kind;
};

/* Row flags. */
#define SET_LATE 1u   /* the option applies after every other option (--mmio-write-ns
                         after --cpu, wherever it stands) */
#define SET_EARLY 2u  /* the option's range is checked as it is parsed */
#define SET_NODEF 4u  /* --help shows no default (the help says what it is) */
#define SET_NOJSON 8u /* not in the JSON "config" block */
#define SET_TEXT_SET 16u /* the text report shows it only when not at its default */

struct set_type; /* a value type: sim/run/set_types.h */

struct sim_setting {
    const char *name;     /* the JSON "config" key; "obj.key" inside object obj */
    const char *opt;      /* the option, without "--"; NULL: none */
    const char *arg;      /* the option's value in --help ("N", "NS"); NULL: a flag */
    const char *section;  /* the profile key section.key; NULL: none */
    const char *key;
    const struct set_type *type;     /* the value as a key and in reports; NULL:
                                        reported only (`json` computes it) */
    const struct set_type *opt_type; /* as the option spells it, if not `type` */
    size_t off;           /* the field in struct sim_cfg */
    struct set_range range;
    const char *def;      /* the default, as the key spells it; NULL: the field's
                             module's (pcie_cfg_default, the --cpu profile's
                             costs) or zero */
    enum set_group group; /* --help heading (options only) */
    unsigned flags;       /* SET_* */
    /* The text report's header: a template ("burst {}": {} the value, {name}
     * another setting's), NULL: not shown; `text_if`: shown only when true. */
    const char *text;
    int (*text_if)(const struct sim_cfg *c);
    /* The JSON value when it is not the field's (a derived figure). */
    void (*json)(struct json *j, const char *key, const struct sim_cfg *c);
    const char *help;
};

#define SIM_SETTINGS_MAX 112 /* rows the table may have */

/* The table, in the order of the JSON "config" block; *n its rows. */
const struct sim_setting *sim_settings(size_t *n);
/* The row named `name`, the row of option `opt`, of key section.key; or NULL. */
const struct sim_setting *sim_setting_find(const char *name);
const struct sim_setting *sim_setting_by_opt(const char *opt);
const struct sim_setting *sim_setting_by_key(const char *section, const char *key);
/* The profile sections, in order; *n their number. */
const char *const *sim_setting_sections(size_t *n);
/* --help's heading of group g ("device", "ownership (docs/ownership.md)"). */
const char *sim_setting_group_title(enum set_group g);

/* The option takes a value (else it is a flag). */
int sim_setting_takes_value(const struct sim_setting *s);

/* What sim_setting_parse_opt returns. */
#define SET_BAD_VALUE (-1) /* why: the reason, for "--opt VALUE: why" */
#define SET_BAD_MSG (-2)   /* why: a whole message, naming the option */
/* Set the option's value v in *c (the command line's strict numbers;
 * SET_EARLY: its range too).  0, or SET_BAD_* with *c untouched. */
int sim_setting_parse_opt(const struct sim_setting *s, struct sim_cfg *c, const char *v,
                          char *why, size_t n);
/* Set the key's value v in *c (profiles and --set: a leading zero is
 * decimal).  0, or -1 with *c untouched and "section.key = 'v': expected
 * ..." in msg. */
int sim_setting_parse_key(const struct sim_setting *s, struct sim_cfg *c, const char *v,
                          char *msg, size_t n);
/* With a value "list": print the choices and return 0 (--driver-bug list);
 * -1 if the setting has no such listing. */
int sim_setting_print_list(const struct sim_setting *s, FILE *f);

/* The value in *c as the key spells it, or (opt) as the option does. */
void sim_setting_format(const struct sim_setting *s, const struct sim_cfg *c, int opt,
                        char *buf, size_t n);
/* The value's form: "unsigned", "number", "genGxW", an enum's "a|b|c"
 * (sep "|"; " | " and " or " for --help and messages); opt: the option's. */
void sim_setting_type_text(const struct sim_setting *s, int opt, const char *sep,
                           const char *last, char *buf, size_t n);
/* The allowed values in words ("1..64", "a power of two 8..65536",
 * "8, 16, 32 or 64"); "" when the type alone limits them. */
void sim_setting_range_text(const struct sim_setting *s, char *buf, size_t n);
/* How messages name it: "--opt", else "section.key", else its name. */
const char *sim_setting_label(const struct sim_setting *s, char *buf, size_t n);
/* Its value in *c is one its type and range allow: 0, or -1 with
 * "LABEL VALUE: must be RANGE" in err. */
int sim_setting_check(const struct sim_setting *s, const struct sim_cfg *c, char *err,
                      size_t n);

/* The members of the JSON "config" block, into the open object. */
void sim_settings_json(struct json *j, const struct sim_cfg *c);
/* Its item in the text report's header ("burst 8") into buf: 1, or 0 when
 * it is not shown. */
int sim_setting_text(const struct sim_setting *s, const struct sim_cfg *c, char *buf,
                     size_t n);

#endif /* NICTX_SETTINGS_H */
