#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# observe-pictures.sh NICTX - the two pictures of docs/observability.md's
# worked example, made anew: a doorbell stalled by weak ordering, as a
# timeline (docs/img/timeline-doorbell.png) and as a waveform
# (docs/img/wave-doorbell.png).  `make observe-pictures` runs it.
#
# The run: weak ordering, and stores to lines the device has read taking
# 150 ns to become visible, so the wmb() before each doorbell waits for
# the descriptors; the window from the driver posting packet 56 to frame
# 63 leaving the wire (one burst of 8).  The timeline is drawn by
# scripts/timeline-png.py with gnuplot (Perfetto, the viewer, needs a
# browser and the network); the waveform is GTKWave under Xvfb with
# docs/nictx.gtkw, captured by ImageMagick's import.  Those three
# (gtkwave, xvfb, imagemagick) are installed here when missing, with
# apt-get; nothing else needs them.
set -euo pipefail
cd "$(dirname "$0")/.."
nictx=${1:-build/nictx}
[ -x "$nictx" ] || { echo "observe-pictures.sh: $nictx: build it first (make)" >&2; exit 2; }

need=()
command -v gtkwave >/dev/null || need+=(gtkwave)
command -v xvfb-run >/dev/null || need+=(xvfb xauth)
[ -x /usr/bin/import ] || need+=(imagemagick)
command -v gnuplot >/dev/null || need+=(gnuplot-nox)
if [ ${#need[@]} -gt 0 ]; then
    echo "observe-pictures.sh: installing ${need[*]}" >&2
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$nictx" run --ordering weak --set cpu.drain_miss_ns=150 --packets 200 --quiet \
    --timeline "$tmp/doorbell.json" --wave "$tmp/doorbell.fst" --wave-from 56 --wave-to 63
mkdir -p docs/img
python3 scripts/timeline-png.py "$tmp/doorbell.json" docs/img/timeline-doorbell.png \
    "nictx --ordering weak: wmb() waits for the descriptors, then the doorbell (packets 56..63)"

# The waveform around the same doorbell: from 60 ns before it to 700 ns
# after (the descriptor fetch, the payload fetches, the first frames).
t=$(python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
print(min(int(e["ts"] * 1e6) for e in ev if e["name"].startswith("doorbell q")))' \
    "$tmp/doorbell.json")
cat >"$tmp/zoom.tcl" <<EOF
gtkwave::setZoomRangeTimes $((t - 60000)) $((t + 700000))
EOF
echo "hide_sst 1" >"$tmp/gtkwaverc"
save=$PWD/docs/nictx.gtkw
(cd "$tmp" && timeout 120 xvfb-run -a -s "-screen 0 1600x1100x24" sh -c \
    "gtkwave -r gtkwaverc -S zoom.tcl doorbell.fst $save >gtkwave.log 2>&1 &
     sleep 8; import -window root shot.png; kill \$! 2>/dev/null; true")
[ -s "$tmp/shot.png" ] || { echo "observe-pictures.sh: GTKWave drew nothing" >&2; exit 1; }
cp "$tmp/shot.png" docs/img/wave-doorbell.png
echo "observe-pictures.sh: wrote docs/img/timeline-doorbell.png, docs/img/wave-doorbell.png"
