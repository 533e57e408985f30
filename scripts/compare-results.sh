#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# compare-results.sh [--tol PCT] BASE.csv NEW.csv - the figures of two sweep
# tables (nictx sweep's results.csv) compared point by point, not the files
# byte by byte (docs/user-guide.md, "A regression run in CI").
#
# Points are matched by their id (a hash of the point's command, stable
# across runs of one plan).  Every column both tables have is compared:
# numbers equal within PCT percent of BASE's value (0 by default: equal as
# numbers), any other field equal as text.  A column only NEW has (a figure
# added to the run's JSON) is named and is not a difference; a column only
# BASE has, a point only one table has, or a field that differs is.  Up to
# 20 differences are printed, then a summary.
# Exit status: 0 when the figures agree, 1 when any differs, 2 bad usage.
set -euo pipefail
tol=0
if [ "${1:-}" = --tol ]; then tol=${2:-}; shift 2 || true; fi
if [ $# -ne 2 ] || ! [[ "$tol" =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
    echo "usage: compare-results.sh [--tol PCT] BASE.csv NEW.csv" >&2
    exit 2
fi
for f in "$1" "$2"; do [ -r "$f" ] || { echo "compare-results: cannot read $f" >&2; exit 2; }; done

awk -v tol="$tol" -v base="$1" -v new="$2" '
# split_csv(line, f): the RFC 4180 fields of a record into f[1..n]
function split_csv(s, f,    n, i, c, q, cur) {
    n = 0; cur = ""; q = 0
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (q) {
            if (c == "\"") { if (substr(s, i + 1, 1) == "\"") { cur = cur "\""; i++ } else q = 0 }
            else cur = cur c
        } else if (c == "\"") q = 1
        else if (c == ",") { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    f[++n] = cur
    return n
}
function isnum(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
function differ(a, b,    d, m) {
    if (a == b) return 0
    if (!isnum(a) || !isnum(b)) return 1
    d = a - b; if (d < 0) d = -d
    m = a < 0 ? -a : a
    return d > tol / 100 * m
}
FNR == 1 { fileno++; pending = "" }
# A record may span lines while a quoted field is open.
{
    rec = (pending == "") ? $0 : pending "\n" $0
    nq = gsub(/"/, "\"", rec)
    if (nq % 2) { pending = rec; next }
    pending = ""
    file = fileno
    n = split_csv(rec, f)
    if (!hdr[file]) {
        hdr[file] = 1; ncol[file] = n
        for (i = 1; i <= n; i++) { col[file, i] = f[i]; idx[file, f[i]] = i }
        if (!((file, "id") in idx)) { print "compare-results: " FILENAME ": no id column" > "/dev/stderr"; bad = 2; exit 2 }
        next
    }
    id = f[idx[file, "id"]]
    rows[file]++; order[file, rows[file]] = id
    pt[file, id] = f[idx[file, "point"]]
    for (i = 1; i <= n; i++) val[file, id, col[file, i]] = f[i]
    has[file, id] = 1
}
END {
    if (bad) exit bad
    shown = 0; ndiff = 0; ncmp = 0; only_new = ""; nonly_new = 0
    for (i = 1; i <= ncol[2]; i++) if (!((1, col[2, i]) in idx)) { only_new = only_new (nonly_new++ ? ", " : "") col[2, i] }
    for (i = 1; i <= ncol[1]; i++) {
        c = col[1, i]
        if (!((2, c) in idx)) { ndiff++; if (shown++ < 20) print "column " c ": in " base " only"; continue }
        if (c != "point" && c != "id") ncmp++
    }
    for (r = 1; r <= rows[1]; r++) {
        id = order[1, r]
        if (!((2, id) in has)) { ndiff++; if (shown++ < 20) print "point " pt[1, id] " (" id "): in " base " only"; continue }
        for (i = 1; i <= ncol[1]; i++) {
            c = col[1, i]
            if (!((2, c) in idx) || c == "point") continue
            a = val[1, id, c]; b = val[2, id, c]
            if (differ(a, b)) { ndiff++; if (shown++ < 20) print "point " pt[1, id] " (" id "): " c " " a " -> " b }
        }
    }
    for (r = 1; r <= rows[2]; r++) {
        id = order[2, r]
        if (!((1, id) in has)) { ndiff++; if (shown++ < 20) print "point " pt[2, id] " (" id "): in " new " only" }
    }
    if (shown > 20) print "... " (shown - 20) " more"
    if (nonly_new) print "columns only in " new " (not compared): " only_new
    printf "compare-results: %d points, %d columns compared", rows[1], ncmp
    if (tol > 0) printf " (numbers within %s%%)", tol
    if (ndiff) { printf ": %d differences\n", ndiff; exit 1 }
    print ": every figure equal"
}' "$1" "$2"
