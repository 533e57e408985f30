/* SPDX-License-Identifier: Apache-2.0 */
/*
 * main.c - the nictx command line.
 *
 *   nictx run [options]     run one experiment, print the table (and JSON)
 *   nictx sweep ...         run many, one table, plots (sweep_cli.h)
 *   nictx --help
 *
 * Bad arguments print a message naming the option and exit with status 2:
 * numbers that are not strict decimal (see num_form), and a --json FILE
 * that could not be written, are refused before the run.  A run that fails
 * (watchdog, deadlock, lost or corrupted frames) exits 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check/bug_catalog.h"
#include "run/fault.h"
#include "run/harness.h"
#include "lib/json.h"
#include "cli/profile.h"
#include "cli/report.h"
#include "sweep/sweep_cli.h"

static void usage(FILE *f)
{
    fprintf(f,
"usage: nictx run [options]\n"
"       nictx sweep [FILE.ini] [--set NAME=VALUES]... [options] [-- RUN-OPTIONS]\n"
"                             (see nictx sweep --help)\n"
"       nictx --help\n"
"\n"
"Simulates a NIC transmit path: a Linux-style driver on a simulated CPU rings\n"
"doorbells across a simulated PCIe link to the nictx RTL engine (Verilator),\n"
"which fetches descriptors and payloads by DMA and sends frames at line rate.\n"
"Every frame on the wire is checked.  See README.md and docs/.\n"
"\n"
"Numbers are decimal: no sign, blanks, hex or leading zero; N is an integer,\n"
"NS, US, F and R may have a fraction and an exponent (2.5, 1e6).\n"
"\n"
"workload:\n"
"  --pkt-size N          Ethernet frame size incl. 4 B FCS, 64..16387 (default 64)\n"
"  --pkt-size-max N      random sizes uniform in [pkt-size, N] (default: fixed)\n"
"  --burst N             pktgen burst: N-1 packets with xmit_more, then a doorbell (8)\n"
"  --packets N           packets to send (100000)\n"
"  --seed N              seed for payloads and random sizes (1)\n"
"  --buf-offset N        frame offset inside its DMA buffer, 0..63 (0)\n"
"profiles (docs/profiles.md):\n"
"  --profile NAME        load profiles/NAME.ini (or a path to an .ini file) first;\n"
"                        the other options change it\n"
"  --set SECTION.KEY=V   set any profile key, e.g. --set cpu.lock_ns=12\n"
"  --list-keys           print every profile key and exit\n"
"host:\n"
"  --cpu NAME            CPU cost profile: x86 | cheap (x86)\n"
"  --mmio-write-ns NS    override the uncached MMIO write cost\n"
"  --mem-latency-ns NS   host memory service time of a DMA read (350; +2 link\n"
"                        trips = 550 ns round trip)\n"
"  --poll-ns NS          a blocked driver polls again after NS (1000)\n"
"  --cpus N              1: one CPU sends and cleans up; 2: a second CPU runs the\n"
"                        completions, woken by head writeback or interrupt (1)\n"
"  --napi-budget N       descriptors one cleanup pass may reclaim (64)\n"
"  --layout L            split | packed: the ring's producer and consumer fields on\n"
"                        separate cache lines or on one (split)\n"
"  --bql on|off          byte queue limits on the queue (off)\n"
"  --dql ORDER           write-first | read-first: dql_queued's access order (write-first)\n"
"  --source S            pktgen: bursts of --burst; qdisc: batches bulk-dequeued under\n"
"                        the qdisc lock within BQL's budget, up to --burst (pktgen)\n"
"  --tail-coalesce N     defer the tail write up to N packets even without xmit_more\n"
"                        (ixgbe dispatch_limit; 0 = off)\n"
"pcie:\n"
"  --pcie genGxW         link generation and width, e.g. gen3x8 (gen3x8)\n"
"  --mps N --mrrs N      max payload / read request size (256 / 512)\n"
"  --rcb N               read completion boundary 64 | 128 (64)\n"
"  --rcb-chunks          root complex completes in RCB-sized pieces\n"
"  --pcie-latency-ns NS  one-way link latency (100)\n"
"  --fc-dev LIST         credits the device advertises, e.g. ph=1,pd=32 (types ph pd\n"
"                        nph npd cplh cpld; headers in TLPs, data in 16 B; 0 or\n"
"                        absent = infinite).  Default: all infinite\n"
"  --fc-host LIST        credits the root complex advertises (same form)\n"
"  --fc-update-ns NS     receiver frees a buffer -> UpdateFC DLLP queued (0)\n"
"device:\n"
"  --line R              line rate: 10g | 25g | 40g | 100g | <Gb/s>g (10g)\n"
"  --dev-mhz F           device clock (250)\n"
"  --dev-width N         datapath bytes per device clock: 8 | 16 | 32 | 64, each its\n"
"                        own RTL model (8; docs/width.md)\n"
"  --device B            the device model: rtl (the Verilated RTL), c (the cycle-\n"
"                        exact C model) or lockstep (both, every output compared on\n"
"                        every clock; the first difference ends the run) (rtl;\n"
"                        docs/c-model.md)\n"
"  --ring N              descriptors in the ring, power of two 8..65536 (1024)\n"
"  --queues N            transmit queues, 1..64, each its own ring; --packets is\n"
"                        the total, spread evenly; queue q runs on CPU q mod --cpus;\n"
"                        completions and interrupts per queue (MSI-X vector q).\n"
"                        More than 1 needs --protocol tail or owner (1)\n"
"  --sched S             rr | drr: the scheduler across queues, one frame a turn, or\n"
"                        deficit round robin by frame bytes (rr)\n"
"  --weights W[,W...]    queue weights 1..255: one for all queues, or one per queue\n"
"                        (all 1)\n"
"  --drr-quantum N       DRR bytes per unit of weight per round, 64..65536 (2048)\n"
"  --desc-fetch-max N    descriptors per fetch, 1..32 (8)\n"
"  --desc-fetch-inflight N  descriptor reads in flight at once, 1..8 (4)\n"
"  --tags N              DMA read tags in use at once, 1..256 (32)\n"
"  --max-read-bytes N    outstanding DMA read bytes, 0 = no limit (0)\n"
"  --wb-thresh N         head writeback every N completions, 0 = off (32)\n"
"  --irq-thresh N        interrupt every N completions, 0 = off (0)\n"
"  --irq-usecs US        interrupt moderation timer from the first unsignalled\n"
"                        completion, 0 = off (0)\n"
"  --completion M        head-wb | mmio | desc-wb | cq: how cleanup learns what\n"
"                        completed: head writeback, the HEAD register, DD bits in\n"
"                        the descriptors, a completion queue (head-wb)\n"
"  --clean wb|mmio       the same as --completion head-wb|mmio\n"
"ownership (docs/ownership.md):\n"
"  --protocol P          tail | owner | wc: how descriptors pass to the device (tail)\n"
"  --barrier B           per-desc | per-batch | wmb-per-desc | none: the barrier\n"
"                        before the owner bits (per-desc)\n"
"  --ordering O          x86 | weak: when CPU stores become visible to DMA (x86)\n"
"  --reorder-window N    weak: stores that may overtake one another, 1..64 (8)\n"
"  --driver-bug NAME     run a deliberately broken driver; 'list' prints them\n"
"  --bug-at N            packet at which a one-shot driver bug fires (1000)\n"
"  --explore N           run the scenario under exploration schedules 1..N (store\n"
"                        delays up to microseconds, CPU stalls at shared accesses;\n"
"                        docs/driver-validation.md); stop at the first that fails\n"
"                        and print its one-line repro\n"
"  --schedule S          run exactly exploration schedule S (0: none) (0)\n"
"faults and recovery (docs/faults.md):\n"
"  --inject LIST         faults: KIND@N[,KIND@N...], N a packet number; KIND is\n"
"                        ur | ca | ep | timeout (packet N's DMA read), db-off (the\n"
"                        device disabled before packet N), blackout@N:T (no link\n"
"                        credits for T ns); frames they cost count as dropped.\n"
"                        KIND@Q/N: queue Q's packet N (KIND@N: queue 0's); a hang\n"
"                        resets the adapter, every queue\n"
"  --cpl-timeout-us US   the device's completion timeout, 1..50000 (100)\n"
"  --tx-timeout-us US    the driver's hang check: no completion for US with work in\n"
"                        flight resets the queue; 0 = no check (500)\n"
"run:\n"
"  --json FILE           also write the result as JSON (atomically)\n"
"  --watchdog-us US      stop a run with no progress for US (1000)\n"
"  --grace-us US         after the first protocol violation run US more, then stop (20)\n"
"  --every-clock         run every device clock, skip none (the figures are the same;\n"
"                        checks the device's idle and wait signals, slower)\n"
"  --quiet               no table\n"
"  --check               parse and validate the options, then exit (0, or 2)\n"
"  --list-options        print every option and whether it takes a value, and exit\n");
}

enum {
    O_PKT = 256, O_PKTMAX, O_BURST, O_PACKETS, O_SEED, O_BUFOFF, O_CPU, O_MMIOW,
    O_MEMLAT, O_POLL, O_PCIE, O_MPS, O_MRRS, O_RCB, O_RCBCH, O_PLAT, O_LINE, O_DEVMHZ, O_DEVW, O_DEVICE,
    O_RING, O_DFM, O_DFI, O_TAGS, O_MAXRD, O_FCDEV, O_FCHOST, O_FCUPD, O_WB, O_IRQ, O_IRQUS, O_CPLMODE, O_CLEAN, O_JSON, O_WD, O_QUIET, O_EVERY, O_HELP,
    O_PROTO, O_BARRIER, O_ORDER, O_WINDOW, O_BUG, O_BUGAT, O_GRACE, O_INJECT, O_CPLTO, O_TXTO, O_CPUS, O_NAPI, O_LAYOUT, O_BQL, O_DQL, O_TAILC, O_SOURCE, O_PROFILE, O_SET, O_KEYS, O_CHECK, O_OPTS,
    O_QUEUES, O_SCHED, O_WEIGHTS, O_DRRQ, O_EXPLORE, O_SCHEDULE
};

static const struct option opts[] = {
    {"pkt-size", required_argument, NULL, O_PKT},
    {"pkt-size-max", required_argument, NULL, O_PKTMAX},
    {"burst", required_argument, NULL, O_BURST},
    {"packets", required_argument, NULL, O_PACKETS},
    {"seed", required_argument, NULL, O_SEED},
    {"buf-offset", required_argument, NULL, O_BUFOFF},
    {"cpu", required_argument, NULL, O_CPU},
    {"mmio-write-ns", required_argument, NULL, O_MMIOW},
    {"mem-latency-ns", required_argument, NULL, O_MEMLAT},
    {"poll-ns", required_argument, NULL, O_POLL},
    {"pcie", required_argument, NULL, O_PCIE},
    {"mps", required_argument, NULL, O_MPS},
    {"mrrs", required_argument, NULL, O_MRRS},
    {"rcb", required_argument, NULL, O_RCB},
    {"rcb-chunks", no_argument, NULL, O_RCBCH},
    {"pcie-latency-ns", required_argument, NULL, O_PLAT},
    {"line", required_argument, NULL, O_LINE},
    {"dev-mhz", required_argument, NULL, O_DEVMHZ},
    {"dev-width", required_argument, NULL, O_DEVW},
    {"device", required_argument, NULL, O_DEVICE},
    {"ring", required_argument, NULL, O_RING},
    {"queues", required_argument, NULL, O_QUEUES},
    {"sched", required_argument, NULL, O_SCHED},
    {"weights", required_argument, NULL, O_WEIGHTS},
    {"drr-quantum", required_argument, NULL, O_DRRQ},
    {"desc-fetch-max", required_argument, NULL, O_DFM},
    {"desc-fetch-inflight", required_argument, NULL, O_DFI},
    {"tags", required_argument, NULL, O_TAGS},
    {"max-read-bytes", required_argument, NULL, O_MAXRD},
    {"fc-dev", required_argument, NULL, O_FCDEV},
    {"fc-host", required_argument, NULL, O_FCHOST},
    {"fc-update-ns", required_argument, NULL, O_FCUPD},
    {"wb-thresh", required_argument, NULL, O_WB},
    {"irq-thresh", required_argument, NULL, O_IRQ},
    {"clean", required_argument, NULL, O_CLEAN},
    {"irq-usecs", required_argument, NULL, O_IRQUS},
    {"completion", required_argument, NULL, O_CPLMODE},
    {"cpus", required_argument, NULL, O_CPUS},
    {"profile", required_argument, NULL, O_PROFILE},
    {"set", required_argument, NULL, O_SET},
    {"list-keys", no_argument, NULL, O_KEYS},
    {"layout", required_argument, NULL, O_LAYOUT},
    {"source", required_argument, NULL, O_SOURCE},
    {"bql", required_argument, NULL, O_BQL},
    {"dql", required_argument, NULL, O_DQL},
    {"tail-coalesce", required_argument, NULL, O_TAILC},
    {"napi-budget", required_argument, NULL, O_NAPI},
    {"protocol", required_argument, NULL, O_PROTO},
    {"barrier", required_argument, NULL, O_BARRIER},
    {"ordering", required_argument, NULL, O_ORDER},
    {"reorder-window", required_argument, NULL, O_WINDOW},
    {"driver-bug", required_argument, NULL, O_BUG},
    {"bug-at", required_argument, NULL, O_BUGAT},
    {"explore", required_argument, NULL, O_EXPLORE},
    {"schedule", required_argument, NULL, O_SCHEDULE},
    {"grace-us", required_argument, NULL, O_GRACE},
    {"inject", required_argument, NULL, O_INJECT},
    {"cpl-timeout-us", required_argument, NULL, O_CPLTO},
    {"tx-timeout-us", required_argument, NULL, O_TXTO},
    {"json", required_argument, NULL, O_JSON},
    {"watchdog-us", required_argument, NULL, O_WD},
    {"quiet", no_argument, NULL, O_QUIET},
    {"every-clock", no_argument, NULL, O_EVERY},
    {"check", no_argument, NULL, O_CHECK},
    {"list-options", no_argument, NULL, O_OPTS},
    {"help", no_argument, NULL, O_HELP},
    {NULL, 0, NULL, 0},
};

static const char *opt_name(int val)
{
    const struct option *o;

    for (o = opts; o->name; o++)
        if (o->val == val)
            return o->name;
    return "?";
}

/* Every option, "NAME value|flag" a line: what `nictx sweep` may sweep. */
static void list_options(FILE *f)
{
    const struct option *o;

    for (o = opts; o->name; o++)
        fprintf(f, "%s %s\n", o->name, o->has_arg == no_argument ? "flag" : "value");
}

