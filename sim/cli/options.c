/* SPDX-License-Identifier: Apache-2.0 */
/*
 * options.c - the options of `nictx run`, their --help and listings (see
 * options.h).
 */
#include "cli/options.h"

#include <string.h>

#define NNAMES(a) (sizeof(a) / sizeof((a)[0]))
#define HELP_WIDTH 80
#define HELP_INDENT 24

/* The command line's own options: not settings of the run. */
static const struct own_opt {
    enum cli_opt id;
    const char *name;
    const char *arg;     /* NULL: a flag */
    enum set_group group;
    const char *before;  /* listed before this setting's option; NULL: at the group's end */
    const char *help;    /* NULL: not in --help */
} own_opts[] = {
    {CLI_PROFILE, "profile", "NAME", SET_G_PROFILES, NULL,
     "load profiles/NAME.ini (or a path to an .ini file) first; the other options change it"},
    {CLI_SET, "set", "SECTION.KEY=V", SET_G_PROFILES, NULL,
     "set any profile key, e.g. --set cpu.lock_ns=12"},
    {CLI_LIST_KEYS, "list-keys", NULL, SET_G_PROFILES, NULL,
     "print every profile key and exit (with --markdown: every setting, as the table of "
     "docs/profiles.md)"},
    {CLI_EXPLORE, "explore", "N", SET_G_OWNERSHIP, "schedule",
     "run the scenario under exploration schedules 1..N (store delays up to microseconds, "
     "CPU stalls at shared accesses; docs/driver-validation.md); stop at the first that "
     "fails and print its one-line repro"},
    {CLI_JSON, "json", "FILE", SET_G_RUN, NULL, "also write the result as JSON (atomically)"},
    {CLI_QUIET, "quiet", NULL, SET_G_RUN, NULL, "no table"},
    {CLI_CHECK, "check", NULL, SET_G_RUN, NULL,
     "parse and validate the options, then exit (0, or 2)"},
    {CLI_LIST_OPTIONS, "list-options", NULL, SET_G_RUN, NULL,
     "print every option and whether it takes a value, and exit"},
    {CLI_MARKDOWN, "markdown", NULL, SET_G_RUN, NULL, "with --list-keys: a Markdown table"},
    {CLI_HELP, "help", NULL, SET_G_NONE, NULL, NULL},
};

_Static_assert(sizeof(own_opts) / sizeof(own_opts[0]) <= 16, "CLI_OPTIONS_MAX has room");

/* One option: a setting's or the command line's own. */
struct entry {
    const struct sim_setting *s;
    const struct own_opt *o;
};

/* Every option in --help's order: by group, each group's settings in the
 * table's order, the command line's own where they say. */
static size_t entries(struct entry *out)
{
    size_t n, k = 0;
    const struct sim_setting *s = sim_settings(&n);

    for (int g = 0; g < SET_GROUPS; g++) {
        for (size_t i = 0; i < n; i++) {
            if (!s[i].opt || s[i].group != (enum set_group)g)
                continue;
            for (size_t m = 0; m < NNAMES(own_opts); m++)
                if (own_opts[m].before && strcmp(own_opts[m].before, s[i].opt) == 0)
                    out[k++] = (struct entry){NULL, &own_opts[m]};
            out[k++] = (struct entry){&s[i], NULL};
        }
        for (size_t m = 0; m < NNAMES(own_opts); m++)
            if (own_opts[m].group == (enum set_group)g && !own_opts[m].before)
                out[k++] = (struct entry){NULL, &own_opts[m]};
    }
    return k;
}

static const char *entry_name(const struct entry *e)
{
    return e->s ? e->s->opt : e->o->name;
}

static int entry_takes_value(const struct entry *e)
{
    return e->s ? sim_setting_takes_value(e->s) : e->o->arg != NULL;
}

void cli_options_getopt(struct option *out)
{
    struct entry e[CLI_OPTIONS_MAX];
    size_t n = entries(e), rows;
    const struct sim_setting *table = sim_settings(&rows);

    for (size_t i = 0; i < n; i++)
        out[i] = (struct option){entry_name(&e[i]),
                                 entry_takes_value(&e[i]) ? required_argument : no_argument,
                                 NULL,
                                 e[i].s ? CLI_VAL_SETTING + (int)(e[i].s - table)
                                        : CLI_VAL_OWN + (int)e[i].o->id};
    out[n] = (struct option){NULL, 0, NULL, 0};
}

const struct sim_setting *cli_options_setting(int val)
{
    size_t n;
    const struct sim_setting *s = sim_settings(&n);

    return val >= CLI_VAL_SETTING && (size_t)(val - CLI_VAL_SETTING) < n
               ? &s[val - CLI_VAL_SETTING]
               : NULL;
}

const char *cli_options_name(int val)
{
    const struct sim_setting *s = cli_options_setting(val);

    if (s)
        return s->opt;
    for (size_t m = 0; m < NNAMES(own_opts); m++)
        if (CLI_VAL_OWN + (int)own_opts[m].id == val)
            return own_opts[m].name;
    return "?";
}

void cli_options_list(FILE *f)
{
    struct entry e[CLI_OPTIONS_MAX];
    size_t n = entries(e);

    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s %s\n", entry_name(&e[i]), entry_takes_value(&e[i]) ? "value" : "flag");
}

/* ------------------------------------------------------------ --help */

/* text from column `col`, wrapped at HELP_WIDTH, further lines at HELP_INDENT. */
static void help_wrap(FILE *f, const char *text, int col)
{
    const char *p = text;

    while (*p) {
        int room = HELP_WIDTH - col;
        int len = (int)strlen(p);
        if (len > room) {
            int cut = room;
            while (cut > 0 && p[cut] != ' ')
                cut--;
            len = cut > 0 ? cut : room;
            while (len > 0 && p[len - 1] == ' ')
                len--;
        }
        fprintf(f, "%.*s\n", len, p);
        p += len;
        p += strspn(p, " ");
        if (*p)
            fprintf(f, "%*s", HELP_INDENT, "");
        col = HELP_INDENT;
    }
}

