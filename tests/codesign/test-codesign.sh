#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test-codesign.sh - the hardware parameters end to end (make test-codesign;
# docs/codesign.md).  Slow (each new model is a Verilator build, each area
# a Yosys synthesis: minutes), so not part of `make test`:
#   cache     two nictx processes started at once ask for the same new
#             model (an empty cache, NICTX_MODEL_CACHE): both runs pass,
#             the model is built once (the cache's builds.log has one
#             line), and a third run builds nothing;
#   lockstep  the RTL and the C model in lockstep at two combinations other
#             than the default (tags, frames, queues, payload buffer, width),
#             runs that stress them (1500 B frames at 100G, tag stalls); and
#             at two descriptor fetchers other than the default: 64 slots
#             (8 queues: regions of 8; Tail and Owner) and 128 slots with 2
#             reads (one queue, 4 queues), 64 B frames at 100G fetching up
#             to 64 descriptors a read, each ring of 64 wrapped 39 to 312 times;
#   refuse    a register setting above the hardware is refused (exit 2);
#   area      synthesis succeeds at the default combination (an empty area
#             cache unless NICTX_AREA_CACHE names one) and the area grows
#             with --hw-tags (memory bits, and xc7 LUTs + FFs + BRAMs, 32
#             tags < 256, 16 B wide, two queues).
# NICTX (build/nictx) is the binary.  Exit 1 on a failure.
set -u
cd "$(dirname "$0")/../.." || exit 2
NICTX=$(realpath "${NICTX:-build/nictx}")
T=$(mktemp -d /tmp/nictx-codesign.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "test-codesign: FAIL: $*"; fail=1; }
ok() { echo "test-codesign: ok: $*"; }

# ---- cache: one build for two processes
COMBO=(--hw-tags 16 --tags 16 --hw-pkts 32)
export NICTX_MODEL_CACHE=$T/models
"$NICTX" run --device rtl "${COMBO[@]}" --packets 1000 --quiet > "$T/a.out" 2> "$T/a.err" &
pa=$!
"$NICTX" run --device rtl "${COMBO[@]}" --packets 1000 --quiet > "$T/b.out" 2> "$T/b.err" &
pb=$!
wait "$pa"; ra=$?
wait "$pb"; rb=$?
key=w8-q64-t16-r8-d256-p32768-k32
builds=$(grep -c "^$key " "$T/models/builds.log" 2>/dev/null || echo 0)
building=$(cat "$T/a.err" "$T/b.err" | grep -c "building the RTL model $key")
if [ "$ra" -ne 0 ] || [ "$rb" -ne 0 ]; then
    bad "cache: the two runs exited $ra and $rb"; cat "$T/a.err" "$T/b.err"
elif [ "$builds" -ne 1 ] || [ "$building" -ne 1 ] || [ ! -f "$T/models/$key/model.so" ]; then
    bad "cache: $builds builds logged, $building progress lines (want 1 and 1)"
else
    ok "cache: two processes, one build of $key"
fi
"$NICTX" run --device rtl "${COMBO[@]}" --packets 500 --quiet 2> "$T/c.err"
if grep -q building "$T/c.err" || [ "$(wc -l < "$T/models/builds.log")" -ne 1 ]; then
    bad "cache: a third run built the model again"
else
    ok "cache: a third run reuses it"
fi
unset NICTX_MODEL_CACHE

# ---- lockstep at two combinations (their models in build/models)
run_ls() {
    local what=$1; shift
    if "$NICTX" run --device lockstep --pkt-size 1500 --line 100g --packets 3000 --quiet "$@" \
        2> "$T/ls.err"; then
        ok "lockstep: $what"
    else
        bad "lockstep: $what"; tail -5 "$T/ls.err"
    fi
}
run_ls "32 tags, 16 frames" --hw-tags 32 --tags 32 --hw-pkts 16
run_ls "width 32, 4 queues, 8 tags, 16 KiB buffer, 4 frames" --dev-width 32 --hw-queues 4 \
    --queues 4 --hw-pay-buf 16384 --hw-tags 8 --tags 8 --hw-pkts 4 --cpus 2
