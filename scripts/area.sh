#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# area.sh CACHE KEY WIDTH Name=Value...: the engine's area at one hardware
# combination, by Yosys 0.23 (docs/codesign.md), into CACHE/KEY.txt (cached:
# a second call finds it and returns at once).
#
# Two syntheses of rtl/nictx_tx_top.sv with the parameters given, run at
# the same time (one core each):
#  - generic: `synth` up to its fine stage (without `share`, below) with the
#    memories kept as memories (memory -nomap), then mapped to simple gates
#    (abc -g): gates (logic cells), flops, memory bits (counted once the
#    memory cells are unpacked, memory_unpack), and the longest logic path
#    in gate levels (ltp -noff);
#  - xc7 (AMD/Xilinx 7-series, synth_xilinx -family xc7 without `share`):
#    slice LUTs (logic and memory, as Vivado's utilization report counts
#    them), the LUTs used as distributed RAM among them, flip-flops, and
#    block RAMs in 18 Kbit halves; every memory mapped as the synthesizer
#    maps it (memory_libmap: an asynchronous read is distributed RAM).
# Output, one key=value a line: key, rtl (a hash of the RTL and this script:
# the file is current while it matches), gates, flops, mem_bits, levels,
# xc7_luts, xc7_lutram, xc7_ffs, xc7_bram18.  One synthesis per key (flock
# on CACHE/KEY.lock); the file is written to a temporary name and renamed.
# Yosys's warnings (memories it turns into flops) are printed only when it
# fails.
# `area.sh --hash` prints the rtl= hash a current file holds, and stops.
set -euo pipefail
[ $# -ge 3 ] || [ "${1:-}" = --hash ] ||
    { echo "usage: $0 CACHE KEY WIDTH Name=Value... | $0 --hash" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
srcs=("$root"/rtl/nictx_reg_pkg.sv "$root"/rtl/nictx_pkg.sv "$root"/rtl/prim_fifo_sync.sv \
      "$root"/rtl/prim_arbiter_rr.sv "$root"/rtl/prim_rr_pick.sv)
for f in $(cd "$root/rtl" && ls nictx_*.sv | LC_ALL=C sort); do
    case $f in nictx_reg_pkg.sv | nictx_pkg.sv) ;; *) srcs+=("$root/rtl/$f") ;; esac
done
# What the area is of: a change to the RTL or this script is another area.
hash=$(cat "${srcs[@]}" "$0" | sha256sum | cut -c1-12)
[ "$1" = --hash ] && { echo "$hash"; exit 0; }
cache=$1 key=$2
shift 3
out=$cache/$key.txt
mkdir -p "$cache"
exec 9>"$cache/$key.lock"
flock 9
grep -qx "rtl=$hash" "$out" 2>/dev/null && exit 0
chparam=""
for p in "$@"; do chparam+=" -chparam ${p%%=*} ${p#*=}"; done
read="read_verilog -sv -DSYNTHESIS ${srcs[*]}; hierarchy -check -top nictx_tx_top$chparam"
# synth_xilinx's coarse step as Yosys 0.23 runs it (yosys -h synth_xilinx)
# but for `share`, the SAT-based resource sharing, which takes most of the
# time on this engine (minutes); the generic synthesis leaves it out too
# (-noshare).
xc7="synth_xilinx -flatten -noiopad -noclkbuf -family xc7 -top nictx_tx_top"
xc7_coarse="techmap -map +/cmp2lut.v -map +/cmp2lcu.v -D LUT_WIDTH=6; alumacc; opt; \
    memory -nomap; opt_clean"
tmp=$(mktemp -d "$cache/.area-$key.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "nictx: area of $key: generic and xc7 synthesis (Yosys, minutes)" >&2
yosys -q -l "$tmp/generic.log" -p "$read; synth -flatten -noshare -top nictx_tx_top -run begin:fine; \
    memory -nomap; opt -fast; techmap; opt -fast; \
    abc -fast -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX; opt_clean; \
    tee -q -o $tmp/ltp.txt ltp -noff; memory_unpack; tee -q -o $tmp/generic.stat stat -width" \
    >/dev/null 2>"$tmp/generic.err" &
gen=$!
yosys -q -l "$tmp/xc7.log" -p "$read; $xc7 -run begin:coarse; $xc7_coarse; \
    $xc7 -run map_memory:check; tee -q -o $tmp/xc7.stat stat" >/dev/null 2>"$tmp/xc7.err" &
x=$!
wait "$gen" || { cat "$tmp/generic.err" >&2; wait "$x"; exit 1; }
wait "$x" || { cat "$tmp/xc7.err" >&2; exit 1; }

# stat: "     $_AND_      <count>" lines; sum the cells of a pattern.
cells() { awk -v re="$2" '$1 ~ re { n += $2 } END { print n + 0 }' "$1"; }
gates=$(cells "$tmp/generic.stat" '^\$_(AND|NAND|OR|NOR|XOR|XNOR|ANDNOT|ORNOT|MUX|NOT)_$')
flops=$(cells "$tmp/generic.stat" '^\$_(S?DFF|DFFE|SDFFE|SDFFCE|ALDFF|DFFSR|DLATCH)')
mem_bits=$(awk '/Number of memory bits:/ { print $NF; exit }' "$tmp/generic.stat")
levels=$(sed -n 's/^Longest topological path in .* (length=\([0-9]*\)).*/\1/p' "$tmp/ltp.txt" | head -1)
{
    echo "key=$key"
    echo "rtl=$hash"
    echo "gates=$gates"
    echo "flops=$flops"
    echo "mem_bits=${mem_bits:-0}"
    echo "levels=${levels:-0}"
    # LUTs as distributed RAM: RAM64M and RAM32M are four LUTs, RAM*X1D two,
    # RAM*X1S one (7 Series CLB guide, UG474: a SLICEM's LUTs as RAM).
    lutram=$(awk '$1 ~ /^RAM(32|64)M$/ { n += 4 * $2 } $1 ~ /^RAM(32|64)X1D$/ { n += 2 * $2 }
                  $1 ~ /^RAM(32|64)X1S$/ { n += $2 } $1 ~ /^RAM128X1D$/ { n += 4 * $2 }
                  $1 ~ /^RAM128X1S$/ { n += 2 * $2 } $1 ~ /^RAM256X1S$/ { n += 4 * $2 }
                  END { print n + 0 }' "$tmp/xc7.stat")
    echo "xc7_luts=$(( $(cells "$tmp/xc7.stat" '^LUT[1-6]$') + lutram ))"
    echo "xc7_lutram=$lutram"
    echo "xc7_ffs=$(cells "$tmp/xc7.stat" '^FD(RE|SE|CE|PE)$')"
    echo "xc7_bram18=$(( 2 * $(cells "$tmp/xc7.stat" '^RAMB36E1$') + \
                         $(cells "$tmp/xc7.stat" '^RAMB18E1$') ))"
} > "$tmp/area.txt"
# How xc7 mapped each memory (docs/codesign.md, Which memories are block RAM).
grep -E "^(using FF mapping|mapping memory|Replacing memory)" "$tmp/xc7.log" \
    > "$cache/$key.memories.txt" 2>/dev/null || true
mv -f "$tmp/area.txt" "$out"
echo "$key $(date -u +%Y-%m-%dT%H:%M:%SZ) pid $$" >> "$cache/syntheses.log"