static int bad_arg(const char *opt, const char *val, const char *why)
{
    /* Quote a value a reader could not otherwise see: empty or with blanks. */
    const char *q = (!*val || strpbrk(val, " \t\n\v\f\r")) ? "'" : "";

    fprintf(stderr, "nictx: --%s %s%s%s: %s (see nictx --help)\n", opt, q, val, q, why);
    return 2;
}

/*
 * Numbers on the command line are strict decimal: digits only, no sign, no
 * blanks, no hex, no leading zero (octal as C would read it), nothing after
 * the number, and within the type's range.  Real numbers may also have a
 * fraction and an exponent, and must be finite.  Each parser returns NUM_OK
 * or why the text is refused; num_why() words it for bad_arg().
 */
enum num_err {
    NUM_OK, NUM_EMPTY, NUM_BLANK, NUM_SIGN, NUM_HEX, NUM_OCTAL, NUM_NONFINITE,
    NUM_SYNTAX, NUM_RANGE
};

#define DIGITS "0123456789"

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* The form of the text, before its value: `real` allows .fraction, eN. */
static enum num_err num_form(const char *s, int real)
{
    size_t n = strlen(s), mant = strspn(s, DIGITS);
    const char *p = s + mant;

    if (n == 0)
        return NUM_EMPTY;
    if (is_blank(s[0]) || is_blank(s[n - 1]))
        return NUM_BLANK;
    if (s[0] == '-' || s[0] == '+')
        return NUM_SIGN;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return NUM_HEX;
    if (s[0] == '0' && mant > 1)
        return NUM_OCTAL;
    if (real && (strncasecmp(s, "inf", 3) == 0 || strncasecmp(s, "nan", 3) == 0))
        return NUM_NONFINITE;
    if (real && *p == '.') {
        size_t frac = strspn(p + 1, DIGITS);
        mant += frac;
        p += 1 + frac;
    }
    if (mant == 0)
        return NUM_SYNTAX;
    if (real && (*p == 'e' || *p == 'E')) {
        size_t exp;
        p += (p[1] == '+' || p[1] == '-') ? 2 : 1;
        exp = strspn(p, DIGITS);
        if (exp == 0)
            return NUM_SYNTAX;
        p += exp;
    }
    return *p == '\0' ? NUM_OK : NUM_SYNTAX;
}

