#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-fast.sh - the fast build (make fast: no engine assertions, profile
# feedback) gives the normal build's results: each run's JSON is the same
# but for the wall-clock figures.  Most configurations here are not among
# the training runs (scripts/pgo-train.txt).  NICTX and NICTX_FAST name the
# two binaries; scripts/check-same.sh compares them.  Exit status: the
# number of runs that differ.
set -u
nictx=${NICTX:?NICTX: the normal nictx}
fast=${NICTX_FAST:?NICTX_FAST: the fast nictx}
"$(dirname "$0")/check-same.sh" "$nictx" "$fast" <<'EOF_RUNS'
--packets 20000
--packets 20000 --protocol owner --dev-width 16 --completion cq --irq-thresh 16
--packets 4000 --pkt-size 1518 --dev-width 64 --line 100g --queues 8 --sched drr --weights 1,2,3,4,5,6,7,8
--packets 10000 --protocol wc --cpus 2 --burst 1 --layout packed
--packets 10000 --pkt-size 64 --pkt-size-max 1518 --dev-width 32 --irq-usecs 5 --completion desc-wb
--packets 5000 --queues 2 --inject ur@1/1000 --completion mmio
--packets 20000 --device c
--packets 5000 --device lockstep --protocol owner --dev-width 16 --queues 4 --completion cq
EOF_RUNS
