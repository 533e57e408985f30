#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# codesign-readme.sh DIR - the answer table of the co-design flagship (make
# run-codesign; docs/codesign.md) into DIR/README.md between its
# "codesign:begin" and "codesign:end" markers: for each sweep DIR/W-L (W 64b or
# imix, L 100g or 25g), the point the line DIR/W-L.target names (what `nictx
# sweep --target` printed: "target T: cheapest point k=v...: COST N, COL V
# (margin M, P%)", or "no point meets it"), as a table row with that point's
# figures from DIR/W-L/results.csv (scripts/md-splice.sh).
set -euo pipefail
dir=${1:-docs/results/codesign}
readme=$dir/README.md
rows=""
for w in 64b imix; do
    for l in 100g 25g; do
        f=$dir/$w-$l.target csv=$dir/$w-$l/results.csv
        [ -f "$f" ] || { echo "codesign-readme: no $f (make run-codesign)" >&2; exit 2; }
        [ -f "$csv" ] || { echo "codesign-readme: no $csv (make run-codesign)" >&2; exit 2; }
        # The target line's point (its k=v parameters) and margin, then the
        # results.csv row whose columns hold every k=v (no field is quoted).
        row=$(awk -v w="$w" -v l="$l" -v tfile="$f" -F, '
            BEGIN {
                while ((getline t < tfile) > 0) {
                    if (t ~ /^target .*cheapest point /) {
                        p = t; sub(/^target [^:]*: cheapest point /, "", p); sub(/: .*/, "", p)
                        m = t; sub(/.*\(margin /, "", m); sub(/\)$/, "", m)
                    } else if (t ~ /^target .*no point meets it/) {
                        none = t; sub(/^target [^:]*: /, "", none)
                    }
                }
                if (none != "") { printf "| %s | %s | none | - | - | - | - | %s |\n", w, l, none; exit 0 }
                if (p == "") exit 1
                np = split(p, kv, " ")
            }
            NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            {
                for (k = 1; k <= np; k++) { split(kv[k], a, "="); if ($col[a[1]] != a[2]) next }
                eng = ""
                for (k = 1; k <= np; k++) {
                    split(kv[k], a, "="); if (a[1] != "line") eng = eng (eng ? " " : "") "--" a[1] " " a[2]
                }
                printf "| %s | %s | `%s` | %d (%d as RAM) | %d | %.2f Mpps | %.3f | %s |\n", w, l, eng,
                    $col["area.xc7_luts"], $col["area.xc7_lutram"], $col["area.xc7_ffs"],
                    $col["mpps"], $col["utilization.wire"], m
                found = 1; exit 0
            }
            END { if (none == "" && !found) exit 1 }' "$csv") ||
            { echo "codesign-readme: the point of $f is not in $csv" >&2; exit 2; }
        rows+="$row"$'\n'
    done
done
{
    echo "| frames | line | cheapest engine | xc7 LUTs | xc7 FFs | throughput | wire busy | margin |"
    echo "|---|---|---|---|---|---|---|---|"
    printf '%s' "$rows"
} | bash "$(dirname "$0")/md-splice.sh" "$readme" codesign
