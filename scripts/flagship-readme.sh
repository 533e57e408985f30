#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# flagship-readme.sh REPORT README - copy the headline table of the flagship
# sweep's report (the lines between its "## Throughput" heading and the next
# heading) into README between the "flagship:begin" and "flagship:end"
# markers.  Written to a temporary file, then renamed.  `make run` runs it.
set -euo pipefail
report=${1:-docs/results/flagship/report.md}
readme=${2:-README.md}
tmp="$readme.tmp.$$"
trap 'rm -f "$tmp"' EXIT
awk -v report="$report" '
    BEGIN {
        while ((getline line < report) > 0) {
            if (line ~ /^## Throughput/) { on = 1; continue }
            if (on && line ~ /^## /) break
            if (on && line ~ /^\|/) table = table line "\n"
        }
        if (table == "") { print "flagship-readme: no headline table in " report > "/dev/stderr"; exit 2 }
    }
    /<!-- flagship:begin/ { print; printf "%s", table; skip = 1; next }
    /<!-- flagship:end/   { skip = 0 }
    !skip
' "$readme" > "$tmp"
grep -q '<!-- flagship:end' "$tmp" || { echo "flagship-readme: no markers in $readme" >&2; exit 2; }
mv "$tmp" "$readme"
trap - EXIT
