#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# lockstep-engine.sh - the engine's directed tests (tests/engine/test_engine.c,
# test_reset, test_completions, test_limits, test_queues) once more, on the C model
# in lockstep with the RTL (NICTX_DEVICE=lockstep; docs/c-model.md): every
# output of the two compared on every clock of every test.  The binaries
# are $NICTX's build's (make test sets NICTX=$(BUILD)/nictx).
set -u
dir="$(dirname "${NICTX:-build/nictx}")/tests"
fail=0
for t in engine reset completions limits queues; do
    if ! NICTX_DEVICE=lockstep "$dir/test_$t" > "${TMPDIR:-/tmp}/lockstep-$t.$$" 2>&1; then
        echo "lockstep-engine: test_$t failed on the C model in lockstep with the RTL:"
        grep -E "lockstep:|ERROR|FAILED" -A2 "${TMPDIR:-/tmp}/lockstep-$t.$$" | head -20
        fail=1
    else
        echo "lockstep-engine: test_$t: $(grep -E "PASSED" "${TMPDIR:-/tmp}/lockstep-$t.$$")"
    fi
    rm -f "${TMPDIR:-/tmp}/lockstep-$t.$$"
done
exit "$fail"
