#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# coverage.sh - make coverage (docs/coverage.md): RTL and C coverage of the
# tests and of a randomized regression.
#
#   bash scripts/coverage.sh [--build DIR] [--seeds N] [--tests "NAME ..."]
#
# 1. Builds DIR/nictx and the tests named (tests/*/test_NAME) with COV=1
#    (Makefile): the RTL Verilated with --coverage (line, toggle, and the
#    functional cover points, +define+NICTX_COVER) and the C code with gcov.
#    WAVES=0: the trace-enabled models are left out (half the build);
#    VOPT_FAST=-O1: the models compiled in a third of -O3's time.
# 2. Runs the tests (scripts/run-tests.sh), then `make regress`'s script
#    for N seeds (from seed 1) into DIR/regress; every device writes its
#    counts into DIR/coverage/vcov (NICTX_VCOV_DIR), gcov its .gcda files.
# 3. Merges the RTL's counts (verilator_coverage), writes lcov info for the
#    RTL and the C code, an HTML report (genhtml) and the summary:
#    DIR/coverage/summary.txt, printed at the end.
# lcov (genhtml) is a Debian package: installed here with apt-get when it
# is missing, and nowhere else.
# Exit status: 0; 1 when a test or a seed failed (the report is still
# written); 2 when the build failed or lcov is missing and cannot be
# installed.
set -u
cd "$(dirname "$0")/.." || exit 2
build=build-cov seeds=20 tests=""
while [ $# -gt 0 ]; do
    case $1 in
        --build) build=${2-} ;;
        --seeds) seeds=${2-} ;;
        --tests) tests=${2-} ;;
        -h|--help) sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "coverage: unknown argument '$1' (see $0 --help)" >&2; exit 2 ;;
    esac
    [ $# -ge 2 ] || { echo "coverage: $1 needs a value" >&2; exit 2; }
    shift 2
done
case $seeds in ''|*[!0-9]*) echo "coverage: --seeds '$seeds': expected a decimal integer" >&2; exit 2 ;; esac

# lcov, on demand (as scripts/observe-pictures.sh installs its tools).
if ! command -v lcov > /dev/null || ! command -v genhtml > /dev/null; then
    echo "coverage: installing lcov (Debian package: lcov, genhtml)" >&2
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
    export DEBIAN_FRONTEND=noninteractive
    { "${sudo[@]}" apt-get update -qq && "${sudo[@]}" apt-get install -y -qq --no-install-recommends lcov; } \
        > /dev/null 2>&1
    if ! command -v genhtml > /dev/null; then
        echo "coverage: lcov is missing and could not be installed: apt-get install lcov (as root)," \
             "then make coverage again" >&2
        exit 2
    fi
fi

bins=()
for t in $tests; do bins+=("$build/tests/test_$t"); done
t0=$EPOCHREALTIME
echo "coverage: building $build/nictx and ${#bins[@]} tests with COV=1 (first time: several minutes)"
mkdir -p "$build" || exit 2
make -s -j2 COV=1 WAVES=0 VOPT_FAST=-O1 BUILD="$build" "$build/nictx" "${bins[@]}" > "$build/make.log" 2>&1 || {
    echo "coverage: the build failed; its output: $build/make.log" >&2
    exit 2
}
out=$build/coverage
rm -rf "$out"
mkdir -p "$out/vcov"
find "$build/obj" -name '*.gcda' -delete
export NICTX_VCOV_DIR=$PWD/$out/vcov
status=0

if [ ${#bins[@]} -gt 0 ]; then
    echo "coverage: the tests (${#bins[@]} binaries)"
    NICTX="$build/nictx" JUNIT_DIR="$out/junit" bash scripts/run-tests.sh "${bins[@]}" \
        > "$out/tests.log" 2>&1 || { status=1; echo "coverage: a test failed: $out/tests.log" >&2; }
    tail -n 1 "$out/tests.log"
fi
if [ "$seeds" -gt 0 ]; then
    bash scripts/regress.sh --bin "$build/nictx" --seeds "$seeds" --seed0 1 --out "$build/regress" \
        > "$out/regress.log" 2>&1 || status=1
    grep -m1 '^regress: .* passed' "$out/regress.log"
fi

# The RTL: the devices' files merged; lcov info for the HTML report.
shopt -s nullglob
dats=("$out"/vcov/*.dat)
if [ ${#dats[@]} -eq 0 ]; then
    echo "coverage: no device wrote RTL coverage (nothing ran the Verilated RTL?)" >&2
    exit 2
fi
verilator_coverage --write "$out/rtl.dat" "${dats[@]}" > /dev/null
verilator_coverage --write-info "$out/rtl.info" "$out/rtl.dat" > /dev/null
rm -rf "$out/vcov"

# The C code: gcov's counts, of sim/, c-model/ and driver/ only.
lcov -q --capture --directory "$build/obj" --base-directory . --output-file "$out/c-all.info" \
    > "$out/lcov.log" 2>&1
lcov -q --extract "$out/c-all.info" "$PWD/sim/*" "$PWD/c-model/*" "$PWD/driver/*" \
    --output-file "$out/c.info" >> "$out/lcov.log" 2>&1
c_line=$(lcov --summary "$out/c.info" 2>&1 | sed -n 's/^ *lines\.*: *//p')
genhtml -q --output-directory "$out/html" --title "nictx coverage" "$out/rtl.info" "$out/c.info" \
    >> "$out/lcov.log" 2>&1 || echo "coverage: genhtml failed: $out/lcov.log" >&2

# The summary: the RTL's line (and branch), toggle and cover points; the
# C model's cover points over the regression; the C code's lines.
wall=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
{
    echo "coverage: $build, ${#bins[@]} test binaries and $seeds seeds in ${wall}s"
    "$build/nictx" cover --list | python3 scripts/coverage-summary.py "$out/rtl.dat"
    echo "C code (sim/, c-model/, driver/) lines: ${c_line:-unknown (see $out/lcov.log)}"
    if [ -f "$build/regress/cover.txt" ]; then
        echo "The C model's cover points over the regression (nictx cover):"
        cat "$build/regress/cover.txt"
    fi
    echo "HTML report: $out/html/index.html"
} > "$out/summary.tmp" && mv "$out/summary.tmp" "$out/summary.txt"
cat "$out/summary.txt"
exit "$status"
