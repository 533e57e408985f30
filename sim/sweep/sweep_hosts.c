/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_hosts.c - an ssh sweep's hosts: read, checked, written for GNU
 * parallel (see sweep_hosts.h).
 */
#define _GNU_SOURCE /* strdup, uname */

#include "sweep/sweep_hosts.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lib/json.h"
#include "lib/strv.h"
#include "sweep/sweep_exec.h"

#define LINE_BYTES 4096
#define CMD_BYTES 16384
#define BLANKS " \t\r\n"

void sweep_hosts_init(struct sweep_hosts *hs)
{
    memset(hs, 0, sizeof(*hs));
}

void sweep_hosts_free(struct sweep_hosts *hs)
{
    for (size_t k = 0; k < hs->n; k++) {
        free(hs->h[k].text);
        free(hs->h[k].groups);
        free(hs->h[k].cmd);
        free(hs->h[k].login);
    }
    free(hs->h);
    sweep_hosts_init(hs);
}

/* ---- reading ----------------------------------------------------------------- */

/* "[@GROUPS/][N/]LOGIN" (trimmed) into h: 0, or -1 with why in err. */
static int parse_line(struct sweep_host *h, const char *line, char *err, size_t errlen)
{
    const char *p = line, *last;
    const char *ssh = getenv("PARALLEL_SSH");
    size_t g = 0;

    if (*p == '@') {
        const char *slash = strchr(p, '/');
        if (!slash) {
            snprintf(err, errlen, "'%s': a host group (@GROUPS/) without its '/'", line);
            return -1;
        }
        g = (size_t)(slash + 1 - p);
        p = slash + 1;
    }
    if (*p >= '0' && *p <= '9' && p[strspn(p, "0123456789")] == '/') {
        unsigned long v = strtoul(p, NULL, 10);
        if (v < 1 || v > 100000) {
            snprintf(err, errlen, "'%s': the CPU count N/ must be 1..100000", line);
            return -1;
        }
        h->cpus = (unsigned)v;
        p += strspn(p, "0123456789") + 1;
    }
    p += strspn(p, BLANKS);
    if (!*p) {
        snprintf(err, errlen, "'%s': no host", line);
        return -1;
    }
    h->text = strdup(line);
    h->groups = strndup(line, g);
    /* The host is the last word, as parallel reads it. */
    last = p + strlen(p);
    while (last > p && !strchr(BLANKS, last[-1]))
        last--;
    if (last == p) {
        h->login = strdup(p);
        h->cmd = strdup(strcmp(p, ":") == 0 ? "" : ssh && *ssh ? ssh : "ssh");
    } else {
        size_t n = (size_t)(last - p);
        while (n > 0 && strchr(BLANKS, p[n - 1]))
            n--;
        h->login = strdup(last);
        h->cmd = strndup(p, n);
    }
    if (!h->text || !h->groups || !h->login || !h->cmd) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (strcmp(h->login, ":") == 0 && *h->cmd) {
        snprintf(err, errlen, "'%s': ':' (this machine) takes no ssh command", line);
        return -1;
    }
    h->usable = strcmp(h->login, ":") == 0;
    return 0;
}

/* The line without its surrounding blanks, in place. */
static char *trim(char *s)
{
    size_t n;

    s += strspn(s, BLANKS);
    n = strlen(s);
    while (n > 0 && strchr(BLANKS, s[n - 1]))
        s[--n] = '\0';
    return s;
}

int sweep_hosts_load(struct sweep_hosts *hs, const char *path, char *err, size_t errlen)
{
    char buf[LINE_BYTES], why[LINE_BYTES];
    FILE *f = fopen(path, "r");
    int lineno = 0, rc = 0;

    if (!f) {
        snprintf(err, errlen, "--hosts %s: %s", path, strerror(errno));
        return -1;
    }
    while (rc == 0 && fgets(buf, sizeof(buf), f)) {
        size_t len = strlen(buf);
        char *line;
        struct sweep_host *nh;
        lineno++;
        if (len == sizeof(buf) - 1 && buf[len - 1] != '\n' && !feof(f)) {
            snprintf(err, errlen, "--hosts %s:%d: line too long", path, lineno);
            rc = -1;
            break;
        }
        line = trim(buf);
        if (*line && *line != '#') {
            nh = realloc(hs->h, (hs->n + 1) * sizeof(*hs->h));
            if (!nh) {
                snprintf(err, errlen, "out of memory");
                rc = -1;
                break;
            }
            hs->h = nh;
            memset(&hs->h[hs->n], 0, sizeof(hs->h[hs->n]));
            hs->h[hs->n].lineno = lineno;
            rc = parse_line(&hs->h[hs->n++], line, why, sizeof(why));
            if (rc != 0)
                snprintf(err, errlen, "--hosts %s:%d: %s", path, lineno, why);
        }
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "--hosts %s: read error", path);
        rc = -1;
    }
    fclose(f);
    if (rc == 0 && hs->n == 0) {
        snprintf(err, errlen, "--hosts %s: no host in it (a host a line: [N/]LOGIN)", path);
        rc = -1;
    }
    return rc;
}

