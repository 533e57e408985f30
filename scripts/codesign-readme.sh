#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# codesign-readme.sh DIR - the answer table of the co-design flagship (make
# run-codesign; docs/codesign.md) into DIR/README.md between its
# "codesign:begin" and "codesign:end" markers: for each sweep DIR/W-L (W 64b or
# imix, L 100g or 25g), the line DIR/W-L.target that `nictx sweep --target`
# printed, as a table row (scripts/md-splice.sh).
set -euo pipefail
dir=${1:-docs/results/codesign}
readme=$dir/README.md
rows=""
for w in 64b imix; do
    for l in 100g 25g; do
        f=$dir/$w-$l.target
        [ -f "$f" ] || { echo "codesign-readme: no $f (make run-codesign)" >&2; exit 2; }
        # "target T: cheapest point P=V...: COST N, COL V (margin M, P%)", or "no point meets it"
        row=$(awk -v w="$w" -v l="$l" '
            /^target .*cheapest point/ {
                sub(/^target [^:]*: cheapest point /, ""); id = $0; sub(/: .*/, "", id)
                rest = $0; sub(/^[^:]*: /, "", rest)
                split(rest, a, ", "); cost = a[1]; val = a[2]; sub(/ \(margin.*/, "", val)
                m = rest; sub(/.*\(margin /, "", m); sub(/\)$/, "", m)
                printf "| %s | %s | %s | %s | %s | %s |\n", w, l, id, cost, val, m; found = 1 }
            /^target .*no point meets it/ {
                sub(/^target [^:]*: /, ""); printf "| %s | %s | none | - | %s | - |\n", w, l, $0; found = 1 }
            END { if (!found) exit 1 }' "$f") || { echo "codesign-readme: no target line in $f" >&2; exit 2; }
        rows+="$row"$'\n'
    done
done
{
    echo "| frames | line | cheapest engine | area | throughput | margin |"
    echo "|---|---|---|---|---|---|"
    printf '%s' "$rows"
} | bash "$(dirname "$0")/md-splice.sh" "$readme" codesign