/* A decimal integer 0..max. */
static enum num_err parse_u64_max(const char *s, uint64_t max, uint64_t *v)
{
    enum num_err e = num_form(s, 0);
    unsigned long long x;

    if (e != NUM_OK)
        return e;
    errno = 0;
    x = strtoull(s, NULL, 10);
    if (errno == ERANGE || x > max)
        return NUM_RANGE;
    *v = x;
    return NUM_OK;
}

static enum num_err parse_u64(const char *s, uint64_t *v)
{
    return parse_u64_max(s, UINT64_MAX, v);
}

static enum num_err parse_uint(const char *s, unsigned *v)
{
    uint64_t x;
    enum num_err e = parse_u64_max(s, UINT_MAX, &x);

    if (e == NUM_OK)
        *v = (unsigned)x;
    return e;
}

/* A finite decimal real >= 0; out of range also when it underflows. */
static enum num_err parse_double(const char *s, double *v)
{
    enum num_err e = num_form(s, 1);
    double x;

    if (e != NUM_OK)
        return e;
    errno = 0;
    x = strtod(s, NULL);
    if (errno == ERANGE || !isfinite(x))
        return NUM_RANGE;
    *v = x;
    return NUM_OK;
}

/* Why a number was refused, in words; `max` is the integer limit, 0 for a real. */
static const char *num_why(enum num_err e, uint64_t max, char *buf, size_t len)
{
    switch (e) {
    case NUM_OK: return "ok";
    case NUM_EMPTY: return "empty; expected a decimal number";
    case NUM_BLANK: return "leading or trailing blank; expected a decimal number";
    case NUM_SIGN: return "no sign allowed; expected a decimal number >= 0";
    case NUM_HEX: return "hex is not accepted; write the number in decimal";
    case NUM_OCTAL: return "leading zero (octal?) is not accepted; write the number in decimal";
    case NUM_NONFINITE: return "not a finite number";
    case NUM_SYNTAX: return max ? "not a decimal integer" : "not a decimal number";
    case NUM_RANGE:
        if (!max)
            return "out of range";
        snprintf(buf, len, "out of range (at most %" PRIu64 ")", max);
        return buf;
    }
    return "not a number";
}

