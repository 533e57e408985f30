#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# doc-check.sh [FILE.md...] - the docs' examples are tested (make doc-check;
# docs/testing.md, "Doc examples", states the rules).
#
# 1. Every path a page names exists: markdown links and images resolve
#    (and their #anchors, in pages of the repository), and every path of the
#    repository's folders a page names (rtl/..., sim/..., docs/..., and so
#    on) is a file or folder of the checkout.  No page refers to a design
#    file the repository does not hold (DESIGN.md, ../shared).
# 2. Every fenced block marked runnable runs as shown:
#      ```sh doc-check [fast] [exit=N]     a bash script: must exit N (0)
#      ```console doc-check [fast]         a transcript: "$ " lines are
#                                          commands, the lines after one
#                                          what it prints
#      ```LANG doc-check-file=PATH         not run: its text is written to PATH
#                                          (in the scratch directory) for the
#                                          blocks after it
#    and what it prints (stdout and stderr) is compared with what the page
#    shows: for a sh block, the ```text doc-check-output [any=REGEX]
#    [tol=PCT] block right after it, if there is one.  The comparison: text
#    exact but for runs of blanks; integers exact; decimal numbers within
#    tol (2 by default) percent or one unit of their last digit; on a line
#    where any=REGEX (an awk regular expression) matches, the rest of the
#    line from the match on is not compared (wall-clock figures); a line
#    "..." stands for any number of lines.
#
# The blocks of a page run in order, in one scratch directory per page that
# sees the checkout's top-level files and folders (symbolic links; build is
# DOC_CHECK_BUILD, default build), so a command's relative paths work as
# shown and what it writes stays in the scratch directory unless it names
# the checkout's folders.  DOC_CHECK=fast runs only the blocks marked fast
# (make test); DOC_CHECK=full (make doc-check), every block; the path check
# runs either way.  DOC_CHECK_KEEP=1 keeps the scratch directories.
# Exit status 1 when any check fails.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
mode=${DOC_CHECK:-full}
case "$mode" in fast|full) ;; *) echo "doc-check: DOC_CHECK is fast or full, not '$mode'" >&2; exit 2 ;; esac
build=${DOC_CHECK_BUILD:-build}
if [ $# -gt 0 ]; then files=("$@"); else files=(README.md docs/*.md); fi
tmp=$(mktemp -d)
[ "${DOC_CHECK_KEEP:-}" = 1 ] || trap 'rm -rf "$tmp"' EXIT
export NICTX_PROGRESS=0 SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fail=0

# ---------------------------------------------------------------- paths
# anchors FILE: the GitHub anchors of a page's headings and explicit ids.
anchors() {
    awk '
        /^[ \t]*(```|~~~)/ { code = !code; next }
        code { next }
        /^#+[ \t]/ {
            h = $0; sub(/^#+[ \t]+/, "", h); h = tolower(h)
            gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h)
            n[h]++; print (n[h] > 1 ? h "-" (n[h] - 1) : h)
        }
        { s = $0
          while (match(s, /<a id="[^"]+">/)) { print substr(s, RSTART + 7, RLENGTH - 9); s = substr(s, RSTART + RLENGTH) } }
    ' "$1"
}
check_paths() {
    local f=$1 dir out
    dir=$(dirname "$f")
    # "LINE<TAB>KIND<TAB>TARGET" for every link and repository path.
    out=$(awk -v OFS='\t' '
        {
            s = $0
            while (match(s, /\]\([^) ]+\)/)) {
                print NR, "link", substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH)
            }
            s = " " $0
            while (match(s, /[^A-Za-z0-9_.\/<>*{}-](rtl|sim|driver|c-model|sc|tests|scripts|docs|profiles|sweeps|mk|\.ci)\/[A-Za-z0-9_.\/<>*{}-]*/)) {
                p = substr(s, RSTART + 1, RLENGTH - 1); s = substr(s, RSTART + RLENGTH)
                sub(/[.]+$/, "", p)
                # placeholders and patterns are not paths: <kind>, *, {h,c}, NAME, ID
                if (p ~ /[<>*{}]/ || p ~ /[A-Z][A-Z]/ || p ~ /(^|\/|_)[A-Z](\/|\.|_|$)/ || p ~ /wW/) continue
                print NR, "path", p
            }
            if ($0 ~ /DESIGN\.md|\.\.\/shared/) print NR, "design", "DESIGN.md or ../shared"
        }' "$f")
    [ -n "$out" ] || return 0
    local line kind target path anchor
    while IFS=$'\t' read -r line kind target; do
        case "$kind" in
        design)
            echo "doc-check: $f:$line: names a file the repository does not hold ($target)"; fail=1; continue ;;
        path)
            [ -e "$target" ] || { echo "doc-check: $f:$line: no such file or folder: $target"; fail=1; }
            continue ;;
        esac
        case "$target" in http://*|https://*|mailto:*) continue ;; esac
        path=${target%%#*}; anchor=
        [ "$path" != "$target" ] && anchor=${target#*#}
        if [ -z "$path" ]; then path=$f; else path=$dir/$path; fi
        if [ ! -e "$path" ]; then
            echo "doc-check: $f:$line: link to a missing file: $target"; fail=1; continue
        fi
        # grep reads all (not -q): under pipefail, awk killed by SIGPIPE
        # after an early match would fail the pipeline now and then.
        if [ -n "$anchor" ] && [[ "$path" == *.md ]] && ! anchors "$path" | grep -xF "$anchor" >/dev/null; then
            echo "doc-check: $f:$line: no anchor #$anchor in $path"; fail=1
        fi
    done <<< "$out"
}
npaths=0
for f in "${files[@]}"; do
    check_paths "$f"
    npaths=$((npaths + 1))
done
[ "$fail" = 0 ] && echo "doc-check: paths and links of ${npaths} pages resolve"

# ---------------------------------------------------------------- blocks
# extract FILE OUTDIR: each runnable block N of FILE as OUTDIR/N.meta
# ("LINE MODE FAST EXIT"), OUTDIR/N.run (the script, or for a transcript the
# commands with markers between), OUTDIR/N.exp (the output shown, for a
# transcript each command's after a marker line) and OUTDIR/N.opt (any=,
# tol= of its output block).
extract() {
    awk -v out="$2" '
    function opts(info, key,    n, w, i, v) {
        n = split(info, w, /[ \t]+/); v = ""
        for (i = 1; i <= n; i++) if (index(w[i], key "=") == 1) v = substr(w[i], length(key) + 2)
        return v
    }
    function hasword(info, word,    n, w, i) {
        n = split(info, w, /[ \t]+/)
        for (i = 1; i <= n; i++) if (w[i] == word) return 1
        return 0
    }
    !inblock && /^[ \t]*(```|~~~)/ {
        # a fence, perhaps indented (a block inside a list item): its
        # indentation is taken off the lines of the block
        ind = $0; sub(/[`~].*$/, "", ind); ind = length(ind)
        line0 = substr($0, ind + 1)
        fence = substr(line0, 1, 3); info = substr(line0, 4); inblock = 1; start = NR
        lang = info; sub(/[ \t].*/, "", lang)
        kind = ""
        if (hasword(info, "doc-check")) {
            n++; kind = (lang == "console") ? "console" : "sh"
            fast = hasword(info, "fast"); ex = opts(info, "exit"); if (ex == "") ex = 0
            print start + 1, kind, fast, ex > (out "/" n ".meta")
            printf "" > (out "/" n ".run"); printf "" > (out "/" n ".exp")
            print "any", opts(info, "any") > (out "/" n ".opt")
            print "tol", opts(info, "tol") > (out "/" n ".opt")
            cmdn = 0; cont = 0
            last = n; lastend = -1
        } else if (opts(info, "doc-check-file") != "") {
            n++; kind = "file"
            print start + 1, "file", 1, 0 > (out "/" n ".meta")
            print opts(info, "doc-check-file") > (out "/" n ".opt")
            printf "" > (out "/" n ".run")
        } else if (hasword(info, "doc-check-output")) {
            kind = "output"
            if (last == 0 || prevkind != "sh" || gapok == 0) {
                print "doc-check: " FILENAME ":" NR ": a doc-check-output block must follow a sh doc-check block" > "/dev/stderr"
                bad = 1
            } else {
                print "any", opts(info, "any") > (out "/" last ".opt")
                print "tol", opts(info, "tol") > (out "/" last ".opt")
            }
        }
        next
    }
    inblock && $0 ~ /^[ \t]*(```|~~~)[ \t]*$/ && index(substr($0, match($0, /[`~]/)), fence) == 1 {
        inblock = 0; prevkind = kind; gapok = 1; next
    }
    inblock {
        for (k = 0; k < ind && substr($0, 1, 1) ~ /[ \t]/; k++) $0 = substr($0, 2)
        if (kind == "sh" || kind == "file") print > (out "/" n ".run")
        else if (kind == "output") print > (out "/" last ".exp")
        else if (kind == "console") {
            if (cont) { print > (out "/" n ".run"); cont = ($0 ~ /\\$/); next }
            if (substr($0, 1, 2) == "$ ") {
                cmdn++
                if (cmdn > 1) print "__dc_rc=$?; printf \"\\001DC %d\\n\" " cmdn "; (exit $__dc_rc)" > (out "/" n ".run")
                else print "printf \"\\001DC %d\\n\" 1" > (out "/" n ".run")
                print "\001DC " cmdn > (out "/" n ".exp")
                print substr($0, 3) > (out "/" n ".run")
                cont = ($0 ~ /\\$/)
            } else print > (out "/" n ".exp")
        }
        next
    }
    # between blocks: blank lines keep an output block attached to its command
    !/^[ \t]*$/ { gapok = 0 }
    END { exit bad }
    ' "$1"
}

# compare EXP ACT ANY TOL WHERE: EXP against ACT line by line (the rules
# above); prints the first difference and returns 1.
compare() {
    awk -v any="$3" -v tol="${4:-2}" -v where="$5" '
    function norm(s) { gsub(/[ \t]+/, " ", s); sub(/ $/, "", s); return s }
    # tokens(s, t): numbers and the text between them; returns the count
    function tokens(s, t,    n) {
        n = 0
        while (match(s, /[0-9]+(\.[0-9]+)?/)) {
            if (RSTART > 1) t[++n] = "T" substr(s, 1, RSTART - 1)
            t[++n] = "N" substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
        }
        if (s != "") t[++n] = "T" s
        return n
    }
    function unit(x,    d) { d = index(x, "."); return d ? 10 ^ -(length(x) - d) : 1 }
    function same(e, a, loose,    ne, na, te, ta, i, x, y, diff, lim) {
        e = norm(e); a = norm(a)
        # on an any= line, what follows the match is not compared
        if (loose) {
            if (match(e, any)) e = substr(e, 1, RSTART - 1)
            if (match(a, any)) a = substr(a, 1, RSTART - 1)
        }
        if (e == a) return 1
        delete te; delete ta
        ne = tokens(e, te); na = tokens(a, ta)
        if (ne != na) return 0
        for (i = 1; i <= ne; i++) {
            if (substr(te[i], 1, 1) != substr(ta[i], 1, 1)) return 0
            if (substr(te[i], 1, 1) == "T") { if (te[i] != ta[i]) return 0; continue }
            x = substr(te[i], 2); y = substr(ta[i], 2)
            if (index(x, ".") == 0) { if (x != y) return 0; continue }
            if (index(y, ".") == 0) return 0
            diff = x - y; if (diff < 0) diff = -diff
            lim = tol / 100 * (x < 0 ? -x : x); if (lim < unit(x)) lim = unit(x)
            if (diff > lim + 1e-12) return 0
        }
        return 1
    }
    FNR == NR { E[++ne] = $0; next }
    { A[++na] = $0 }
    END {
        while (ne > 0 && E[ne] ~ /^[ \t]*$/) ne--
        while (na > 0 && A[na] ~ /^[ \t]*$/) na--
        j = 1
        for (i = 1; i <= ne; i++) {
            if (E[i] ~ /^[ \t]*\.\.\.[ \t]*$/) {
                if (i == ne) { j = na + 1; break }
                loose = (any != "" && E[i + 1] ~ any)
                while (j <= na && !same(E[i + 1], A[j], loose)) j++
                if (j > na) { printf "%s: expected a line like:\n    %s\nnot found in the output\n", where, E[i + 1]; exit 1 }
                continue
            }
            if (j > na) { printf "%s: the output ends before:\n    %s\n", where, E[i]; exit 1 }
            loose = (any != "" && E[i] ~ any)
            if (!same(E[i], A[j], loose)) {
                printf "%s: output line %d differs:\n    shown:   %s\n    printed: %s\n", where, j, E[i], A[j]; exit 1
            }
            j++
        }
        if (j <= na) { printf "%s: more output than shown, from line %d:\n    %s\n", where, j, A[j]; exit 1 }
    }' "$1" "$2"
}

# A scratch directory that sees the checkout.
scratch() {
    local d e
    d=$(mktemp -d "$tmp/run.XXXXXX")
    for e in "$repo"/* "$repo"/.ci; do
        [ -e "$e" ] || continue
        case "$(basename "$e")" in build|build-*) continue ;; esac
        ln -s "$e" "$d/$(basename "$e")"
    done
    ln -s "$repo/$build" "$d/build"
    echo "$d"
}

ran=0; passed=0; skipped=0
for f in "${files[@]}"; do
    bdir="$tmp/blocks/$(echo "$f" | tr / _)"
    mkdir -p "$bdir"
    extract "$f" "$bdir" || { fail=1; continue; }
    ls "$bdir"/*.meta >/dev/null 2>&1 || continue
    work=
    for meta in $(ls "$bdir"/*.meta | sort -V); do
        n=$(basename "$meta" .meta)
        read -r line kind fast want < "$meta"
        if [ "$mode" = fast ] && [ "$fast" != 1 ]; then skipped=$((skipped + 1)); continue; fi
        [ -n "$work" ] || work=$(scratch)
        if [ "$kind" = file ]; then
            # a file the page shows, written where the next blocks find it
            name=$(cat "$bdir/$n.opt")
            case "$name" in /*|*..*) echo "doc-check: $f:$line: doc-check-file must be a relative path"; fail=1; continue ;; esac
            mkdir -p "$work/$(dirname "$name")" && cp "$bdir/$n.run" "$work/$name"
            continue
        fi
        any=$(awk '$1 == "any" { v = $0; sub(/^any ?/, "", v) } END { print v }' "$bdir/$n.opt")
        tol=$(awk '$1 == "tol" { v = $2 } END { print v }' "$bdir/$n.opt")
        where="$f:$line"
        ran=$((ran + 1))
        t0=$(date +%s)
        if [ "$kind" = sh ]; then
            (cd "$work" && timeout 1800 stdbuf -oL -eL bash -e -o pipefail "$bdir/$n.run") > "$bdir/$n.act" 2>&1
        else
            (cd "$work" && timeout 1800 stdbuf -oL -eL bash "$bdir/$n.run") > "$bdir/$n.act" 2>&1
        fi
        rc=$?
        t1=$(date +%s)
        ok=1
        if [ "$kind" = sh ] && [ "$rc" != "$want" ]; then
            echo "doc-check: $where: exit status $rc, not $want; its output:"; sed 's/^/    /' "$bdir/$n.act" | tail -20
            ok=0
        elif [ "$kind" = sh ]; then
            if [ "$(wc -l < "$bdir/$n.opt")" -gt 2 ]; then
                compare "$bdir/$n.exp" "$bdir/$n.act" "$any" "$tol" "doc-check: $where" || ok=0
            fi
        else
            # a transcript: each command's output against what follows it
            k=0
            while [ $k -lt "$(grep -c $'^\001DC ' "$bdir/$n.exp")" ]; do
                k=$((k + 1))
                awk -v k="$k" '$0 == "\001DC " k { on = 1; next } /^\001DC / { on = 0 } on' "$bdir/$n.exp" > "$bdir/$n.e$k"
                awk -v k="$k" '$0 == "\001DC " k { on = 1; next } /^\001DC / { on = 0 } on' "$bdir/$n.act" > "$bdir/$n.a$k"
                compare "$bdir/$n.e$k" "$bdir/$n.a$k" "$any" "$tol" "doc-check: $where, command $k" || { ok=0; break; }
            done
        fi
        if [ "$ok" = 1 ]; then
            passed=$((passed + 1)); echo "doc-check: $where ok ($((t1 - t0)) s)"
        else
            fail=1
        fi
    done
done
msg="doc-check ($mode): $passed of $ran blocks pass"
[ "$skipped" -gt 0 ] && msg="$msg ($skipped more not marked fast: make doc-check runs them)"
echo "$msg"
exit "$fail"
