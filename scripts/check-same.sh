#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-same.sh REF NEW [RUNS] - two nictx binaries give the same results:
# for each line of RUNS (a file, or standard input; one `nictx run`'s
# options a line, '#' comments and blank lines skipped), both run it with
# --quiet --json, and their JSON (but for `sim`'s wall-clock figures,
# wall_s and sim_pkts_per_wall_s, and its clock counts, cycles_evaluated,
# cycles_skipped, cycles_in_runs and cycles_streamed, which tell how the
# simulator got there), their output (but for the
# exploration's schedules per second, and the names of a violation's
# snapshot files, which follow the JSON's) and their exit status must be
# the same.  Prints `same: ARGS` or `DIFFERENT: ARGS` and the first
# lines of the difference for each run, then a summary line.
# Exit status: the number of runs that differ (2 on a usage error).
set -u
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: check-same.sh REF NEW [RUNS]" >&2
    exit 2
fi
ref=$1 new=$2 runs=${3:-/dev/stdin}
for b in "$ref" "$new"; do
    if [ ! -x "$b" ]; then
        echo "check-same.sh: $b is not an executable" >&2
        exit 2
    fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
while read -r args; do
    case "$args" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    for b in ref new; do
        # shellcheck disable=SC2086  # a line is a list of options
        "${!b}" run --quiet --json "$tmp/$b.json" $args 2>&1 |
            sed -E -e 's|[0-9.]+ schedules/s|N schedules/s|' -e "s|$tmp/$b\\.|RUN.|g" \
                >"$tmp/$b.out" # wall-clock; a snapshot's file named after the JSON's
        echo "exit ${PIPESTATUS[0]}" >>"$tmp/$b.out"
        grep -v -e '"wall_s"' -e '"sim_pkts_per_wall_s"' -e '"cycles_evaluated"' \
            -e '"cycles_skipped"' -e '"cycles_in_runs"' -e '"cycles_streamed"' "$tmp/$b.json" 2>/dev/null |
            sed "s|$tmp/$b\\.|RUN.|g" >"$tmp/$b.cmp"
        rm -f "$tmp/$b.json"
    done
    if cmp -s "$tmp/ref.cmp" "$tmp/new.cmp" && cmp -s "$tmp/ref.out" "$tmp/new.out" &&
        [ -s "$tmp/ref.cmp" ]; then
        echo "same: $args"
    else
        echo "DIFFERENT: $args"
        diff "$tmp/ref.cmp" "$tmp/new.cmp" | head -n 10
        diff "$tmp/ref.out" "$tmp/new.out" | head -n 4
        fail=$((fail + 1))
    fi
done <"$runs"
echo "check-same: $fail of $n runs differ"
exit "$fail"
