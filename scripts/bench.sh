#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.sh NICTX [NICTX_NOASSERT [NICTX_VP [NICTX_FAST [NICTX_FAST_ASSERT]]]] - simulator speed
# on a few fixed experiments.
# Prints figures (simulated packets and device cycles per wall second);
# asserts nothing: wall-clock speed depends on the machine.
#
# First the headline (docs/architecture.md, Simulation speed): the default
# run and 64 B frames at 100G (a cheap CPU and bursts of 32, so the CPU is
# not the bound), each the median of 3 runs, with the engine's assertions on
# (NICTX, the normal build) and off (NICTX_NOASSERT, built with RTL_ASSERT=0;
# `make bench` builds it in $(BUILD)-noassert), and from the fast build
# (NICTX_FAST: assertions off and profile feedback; `make fast`) and the
# fast build with the assertions on (NICTX_FAST_ASSERT; `make fast-assert`);
# then the same runs on the C model of the engine (--device c;
# docs/c-model.md), from the normal build and from the fast one.  Then
# instructions per simulated packet (callgrind), comparable across machines.
set -euo pipefail
nictx=${1:-build/nictx}
nictx_na=${2:-}
nictx_vp=${3:-}
nictx_fast=${4:-}
nictx_fast_a=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# median3 BIN ARGS...: the median of 3 runs' simulated packets per wall second
median3() {
    local bin=$1 i; shift
    for i in 1 2 3; do
        "$bin" run --quiet --json "$tmp/m.json" "$@"
        python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sim"]["sim_pkts_per_wall_s"])' \
            "$tmp/m.json"
    done | sort -g | sed -n 2p
}
headline() {
    local name=$1; shift
    local on off=- fast=- fasta=- cm cmf=-
    on=$(median3 "$nictx" "$@")
    [ -n "$nictx_na" ] && off=$(median3 "$nictx_na" "$@")
    [ -n "$nictx_fast" ] && fast=$(median3 "$nictx_fast" "$@")
    [ -n "$nictx_fast_a" ] && fasta=$(median3 "$nictx_fast_a" "$@")
    cm=$(median3 "$nictx" "$@" --device c)
    [ -n "$nictx_fast" ] && cmf=$(median3 "$nictx_fast" "$@" --device c)
    awk -v n="$name" -v a="$on" -v b="$off" -v c="$fast" -v g="$fasta" -v d="$cm" -v e="$cmf" \
        'function f(x) { return x == "-" ? "-" : sprintf("%.0f", x) }
         BEGIN { printf "%-38s %11.0f %11s %11s %11s %11.0f %11s\n", n, a, f(b), f(c), f(g), d, f(e) }'
}
printf '%-38s %11s %11s %11s %11s %11s %11s\n' "sim pkts/s, median of 3" "RTL assert" "RTL no-ast" \
    "RTL fast" "RTL fast+as" "C model" "C fast"
headline "default run (100000 packets)"          --packets 100000
headline "64B 100G cheap cpu burst32 (100000)"   --packets 100000 --line 100g --pkt-size 64 \
    --cpu cheap --burst 32
echo

# The SystemC virtual platform (sc/, docs/systemc.md) against the native
# harness on the same configuration: the median of 3 of each.
vp_median3() {
    local i
    for i in 1 2 3; do
        SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$nictx_vp" "$@" | awk '/^  simulator / { print $5 }'
    done | sort -g | sed -n 2p
}
vp_line() {
    local name=$1; shift
    local nat vp
    nat=$(median3 "$nictx" "$@")
    vp=$(vp_median3 "$@")
    awk -v n="$name" -v a="$nat" -v b="$vp" \
        'BEGIN { printf "%-44s %12.0f %12.0f %8.2fx\n", n, a, b, a / b }'
}
if [ -n "$nictx_vp" ]; then
    printf '%-44s %12s %12s %9s\n' "sim pkts/s, median of 3" native "SystemC VP" slowdown
    vp_line "default run (100000 packets)"         --packets 100000
    vp_line "64B burst1 owner (50000)"             --packets 50000 --burst 1 --protocol owner
    vp_line "64-byte wc burst4 width 32 (100000)"  --packets 100000 --burst 4 --protocol wc --dev-width 32
    vp_line "1518B burst16 width 64 (20000)"       --packets 20000 --pkt-size 1518 --burst 16 --dev-width 64
    echo
fi

