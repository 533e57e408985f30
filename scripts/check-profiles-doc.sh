#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-profiles-doc.sh [--write] - the settings table of docs/profiles.md,
# between its "settings:begin" and "settings:end" markers, is the output of
# `nictx run --list-keys --markdown` (the table of sim/run/settings.c).
#   check-profiles-doc.sh          compare (part of `make test`)
#   check-profiles-doc.sh --write  write it there (`make profiles-doc`);
#                                  to a temporary file, then renamed
# NICTX names the binary (default build/nictx).  Run from anywhere.
# Exit status: 0 when written or current, 1 when stale, 2 on an error.
set -u
cd "$(dirname "$0")/.." || exit 2
nictx=${NICTX:-build/nictx}
doc=docs/profiles.md
tmp="$doc.tmp.$$"
trap 'rm -f "$tmp" "$tmp.table"' EXIT
"$nictx" run --list-keys --markdown >"$tmp.table" || { echo "check-profiles-doc: $nictx failed" >&2; exit 2; }
awk -v table="$tmp.table" '
    /<!-- settings:begin/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
    /<!-- settings:end/   { skip = 0; seen = 1 }
    !skip
    END { if (!seen) exit 2 }
' "$doc" >"$tmp" || { echo "check-profiles-doc: no settings:begin/end markers in $doc" >&2; exit 2; }
if [ "${1:-}" = --write ]; then
    mv "$tmp" "$doc"
    exit 0
fi
if cmp -s "$doc" "$tmp"; then
    echo "check-profiles-doc: the settings table of $doc is current"
    exit 0
fi
echo "check-profiles-doc: the settings table of $doc is stale; run \`make profiles-doc\`:"
diff "$doc" "$tmp" | head -n 20
exit 1
