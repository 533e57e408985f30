#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# md-splice.sh FILE MARKER - replace the lines of FILE between its
# "<!-- MARKER:begin" and "<!-- MARKER:end" lines with standard input.
# Written to a temporary file, then renamed.  Exit 2 when FILE lacks the
# markers.  scripts/flagship-readme.sh and scripts/codesign-readme.sh use it.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 FILE MARKER < TEXT" >&2; exit 2; }
file=$1 marker=$2
tmp="$file.tmp.$$"
trap 'rm -f "$tmp"' EXIT
text=$(cat)
awk -v text="$text" -v b="<!-- $marker:begin" -v e="<!-- $marker:end" '
    index($0, b) == 1 { print; print text; skip = 1; next }
    index($0, e) == 1 { skip = 0 }
    !skip
' "$file" > "$tmp"
grep -q "<!-- $marker:end" "$tmp" || { echo "md-splice: no $marker markers in $file" >&2; exit 2; }
mv "$tmp" "$file"
trap - EXIT
