#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""timeline-png.py TRACE.json OUT.png [TITLE] - draw a nictx timeline
(Chrome trace-event JSON, `nictx run --timeline`) as a PNG with gnuplot:
a row per track (CPUs, link directions, engine lanes, wire), each slice a
box coloured by its name, instants as ticks, the packets' flow arrows as
lines from publication to the wire.  For docs/observability.md's picture
(scripts/observe-pictures.sh); Perfetto (ui.perfetto.dev) is the viewer
for real work, and needs a browser and the network, which this does not.
"""
import json
import subprocess
import sys
import zlib

PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
           "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#8c564b"]
PROCS = {1: "host", 2: "pcie", 3: "engine", 4: "checks"}


def colour(name):
    return PALETTE[zlib.crc32(name.encode()) % len(PALETTE)]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    title = sys.argv[3] if len(sys.argv) > 3 else src
    events = json.load(open(src))["traceEvents"]
    names = {}
    for e in events:
        if e["ph"] == "M" and e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = "%s %s" % (PROCS.get(e["pid"], ""), e["args"]["name"])
    body = [e for e in events if e["ph"] in "Xistf"]
    if not body:
        sys.exit("timeline-png.py: %s: no events" % src)
    # A slice inside another (a barrier's drain wait) goes one row down:
    # its depth on its track.
    depth = {}
    for t in {(e["pid"], e["tid"]) for e in body}:
        ends = []
        for e in sorted((e for e in body if e["ph"] == "X" and (e["pid"], e["tid"]) == t),
                        key=lambda e: (e["ts"], -e.get("dur", 0))):
            while ends and ends[-1] <= e["ts"] and not (ends[-1] == e["ts"] and e.get("dur", 0) == 0):
                ends.pop()
            depth[id(e)] = len(ends)
            ends.append(e["ts"] + e.get("dur", 0))
    # Rows: every track (and depth) with a slice or instant, in pid order,
    # then by name (lanes in number order); counters are left out (their
    # values are in the file).
    def order(t):
        name = names.get(t[:2], "")
        kind = next((i for i, k in enumerate(("cpu", "h2d", "d2h", "desc", "payload", "wire",
                                                "completions", "interrupts")) if k in name), 9)
        lane = int(name.rsplit("#", 1)[1]) if "#" in name else 0
        return (t[0], kind, name.split("#")[0], lane, t[2])
    tracks = sorted({(e["pid"], e["tid"], depth.get(id(e), 0)) for e in body if e["ph"] in "Xi"},
                    key=order)
    row = {t: len(tracks) - 1 - i for i, t in enumerate(tracks)}
    for t in list(row):
        row.setdefault(t[:2], row[t])
    if len({t[:2] for t in tracks}) != len(tracks):  # depth rows: name them
        names.update({t: names.get(t[:2], str(t)) + (" +%d" % t[2] if t[2] else "")
                      for t in tracks})
    for t in tracks:
        names.setdefault(t, names.get(t[:2], str(t)))
    t0 = min(e["ts"] for e in body)
    t1 = max(e["ts"] + e.get("dur", 0) for e in body)
    us = lambda ts: (ts - t0) * 1000.0  # ns from the window's start
    cmds = [
        "set terminal pngcairo size 1800,%d font 'DejaVu Sans,10'" % (140 + 26 * len(tracks)),
        "set output '%s'" % out,
        "set title \"%s\"" % title.replace('"', "'"),
        "set xlabel 'ns from %.3f us (simulated)'" % t0,
        "set xrange [0:%f]" % (us(t1) * 1.01 + 1),
        "set yrange [-0.8:%f]" % (len(tracks) - 0.2),
        "set ytics (%s)" % ", ".join('"%s" %d' % (names[t], row[t]) for t in tracks),
        "set grid xtics",
        "unset key",
    ]
    n = 0
    for e in body:
        t = (e["pid"], e["tid"], depth.get(id(e), 0))
        if e["ph"] == "X" and t in row:
            n += 1
            x0, x1, y = us(e["ts"]), us(e["ts"] + e.get("dur", 0)), row[t]
            if x1 - x0 < 0.3:
                x1 = x0 + 0.3
            cmds.append("set object %d rect from %f,%f to %f,%f fc rgb '%s' fs solid 0.85 border "
                        "lc rgb '#333333'" % (n, x0, y - 0.38, x1, y + 0.38, colour(e["name"])))
            if x1 - x0 > 0.012 * us(t1):
                cmds.append("set label \"%s\" at %f,%f center front font ',8'" %
                            (e["name"], (x0 + x1) / 2, y))
        elif e["ph"] == "i" and t in row:
            x, y = us(e["ts"]), row[t]
            cmds.append("set arrow from %f,%f to %f,%f nohead lc rgb '%s' lw 2" %
                        (x, y - 0.45, x, y + 0.45, "#d62728" if "violation" in e["name"]
                         else colour(e["name"])))
            if e["name"].startswith(("doorbell", "violation", "run stopped")):
                cmds.append("set label \"%s\" at %f,%f left front font ',8' tc rgb '#d62728'" %
                            (e["name"], x + 0.5, y + 0.42))
    flows = {}
    for e in body:
        if e["ph"] in "stf" and (e["pid"], e["tid"]) in row:
            flows.setdefault(e["id"], []).append((e["ts"], row[(e["pid"], e["tid"])]))
    rows_of = {}
    for steps in flows.values():
        steps.sort()
        for (a, ya), (b, yb) in zip(steps, steps[1:]):
            cmds.append("set arrow from %f,%f to %f,%f lc rgb '#222222' lw 0.8 front" %
                        (us(a), ya, us(b), yb))
    cmds.append("plot -1 notitle")
    subprocess.run(["gnuplot"], input="\n".join(cmds) + "\n", text=True, check=True)


if __name__ == "__main__":
    main()
