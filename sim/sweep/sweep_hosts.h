/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_hosts.h - the machines of an ssh sweep (--hosts FILE): GNU
 * parallel's ssh login file read, every host checked before any point
 * runs, and the login file parallel is given written with the hosts that
 * passed.
 *
 * What it models: nothing; it is what makes a sweep over ssh finish or
 * fail clearly (docs/user-guide.md, Other machines over ssh).
 *
 * The file is parallel's --sshloginfile: a host a line,
 * "[@GROUPS/][N/]LOGIN"; blank lines and lines starting with '#' are
 * skipped.  N is the host's number of CPUs (parallel runs -j jobs per
 * host, by default one per CPU).  LOGIN is ':' (this machine),
 * "[user@]host", or a whole ssh command whose last word is the host
 * ("ssh -p 2222 -i ~/.ssh/lab user@host"; parallel splits it the same
 * way).  The ssh command of a bare "[user@]host" is $PARALLEL_SSH, else
 * "ssh".
 *
 * Every ssh command gets " -o ConnectTimeout=T -o BatchMode=yes -o
 * ServerAliveInterval=T" before its host: a host that does not answer
 * costs T seconds (one that accepts the TCP connection and never sends
 * the SSH banner too), a login that would ask for a password fails at
 * once, and a host that stops answering in the middle of a run is given
 * up after 3 T.  An -o option the line gives itself comes first, so it
 * wins (ssh keeps the first value of an option).  A command whose program
 * is not ssh is left as it is.
 *
 * The check (sweep_hosts_check) logs in to every remote host at once,
 * each attempt ended after T + 15 s, and runs one sh command there.  A
 * host is left out, and why said, when the login fails or it lacks perl
 * (parallel runs every job through perl), runs another machine type, or
 * lacks a shared library the nictx binary needs (when its ldconfig -p
 * answers); and, without --transfer, when it does not see the nictx
 * binary, the runs' working directory, or a token file written into the
 * results directory just before, at the same paths (no shared
 * filesystem); with --transfer, when it lacks rsync.  A host without N/
 * gets the CPU count the check found.  SIGINT, SIGTERM and SIGHUP wait
 * for the check to end (a Ctrl-C ends its ssh commands at once), so the
 * token file is always removed; then they take effect.
 *
 * Contract: functions that can fail return 0 (or a count), or -1 with a
 * one-line message in err.  No global state.
 */
#ifndef NICTX_SWEEP_HOSTS_H
#define NICTX_SWEEP_HOSTS_H

#include <stddef.h>

#define SWEEP_HOST_WHY 512
#define SWEEP_HOST_EXTRA_S 15 /* a check's time on top of the connect timeout */

struct sweep_host {
    char *text;     /* the line as given, blanks trimmed */
    int lineno;
    char *groups;   /* "@g1,g2/" as given, or "" */
    unsigned cpus;  /* N/, or what the check found; 0: not known */
    char *cmd;      /* the ssh command without its host ("ssh -p 2222"); "" for ':' */
    char *login;    /* its last word, the host ("user@host"), or ":" */
    int usable;     /* passed the check (':' always does) */
    char why[SWEEP_HOST_WHY]; /* why not */
};

struct sweep_hosts {
    struct sweep_host *h;
    size_t n;
};

/* What the check looks for. */
struct sweep_hosts_want {
    unsigned timeout_s; /* T above */
    int transfer;       /* --transfer: the binary and inputs are sent */
    const char *bin;    /* the nictx binary, absolute */
    const char *dir;    /* the results directory, absolute (it exists) */
    const char *cwd;    /* the runs' working directory, absolute */
};

void sweep_hosts_init(struct sweep_hosts *hs);
void sweep_hosts_free(struct sweep_hosts *hs);

/* Read the login file at path (at least one host). */
int sweep_hosts_load(struct sweep_hosts *hs, const char *path, char *err, size_t errlen);

/* The sshlogin parallel gets for h: its command, the options above, its
 * host ("ssh -p 2222 -o ConnectTimeout=10 ... user@host"); or ":". */
int sweep_host_sshlogin(const struct sweep_host *h, unsigned timeout_s, char *buf, size_t len);

/* The options inserted before each host (" -o ConnectTimeout=T ..."). */
void sweep_hosts_ssh_opts(unsigned timeout_s, char *buf, size_t len);

/* Check every remote host (see above), setting usable, why and cpus: the
 * number of usable hosts, or -1 (err) if the check could not be made. */
long sweep_hosts_check(struct sweep_hosts *hs, const struct sweep_hosts_want *w, char *err,
                       size_t errlen);

/* Write the usable hosts as parallel's login file ("[@G/]N/SSHLOGIN" a
 * line), atomically. */
int sweep_hosts_write(const struct sweep_hosts *hs, unsigned timeout_s, const char *path,
                      char *err, size_t errlen);

#endif /* NICTX_SWEEP_HOSTS_H */