/* Store option `opt`'s number into *v: 0, or 2 after saying why not. */
static int opt_uint(const char *opt, const char *a, unsigned *v)
{
    char buf[64];
    enum num_err e = parse_uint(a, v);

    return e == NUM_OK ? 0 : bad_arg(opt, a, num_why(e, UINT_MAX, buf, sizeof(buf)));
}

static int opt_u64(const char *opt, const char *a, uint64_t *v)
{
    char buf[64];
    enum num_err e = parse_u64(a, v);

    return e == NUM_OK ? 0 : bad_arg(opt, a, num_why(e, UINT64_MAX, buf, sizeof(buf)));
}

static int opt_double(const char *opt, const char *a, double *v)
{
    char buf[64];
    enum num_err e = parse_double(a, v);

    return e == NUM_OK ? 0 : bad_arg(opt, a, num_why(e, 0, buf, sizeof(buf)));
}

static int parse_line(const char *s, double *gbps)
{
    size_t n = strlen(s);
    char buf[32];

    if (n < 2 || n >= sizeof(buf) || (s[n - 1] != 'g' && s[n - 1] != 'G'))
        return -1;
    memcpy(buf, s, n - 1);
    buf[n - 1] = 0;
    return parse_double(buf, gbps) == NUM_OK ? 0 : -1;
}

