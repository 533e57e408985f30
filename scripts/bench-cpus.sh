#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench-cpus.sh [NICTX] - the simulator's cost per packet against the number
# of simulated CPUs (docs/architecture.md, Simulation speed): 64 queues of 64 B frames at 100G,
# bursts of 32, on 1, 8 and 64 CPUs (XPS: queue q on CPU q mod N).  Prints
# simulated packets per wall second (the median of 3) and, with valgrind,
# instructions per simulated packet (comparable across machines: runs of N
# and 6N packets, the difference over 5N).  Asserts nothing: the cost may
# grow at most linearly in the CPUs, and the figures show by how much it does.
# Part of `make bench` (scripts/bench.sh).
set -euo pipefail
nictx=${1:-build/nictx}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(--queues 64 --line 100g --pkt-size 64 --burst 32 --cpu cheap)

pkts_per_s() {
    local i
    for i in 1 2 3; do
        "$nictx" run --quiet --json "$tmp/c.json" "$@"
        python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sim"]["sim_pkts_per_wall_s"])' \
            "$tmp/c.json"
    done | sort -g | sed -n 2p
}
instr() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$nictx" run --quiet "$@" 2>&1 |
        awk '/Collected :/ { print $NF }'
}
instr_per_pkt() {
    local n=2000 a b
    command -v valgrind >/dev/null 2>&1 || { echo -; return; }
    a=$(instr "$@" --packets "$n")
    b=$(instr "$@" --packets $((6 * n)))
    awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN { printf "%.0f", (b - a) / (5 * n) }'
}
printf '%-44s %6s %14s %12s\n' "64 queues, 64B 100G burst32 cheap cpu" cpus sim_pkts/s instr/pkt
for n in 1 8 64; do
    p=$(pkts_per_s "${args[@]}" --cpus "$n" --packets 100000)
    i=$(instr_per_pkt "${args[@]}" --cpus "$n")
    printf '%-44s %6s %14.0f %12s\n' "" "$n" "$p" "$i"
done
