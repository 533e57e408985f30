#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test-ssh.sh - `nictx sweep --hosts` against real ssh: OpenSSH daemons on
# 127.0.0.1 started here (tests/sweep/ssh-env.sh: temporary keys and
# configs, key-only logins), each stopped at the end.  A plan of 8 points is
# run with -j 1 for reference, then over:
#   good      an sshd that sees this checkout, named by the full ssh
#             command (-p PORT -i KEY ...), as a hosts file may;
#   dead      a closed port, beside good: named, left out, every point runs;
#   silent    a port that accepts TCP and never speaks, beside good: the
#             check gives up on it after --connect-timeout 2, every point runs;
#   flaky     good's sshd behind an ssh that fails after the check, beside
#             good: its points are tried again on good (--retries);
#   noshare   an sshd in a mount namespace without this checkout or the
#             results: left out, saying why, every point counted missing;
#             with --transfer every point runs there;
#   private   an sshd with this checkout but its own (empty) results
#             directory: left out, as it does not share the results.
# Every sweep that runs every point must give results.csv and results.json
# byte-identical to the -j 1 run.  NICTX (build/nictx) is the binary.
# VERBOSE=1 prints what each sweep printed.  Skips, saying why, only when
# sshd cannot start here.  Exit 1 on a failure.
set -u
cd "$(dirname "$0")/../.." || exit 2
NICTX=${NICTX:-build/nictx}
ROOT=$(pwd -P)
BIN=$(realpath "$NICTX")
# shellcheck source=tests/sweep/ssh-env.sh
source tests/sweep/ssh-env.sh

WORK=
fail=0
cleanup() {
    sshenv_stop
    [ -n "$WORK" ] && rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if ! sshenv_init || ! sshenv_sshd good; then
    echo "test-ssh: SKIP: $SSHENV_WHY"
    exit 0
fi
WORK=$(mktemp -d /tmp/nictx-ssh-work.XXXXXX) || exit 2
if ! sshenv_sshd noshare "$ROOT" "$WORK" || ! sshenv_sshd private "$WORK"; then
    echo "test-ssh: FAIL: a second sshd, in a mount namespace, did not start: $SSHENV_WHY"
    exit 1
fi
sshenv_dead dead
sshenv_silent silent
CFG=$SSHENV/ssh_config

# A program named ssh that logs in once (the sweep's check of the host),
# then fails as ssh does when the host has gone (mkdir: the first call,
# atomically; each failure adds a line to ssh.failed).
mkdir -p "$SSHENV/flaky"
cat > "$SSHENV/flaky/ssh" <<EOF
#!/bin/sh
mkdir "\$0.first" 2>/dev/null && exec $(command -v ssh) "\$@"
echo failed >> "\$0.failed"
echo "ssh: connect to host 127.0.0.1 port $(sshenv_port good): Connection refused" >&2
exit 255
EOF
chmod +x "$SSHENV/flaky/ssh"

hosts() { # FILE LINE... : a hosts file
    local f=$WORK/$1
    shift
    printf '%s\n' "$@" > "$f"
    echo "$f"
}

PLAN=(--set burst=1,4,8,16 --set protocol=tail,owner --name t --no-plots)
ARGS=(-- --packets 2000 --profile mlx4-2014)
OUT= ERR= RC= SECS=
sweep() { # NAME ARGS... : nictx sweep into $WORK/NAME; OUT, ERR, RC, SECS
    local name=$1 t0
    shift
    t0=$(date +%s%N)
    # A sweep that hangs (on a silent host, say) fails instead.
    timeout -k 5 60 "$NICTX" sweep "${PLAN[@]}" --out "$WORK/$name" "$@" "${ARGS[@]}" \
        > "$WORK/$name.out" 2> "$WORK/$name.err"
    RC=$?
    SECS=$((($(date +%s%N) - t0) / 1000000000))
    OUT=$(cat "$WORK/$name.out")
    ERR=$(cat "$WORK/$name.err")
    if [ -n "${VERBOSE:-}" ]; then
        echo "--- $name (exit $RC, $SECS s)"
        sed 's/^/    /' "$WORK/$name.err" "$WORK/$name.out"
    fi
}

bad() {
    echo "test-ssh: FAIL: $*"
    echo "--- exit $RC; stdout:"
    echo "$OUT"
    echo "--- stderr:"
    echo "$ERR"
    fail=1
}
has() { # TEXT WHAT : TEXT holds WHAT
    case "$1" in *"$2"*) return 0 ;; esac
    return 1
}
expect_all() { # NAME WHAT : exit 0, every point, results as the reference's
    local name=$1
    [ "$RC" = 0 ] || { bad "$2: exit $RC"; return; }
    has "$OUT" "t, 8 points: 8 run (0 failed), 0 already done" || { bad "$2: the counts"; return; }
    cmp -s "$WORK/ref/results.csv" "$WORK/$name/results.csv" &&
        cmp -s "$WORK/ref/results.json" "$WORK/$name/results.json" ||
        { bad "$2: results differ from the -j 1 run"; return; }
    echo "test-ssh: ok: $2 ($SECS s)"
}