/* ---- the ssh command ----------------------------------------------------------- */

void sweep_hosts_ssh_opts(unsigned timeout_s, char *buf, size_t len)
{
    snprintf(buf, len, " -o ConnectTimeout=%u -o BatchMode=yes -o ServerAliveInterval=%u",
             timeout_s, timeout_s);
}

/* Is the command's program ssh (by name)? */
static int is_ssh(const char *cmd)
{
    size_t n = strcspn(cmd, BLANKS);
    const char *base = cmd;

    for (size_t k = 0; k < n; k++)
        if (cmd[k] == '/')
            base = cmd + k + 1;
    return (size_t)(cmd + n - base) == 3 && strncmp(base, "ssh", 3) == 0;
}

int sweep_host_sshlogin(const struct sweep_host *h, unsigned timeout_s, char *buf, size_t len)
{
    char opts[160] = "";
    int w;

    if (strcmp(h->login, ":") == 0) {
        w = snprintf(buf, len, ":");
    } else {
        if (is_ssh(h->cmd))
            sweep_hosts_ssh_opts(timeout_s, opts, sizeof(opts));
        w = snprintf(buf, len, "%s%s %s", h->cmd, opts, h->login);
    }
    return w < 0 || (size_t)w >= len ? -1 : 0;
}

/* ---- the check ------------------------------------------------------------------ */

/* The shared libraries bin needs, by name ("libinih.so.1"), from ldd;
 * none when ldd cannot tell (a static binary). */
static void needed_libs(const char *bin, struct strv *libs)
{
    char *argv[] = {"ldd", (char *)bin, NULL};
    struct sweep_capture c;
    char *save = NULL;

    if (sweep_exec_capture(argv, NULL, &c) != 0)
        return;
    for (char *l = c.status == 0 ? strtok_r(c.out, "\n", &save) : NULL; l;
         l = strtok_r(NULL, "\n", &save)) {
        char name[256];
        if (strstr(l, "=>") && sscanf(l, " %255s", name) == 1 && strncmp(name, "lib", 3) == 0 &&
            strv_find(libs, name) < 0 && strv_push(libs, name) != 0)
            break;
    }
    sweep_capture_free(&c);
}

/* Append s shell-quoted, then the text after it. */
static int add_q(char *buf, size_t len, const char *s, const char *after)
{
    if (sweep_shell_quote(s, buf, len) != 0 || strlen(buf) + strlen(after) + 1 > len)
        return -1;
    strcat(buf, after);
    return 0;
}

/*
 * The sh command run on each host.  It prints one line:
 * "nictx-probe CPUS MACHINE PERL RSYNC BIN CWD TOKEN LIBS", each field a
 * word: "-" for no, LIBS the missing libraries ("a,b,"), or "?" when
 * ldconfig -p does not answer.
 */
static int probe_script(const struct sweep_hosts_want *w, const char *token_path,
                        const struct strv *libs, char *buf, size_t len)
{
    int rc = 0;

    buf[0] = '\0';
    strcat(buf, "L=$( (/sbin/ldconfig -p || ldconfig -p) 2>/dev/null ); m=; "
                "if [ -z \"$L\" ]; then m='?'; else for l in");
    for (size_t k = 0; k < libs->n && rc == 0; k++) {
        strcat(buf, " ");
        rc |= add_q(buf, len - 1, libs->v[k], "");
    }
    if (strlen(buf) + 512 > len)
        return -1;
    strcat(buf, "; do case \"$L\" in *\"\t$l \"*) ;; *) m=\"$m$l,\" ;; esac; done; fi; "
                "printf 'nictx-probe %s %s %s %s %s %s %s %s\\n' "
                "\"$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 0)\" \"$(uname -m)\" "
                "\"$(command -v perl >/dev/null 2>&1 && echo perl || echo -)\" "
                "\"$(command -v rsync >/dev/null 2>&1 && echo rsync || echo -)\" "
                "\"$(test -x ");
    rc |= add_q(buf, len, w->bin, " && echo bin || echo -)\" \"$(test -d ");
    rc |= add_q(buf, len, w->cwd, " && echo cwd || echo -)\" \"$(cat ");
    rc |= add_q(buf, len, token_path, " 2>/dev/null || echo -)\" \"${m:--}\"");
    return rc;
}