/* "ph=1,pd=32": set the named credit types; others stay as they are. */
static int parse_fc(const char *s, struct pcie_fc_cfg *fc)
{
    char buf[128], *tok, *save = NULL;

    if (strlen(s) >= sizeof(buf))
        return -1;
    strcpy(buf, s);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        unsigned v, *dst;
        if (!eq)
            return -1;
        *eq = 0;
        if (parse_uint(eq + 1, &v) != NUM_OK)
            return -1;
        if (!strcmp(tok, "ph")) dst = &fc->ph;
        else if (!strcmp(tok, "pd")) dst = &fc->pd;
        else if (!strcmp(tok, "nph")) dst = &fc->nph;
        else if (!strcmp(tok, "npd")) dst = &fc->npd;
        else if (!strcmp(tok, "cplh")) dst = &fc->cplh;
        else if (!strcmp(tok, "cpld")) dst = &fc->cpld;
        else return -1;
        *dst = v;
    }
    return 0;
}

/* profiles/ beside the build directory of this binary (build/nictx ->
 * profiles/), for a NAME not found from the current directory. */
static int profile_beside_binary(const char *name, char *path, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    char *slash;

    if (n <= 0 || strchr(name, '/') || strstr(name, ".ini"))
        return -1;
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    if ((size_t)snprintf(path, len, "%s/../profiles/%s.ini", exe, name) >= len)
        return -1;
    return access(path, R_OK) == 0 ? 0 : -1;
}

/* Load every --profile NAME in argv (the last wins where they overlap). */
static int apply_profile(int argc, char **argv, struct sim_cfg *cfg)
{
    char err[256], path[4200];
    int i;

    for (i = 1; i < argc; i++) {
        const char *name = NULL;
        if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc)
            name = argv[++i];
        else if (strncmp(argv[i], "--profile=", 10) == 0)
            name = argv[i] + 10;
        if (!name)
            continue;
        if (profile_load(cfg, name, err, sizeof(err)) == 0)
            continue;
        if (profile_beside_binary(name, path, sizeof(path)) == 0 &&
            profile_load(cfg, path, err, sizeof(err)) == 0) {
            snprintf(cfg->profile, sizeof(cfg->profile), "%s", name);
            continue;
        }
        fprintf(stderr, "nictx: --profile %s: %s\n", name, err);
        return -1;
    }
    return 0;
}

/* A run's settings as the command line gives them. */
struct run_opts {
    struct sim_cfg cfg;
    const char *json; /* --json FILE, or NULL */
    int quiet;
    int check;        /* --check: validate, then exit */
    int size_max_set; /* --pkt-size-max given: else it follows --pkt-size */
    double mmio_w;    /* --mmio-write-ns, applied after --cpu; < 0: not given */
    unsigned explore; /* --explore N: schedules 1..N; 0: one plain run */
    int argc;         /* the command line after "run", for --explore's repro */
    char **argv;
};

/* Status for "parsed; go on" from run_opt and run_parse (exit statuses are 0..2). */
#define RUN_GO (-1)

/* One option with its value `a`: RUN_GO, or the exit status (0 after a
 * listing such as --help, 2 after a message naming a bad argument). */