# Instructions per simulated packet (valgrind's callgrind), which unlike
# wall rates compare across machines: each case runs twice, with N and 6N
# packets, and the difference over 5N packets leaves out the start-up (model
# construction, host memory, and the rise of the latency to its steady
# state, which with 1518-byte frames takes the first 2400 packets).  On the
# plain build's RTL (what tests use), and on the C model of the plain and the
# fast build.
cg_instr() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" --quiet 2>&1 |
        awk '/Collected :/ { print $NF }'
}
per_pkt() {
    local n=$1; shift
    local a b
    a=$(cg_instr "$@" --packets "$n")
    b=$(cg_instr "$@" --packets $((6 * n)))
    awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN { printf "%.0f", (b - a) / (5 * n) }'
}
instr_line() {
    local name=$1 n=$2; shift 2
    local rtl cm cmf=-
    rtl=$(per_pkt "$n" "$nictx" run "$@")
    cm=$(per_pkt "$n" "$nictx" run "$@" --device c)
    [ -n "$nictx_fast" ] && cmf=$(per_pkt "$n" "$nictx_fast" run "$@" --device c)
    printf '%-38s %11s %11s %11s\n' "$name" "$rtl" "$cm" "$cmf"
}
if command -v valgrind >/dev/null 2>&1; then
    printf '%-38s %11s %11s %11s\n' "instructions per packet (callgrind)" "RTL assert" "C model" "C fast"
    instr_line "default run"                  2000
    instr_line "1518B burst32"                2400 --pkt-size 1518 --burst 32
    instr_line "64B burst32, 1 queue"         2000 --burst 32 --cpu cheap --line 100g
    instr_line "64B burst32, 64 queues"       2000 --burst 32 --cpu cheap --line 100g --queues 64
else
    echo "instructions per packet: valgrind is not installed (apt-get install valgrind)"
fi
echo

printf '%-44s %12s %12s %14s %10s\n' experiment packets wall_s sim_pkts/s Mcycles/s
run() {
    local name=$1; shift
    "$nictx" run --quiet --json "$tmp/r.json" "$@"
    python3 - "$name" "$tmp/r.json" <<'PY' 2>/dev/null || awk -v n="$name" 'BEGIN{print n": (python3 missing: see the JSON)"}'
import json, sys
name, path = sys.argv[1], sys.argv[2]
d = json.load(open(path)); s = d["sim"]
cyc = s["cycles_evaluated"] / s["wall_s"] / 1e6 if s["wall_s"] > 0 else 0
print(f'{name:<44} {d["packets"]["sent"]:>12} {s["wall_s"]:>12.2f} {s["sim_pkts_per_wall_s"]:>14.0f} {cyc:>10.2f}')
PY
}
run "64B burst32 10G cheap cpu (wire bound)" --packets 300000 --burst 32 --cpu cheap
run "64B burst1 10G x86 (cpu bound)"         --packets 100000 --burst 1
run "1518B burst32 10G cheap"                --packets 50000 --pkt-size 1518 --burst 32 --cpu cheap
run "mixed 64-1518B burst16 10G"             --packets 50000 --pkt-size-max 1518 --burst 16

# A sweep of 16 equal points (one configuration, 16 seeds, 50000 packets
# each; the fast build, on the C model with its lockstep checks, as make
# run) with one job, then with two: the speedup GNU parallel gives on this
# machine (2 cores: about 2x when nothing else runs).  Equal points measure
# the runner, not how unequal points happen to pack onto the cores.
# Reported, not asserted.
sweep_bin=${nictx_fast:-$nictx} # sweeps run the fast build, as make run does
sweep_wall() {
    local out=$1; shift
    local t0 t1
    t0=$(date +%s.%N)
    "$sweep_bin" sweep --set seed=1..16 --name bench --out "$out" --fresh --no-plots "$@" \
        -- --packets 50000 >/dev/null
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
echo
j1=$(sweep_wall "$tmp/sweep-j1" -j 1)
j2=$(sweep_wall "$tmp/sweep-j2" -j 2)
cmp -s "$tmp/sweep-j1/results.csv" "$tmp/sweep-j2/results.csv" && same=identical || same=DIFFERENT
awk -v a="$j1" -v b="$j2" -v s="$same" 'BEGIN {
    printf "sweep, 16 points x 50000 packets: -j 1 %.2f s, -j 2 %.2f s: speedup %.2fx (results.csv %s)\n",
           a, b, a / b, s }'

# Exploration (docs/driver-validation.md): the correct driver on a
# 2,000-packet scenario where the ring fills and the queue stops, under
# schedules 1..50, with two CPUs.  nictx prints schedules per second.
echo
printf 'explore, 2000 packets of 1518 B, 2 cpus, ring 64: '
"$nictx" run --packets 2000 --pkt-size 1518 --ring 64 --cpus 2 --explore 50 --quiet

# The simulator's cost per packet against the number of simulated CPUs
# (docs/architecture.md, Simulation speed): 64 queues of 64 B frames at
# 100G, bursts of 32, a cheap CPU, on 1, 8 and 64 CPUs (XPS: queue q on CPU
# q mod N); simulated packets per wall second (the median of 3) and
# instructions per packet.  The cost may grow at most linearly in the CPUs.
echo
cpus_args=(--queues 64 --line 100g --pkt-size 64 --burst 32 --cpu cheap)
printf '%-44s %6s %14s %12s\n' "64 queues, 64B 100G burst32 cheap cpu" cpus sim_pkts/s instr/pkt
for n in 1 8 64; do
    p=$(median3 "$nictx" "${cpus_args[@]}" --cpus "$n" --packets 100000)
    i=-
    command -v valgrind >/dev/null 2>&1 && i=$(per_pkt 2000 "$nictx" run "${cpus_args[@]}" --cpus "$n")
    printf '%-44s %6s %14.0f %12s\n' "" "$n" "$p" "$i"
done
