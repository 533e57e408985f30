#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench-pairs.sh N A "A_ARGS" B "B_ARGS" [-- RUN_ARGS...] - two nictx binaries
# (or one with two sets of options) compared by pairs: N times, one run of A
# and one of B back to back, each on the same RUN_ARGS (default: the default
# run); prints each one's median sim pkts/s and the median, least and
# greatest of the N ratios B/A.  On a shared machine whose speed drifts
# between minutes, the ratio of two runs made together varies far less than
# either binary's figure (docs/c-model.md, The engine's speed).  Pin it to a
# core with taskset for steadier figures.  Asserts nothing.
set -euo pipefail
usage() {
    echo "usage: bench-pairs.sh N A_BIN \"A_ARGS\" B_BIN \"B_ARGS\" [-- RUN_ARGS...]" >&2
    exit 2
}
[ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ] && { sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
[ $# -ge 5 ] || usage
n=$1 a=$2 a_args=$3 b=$4 b_args=$5
shift 5
[ "${1:-}" = "--" ] && shift
case "$n" in '' | *[!0-9]* | 0) echo "bench-pairs.sh: N must be a positive integer" >&2; exit 2 ;; esac
for bin in "$a" "$b"; do
    [ -x "$bin" ] || { echo "bench-pairs.sh: $bin: not an executable" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rate() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sim"]["sim_pkts_per_wall_s"])' "$1"; }
for _ in $(seq "$n"); do
    # shellcheck disable=SC2086  # A_ARGS and B_ARGS are lists of options
    "$a" run --quiet --json "$tmp/a.json" "$@" $a_args >/dev/null
    # shellcheck disable=SC2086
    "$b" run --quiet --json "$tmp/b.json" "$@" $b_args >/dev/null
    echo "$(rate "$tmp/a.json") $(rate "$tmp/b.json")" >>"$tmp/pairs"
done
python3 - "$tmp/pairs" <<'PY'
import statistics, sys
rows = [tuple(map(float, l.split())) for l in open(sys.argv[1])]
r = sorted(b / a for a, b in rows)
print("A median %.0f sim pkts/s, B median %.0f; B/A by pairs: median %.3f, least %.3f, greatest %.3f (%d pairs)"
      % (statistics.median(a for a, _ in rows), statistics.median(b for _, b in rows),
         statistics.median(r), r[0], r[-1], len(r)))
PY
