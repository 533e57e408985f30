#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-junit.sh - scripts/run-tests.sh's JUnit XML, on fake tests run at
# once: a cmocka binary whose tests pass, fail and skip, one that dies
# inside a test, and a check script that fails.  The XML must be well-formed (xmllint), each
# suite named after its binary, and each verdict, failure text and count
# right; run-tests must exit with the number of failed binaries.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "check-junit: $*"; bad=1; }

# A fake cmocka binary: its stdout and stderr as cmocka writes them.
cat > "$tmp/test_mixed" <<'T'
#!/usr/bin/env bash
echo "[==========] Running 3 test(s)."
echo "[ RUN      ] test_good"
echo "[       OK ] test_good"
echo "[ RUN      ] test_bad"
echo "[  ERROR   ] --- 0x1 != 0x2 & <x>" >&2
echo "[   LINE   ] --- tests/unit/test_mixed.c:42: error: Failure!" >&2
echo "[  FAILED  ] test_bad"
echo "[ RUN      ] test_later"
echo "[  SKIPPED ] test_later"
echo "[==========] 3 test(s) run."
echo "[  FAILED  ] 1 test(s), listed below:"
echo "[  FAILED  ] test_bad"
exit 1
T
cat > "$tmp/test_crash" <<'T'
#!/usr/bin/env bash
echo "[ RUN      ] test_ok"
echo "[       OK ] test_ok"
echo "[ RUN      ] test_dies"
echo "about to crash"
kill -SEGV $$
T
cat > "$tmp/check-fails.sh" <<'T'
#!/usr/bin/env bash
echo "stale: docs/x.md"
exit 1
T
chmod +x "$tmp"/test_mixed "$tmp"/test_crash "$tmp"/check-fails.sh

JUNIT_DIR="$tmp/junit" RUN_TESTS_JOBS=3 bash "$(dirname "$0")/run-tests.sh" "$tmp/test_mixed" \
    "$tmp/test_crash" "$tmp/check-fails.sh" > "$tmp/out" 2>&1
st=$?
[ "$st" -eq 3 ] || fail "run-tests exited $st, expected 3 (three failed)"
# The three ran at once: each one's output whole, under its own name.
grep -A1 '^=== check-fails$' "$tmp/out" | grep -q '^stale: docs/x.md$' ||
    fail "check-fails' output not under its name"
grep -A2 '^=== test_crash$' "$tmp/out" | grep -q '^\[       OK \] test_ok$' ||
    fail "test_crash's output not under its name"
grep -q '^\[  ERROR   \] --- 0x1 != 0x2' "$tmp/out" || fail "the tests' output did not pass through"
grep -q "JUnit XML: $tmp/junit/" "$tmp/out" || fail "run-tests did not print the XML's path"
for f in test_mixed test_crash check-fails; do
    x="$tmp/junit/$f.xml"
    [ -f "$x" ] || { fail "no $f.xml"; continue; }
    xmllint --noout "$x" 2>"$tmp/lint" || fail "$f.xml is not well-formed: $(cat "$tmp/lint")"
    grep -q "<testsuite name=\"nictx.$f\"" "$x" || fail "$f.xml: suite not named nictx.$f"
done
x="$tmp/junit/test_mixed.xml"
grep -q 'tests="3" failures="1" errors="0" skipped="1"' "$x" || fail "test_mixed.xml: counts"
grep -q '<testcase classname="nictx.test_mixed" name="test_good" time="[0-9.]*"/>' "$x" ||
    fail "test_mixed.xml: test_good not a passing case"
grep -q '0x1 != 0x2 &amp; &lt;x&gt;' "$x" || fail "test_mixed.xml: test_bad's text missing or unescaped"
grep -A1 'name="test_later"' "$x" | grep -q '<skipped/>' || fail "test_mixed.xml: test_later not skipped"
x="$tmp/junit/test_crash.xml"
grep -q 'tests="2" failures="0" errors="1"' "$x" || fail "test_crash.xml: counts"
grep -q 'exited with status 139 during this test' "$x" || fail "test_crash.xml: the crash not named"
grep -q 'about to crash' "$x" || fail "test_crash.xml: the test's output missing"
x="$tmp/junit/check-fails.xml"
grep -q 'tests="1" failures="1"' "$x" || fail "check-fails.xml: counts"
grep -q 'stale: docs/x.md' "$x" || fail "check-fails.xml: output missing"
[ "$bad" -eq 0 ] && echo "check-junit: run-tests' JUnit XML is well-formed and exact on 3 fake tests"
exit "$bad"
