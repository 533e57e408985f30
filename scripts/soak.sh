#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# soak.sh NICTX OUTDIR - the soak: 100 M packets in all across a mix of
# configurations, every frame checked by the scoreboard (docs/reliability.md).
#
# Each configuration runs twice: a reference run of a tenth of its packets
# (at least 400 k, see run_config), then the soak run itself.  A run passes when nictx exits 0 (every packet
# sent, checked and reclaimed; nothing lost or corrupted; no protocol
# violation, watchdog or deadlock) and its peak RSS is within 5% (plus
# 256 KiB of allocator slack) of its reference run's: memory flat in run
# length.  Prints a line per run and a summary; exit status 1 if any run
# failed.  Not part of `make test`.
#
# Environment: SOAK_SCALE (1) multiplies every packet count (0.01 for a
# quick look); SOAK_J (2) runs that many at once.  Needs /usr/bin/time
# (Debian package time) for the peak RSS.
set -u
nictx=$1 out=$2
scale=${SOAK_SCALE:-1} jobs=${SOAK_J:-2}
[ -x /usr/bin/time ] || { echo "soak: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
mkdir -p "$out"
rm -f "$out"/*.res

# name|packets|options: 100 M packets in all.
configs=(
  "tail-64-b32-cheap|25000000|--pkt-size 64 --burst 32 --cpu cheap"
  "owner-weak-64-b8|10000000|--pkt-size 64 --burst 8 --protocol owner --barrier per-desc --ordering weak"
  "wc-64-b1|10000000|--pkt-size 64 --burst 1 --protocol wc --cpu cheap"
  "mixed-64-1518-100g|2000000|--pkt-size 64 --pkt-size-max 1518 --burst 16 --cpu cheap --line 100g --buf-offset 3"
  "jumbo-1518-40g-2cpu-bql|1000000|--pkt-size 1518 --burst 8 --line 40g --cpus 2 --bql on"
  "2cpu-packed-bql-64|12000000|--pkt-size 64 --burst 16 --cpus 2 --layout packed --bql on --dql read-first"
  "coalesce-napi-irq-64|10000000|--pkt-size 64 --burst 1 --tail-coalesce 31 --cpu cheap --set host.napi=irq --irq-thresh 32"
  "owner-batch-weak-256|5000000|--pkt-size 256 --burst 16 --protocol owner --barrier per-batch --ordering weak --ring 256"
  "qdisc-bql-128|10000000|--pkt-size 128 --burst 32 --source qdisc --bql on --clean mmio"
  "owner-wmb-2cpu-4096|15000000|--pkt-size 64 --burst 32 --protocol owner --barrier wmb-per-desc --cpus 2 --ring 4096 --cpu cheap"
)

# One run: name, packets, options; writes OUT/NAME.res:
#   name packets rc checked lost corrupted rss_kb wall_s
run_one() {
    local name=$1 n=$2 opts=$3 json="$out/$1.json" tm="$out/$1.time"
    # shellcheck disable=SC2086
    /usr/bin/time -f '%M %e' -o "$tm" "$nictx" run $opts --packets "$n" --quiet --json "$json" \
        >"$out/$name.log" 2>&1
    local rc=$? rss wall checked lost corr
    read -r rss wall < <(tail -n 1 "$tm")
    checked=$(sed -n 's/^ *"checked": *\([0-9]*\).*/\1/p' "$json" 2>/dev/null | head -n 1)
    lost=$(sed -n 's/^ *"lost": *\([0-9]*\).*/\1/p' "$json" 2>/dev/null | head -n 1)
    corr=$(sed -n 's/^ *"corrupted": *\([0-9]*\).*/\1/p' "$json" 2>/dev/null | head -n 1)
    echo "$name $n $rc ${checked:-?} ${lost:-?} ${corr:-?} ${rss:-0} ${wall:-0}" >"$out/$name.res"
    echo "soak: $name: $n packets, exit $rc, $checked checked, peak RSS ${rss:-?} KB, ${wall:-?} s"
}

# Both runs of a configuration, one after the other.
run_config() {
    local name n opts
    IFS='|' read -r name n opts <<<"$1"
    n=$(awk -v n="$n" -v s="$scale" 'BEGIN { x = int(n * s + 0.5); print x < 1000 ? 1000 : x }')
    # The reference must reach steady state: every buffer of the ring used,
    # and the scoreboard's rate window (sim/check/sb_rate.c: the 32768 frames
    # below expected / 10) filled, which takes 400 k packets; below that its
    # pages are touched as a longer run fills it, not grown.
    run_one "$name.ref" $(( n / 10 > 400000 ? n / 10 : (n < 400000 ? n : 400000) )) "$opts"
    run_one "$name" "$n" "$opts"
}

t0=$(date +%s)
running=0
for c in "${configs[@]}"; do
    run_config "$c" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
t1=$(date +%s)

summary() {
fail=0 total=0 checked_all=0
printf '%-28s %10s %4s %10s %5s %5s %9s %9s %8s %9s\n' run packets rc checked lost corr rss_kb ref_kb wall_s pkts/s
for c in "${configs[@]}"; do
    IFS='|' read -r name _ _ <<<"$c"
    read -r _ n rc checked lost corr rss wall <"$out/$name.res"
    read -r _ _ rrc _ _ _ rrss _ <"$out/$name.ref.res"
    verdict=ok
    [ "$rc" = 0 ] && [ "$rrc" = 0 ] && [ "$lost" = 0 ] && [ "$corr" = 0 ] && [ "$checked" = "$n" ] \
        || verdict=FAILED
    if [ "$rss" -gt $(( rrss + rrss / 20 + 256 )) ]; then verdict="FAILED(rss)"; fi
    [ "$verdict" = ok ] || fail=1
    total=$((total + n))
    checked_all=$((checked_all + ${checked//\?/0}))
    printf '%-28s %10s %4s %10s %5s %5s %9s %9s %8s %9s %s\n' "$name" "$n" "$rc" "$checked" "$lost" \
        "$corr" "$rss" "$rrss" "$wall" "$(awk -v n="$n" -v w="$wall" 'BEGIN { printf "%.0f", (w > 0 ? n / w : 0) }')" \
        "$verdict"
done
echo "soak: $total packets in the soak runs, $checked_all checked, $((t1 - t0)) s wall" \
     "with $jobs at once; $([ $fail = 0 ] && echo 'all passed' || echo 'FAILED') (logs in $out)"
return $fail
}
summary | tee "$out/summary.txt"
exit "${PIPESTATUS[0]}"