# The descriptor fetcher's sizes: 64 B frames at 100G keep the fetcher busy;
# 20000 frames over rings of 64 wrap each ring 39 (8 queues) to 312 times.
run_desc() {
    local what=$1; shift
    if "$NICTX" run --device lockstep --line 100g --packets 20000 --ring 64 --desc-fetch-max 64 \
        --quiet "$@" 2> "$T/ls.err"; then
        ok "lockstep: $what"
    else
        bad "lockstep: $what"; tail -5 "$T/ls.err"
    fi
}
run_desc "64 descriptor slots, 8 queues (Tail)" --hw-desc-buf 64 --queues 8 --cpus 2
run_desc "64 descriptor slots, 8 queues (Owner)" --hw-desc-buf 64 --queues 8 --cpus 2 \
    --protocol owner
run_desc "128 descriptor slots, 2 reads, one queue" --hw-desc-buf 128 --hw-desc-reads 2
run_desc "128 descriptor slots, 2 reads, 4 queues (Owner)" --hw-desc-buf 128 --hw-desc-reads 2 \
    --queues 4 --cpus 2 --protocol owner

# ---- refuse a register setting above the hardware
"$NICTX" run --hw-tags 32 --tags 64 --check 2> "$T/r.err"; rc=$?
if [ "$rc" -eq 2 ] && grep -q -- "--tags 64 is above the hardware's 32 tags" "$T/r.err"; then
    ok "refuse: --tags above --hw-tags"
else
    bad "refuse: exit $rc: $(cat "$T/r.err")"
fi

# ---- area
export NICTX_AREA_CACHE=${NICTX_AREA_CACHE:-$T/area}
field() { sed -n "s/^ *$1 *\([0-9]*\) .*/\1/p" "$2"; }
# The tag comparison on a smaller engine (16 B wide, two queues: the
# co-design flagship's, so NICTX_AREA_CACHE=build/area shares its syntheses).
SMALL="--dev-width 16 --hw-queues 2"
if ! "$NICTX" area > "$T/def.txt" 2> "$T/def.err"; then
    bad "area: the default combination did not synthesize"; tail -5 "$T/def.err"
elif ! "$NICTX" area $SMALL --hw-tags 256 > "$T/big.txt" 2> "$T/big.err"; then
    bad "area: --hw-tags 256 did not synthesize"; tail -5 "$T/big.err"
elif ! "$NICTX" area $SMALL --hw-tags 32 > "$T/t32.txt" 2> "$T/t32.err"; then
    bad "area: --hw-tags 32 did not synthesize"; tail -5 "$T/t32.err"
else
    cat "$T/def.txt" "$T/big.txt" "$T/t32.txt"
    d_mem=$(field mem_bits "$T/big.txt") s_mem=$(field mem_bits "$T/t32.txt")
    d_fpga=$(( $(field xc7_luts "$T/big.txt") + $(field xc7_ffs "$T/big.txt") + \
               $(field xc7_bram18 "$T/big.txt") ))
    s_fpga=$(( $(field xc7_luts "$T/t32.txt") + $(field xc7_ffs "$T/t32.txt") + \
               $(field xc7_bram18 "$T/t32.txt") ))
    if [ "$(field gates "$T/def.txt")" -gt 0 ] && [ "$(field xc7_luts "$T/def.txt")" -gt 0 ] &&
       [ "$d_mem" -gt "$s_mem" ] && [ "$d_fpga" -gt "$s_fpga" ]; then
        ok "area: 256 tags > 32 tags (memory bits $d_mem > $s_mem; xc7 cells $d_fpga > $s_fpga)"
    else
        bad "area: does not grow with --hw-tags (memory bits $d_mem vs $s_mem, xc7 $d_fpga vs $s_fpga)"
    fi
fi
[ "$fail" -eq 0 ] && echo "test-codesign: all passed"
exit "$fail"
