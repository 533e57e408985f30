#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# regress.sh - the randomized regression (make regress; docs/testing.md,
# Randomized regression).
#
#   bash scripts/regress.sh [--bin NICTX] [--seeds N] [--seed0 S] [--jobs J]
#                           [--out DIR] [--timeout SECS] [--hw K]
#
# Draws seeds S..S+N-1 (`nictx draw --hw K`: a legal random configuration
# each, always --device lockstep; with K > 0 one in four on one of K
# hardware combinations, whose models are built first, one at a time, so
# that no seed's --timeout counts a build), runs each through GNU parallel as
#   NICTX <drawn args> --quiet --json DIR/<seed>/run.json
# (a run that stops leaves its snapshot beside it), and prints a summary
# with, for each failing seed, its diagnosis and the one-line repro that
# runs it again exactly.  A seed passes when its run's verdict is ok (exit
# status 0); any other exit, or no exit within --timeout, fails it.
# DIR/junit.xml: one testcase per seed (failure text: the diagnosis and the
# repro), written under a temporary name and renamed.  Then the functional
# cover points over the runs and the ones never hit (nictx cover, also in
# DIR/cover.txt; docs/coverage.md).
# Exit status: 0 when every seed passed, 1 when one failed, 2 on bad usage
# or when the seeds could not be drawn.
set -u
bin=build/nictx seeds=20 seed0=1 jobs=$(nproc 2>/dev/null || echo 2) out=build/regress
timeout_s=600 hw=0

# --one NICTX DIR SEED TIMEOUT: run one seed (parallel's job).
if [ "${1:-}" = --one ]; then
    b=$2 d=$3/$4 t=$5
    read -r -a args < "$d/args"
    t0=$EPOCHREALTIME
    timeout "$t" "$b" "${args[@]}" --quiet --json "$d/run.json" > "$d/log" 2>&1
    st=$?
    t1=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' > "$d/time"
    echo "$st" > "$d/status"
    exit 0
fi

while [ $# -gt 0 ]; do
    case $1 in
        --bin) bin=${2-} ;;
        --seeds) seeds=${2-} ;;
        --seed0) seed0=${2-} ;;
        --jobs) jobs=${2-} ;;
        --out) out=${2-} ;;
        --timeout) timeout_s=${2-} ;;
        --hw) hw=${2-} ;;
        -h|--help) sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "regress: unknown argument '$1' (see $0 --help)" >&2; exit 2 ;;
    esac
    [ $# -ge 2 ] || { echo "regress: $1 needs a value" >&2; exit 2; }
    shift 2
done
for v in "$seeds" "$seed0" "$jobs" "$timeout_s" "$hw"; do
    case $v in ''|*[!0-9]*) echo "regress: '$v': expected a decimal integer" >&2; exit 2 ;; esac
done
[ "$seeds" -ge 1 ] || { echo "regress: --seeds must be at least 1" >&2; exit 2; }
command -v parallel > /dev/null || { echo "regress: GNU parallel is not installed" >&2; exit 2; }
[ -x "$bin" ] || { echo "regress: $bin: not an executable (make $bin)" >&2; exit 2; }

# XML text: & < > " escaped, the control characters XML 1.0 forbids dropped
# (as scripts/run-tests.sh).
xml_escape() {
    printf '%s' "$1" | tr -d '\000-\010\013\014\016-\037' |
        sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'
}

mkdir -p "$out" || { echo "regress: cannot create $out" >&2; exit 2; }
last=$((seed0 + seeds - 1))
if ! "$bin" draw --seed "$seed0" --count "$seeds" --hw "$hw" > "$out/draws.tmp"; then
    echo "regress: nictx draw failed for seeds $seed0..$last" >&2
    exit 2
fi
mv "$out/draws.tmp" "$out/draws.txt"
s=$seed0
while IFS= read -r line; do
    rm -rf "${out:?}/$s"
    mkdir -p "$out/$s"
    printf '%s\n' "$line" > "$out/$s/args"
    s=$((s + 1))
done < "$out/draws.txt"

