#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# fuzz-run.sh MODE DIR N TARGET... - run the libFuzzer targets DIR/fuzz_TARGET.
#   smoke: the committed corpus tests/corpus/TARGET, then N inputs from
#          -seed=1, 20 N for cli (repeatable; new inputs go to a scratch
#          directory)
#   long:  N seconds per target; new inputs kept in DIR/corpus/TARGET
# Prints each target's executions and the corpus size; exits non-zero on
# the first target that finds a crash, a leak or a timeout (its input is
# in DIR/crash-*, leak-* or timeout-*; rerun it with DIR/fuzz_TARGET FILE).
set -u
mode=$1 dir=$2 n=$3
shift 3

# Per target: input size and time limits.
args_for() {
    case "$1" in
        cli) echo "-max_len=1024 -close_fd_mask=3" ;;
        tlp) echo "-max_len=2048 -timeout=60 -rss_limit_mb=4096" ;;
        *)   echo "" ;;
    esac
}

status=0
top=$(pwd)
mkdir -p "$dir" && dir=$(cd "$dir" && pwd) # absolute: fuzz_cli changes directory
for t in "$@"; do
    bin="$dir/fuzz_$t" seeds="$top/tests/corpus/$t" log="$dir/fuzz_$t.$mode.log"
    if [ "$mode" = smoke ]; then
        work="$dir/smoke/$t"
        rm -rf "$work" && mkdir -p "$work"
        runs=$n
        [ "$t" = cli ] && runs=$((n * 20)) # the parser is hundreds of times faster
        limits="-seed=1 -runs=$runs"
    else
        work="$dir/corpus/$t"
        mkdir -p "$work"
        limits="-max_total_time=$n"
    fi
    mkdir -p "$seeds"
    # shellcheck disable=SC2046
    "$bin" $(args_for "$t") $limits -print_final_stats=1 -artifact_prefix="$dir/" \
        "$work" "$seeds" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    corp=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -n 1)
    if [ $rc -eq 0 ]; then
        echo "fuzz_$t ($mode): ${execs:-?} execs, ${rate:-?}/s, ${cov:-cov: ?}, ${corp:-corp: ?}: ok"
    else
        echo "fuzz_$t ($mode): FAILED (exit $rc) after ${execs:-?} execs; log $log:" >&2
        grep -E 'ERROR|fuzz_(tlp|cli):|%Error|Assertion|runtime error|SUMMARY|Test unit written' \
            "$log" | head -n 20 >&2
        status=1
    fi
done
exit $status