sweep ref -j 1
[ "$RC" = 0 ] || { bad "the -j 1 reference run"; exit 1; }
PLAN+=(-j 2)

# The full ssh command form: port, key and known hosts on the line.
GOOD_SSH="ssh -p $(sshenv_port good) -i $SSHENV/client_key -o IdentitiesOnly=yes"
GOOD_SSH+=" -o UserKnownHostsFile=$SSHENV/known_hosts -o StrictHostKeyChecking=yes"
GOOD_SSH+=" -o ControlMaster=auto -o ControlPath=$SSHENV/cm-%C -o ControlPersist=120"
GOOD_SSH+=" $(id -un)@127.0.0.1"

sweep good --hosts "$(hosts h-good "2/$GOOD_SSH")"
expect_all good "a host named by its whole ssh command (-p, -i)"

sweep dead --hosts "$(hosts h-dead "2/ssh -F $CFG dead" "2/ssh -F $CFG good")"
has "$ERR" "host '2/ssh -F $CFG dead' ($WORK/h-dead line 1) left out: ssh failed (exit 255): ssh: connect to host 127.0.0.1 port $(sshenv_port dead): Connection refused" ||
    bad "the dead host is not named"
expect_all dead "a dead host beside a good one"

sweep silent --connect-timeout 2 --hosts "$(hosts h-silent "2/ssh -F $CFG silent" "2/ssh -F $CFG good")"
has "$ERR" "host '2/ssh -F $CFG silent' ($WORK/h-silent line 1) left out: ssh failed (exit 255): Connection timed out during banner exchange" ||
    bad "the silent host is not named"
[ "$SECS" -lt 30 ] || bad "a silent host cost $SECS s"
expect_all silent "a silent host beside a good one"

sweep flaky --hosts "$(hosts h-flaky "2/$SSHENV/flaky/ssh -F $CFG good" "1/ssh -F $CFG good")"
[ -s "$SSHENV/flaky/ssh.failed" ] || bad "the flaky host was given no job"
expect_all flaky "a host that goes down after the check: its points tried again"

sweep noshare --hosts "$(hosts h-noshare "2/ssh -F $CFG noshare")"
if [ "$RC" != 1 ]; then
    bad "a host without the checkout: exit $RC"
elif ! has "$ERR" "left out: it has no $BIN: it does not share this checkout (--transfer sends the binary)" ||
     ! has "$OUT" "t, 8 points: 0 run (0 failed), 8 without a result, 0 already done" ||
     ! has "$ERR" "8 of 8 points have no result (see report.md):"; then
    bad "a host without the checkout: what is missing, and why"
else
    echo "test-ssh: ok: a host without the checkout: named, every point counted missing"
fi

sweep private --hosts "$(hosts h-private "2/ssh -F $CFG private")"
if [ "$RC" != 1 ] || ! has "$ERR" "left out: it does not see $WORK/private as this machine does: no shared filesystem"; then
    bad "a host with its own results directory"
else
    echo "test-ssh: ok: a host with its own results directory: named, left out"
fi

sweep transfer --transfer --hosts "$(hosts h-transfer "2/ssh -F $CFG noshare")"
expect_all transfer "--transfer to a host without the checkout"

[ "$fail" = 0 ] && echo "test-ssh: every case passed"
exit "$fail"
