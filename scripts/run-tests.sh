#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-tests.sh BIN... - run each test binary, show its output, summarise.
# Exit status: the number of failed binaries (0 when all pass).
set -u
pass=0; fail=0; failed=()
for t in "$@"; do
    echo "=== $(basename "$t")"
    if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$(basename "$t")"); fi
done
echo
echo "test binaries: ${pass} passed, ${fail} failed${failed:+ (${failed[*]})}"
exit "$fail"