static int run_opt(int c, const char *a, struct run_opts *ro)
{
    struct sim_cfg *cfg = &ro->cfg;
    const char *name = opt_name(c);
    const char *fc_why = "expected TYPE=N,... with TYPE in ph pd nph npd cplh cpld, N decimal";
    char err[256];
    int rc = 0;

    switch (c) {
    case O_PKT: rc = opt_uint(name, a, &cfg->pkt_size); break;
    case O_PKTMAX: rc = opt_uint(name, a, &cfg->pkt_size_max); ro->size_max_set = 1; break;
    case O_BURST: rc = opt_uint(name, a, &cfg->burst); break;
    case O_PACKETS: rc = opt_u64(name, a, &cfg->packets); break;
    case O_SEED: rc = opt_u64(name, a, &cfg->seed); break;
    case O_BUFOFF: rc = opt_uint(name, a, &cfg->buf_offset); break;
    case O_CPU:
        if (cpu_costs_profile(&cfg->costs, a) != 0)
            return bad_arg(name, a, "unknown profile (x86, cheap)");
        snprintf(cfg->cpu_profile, sizeof(cfg->cpu_profile), "%s", a);
        break;
    case O_MMIOW: rc = opt_double(name, a, &ro->mmio_w); break;
    case O_MEMLAT: rc = opt_double(name, a, &cfg->mem_latency_ns); break;
    case O_POLL: rc = opt_double(name, a, &cfg->poll_ns); break;
    case O_PCIE:
        if (pcie_cfg_parse_link(&cfg->pcie, a))
            return bad_arg(name, a, "expected genGxW, G 1..5, W 1|2|4|8|16");
        break;
    case O_MPS: rc = opt_uint(name, a, &cfg->pcie.mps); break;
    case O_MRRS: rc = opt_uint(name, a, &cfg->pcie.mrrs); break;
    case O_RCB: rc = opt_uint(name, a, &cfg->pcie.rcb); break;
    case O_RCBCH: cfg->pcie.rcb_chunks = 1; break;
    case O_PLAT: rc = opt_double(name, a, &cfg->pcie.latency_ns); break;
    case O_LINE:
        if (parse_line(a, &cfg->line_gbps))
            return bad_arg(name, a, "expected decimal Gb/s and g, e.g. 10g, 25g, 40g, 100g");
        break;
    case O_DEVMHZ: rc = opt_double(name, a, &cfg->dev_mhz); break;
    case O_DEVW:
        rc = opt_uint(name, a, &cfg->dev_width);
        if (rc == 0 && !dev_width_ok(cfg->dev_width))
            return bad_arg(name, a, "expected 8, 16, 32 or 64 (datapath bytes per clock)");
        break;
    case O_DEVICE:
        if (sim_parse_device(a, &cfg->device))
            return bad_arg(name, a, "expected rtl, c or lockstep");
        break;
    case O_RING: rc = opt_uint(name, a, &cfg->ring_size); break;
    case O_QUEUES: rc = opt_uint(name, a, &cfg->queues); break;
    case O_SCHED: if (sim_parse_sched(a, &cfg->sched)) return bad_arg(name, a, "expected rr or drr"); break;
    case O_WEIGHTS:
        if (sim_parse_weights(a, &cfg->weights))
            return bad_arg(name, a, "expected W[,W...]: 1 to 64 decimal weights 1..255");
        break;
    case O_DRRQ: rc = opt_uint(name, a, &cfg->drr_quantum); break;
    case O_DFM: rc = opt_uint(name, a, &cfg->desc_fetch_max); break;
    case O_DFI: rc = opt_uint(name, a, &cfg->desc_inflight); break;
    case O_TAGS: rc = opt_uint(name, a, &cfg->tags); break;
    case O_MAXRD: rc = opt_uint(name, a, &cfg->max_rd_bytes); break;
    case O_FCDEV: if (parse_fc(a, &cfg->fc_dev)) return bad_arg(name, a, fc_why); break;
    case O_FCHOST: if (parse_fc(a, &cfg->fc_host)) return bad_arg(name, a, fc_why); break;
    case O_FCUPD:
        rc = opt_double(name, a, &cfg->fc_dev.update_latency_ns);
        cfg->fc_host.update_latency_ns = cfg->fc_dev.update_latency_ns;
        break;
    case O_WB: rc = opt_uint(name, a, &cfg->wb_thresh); break;
    case O_IRQ: rc = opt_uint(name, a, &cfg->irq_thresh); break;
    case O_IRQUS: rc = opt_double(name, a, &cfg->irq_usecs); break;
    case O_CPLMODE:
        if (sim_parse_completion(a, &cfg->clean) != 0)
            return bad_arg(name, a, "expected head-wb, mmio, desc-wb or cq");
        break;
    case O_CLEAN:
        if (strcmp(a, "wb") == 0) cfg->clean = TXQ_CLEAN_HEAD_WB;
        else if (strcmp(a, "mmio") == 0) cfg->clean = TXQ_CLEAN_HEAD_MMIO;
        else return bad_arg(name, a, "expected wb or mmio");
        break;
    case O_PROFILE: break; /* loaded before the other options */
    case O_SET:
        if (profile_set(cfg, a, err, sizeof(err)) != 0) {
            fprintf(stderr, "nictx: %s\n", err);
            return 2;
        }
        break;
    case O_KEYS: profile_list_keys(stdout); return 0;
    case O_CPUS: rc = opt_uint(name, a, &cfg->cpus); break;
    case O_LAYOUT: if (sim_parse_layout(a, &cfg->layout)) return bad_arg(name, a, "expected split or packed"); break;
    case O_DQL: if (sim_parse_dql(a, &cfg->dql)) return bad_arg(name, a, "expected write-first or read-first"); break;
    case O_BQL:
        if (strcmp(a, "on") == 0) cfg->bql = 1;
        else if (strcmp(a, "off") == 0) cfg->bql = 0;
        else return bad_arg(name, a, "expected on or off");
        break;
    case O_SOURCE: if (sim_parse_source(a, &cfg->source)) return bad_arg(name, a, "expected pktgen or qdisc"); break;
    case O_TAILC: rc = opt_uint(name, a, &cfg->tail_coalesce); break;
    case O_NAPI: rc = opt_uint(name, a, &cfg->napi_budget); break;
    case O_PROTO: if (sim_parse_proto(a, &cfg->proto)) return bad_arg(name, a, "expected tail, owner or wc"); break;
    case O_BARRIER:
        if (sim_parse_barrier(a, &cfg->barrier))
            return bad_arg(name, a, "expected per-desc, per-batch, wmb-per-desc or none");
        break;
    case O_ORDER: if (sim_parse_ordering(a, &cfg->ordering)) return bad_arg(name, a, "expected x86 or weak"); break;
    case O_WINDOW: rc = opt_uint(name, a, &cfg->reorder_window); break;
    case O_BUG: {
        const struct bug_entry *e;
        if (strcmp(a, "list") == 0) {
            bug_catalog_print(stdout);
            return 0;
        }
        if (!(e = bug_find(a)))
            return bad_arg(name, a, "unknown driver bug (--driver-bug list)");
        cfg->bug = e->bug;
        break;
    }
    case O_BUGAT: rc = opt_u64(name, a, &cfg->bug_at); break;
    case O_EXPLORE:
        rc = opt_uint(name, a, &ro->explore);
        if (rc == 0 && (ro->explore < 1 || ro->explore > 1000000))
            return bad_arg(name, a, "expected 1..1000000 schedules");
        break;
    case O_SCHEDULE: rc = opt_u64(name, a, &cfg->schedule); break;
    case O_GRACE: rc = opt_double(name, a, &cfg->grace_us); break;
    case O_INJECT: {
        char why[160];
        if (inj_parse(&cfg->inject, a, why, sizeof(why)) != 0) {
            fprintf(stderr, "nictx: %s\n", why);
            return 2;
        }
        break;
    }
    case O_CPLTO: rc = opt_double(name, a, &cfg->cpl_timeout_us); break;
    case O_TXTO: rc = opt_double(name, a, &cfg->tx_timeout_us); break;
    case O_JSON: ro->json = a; break;
    case O_WD: rc = opt_double(name, a, &cfg->watchdog_us); break;
    case O_QUIET: ro->quiet = 1; break;
    case O_EVERY: cfg->every_clock = 1; break;
    case O_CHECK: ro->check = 1; break;
    case O_OPTS: list_options(stdout); return 0;
    case O_HELP: usage(stdout); return 0;
    default: return 2; /* getopt's ':' and '?': the caller says what was wrong */
    }
    return rc ? rc : RUN_GO;
}