/* One host's check command: sh -c 'exec SSHLOGIN "sh -c SCRIPT"'. */
static int probe_argv(const struct sweep_host *h, unsigned timeout_s, const char *script,
                      struct strv *argv)
{
    char login[LINE_BYTES + 256], remote[CMD_BYTES] = "sh -c ", line[2 * CMD_BYTES];

    if (sweep_host_sshlogin(h, timeout_s, login, sizeof(login)) != 0 ||
        sweep_shell_quote(script, remote, sizeof(remote)) != 0 ||
        snprintf(line, sizeof(line), "exec %s ", login) >= (int)sizeof(line) ||
        sweep_shell_quote(remote, line, sizeof(line)) != 0)
        return -1;
    return strv_push(argv, "sh") | strv_push(argv, "-c") | strv_push(argv, line) ? -1 : 0;
}

/* The last non-empty line of text, trimmed, into buf. */
static void last_line(const char *text, char *buf, size_t len)
{
    const char *end = text + strlen(text), *start;

    while (end > text && strchr(BLANKS, end[-1]))
        end--;
    start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(buf, len, "%.*s", (int)(end - start), start);
}

/* What the probe line says, judged: usable, or why in h->why. */
static void judge(struct sweep_host *h, const struct sweep_hosts_want *w, const char *line,
                  const char *token)
{
    char cpus[32], mach[64], perl[16], rsync[16], bin[16], cwd[16], tok[128], libs[1024];
    struct utsname u;
    unsigned long n;

    if (sscanf(line, "nictx-probe %31s %63s %15s %15s %15s %15s %127s %1023s", cpus, mach, perl,
               rsync, bin, cwd, tok, libs) != 8) {
        snprintf(h->why, sizeof(h->why), "its answer to the check was not understood: '%.200s'",
                 line);
        return;
    }
    if (uname(&u) == 0 && strcmp(u.machine, mach) != 0) {
        snprintf(h->why, sizeof(h->why), "it is a %s machine; this nictx is built for %s", mach,
                 u.machine);
    } else if (strcmp(perl, "-") == 0) {
        snprintf(h->why, sizeof(h->why), "it has no perl (GNU parallel runs every job "
                                          "through perl there)");
    } else if (strcmp(libs, "-") != 0 && strcmp(libs, "?") != 0) {
        libs[strlen(libs) - 1] = '\0'; /* the last ',' */
        snprintf(h->why, sizeof(h->why), "it lacks %s, which nictx needs (install it there)",
                 libs);
    } else if (w->transfer && strcmp(rsync, "-") == 0) {
        snprintf(h->why, sizeof(h->why), "it has no rsync (--transfer copies files with it)");
    } else if (!w->transfer && strcmp(bin, "-") == 0) {
        snprintf(h->why, sizeof(h->why), "it has no %s: it does not share this checkout "
                 "(--transfer sends the binary)", w->bin);
    } else if (!w->transfer && strcmp(cwd, "-") == 0) {
        snprintf(h->why, sizeof(h->why), "it has no %s, the runs' working directory", w->cwd);
    } else if (!w->transfer && strcmp(tok, token) != 0) {
        snprintf(h->why, sizeof(h->why), "it does not see %s as this machine does: no shared "
                 "filesystem, so its results would stay there (--transfer returns them)",
                 w->dir);
    } else {
        h->usable = 1;
        n = strtoul(cpus, NULL, 10);
        if (h->cpus == 0)
            h->cpus = n >= 1 && n <= 100000 ? (unsigned)n : 1;
    }
}

/* One host's capture, judged. */
static void judge_capture(struct sweep_host *h, const struct sweep_hosts_want *w,
                          const struct sweep_capture *c, const char *token)
{
    char err[SWEEP_HOST_WHY - 64];
    const char *line = strstr(c->out, "nictx-probe ");

    h->usable = 0;
    h->why[0] = '\0';
    last_line(c->err, err, sizeof(err));
    if (c->timed_out)
        snprintf(h->why, sizeof(h->why), "no answer in %u s", w->timeout_s + SWEEP_HOST_EXTRA_S);
    else if (c->status == 255)
        snprintf(h->why, sizeof(h->why), "ssh failed (exit 255): %s",
                 *err ? err : "no message");
    else if (!line || (line != c->out && line[-1] != '\n'))
        snprintf(h->why, sizeof(h->why), "the check failed there (exit %d)%s%s", c->status,
                 *err ? ": " : "", err);
    else
        judge(h, w, line, token);
}

