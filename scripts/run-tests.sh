#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-tests.sh BIN... - run each test binary or check script, show its
# output, summarise, and write JUnit XML.
#
# RUN_TESTS_JOBS BINs run at once (default: the CPUs, nproc).  Each BIN's
# output (stdout and stderr) is shown unchanged, whole, after a line
# "=== NAME", when it ends: in the order they end when several run.  With
# JUNIT_DIR set (make test: $(BUILD)/junit), each BIN also gets
# JUNIT_DIR/<name>.xml: one <testsuite> named nictx.<name> (unique: the
# binaries and scripts have unique names), holding
#  - for a cmocka binary, a <testcase> per test, from cmocka's "[ RUN ]",
#    "[ OK ]", "[ FAILED ]" and "[ SKIPPED ]" lines, the lines between RUN
#    and the verdict as the failure's text, the time between them as its
#    time; a test that started and never finished (the binary crashed or
#    was killed) is an <error> with the exit status;
#  - for anything else (the shell checks), one <testcase> named after it,
#    failed when it exits non-zero, its output as the failure's text.
# The files are written to a temporary name and renamed.  GitLab and
# Jenkins read them as they are.
# Exit status: the number of failed BINs (0 when all pass).
set -u
pass=0; fail=0; failed=()
junit_dir=${JUNIT_DIR:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# XML text: & < > " escaped, and the control characters XML 1.0 forbids
# dropped.
xml_escape() {
    case $1 in
        *[\&\<\>\"]*|*[[:cntrl:]]*) ;;
        *) printf '%s' "$1"; return ;;
    esac
    printf '%s' "$1" | tr -d '\000-\010\013\014\016-\037' |
        sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'
}

# Seconds between two $EPOCHREALTIME stamps, to the millisecond.
elapsed() {
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'
}

# run_one BIN: run it, echo its output, and leave in $tmp/cases one line per
# test case (name TAB verdict TAB seconds TAB the file holding its text) and
# in $tmp/log the whole output.  Returns BIN's exit status.
run_one() {
    local t=$1 n=0 cur="" start="" line now
    : > "$tmp/cases"
    # Line-buffered (stdbuf), so that cmocka's stdout (RUN, OK) and stderr
    # (the failure's text) keep their order; ASan then needs its runtime
    # check relaxed (stdbuf preloads its library before ASan's).
    exec 3< <(ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
                  stdbuf -oL -eL "$t" 2>&1; echo "__nictx_status $?")
    local status=1
    : > "$tmp/log"
    while IFS= read -r line <&3; do
        if [[ $line == "__nictx_status "* ]]; then
            status=${line#__nictx_status }
            break
        fi
        printf '%s\n' "$line"
        printf '%s\n' "$line" >> "$tmp/log"
        now=$EPOCHREALTIME
        case $line in
            "[ RUN      ] "*)
                cur=${line#\[ RUN      \] }; start=$now; n=$((n + 1)); : > "$tmp/text.$n" ;;
            "[       OK ] "*|"[  FAILED  ] "*|"[  SKIPPED ] "*)
                local name=${line#\[*\] } verdict=ok
                [[ $line == "[  FAILED  ]"* ]] && verdict=failure
                [[ $line == "[  SKIPPED ]"* ]] && verdict=skipped
                if [ -n "$cur" ] && [ "$name" = "$cur" ]; then
                    printf '%s\t%s\t%s\t%s\n' "$cur" "$verdict" "$(elapsed "$start" "$now")" \
                        "$tmp/text.$n" >> "$tmp/cases"
                    cur=""
                fi ;;
            *)
                [ -n "$cur" ] && printf '%s\n' "$line" >> "$tmp/text.$n" ;;
        esac
    done
    exec 3<&-
    if [ -n "$cur" ]; then # started, never finished
        printf 'exited with status %s during this test\n' "$status" >> "$tmp/text.$n"
        printf '%s\t%s\t%s\t%s\n' "$cur" error "$(elapsed "$start" "$EPOCHREALTIME")" \
            "$tmp/text.$n" >> "$tmp/cases"
    fi
    return "$status"
}

# write_junit NAME STATUS SECONDS: JUNIT_DIR/NAME.xml from $tmp/cases (a
# whole-BIN case when there is none).
write_junit() {
    local name=$1 status=$2 secs=$3 out="$junit_dir/$1.xml"
    local tests=0 failures=0 errors=0 skipped=0 c v s f
    if [ ! -s "$tmp/cases" ]; then
        local verdict=ok
        [ "$status" -ne 0 ] && verdict=failure
        printf '%s\t%s\t%s\t%s\n' "$name" "$verdict" "$secs" "$tmp/log" > "$tmp/cases"
    elif [ "$status" -ne 0 ] && ! grep -q $'\t\(failure\|error\)\t' "$tmp/cases"; then
        # every test passed, yet the binary failed (a leak check, an exit code)
        printf '%s\t%s\t%s\t%s\n' "$name (exit status)" failure 0 "$tmp/log" >> "$tmp/cases"
    fi
    while IFS=$'\t' read -r c v s f; do
        tests=$((tests + 1))
        case $v in failure) failures=$((failures + 1)) ;; error) errors=$((errors + 1)) ;;
                   skipped) skipped=$((skipped + 1)) ;; esac
    done < "$tmp/cases"
    {
        printf '<?xml version="1.0" encoding="UTF-8"?>\n'
        printf '<testsuites>\n'
        printf '  <testsuite name="nictx.%s" tests="%d" failures="%d" errors="%d" skipped="%d" time="%s">\n' \
            "$(xml_escape "$name")" "$tests" "$failures" "$errors" "$skipped" "$secs"
        while IFS=$'\t' read -r c v s f; do
            printf '    <testcase classname="nictx.%s" name="%s" time="%s"' \
                "$(xml_escape "$name")" "$(xml_escape "$c")" "$s"
            case $v in
                ok) printf '/>\n' ;;
                skipped) printf '><skipped/></testcase>\n' ;;
                failure|error)
                    printf '>\n      <%s message="%s">' "$v" "$v"
                    xml_escape "$(tail -c 65536 "$f")"
                    printf '</%s>\n    </testcase>\n' "$v" ;;
            esac
        done < "$tmp/cases"
        printf '  </testsuite>\n</testsuites>\n'
    } > "$out.tmp.$$" && mv "$out.tmp.$$" "$out"
}

