# SPDX-License-Identifier: Apache-2.0
# ssh-env.sh - sourced by the sweep tests that need ssh hosts (test-ssh.sh):
# OpenSSH daemons on 127.0.0.1, each on a free port, with a temporary host
# key, sshd_config and authorized key; a temporary client key, known_hosts
# and ssh config (key-only, StrictHostKeyChecking yes); a "dead" host (a
# closed port) and a "silent" one (a listener that accepts TCP and never
# writes).  Everything lives in $SSHENV (a mktemp -d); sshenv_stop stops
# every process it started, by its pid, and removes the directory.
#
#   sshenv_init                   (sets SSHENV; returns 1, with why in
#                                  SSHENV_WHY, when sshd or ssh-keygen is
#                                  not installed)
#   sshenv_sshd NAME [HIDE...]    an sshd, Host NAME in $SSHENV/ssh_config;
#                                 with HIDE, it runs in a mount namespace of
#                                 its own where each HIDE directory is an
#                                 empty tmpfs (a host without that path).
#                                 Returns 1, with why in SSHENV_WHY, when it
#                                 cannot start or take a login.
#   sshenv_dead NAME / sshenv_silent NAME   the two bad hosts
#   sshenv_port NAME              the port of NAME
#   sshenv_stop                   (run it from an EXIT trap)
#
# Hosts files name a host as "ssh -F $SSHENV/ssh_config NAME" (the full
# `ssh ...` form GNU parallel accepts), so nothing of the user's own ssh
# setup is read or changed.  The client shares one connection per host
# (ControlMaster, sockets in $SSHENV), as a user's ~/.ssh/config may: a
# --transfer job makes several ssh connections.  sshenv_stop ends those
# masters too.  sshd needs root here (it logs in as root with
# PermitRootLogin prohibit-password) and /run/sshd, which it creates.

SSHENV=
SSHENV_WHY=
SSHENV_PIDS=()
SSHENV_HOSTS=()

sshenv_free_port() {
    perl -MIO::Socket::INET -e \
        'my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0,
                                       Listen => 1, ReuseAddr => 1) or die "$!\n";
         print $s->sockport, "\n";'
}

sshenv_init() {
    local sshd
    sshd=$(command -v sshd || echo /usr/sbin/sshd)
    if [ ! -x "$sshd" ] || ! command -v ssh-keygen >/dev/null || ! command -v ssh >/dev/null; then
        SSHENV_WHY="sshd, ssh or ssh-keygen is not installed (Debian: openssh-server, openssh-client)"
        return 1
    fi
    SSHENV_SSHD=$sshd
    SSHENV=$(mktemp -d /tmp/nictx-ssh.XXXXXX) || return 1
    chmod 755 "$SSHENV"
    ssh-keygen -q -t ed25519 -N '' -C nictx-test-host -f "$SSHENV/host_key" || return 1
    ssh-keygen -q -t ed25519 -N '' -C nictx-test-client -f "$SSHENV/client_key" || return 1
    cp "$SSHENV/client_key.pub" "$SSHENV/authorized_keys"
    : > "$SSHENV/known_hosts"
    cat > "$SSHENV/ssh_config" <<EOF
Host *
    User $(id -un)
    IdentityFile $SSHENV/client_key
    IdentitiesOnly yes
    UserKnownHostsFile $SSHENV/known_hosts
    GlobalKnownHostsFile /dev/null
    StrictHostKeyChecking yes
    CheckHostIP no
    LogLevel ERROR
    ControlMaster auto
    ControlPath $SSHENV/cm-%C
    ControlPersist 120
EOF
}

# Host NAME at 127.0.0.1:PORT in the client's config, its key known.
sshenv_host() {
    printf 'Host %s\n    HostName 127.0.0.1\n    Port %s\n' "$1" "$2" >> "$SSHENV/ssh_config"
    printf '[127.0.0.1]:%s %s\n' "$2" "$(cut -d' ' -f1,2 "$SSHENV/host_key.pub")" \
        >> "$SSHENV/known_hosts"
    echo "$2" > "$SSHENV/$1.port"
}

