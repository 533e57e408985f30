#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-mutate-equivalent.sh - every entry of scripts/mutate-equivalent.txt
# still names a line of its file (`file | original | mutated | why`, lines
# compared stripped).  An edited line leaves its entry matching no mutant:
# re-judge the mutant on the new line (docs/testing.md, Keeping the list
# current) and update the entry.  Exit status: the number of stale entries.
set -u
list=${1:-scripts/mutate-equivalent.txt}
stale=0
n=0
while IFS= read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    file=${line%% | *}
    rest=${line#* | }
    orig=${rest%% | *}
    orig=${orig//\\|/|} # a line ending in `|` is written `\|`
    n=$((n + 1))
    if [ ! -f "$file" ] ||
        ! sed 's/^[[:space:]]*//; s/[[:space:]]*$//' "$file" | grep -Fxq -- "$orig"; then
        echo "stale: $file: no line '$orig'"
        stale=$((stale + 1))
    fi
done <"$list"
echo "check-mutate-equivalent: $n entries, $stale stale"
exit "$stale"