/* The command line after "run": RUN_GO with *ro filled in, or the exit status. */
static int run_parse(int argc, char **argv, struct run_opts *ro)
{
    int c, rc;

    memset(ro, 0, sizeof(*ro));
    ro->mmio_w = -1;
    ro->argc = argc;
    ro->argv = argv;
    sim_cfg_default(&ro->cfg);
    /* A profile is the base the other options change, wherever it is on
     * the command line: load it first. */
    if (apply_profile(argc, argv, &ro->cfg) != 0)
        return 2;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (c == ':') {
            fprintf(stderr, "nictx: %s needs a value (see nictx --help)\n", argv[optind - 1]);
            return 2;
        }
        if (c == '?') {
            /* optopt: a long option's value if it was given one it does not
             * take; a short option's letter; else 0 (unknown or ambiguous). */
            if (optopt >= O_PKT)
                fprintf(stderr, "nictx: --%s takes no value (see nictx --help)\n",
                        opt_name(optopt));
            else if (optopt > ' ' && optopt < 127)
                fprintf(stderr, "nictx: unknown option -%c (see nictx --help)\n", optopt);
            else
                fprintf(stderr, "nictx: unknown or ambiguous option %s (see nictx --help)\n",
                        argv[optind - 1]);
            return 2;
        }
        if ((rc = run_opt(c, optarg, ro)) != RUN_GO)
            return rc;
    }
    if (optind < argc) {
        fprintf(stderr, "nictx: unexpected argument '%s' (see nictx --help)\n", argv[optind]);
        return 2;
    }
    if (!ro->size_max_set)
        ro->cfg.pkt_size_max = ro->cfg.pkt_size;
    if (ro->mmio_w >= 0)
        ro->cfg.costs.mmio_write_ns = ro->mmio_w;
    return RUN_GO;
}

/*
 * Can report_json_file write `path` after the run?  It writes a temporary
 * file beside path and renames it over path, so: path is not a directory or
 * other non-regular file (a rename would replace a device or FIFO), and
 * that temporary file can be created (the directory exists and is
 * writable).  The probe is the same afile_open, then afile_abort, which
 * leaves nothing behind.  0, or -1 with the reason in err.
 */
static int json_writable(const char *path, char *err, size_t errlen)
{
    struct afile af;
    struct stat st;

    if (!*path) {
        snprintf(err, errlen, "empty; expected a file name");
        return -1;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s; the JSON replaces a regular file",
                 S_ISDIR(st.st_mode) ? "is a directory" : "exists and is not a regular file");
        return -1;
    }
    if (afile_open(&af, path) != 0) {
        snprintf(err, errlen, "cannot create a file in its directory: %s", strerror(errno));
        return -1;
    }
    afile_abort(&af);
    return 0;
}

/* The one-line repro of exploration schedule `sched`: the command line
 * without --explore, with --schedule S. */
static void explore_repro(FILE *f, const struct run_opts *ro, uint64_t sched)
{
    fprintf(f, "repro: nictx run");
    for (int i = 1; i < ro->argc; i++) {
        const char *a = ro->argv[i];
        if (strcmp(a, "--explore") == 0 || strcmp(a, "--schedule") == 0) {
            i++; /* and its value */
            continue;
        }
        if (strncmp(a, "--explore=", 10) == 0 || strncmp(a, "--schedule=", 11) == 0)
            continue;
        fprintf(f, " %s", a);
    }
    fprintf(f, " --schedule %" PRIu64 "\n", sched);
}

