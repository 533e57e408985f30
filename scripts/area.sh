#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# area.sh CACHE KEY WIDTH Name=Value...: the engine's area at one hardware
# combination, by Yosys 0.23 (docs/codesign.md), into CACHE/KEY.txt (cached:
# a second call finds it and returns at once).
#
# Two syntheses of rtl/nictx_tx_top.sv with the parameters given:
#  - generic: `synth` up to its fine stage (without `share`, below) with the
#    memories kept as memories (memory -nomap), then mapped to simple gates
#    (abc -g): gates (logic cells), flops, memory bits (counted once the
#    memory cells are unpacked, memory_unpack), and the longest logic path
#    in gate levels (ltp -noff);
#  - ice40 (Lattice iCE40, synth_ice40 without `share`): LUT4s, flip-flops
#    and 4 Kbit block RAMs (SB_RAM40_4K), every memory mapped as the
#    synthesizer maps it.
# Output, one key=value a line: key, rtl (a hash of the RTL and this script:
# the file is current while it matches), gates, flops, mem_bits, levels,
# ice40_luts, ice40_ffs, ice40_brams.  One synthesis per key (flock on
# CACHE/KEY.lock); the file is written to a temporary name and renamed.
# Yosys's warnings (memories it turns into flops) are printed only when it
# fails.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 CACHE KEY WIDTH Name=Value..." >&2; exit 2; }
cache=$1 key=$2
shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
out=$cache/$key.txt
srcs=("$root"/rtl/nictx_reg_pkg.sv "$root"/rtl/nictx_pkg.sv "$root"/rtl/prim_fifo_sync.sv \
      "$root"/rtl/prim_arbiter_rr.sv "$root"/rtl/prim_rr_pick.sv)
for f in $(cd "$root/rtl" && ls nictx_*.sv | LC_ALL=C sort); do
    case $f in nictx_reg_pkg.sv | nictx_pkg.sv) ;; *) srcs+=("$root/rtl/$f") ;; esac
done
# What the area is of: a change to the RTL or this script is another area.
hash=$(cat "${srcs[@]}" "$0" | sha256sum | cut -c1-12)
mkdir -p "$cache"
exec 9>"$cache/$key.lock"
flock 9
grep -qx "rtl=$hash" "$out" 2>/dev/null && exit 0
chparam=""
for p in "$@"; do chparam+=" -chparam ${p%%=*} ${p#*=}"; done
read="read_verilog -sv -DSYNTHESIS ${srcs[*]}; hierarchy -check -top nictx_tx_top$chparam"
# synth_ice40's coarse step as Yosys 0.23 runs it (yosys -h synth_ice40) but
# for `share`, the SAT-based resource sharing, which takes most of the time
# on this engine (minutes); the generic synthesis leaves it out too
# (-noshare).
ice40_coarse="opt_expr; opt_clean; check; opt -nodffe -nosdff; fsm; opt; wreduce; peepopt; \
    opt_clean; techmap -map +/cmp2lut.v -D LUT_WIDTH=4; opt_expr; opt_clean; memory_dff; \
    alumacc; opt; memory -nomap; opt_clean"
tmp=$(mktemp -d "$cache/.area-$key.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "nictx: area of $key: generic synthesis (Yosys)" >&2
yosys -q -l "$tmp/generic.log" -p "$read; synth -flatten -noshare -top nictx_tx_top -run begin:fine; \
    memory -nomap; opt -fast; techmap; opt -fast; \
    abc -fast -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX; opt_clean; \
    tee -q -o $tmp/ltp.txt ltp -noff; memory_unpack; tee -q -o $tmp/generic.stat stat -width" \
    >/dev/null 2>"$tmp/generic.err" || { cat "$tmp/generic.err" >&2; exit 1; }
echo "nictx: area of $key: iCE40 synthesis (Yosys synth_ice40)" >&2
yosys -q -l "$tmp/ice40.log" -p "$read; synth_ice40 -top nictx_tx_top -run begin:coarse; \
    $ice40_coarse; synth_ice40 -top nictx_tx_top -run map_ram:; \
    tee -q -o $tmp/ice40.stat stat" >/dev/null 2>"$tmp/ice40.err" || { cat "$tmp/ice40.err" >&2; exit 1; }

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
    echo "ice40_luts=$(cells "$tmp/ice40.stat" '^SB_LUT4$')"
    echo "ice40_ffs=$(cells "$tmp/ice40.stat" '^SB_DFF')"
    echo "ice40_brams=$(cells "$tmp/ice40.stat" '^SB_RAM40_4K')"
} > "$tmp/area.txt"
# How iCE40 mapped each memory (docs/codesign.md, Which memories are block RAM).
grep -E "^(Processing|  Mapping|Mapping|Replacing memory|.*bram|.*SB_RAM)" "$tmp/ice40.log" \
    > "$cache/$key.memories.txt" 2>/dev/null || true
mv -f "$tmp/area.txt" "$out"
echo "$key $(date -u +%Y-%m-%dT%H:%M:%SZ) pid $$" >> "$cache/syntheses.log"
