#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test-slurm.sh - `nictx sweep --emit-slurm` against a real one-node Slurm
# (make test-slurm): munged, slurmctld and slurmd started here, as root,
# with their key, configuration, state, spool, sockets and logs in a
# mktemp -d directory and free ports on 127.0.0.1; each one stopped at the
# end.  In a scratch checkout (build/nictx and profiles/ copied in, so the
# script names them relative to it) a plan of 8 points is run with -j 1 for
# reference, then:
#   wait      --emit-slurm with site options; the printed
#             `sbatch --wait job.sh; build/nictx sweep merge results/t`;
#   merge job --slurm-merge: the array and a merge job submitted with
#             --dependency=afterany, the merge job writing the table;
#   resume    every point done: nothing to submit; one result lost: an
#             array of that one task, which brings it back.
# Each must give results.csv and results.json byte-identical to the -j 1
# run.  NICTX (build/nictx) is the binary.  Skips, saying why, when Slurm
# or munge is not installed or its daemons cannot start here.  Exit 1 on a
# failure.
set -u
cd "$(dirname "$0")/../.." || exit 2
NICTX=$(realpath "${NICTX:-build/nictx}")
ROOT=$(pwd -P)
T=
PIDS=()
fail=0

skip() {
    echo "test-slurm: SKIP: $*"
    exit 0
}
stop() {
    local p
    for p in "${PIDS[@]}"; do
        kill "$p" 2>/dev/null
    done
    for p in "${PIDS[@]}"; do
        wait "$p" 2>/dev/null
    done
    PIDS=()
    [ -n "$T" ] && [ -z "${KEEP:-}" ] && rm -rf "$T"
}
trap stop EXIT
trap 'exit 130' INT TERM

for c in munged munge slurmctld slurmd sbatch squeue scontrol sinfo; do
    command -v "$c" >/dev/null ||
        skip "$c is not installed (make test-slurm installs slurm-wlm and munge:" \
             "scripts/install-deps.sh --slurm)"
done
[ "$(id -u)" = 0 ] || skip "the Slurm daemons here run as root, and this is $(id -un)"

