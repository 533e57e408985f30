#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-layers.sh - sim/'s folders are layers: a file includes headers of
# its own folder and of the folders before it in LAYERS only, so the
# dependency order reads from the tree (README.md, Layout).  The one
# exception: check/'s run-time checkers read the world (run/sim_world.h).
# sweep/ is a tool of its own on lib/ alone.  Part of `make test`.
# Exit status: 0 when every include keeps the order, 1 otherwise.
set -u
cd "$(dirname "$0")/.." || exit 2
LAYERS="lib obs host pcie device check run sweep cli"
rank() { local i=0 l; for l in $LAYERS; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo -1; }
allowed() { # allowed FROM TO
    [ "$1" = sweep ] && { [ "$2" = lib ] || [ "$2" = sweep ]; return; }
    [ "$1" = check ] && [ "$2" = run ] && return 0
    [ "$(rank "$2")" -le "$(rank "$1")" ]
}
bad=0 n=0
for f in sim/*/*.c sim/*/*.h sim/*/*.cpp; do
    from=${f#sim/}; from=${from%%/*}
    if [ "$(rank "$from")" -lt 0 ]; then
        echo "check-layers: $f: folder sim/$from is not a layer (LAYERS in $0)"; bad=1; continue
    fi
    while IFS= read -r to; do
        n=$((n + 1))
        [ "$(rank "$to")" -ge 0 ] || continue   # driver/, c-model/ headers
        allowed "$from" "$to" || { echo "check-layers: $f includes $to/: sim/$from may not"; bad=1; }
    done < <(sed -n 's|^#include "\([a-z_]*\)/.*|\1|p' "$f")
done
[ "$bad" -eq 0 ] && echo "check-layers: $n includes in sim/ keep the layer order ($LAYERS)"
exit "$bad"