/* One schedule of an exploration: its exit status as run_one's, its result
 * and diagnosis kept for the report. */
static int explore_one(const struct run_opts *ro, const struct device_ops *ops, uint64_t sched,
                       struct sim_result *res, char *diag, size_t diaglen, int *rc)
{
    struct sim_cfg cfg = ro->cfg;
    char err[256];
    struct sim *s;

    cfg.schedule = sched;
    s = sim_create(&cfg, ops, err, sizeof(err));
    if (!s) {
        fprintf(stderr, "nictx: %s\n", err);
        return -1;
    }
    *rc = sim_run(s);
    sim_result(s, res);
    snprintf(diag, diaglen, "%s", sim_diag(s));
    sim_destroy(s);
    return sim_result_clean(&cfg, *rc, res) ? 0 : 1;
}

/* --explore N: schedules 1..N of the scenario, until one fails. */
static int run_explore(const struct run_opts *ro, const struct device_ops *ops)
{
    struct sim_result *res = malloc(sizeof(*res));
    struct sim_cfg cfg = ro->cfg;
    char diag[1024];
    struct timespec t0, t1;
    int rc = 0, st = 0;
    unsigned n;

    if (!res) {
        fprintf(stderr, "nictx: out of memory\n");
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (n = 1; n <= ro->explore && st == 0; n++)
        st = explore_one(ro, ops, n, res, diag, sizeof(diag), &rc);
    n--;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    cfg.schedule = n;
    if (st > 0) {
        char why[256];
        if (!ro->quiet)
            report_text(stdout, &cfg, res, rc, diag);
        printf("explore: schedule %u of %u failed (%s): %s\n", n, ro->explore,
               sim_verdict(&cfg, rc, res),
               res->nviolations ? res->violations[0].kind
               : rc != 0        ? diag
                                : sim_verdict_why(&cfg, res, why, sizeof(why)));
        explore_repro(stdout, ro, n);
    } else if (st == 0) {
        printf("explore: %u schedules clean, %.1f schedules/s\n", n, wall > 0 ? n / wall : 0.0);
    }
    if (st >= 0 && ro->json &&
        report_json_file(ro->json, &cfg, res, rc, diag, ops->name) != 0) {
        fprintf(stderr, "nictx: --json %s: cannot write: %s\n", ro->json, strerror(errno));
        st = 1;
    }
    free(res);
    return st == 0 ? 0 : 1;
}

/* Run the experiment and report it: 0, or 1 if the run failed (see top). */
static int run_one(const struct run_opts *ro)
{
    const struct sim_cfg *cfg = &ro->cfg;
    const struct device_ops *ops = dev_ops_for(cfg->device, cfg->dev_width);
    struct sim_result res;
    struct sim *s;
    char err[256];
    int rc, status = 0;

    if (!ops) {
        fprintf(stderr, "nictx: no %u-byte %s device model in this build\n", cfg->dev_width,
                sim_device_name(cfg->device));
        return 1;
    }
    if (ro->explore)
        return run_explore(ro, ops);
    s = sim_create(cfg, ops, err, sizeof(err));
    if (!s) {
        fprintf(stderr, "nictx: %s\n", err);
        return 1;
    }
    rc = sim_run(s);
    sim_result(s, &res);
    if (!ro->quiet)
        report_text(stdout, cfg, &res, rc, sim_diag(s));
    else if (rc != 0)
        fprintf(stderr, "nictx: run %s: %s\n", sim_verdict(cfg, rc, &res), sim_diag(s));
    else if (!sim_result_clean(cfg, rc, &res))
        fprintf(stderr, "nictx: run unclean: %s\n",
                sim_verdict_why(cfg, &res, err, sizeof(err)));
    if (ro->json &&
        report_json_file(ro->json, cfg, &res, rc, sim_diag(s), ops->name) != 0) {
        fprintf(stderr, "nictx: --json %s: cannot write: %s\n", ro->json, strerror(errno));
        status = 1;
    }
    sim_destroy(s);
    if (!sim_result_clean(cfg, rc, &res))
        status = 1;
    return status;
}

static int cmd_run(int argc, char **argv)
{
    struct run_opts ro;
    char err[256];
    int rc = run_parse(argc, argv, &ro);

    if (rc != RUN_GO)
        return rc;
    if (sim_cfg_validate(&ro.cfg, err, sizeof(err)) != 0) {
        fprintf(stderr, "nictx: %s\n", err);
        return 2;
    }
    /* Before the run, not after it: a bad path is a bad argument. */
    if (ro.json && json_writable(ro.json, err, sizeof(err)) != 0)
        return bad_arg("json", ro.json, err);
    if (ro.check)
        return 0;
    return run_one(&ro);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    if (strcmp(argv[1], "sweep") == 0)
        return sweep_main(argc - 1, argv + 1);
    fprintf(stderr, "nictx: unknown command '%s' (see nictx --help)\n", argv[1]);
    return 2;
}