jobs_max=${RUN_TESTS_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs_max in
    ''|*[!0-9]*|0) echo "run-tests: RUN_TESTS_JOBS must be a positive number, not '$jobs_max'" >&2
                   exit 1 ;;
esac
if [ -n "$junit_dir" ]; then
    mkdir -p "$junit_dir" || { echo "run-tests: cannot create $junit_dir" >&2; exit 1; }
fi

# job K BIN: run BIN with its own scratch ($tmp/K), its output in
# $tmp/K/out, its JUnit XML written, and last its exit status in
# $tmp/K/status (written whole, then renamed: its presence says it ended).
job() {
    local k=$1 t=$2 name status t0
    tmp=$tmp/$k
    mkdir -p "$tmp"
    name=$(basename "$t" .sh)
    t0=$EPOCHREALTIME
    if run_one "$t" > "$tmp/out" 2>&1; then status=0; else status=$?; fi
    [ -n "$junit_dir" ] && write_junit "$name" "$status" "$(elapsed "$t0" "$EPOCHREALTIME")"
    echo "$status" > "$tmp/status.tmp" && mv "$tmp/status.tmp" "$tmp/status"
}

bins=("$@")
pids=()
started=0 reported=0
trap 'kill "${pids[@]}" 2>/dev/null; exit 130' INT TERM
while [ "$reported" -lt "${#bins[@]}" ]; do
    while [ "$started" -lt "${#bins[@]}" ] && [ $((started - reported)) -lt "$jobs_max" ]; do
        job "$started" "${bins[$started]}" &
        pids[started]=$!
        started=$((started + 1))
    done
    # Report every job that has ended; wait for one if none has.
    new=0
    for ((k = 0; k < started; k++)); do
        [ -n "${pids[k]:-}" ] && [ -f "$tmp/$k/status" ] || continue
        wait "${pids[k]}" 2>/dev/null
        unset "pids[k]"
        name=$(basename "${bins[k]}" .sh)
        status=$(cat "$tmp/$k/status")
        echo "=== $name"
        cat "$tmp/$k/out"
        if [ "$status" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$name"); fi
        reported=$((reported + 1)) new=1
    done
    [ "$new" -eq 1 ] || wait -n 2>/dev/null || sleep 0.1
done
echo
echo "test binaries: ${pass} passed, ${fail} failed${failed:+ (${failed[*]})}"
[ -n "$junit_dir" ] && echo "JUnit XML: $junit_dir/*.xml (one file per binary and check)"
exit "$fail"