# The hardware combinations the draws name (the --dev-width and --hw-*
# options nictx draw writes together): each model built now by a one-frame
# RTL run, within the least of every register setting the hardware caps.
grep -o -- '--dev-width [0-9]* --hw-[^-]*.*--hw-pkts [0-9]*' "$out/draws.txt" | sort -u |
while read -r -a combo; do
    echo "regress: the model of ${combo[*]}"
    if ! "$bin" run "${combo[@]}" --device rtl --queues 1 --tags 2 --packets 1 --quiet \
        > "$out/model.log" 2>&1; then
        cat "$out/model.log" >&2
        echo "regress: the model of ${combo[*]} did not build" >&2
        exit 2
    fi
done || exit 2
echo "regress: seeds $seed0..$last, $jobs at a time, --device lockstep, into $out/"
t0=$EPOCHREALTIME
seq "$seed0" "$last" |
    parallel --will-cite -j "$jobs" bash "$0" --one "$bin" "$out" {} "$timeout_s"
wall=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')

pass=0 fail=0 cpu=0
cases=$out/cases.tmp
: > "$cases"
for s in $(seq "$seed0" "$last"); do
    d=$out/$s
    st=$(cat "$d/status" 2>/dev/null || echo none)
    secs=$(cat "$d/time" 2>/dev/null || echo 0)
    cpu=$(awk -v a="$cpu" -v b="$secs" 'BEGIN { printf "%.3f", a + b }')
    repro="$bin $(cat "$d/args") --quiet --json $d/run.json"
    if [ "$st" = 0 ]; then
        pass=$((pass + 1))
        printf '%s\t%s\tok\t\t\n' "$s" "$secs" >> "$cases"
        continue
    fi
    fail=$((fail + 1))
    # The verdict's line (nictx run --quiet: "nictx: run STATUS: WHY"), else the last.
    diag=$(grep -m1 '^nictx: run ' "$d/log" 2>/dev/null)
    [ -n "$diag" ] || diag=$(tail -n 1 "$d/log" 2>/dev/null)
    case $st in
        124) diag="timed out after ${timeout_s}s (regress --timeout)" ;;
        none) diag="no exit status: the job did not run" ;;
        *) diag="exit status $st: ${diag:-no message}" ;;
    esac
    printf '%s\t%s\tfailure\t%s\t%s\n' "$s" "$secs" "$diag" "$repro" >> "$cases"
done

# JUnit XML, one testcase per seed (the conventions of scripts/run-tests.sh).
junit=$out/junit.xml
{
    printf '<?xml version="1.0" encoding="UTF-8"?>\n'
    printf '<testsuites>\n'
    printf '  <testsuite name="nictx.regress" tests="%d" failures="%d" errors="0" skipped="0" time="%s">\n' \
        "$seeds" "$fail" "$wall"
    while IFS=$'\t' read -r s secs v diag repro; do
        printf '    <testcase classname="nictx.regress" name="seed %s" time="%s"' "$s" "$secs"
        if [ "$v" = ok ]; then
            printf '/>\n'
        else
            printf '>\n      <failure message="%s">' "$(xml_escape "$diag")"
            xml_escape "$diag"$'\n'"repro: $repro"
            printf '</failure>\n    </testcase>\n'
        fi
    done < "$cases"
    printf '  </testsuite>\n</testsuites>\n'
} > "$junit.tmp.$$" && mv "$junit.tmp.$$" "$junit"

echo
avg=$(awk -v a="$cpu" -v n="$seeds" 'BEGIN { printf "%.2f", a / n }')
echo "regress: $pass passed, $fail failed of $seeds seeds ($seed0..$last) in ${wall}s; a seed's run ${avg}s on average"
while IFS=$'\t' read -r s secs v diag repro; do
    [ "$v" = ok ] && continue
    echo "FAIL seed $s: $diag"
    echo "  repro: $repro"
done < "$cases"
rm -f "$cases"
# The functional cover points over the seeds' runs, and those never hit
# (nictx cover; docs/coverage.md), also in DIR/cover.txt.
jsons=()
for s in $(seq "$seed0" "$last"); do
    [ -f "$out/$s/run.json" ] && jsons+=("$out/$s/run.json")
done
if [ ${#jsons[@]} -gt 0 ] && "$bin" cover "${jsons[@]}" > "$out/cover.tmp"; then
    mv "$out/cover.tmp" "$out/cover.txt"
    cat "$out/cover.txt"
else
    echo "regress: no cover points: no run left its JSON, or nictx cover failed" >&2
fi
echo "JUnit XML: $junit"
[ "$fail" -eq 0 ]