sshenv_port() { cat "$SSHENV/$1.port"; }

# Wait (up to 10 s) until `ssh NAME true` works: 0, or 1.
sshenv_wait() {
    local k
    for k in $(seq 1 50); do
        ssh -F "$SSHENV/ssh_config" -o BatchMode=yes -o ConnectTimeout=2 "$1" true \
            2>/dev/null && return 0
        sleep 0.2
    done
    return 1
}

sshenv_sshd() {
    local name=$1 port conf try
    shift
    if [ ! -d /run/sshd ] && ! mkdir -p /run/sshd 2>/dev/null; then
        SSHENV_WHY="sshd needs its privilege separation directory /run/sshd, which cannot be created"
        return 1
    fi
    for try in 1 2 3; do
        port=$(sshenv_free_port) || return 1
        conf=$SSHENV/$name.sshd_config
        cat > "$conf" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $SSHENV/host_key
PidFile none
AuthorizedKeysFile $SSHENV/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
LogLevel ERROR
EOF
        if [ $# -gt 0 ]; then
            # A host without the paths: its own mount namespace, each path an
            # empty tmpfs.  sshd's own files ($SSHENV) stay visible.
            unshare -m --propagation private sh -c \
                'c=$1; d=$2; shift 2; for p; do mount -t tmpfs nictx-hidden "$p" || exit 1; done
                 exec "$d" -D -e -f "$c"' sh "$conf" "$SSHENV_SSHD" "$@" \
                2>> "$SSHENV/$name.log" &
        else
            "$SSHENV_SSHD" -D -e -f "$conf" 2>> "$SSHENV/$name.log" &
        fi
        SSHENV_PIDS+=($!)
        sshenv_host "$name" "$port"
        SSHENV_HOSTS+=("$name")
        sshenv_wait "$name" && return 0
        kill "${SSHENV_PIDS[-1]}" 2>/dev/null
        wait "${SSHENV_PIDS[-1]}" 2>/dev/null
    done
    SSHENV_WHY="sshd could not start or take a login on 127.0.0.1 as $(id -un)"
    SSHENV_WHY+=" (its log: $(tail -n 2 "$SSHENV/$name.log" | tr '\n' ' '))"
    return 1
}

# A closed port: nothing listens there, every connection is refused.
sshenv_dead() {
    sshenv_host "$1" "$(sshenv_free_port)"
}

# A listener that accepts every connection and never writes a byte.
sshenv_silent() {
    local name=$1 k
    perl -MIO::Socket::INET -e \
        'my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0,
                                       Listen => 16, ReuseAddr => 1) or die "$!\n";
         open(my $f, ">", "$ARGV[0].tmp") or die; print $f $s->sockport, "\n"; close $f;
         rename("$ARGV[0].tmp", $ARGV[0]);
         my @held; while (my $c = $s->accept) { push @held, $c }' "$SSHENV/$name.port" &
    SSHENV_PIDS+=($!)
    for k in $(seq 1 50); do
        [ -s "$SSHENV/$name.port" ] && break
        sleep 0.1
    done
    sshenv_host "$name" "$(cat "$SSHENV/$name.port")"
}

sshenv_stop() {
    local p h
    for h in "${SSHENV_HOSTS[@]}"; do
        ssh -F "$SSHENV/ssh_config" -O exit "$h" 2>/dev/null
    done
    SSHENV_HOSTS=()
    for p in "${SSHENV_PIDS[@]}"; do
        kill "$p" 2>/dev/null
    done
    for p in "${SSHENV_PIDS[@]}"; do
        wait "$p" 2>/dev/null
    done
    SSHENV_PIDS=()
    [ -n "$SSHENV" ] && rm -rf "$SSHENV"
    SSHENV=
}
