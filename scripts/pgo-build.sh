#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# pgo-build.sh DIR - the fast nictx of `make fast`, in DIR: the engine without
# its assertions (RTL_ASSERT=0; with them when FAST_ASSERT=1, for `make
# fast-assert`), every object (harness, driver, C model,
# Verilated models, Verilator runtime) compiled at -O3 with GCC's profile
# feedback and link-time optimization (the Makefile's PGO_gen and PGO_use).
#   1. DIR/nictx built instrumented (PGO=gen);
#   2. it runs scripts/pgo-train.txt, one run a line; the counts go to DIR/pgo;
#   3. every object rebuilt from them (PGO=use) and DIR/nictx linked again.
# The runs' results do not depend on the build: `make test` compares the fast
# binary's with the normal one's (scripts/check-fast.sh).  Why it is faster:
# docs/architecture.md, Simulation speed.
set -euo pipefail
dir=${1:?usage: pgo-build.sh DIR}
assert=${FAST_ASSERT:-0}
case "$assert" in 0|1) ;; *) echo "pgo-build.sh: FAST_ASSERT must be 0 or 1, not '$assert'" >&2; exit 2 ;; esac
make=${MAKE:-make}
train=scripts/pgo-train.txt
stage() { # stage gen|use: build DIR/nictx with these flags, from no objects
    rm -rf "$dir/obj" "$dir/vrt" "$dir/nictx"
    "$make" --no-print-directory BUILD="$dir" RTL_ASSERT="$assert" SAN= OPT=-O3 PGO="$1" WAVES=0 \
        "$dir/nictx"
}
stage gen
rm -rf "$dir/pgo"
n=0
while read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    # shellcheck disable=SC2086  # a line is a list of options
    if ! "$dir/nictx" run --quiet $line >/dev/null; then
        echo "pgo-build.sh: training run failed: nictx run $line" >&2
        exit 1
    fi
    n=$((n + 1))
done <"$train"
echo "pgo-build.sh: $n training runs; profiles in $dir/pgo"
stage use
