#!/usr/bin/env bash
# bench.sh NICTX - simulator speed on a few fixed experiments.
# Prints figures (simulated packets and device cycles per wall second);
# asserts nothing: wall-clock speed depends on the machine.
set -euo pipefail
nictx=${1:-build/nictx}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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