/* A setting's help: its choices, what it is, its range and its default. */
static void setting_help(const struct sim_setting *s, char *buf, size_t n)
{
    char choices[160] = "", range[96], def[96] = "";
    struct sim_cfg d;

    if (s->arg && !strchr(s->arg, '|'))
        sim_setting_type_text(s, 1, " | ", " | ", choices, sizeof(choices));
    if (strchr(choices, '|') == NULL)
        choices[0] = '\0';
    sim_setting_range_text(s, range, sizeof(range));
    if (sim_setting_takes_value(s) && !(s->flags & SET_NODEF)) {
        sim_cfg_default(&d);
        sim_setting_format(s, &d, 1, def, sizeof(def));
    }
    snprintf(buf, n, "%s%s%s%s%s%s%s%s", choices, choices[0] ? ": " : "", s->help,
             range[0] ? ", " : "", range, def[0] ? " (" : "", def, def[0] ? ")" : "");
}

static void entry_help(FILE *f, const struct entry *e)
{
    char left[64], text[1024];
    const char *arg = e->s ? e->s->arg : e->o->arg;
    int col;

    if (e->o && !e->o->help)
        return;
    col = snprintf(left, sizeof(left), "  --%s%s%s", entry_name(e), arg ? " " : "", arg ? arg : "");
    if (col < HELP_INDENT - 1)
        col = fprintf(f, "%-*s", HELP_INDENT, left);
    else
        col = fprintf(f, "%s  ", left);
    if (e->s)
        setting_help(e->s, text, sizeof(text));
    else
        snprintf(text, sizeof(text), "%s", e->o->help);
    help_wrap(f, text, col);
}

void cli_options_usage(FILE *f)
{
    struct entry e[CLI_OPTIONS_MAX];
    size_t n = entries(e);
    int group = -1;

    fprintf(f,
"usage: nictx run [options]\n"
"       nictx sweep [FILE.ini] [--set NAME=VALUES]... [options] [-- RUN-OPTIONS]\n"
"                             (see nictx sweep --help)\n"
"       nictx draw [--seed N] [--count K]   random legal run configurations\n"
"                             (see nictx draw --help; make regress runs them)\n"
"       nictx cover [--require P,...] RUN.json...   the cover points over runs\n"
"                             (nictx cover --list: the points; docs/coverage.md)\n"
"       nictx --help\n"
"\n"
"Simulates a NIC transmit path: a Linux-style driver on a simulated CPU rings\n"
"doorbells across a simulated PCIe link to the nictx RTL engine (Verilator),\n"
"which fetches descriptors and payloads by DMA and sends frames at line rate.\n"
"Every frame on the wire is checked.  See README.md and docs/.\n"
"\n"
"Numbers are decimal: no sign, blanks, hex or leading zero; N is an integer,\n"
"NS, US, F and R may have a fraction and an exponent (2.5, 1e6).  A range\n"
"and, in parentheses, the default follow each option's meaning.\n"
"\n");
    for (size_t i = 0; i < n; i++) {
        enum set_group g = e[i].s ? e[i].s->group : e[i].o->group;
        if (g == SET_G_NONE)
            continue;
        if ((int)g != group)
            fprintf(f, "%s:\n", sim_setting_group_title(g));
        group = (int)g;
        entry_help(f, &e[i]);
    }
}

/* ------------------------------------------------------------ Markdown */

/* text with '|' escaped, into a table cell. */
static void md_cell(FILE *f, const char *text)
{
    fputs("| ", f);
    for (const char *p = text; *p; p++)
        fputs(*p == '|' ? "\\|" : (char[2]){*p, '\0'}, f);
    fputs(" ", f);
}

static void md_row(FILE *f, const struct sim_setting *s, const struct sim_cfg *d)
{
    char buf[512], key[64] = "", opt[64] = "";
    int as_opt = s->key == NULL;

    if (s->key)
        snprintf(key, sizeof(key), "`%s.%s`", s->section, s->key);
    if (s->opt)
        snprintf(opt, sizeof(opt), "`--%s%s%s`", s->opt, s->arg ? " " : "", s->arg ? s->arg : "");
    md_cell(f, key);
    md_cell(f, opt);
    sim_setting_type_text(s, as_opt, "|", "|", buf, sizeof(buf));
    md_cell(f, buf);
    sim_setting_range_text(s, buf, sizeof(buf));
    md_cell(f, buf);
    buf[0] = '\0';
    if (!(s->flags & SET_NODEF))
        sim_setting_format(s, d, as_opt, buf, sizeof(buf));
    md_cell(f, buf);
    md_cell(f, s->help);
    fputs("|\n", f);
}

void cli_options_markdown(FILE *f)
{
    size_t n, nsec;
    const struct sim_setting *s = sim_settings(&n);
    const char *const *sections = sim_setting_sections(&nsec);
    struct sim_cfg d;

    sim_cfg_default(&d);
    fprintf(f, "| key | option | type | range | default | meaning |\n");
    fprintf(f, "|---|---|---|---|---|---|\n");
    for (size_t sec = 0; sec < nsec; sec++)
        for (size_t i = 0; i < n; i++)
            if (s[i].key && strcmp(s[i].section, sections[sec]) == 0)
                md_row(f, &s[i], &d);
    for (size_t i = 0; i < n; i++)
        if (!s[i].key && s[i].opt)
            md_row(f, &s[i], &d);
}