/* Write a token into DIR/probe.tmp.PID: 0, or -1. */
static int write_token(const char *path, const char *token)
{
    FILE *f = fopen(path, "w");

    if (!f)
        return -1;
    fprintf(f, "%s\n", token);
    return fclose(f) == 0 ? 0 : -1;
}

/* The commands, one per remote host (hosts[k] is its index). */
static int build_probes(const struct sweep_hosts *hs, const struct sweep_hosts_want *w,
                        const char *script, struct strv *argvs, size_t *hosts, size_t *n)
{
    *n = 0;
    for (size_t k = 0; k < hs->n; k++) {
        if (strcmp(hs->h[k].login, ":") == 0)
            continue;
        strv_init(&argvs[*n]);
        if (probe_argv(&hs->h[k], w->timeout_s, script, &argvs[*n]) != 0) {
            strv_free(&argvs[*n]);
            return -1;
        }
        hosts[(*n)++] = k;
    }
    return 0;
}

static long run_probes(struct sweep_hosts *hs, const struct sweep_hosts_want *w,
                       const char *script, const char *token, char *err, size_t errlen)
{
    struct strv *argvs = calloc(hs->n, sizeof(*argvs));
    char *const **av = calloc(hs->n, sizeof(*av));
    struct sweep_capture *c = calloc(hs->n, sizeof(*c));
    size_t *hosts = calloc(hs->n, sizeof(*hosts)), n = 0;
    long usable = -1;

    if (argvs && av && c && hosts && build_probes(hs, w, script, argvs, hosts, &n) == 0) {
        for (size_t k = 0; k < n; k++)
            av[k] = argvs[k].v;
        if (sweep_exec_capture_all(av, n, w->timeout_s + SWEEP_HOST_EXTRA_S, c) == 0) {
            for (size_t k = 0; k < n; k++)
                judge_capture(&hs->h[hosts[k]], w, &c[k], token);
            usable = 0;
            for (size_t k = 0; k < hs->n; k++)
                usable += hs->h[k].usable != 0;
            for (size_t k = 0; k < n; k++)
                sweep_capture_free(&c[k]);
        }
    }
    if (usable < 0)
        snprintf(err, errlen, "cannot run the hosts' check (ssh): %s", strerror(errno));
    for (size_t k = 0; argvs && k < n; k++)
        strv_free(&argvs[k]);
    free(argvs);
    free(av);
    free(c);
    free(hosts);
    return usable;
}

long sweep_hosts_check(struct sweep_hosts *hs, const struct sweep_hosts_want *w, char *err,
                       size_t errlen)
{
    char token_path[LINE_BYTES + 32], token[128], script[CMD_BYTES];
    struct timespec ts;
    struct strv libs;
    sigset_t set, old;
    long usable;

    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(token, sizeof(token), "nictx-%ld-%lld-%ld", (long)getpid(), (long long)ts.tv_sec,
             ts.tv_nsec);
    snprintf(token_path, sizeof(token_path), "%s/probe.tmp.%ld", w->dir, (long)getpid());
    strv_init(&libs);
    needed_libs(w->bin, &libs);
    if (probe_script(w, token_path, &libs, script, sizeof(script)) != 0) {
        snprintf(err, errlen, "the hosts' check does not fit in a command line");
        strv_free(&libs);
        return -1;
    }
    strv_free(&libs);
    /* A Ctrl-C waits for the check (it ends the ssh commands themselves),
     * so that the token file goes; it ends the sweep then. */
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, &old);
    if (write_token(token_path, token) != 0) {
        snprintf(err, errlen, "%s: %s", token_path, strerror(errno));
        usable = -1;
    } else {
        usable = run_probes(hs, w, script, token, err, errlen);
    }
    unlink(token_path);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return usable;
}

int sweep_hosts_write(const struct sweep_hosts *hs, unsigned timeout_s, const char *path,
                      char *err, size_t errlen)
{
    char login[LINE_BYTES + 256];
    struct afile af;

    if (afile_open(&af, path) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    for (size_t k = 0; k < hs->n; k++) {
        const struct sweep_host *h = &hs->h[k];
        if (!h->usable)
            continue;
        if (sweep_host_sshlogin(h, timeout_s, login, sizeof(login)) != 0) {
            afile_abort(&af);
            snprintf(err, errlen, "--hosts line %d: too long", h->lineno);
            return -1;
        }
        if (h->cpus)
            fprintf(af.f, "%s%u/%s\n", h->groups, h->cpus, login);
        else
            fprintf(af.f, "%s%s\n", h->groups, login);
    }
    if (afile_commit(&af) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