free_port() {
    perl -MIO::Socket::INET -e \
        'print IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0,
                                     Listen => 1, ReuseAddr => 1)->sockport, "\n"'
}
logs() { # the last lines of each log, for a skip or a failure
    local f
    for f in "$T"/*.log "$T"/*.out; do
        [ -s "$f" ] && echo "  $(basename "$f"): $(tail -n 3 "$f" | tr '\n' ' ')"
    done
}

T=$(mktemp -d /tmp/nictx-slurm.XXXXXX) || exit 2
chmod 700 "$T"
T0=$(date +%s)

# ---- munge
head -c 1024 /dev/urandom > "$T/munge.key"
chmod 400 "$T/munge.key"
munged -F -f --socket="$T/munge.socket" --key-file="$T/munge.key" \
    --pid-file="$T/munged.pid" --seed-file="$T/munged.seed" > "$T/munged.out" 2>&1 &
PIDS+=($!)
for k in $(seq 1 50); do
    munge -S "$T/munge.socket" -n 2>/dev/null | unmunge -S "$T/munge.socket" >/dev/null 2>&1 &&
        break
    sleep 0.1
done
munge -S "$T/munge.socket" -n 2>/dev/null | unmunge -S "$T/munge.socket" >/dev/null 2>&1 ||
    skip "munged did not start here:$(logs)"

# ---- slurmctld and slurmd: one node, this machine's CPUs
mkdir -p "$T/state" "$T/spool"
cat > "$T/slurm.conf" <<EOF
ClusterName=nictxtest
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
AuthInfo=socket=$T/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MaxArraySize=1001
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
NodeName=nictxnode NodeHostname=$(hostname -s) NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=nictxnode Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$T/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" > "$T/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -N nictxnode -f "$SLURM_CONF" > "$T/slurmd.out" 2>&1 &
PIDS+=($!)
for k in $(seq 1 100); do
    [ "$(sinfo -h -n nictxnode -o %t 2>/dev/null)" = idle ] && break
    sleep 0.2
done
[ "$(sinfo -h -n nictxnode -o %t 2>/dev/null)" = idle ] ||
    skip "slurmctld and slurmd did not bring the node up here:$(logs)"
echo "test-slurm: a one-node Slurm is up ($(( $(date +%s) - T0 )) s)"

# ---- the checkout the sweep is planned in
CO=$T/checkout
mkdir -p "$CO/build"
cp "$NICTX" "$CO/build/nictx"
cp -r "$ROOT/profiles" "$CO/"
cd "$CO" || exit 2
PLAN=(--set burst=1,4,8,16 --set protocol=tail,owner --name t --no-plots)
ARGS=(-- --packets 2000 --profile mlx4-2014)
build/nictx sweep "${PLAN[@]}" --out ref -j 1 "${ARGS[@]}" > "$T/ref.out" 2>&1 ||
    { echo "test-slurm: FAIL: the -j 1 reference run"; cat "$T/ref.out"; exit 1; }

bad() {
    echo "test-slurm: FAIL: $*"
    logs
    fail=1
}
same() { # DIR WHAT : results as the reference's
    if cmp -s ref/results.csv "$1/results.csv" && cmp -s ref/results.json "$1/results.json"; then
        echo "test-slurm: ok: $2 ($(( $(date +%s) - T0 )) s)"
    else
        bad "$2: results differ from the -j 1 run"
    fi
}
# Wait (up to 120 s) until job $1 has left the queue; its state.
wait_job() {
    local k
    for k in $(seq 1 600); do
        squeue -h -j "$1" 2>/dev/null | grep -q . || break
        sleep 0.2
    done
    scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'
}

# ---- wait: the printed sbatch --wait line, as it is
out=$(build/nictx sweep "${PLAN[@]}" --emit-slurm job.sh --slurm-opt time=10:00 \
          --slurm-opt partition=debug "${ARGS[@]}")
submit=$(echo "$out" | sed -n 's/^  //p')
if [ "$submit" != "sbatch --wait job.sh; build/nictx sweep merge results/t" ] ||
   ! grep -q '^#SBATCH --time=10:00$' job.sh || ! grep -q '^exec build/nictx sweep point results/t ' job.sh; then
    bad "the script or its submit line: $out"
else
    eval "$submit" > "$T/wait.out" 2>&1 || bad "sbatch --wait; merge: $(tail -n 3 "$T/wait.out")"
    same results/t "sbatch --wait, then nictx sweep merge"
fi

# ---- merge job: the array, then a job that merges once it has ended
out=$(build/nictx sweep "${PLAN[@]}" --out results/t2 --emit-slurm job2.sh \
          --slurm-merge merge2.sh "${ARGS[@]}")
submit=$(echo "$out" | sed -n 's/^  //p')
if [ "$submit" != 'sbatch --dependency=afterany:$(sbatch --parsable job2.sh) merge2.sh' ]; then
    bad "the merge job's submit line: $out"
else
    jid=$(eval "${submit/sbatch --dependency/sbatch --parsable --dependency}")
    state=$(wait_job "$jid")
    if [ "$state" != COMPLETED ] || [ ! -s "results/t2/slurm/merge_$jid.out" ]; then
        bad "the merge job $jid: state $state"
    else
        same results/t2 "the array, then a merge job after it (afterany)"
    fi
fi

# ---- resume: nothing to do; then one lost result, and only it runs again
out=$(build/nictx sweep "${PLAN[@]}" --emit-slurm job.sh "${ARGS[@]}")
case "$out" in
    "nictx sweep: all 8 points are done; nothing to submit."*) ;;
    *) bad "every point done, yet: $out" ;;
esac
rm -f "results/t/points/$(sed -n '3p' results/t/results.csv | cut -d, -f2).json"
build/nictx sweep "${PLAN[@]}" --emit-slurm job.sh "${ARGS[@]}" > /dev/null
if ! grep -q '^#SBATCH --array=2$' job.sh; then
    bad "the lost point's array: $(grep -- --array job.sh)"
else
    sbatch --wait job.sh > "$T/resume.out" 2>&1 || bad "sbatch --wait: $(cat "$T/resume.out")"
    build/nictx sweep merge results/t > /dev/null 2>&1 || bad "merge after the resume"
    same results/t "a lost point run again, alone"
fi

[ "$fail" = 0 ] && echo "test-slurm: every case passed ($(( $(date +%s) - T0 )) s)"
exit "$fail"
