#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""coverage-summary.py - the RTL's part of make coverage's summary
(scripts/coverage.sh, docs/coverage.md).

    nictx cover --list | python3 scripts/coverage-summary.py RTL.dat

RTL.dat: verilator_coverage's merged database.  Prints the RTL's line
(Verilator's line and branch points), toggle and functional cover point
coverage, and the cover points never hit.  The cover points are checked
against the list on stdin (lib/cover.h, through nictx cover --list): each
`dev` point of the list must be a `cover property` of that name in the
RTL, and each RTL cover point must be on the list.  Exit status: 0; 1 when
the two disagree; 2 on bad usage.
"""
import sys


def points(path):
    """(kind, name, count) of each point of a verilator_coverage file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.startswith("C '"):
                continue
            body, _, count = line.rstrip("\n").rpartition("' ")
            fields = {}
            for pair in body[3:].split("\001")[1:]:
                key, _, val = pair.partition("\002")
                fields[key] = val
            page = fields.get("page", "")
            kind = page.split("/")[0]
            yield kind, fields.get("o", ""), int(count)


def pct(hit, total):
    return f"{100.0 * hit / total:.1f}% ({hit} of {total})" if total else "no points"


def main():
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    listed = {}
    for line in sys.stdin:
        name, n, where, _what = line.rstrip("\n").split("\t")
        if where == "dev":
            listed[name] = int(n)
    tally = {"line": [0, 0], "toggle": [0, 0]}
    user = {}
    for kind, name, count in points(sys.argv[1]):
        if kind in ("v_line", "v_branch"):
            t = tally["line"]
        elif kind == "v_toggle":
            t = tally["toggle"]
        elif kind == "v_user":
            user[name] = user.get(name, 0) + count
            continue
        else:
            continue
        t[0] += count > 0
        t[1] += 1
    print("RTL lines (line and branch points):", pct(*tally["line"]))
    print("RTL toggles:", pct(*tally["toggle"]))
    hit = sorted(n for n in listed if user.get(n, 0) > 0)
    print(f"RTL cover points: {len(hit)} of {len(listed)} hit"
          " (a per-queue point counts once: Verilator folds a generate loop's points)")
    never = [n for n in listed if user.get(n, 0) == 0]
    if never:
        print("RTL cover points never hit:", " ".join(never))
    bad = 0
    for n in sorted(set(listed) - set(user)):
        print(f"coverage-summary: the list's point {n} has no cover property in the RTL", file=sys.stderr)
        bad = 1
    for n in sorted(set(user) - set(listed)):
        print(f"coverage-summary: the RTL's cover property {n} is not on the list (sim/lib/cover.h)",
              file=sys.stderr)
        bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
