#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-regs.sh - fail when the files generated from the register map
# (rtl/regs/nictx_regs.rdl, `make regs`) are stale or were edited by hand.
#
# Each generated file (for docs/device.md, its generated section) holds one
# stamp line with the tag "nictx-regmap:" and three SHA-256 sums, written by
# scripts/regs/nictx_regmap.py:
#   rdl=   of rtl/regs/nictx_regs.rdl when the file was generated
#   gen=   of scripts/regs/nictx_regmap.py (the generator) then
#   body=  of the generated text itself, the stamp line left out
# This script recomputes all three with sha256sum (coreutils only: no Python,
# no PeakRDL) and compares.  Run from anywhere; part of `make test`.
# Exit status: 0 when all are current, 1 otherwise (each problem printed).
set -u
cd "$(dirname "$0")/.." || exit 2

RDL=rtl/regs/nictx_regs.rdl
GEN=scripts/regs/nictx_regmap.py
TAG='nictx-regmap:'
BEGIN='^<!-- BEGIN generated regs'
END='^<!-- END generated regs -->'

sha() { sha256sum | cut -d' ' -f1; }
rdl_sha=$(sha < "$RDL") || exit 2
gen_sha=$(sha < "$GEN") || exit 2
bad=0

# check NAME: the generated text on stdin.
check() {
    local name=$1 text stamp n want_body
    text=$(cat; echo x) && text=${text%x}   # keep trailing newlines
    n=$(printf '%s' "$text" | grep -c "$TAG")
    if [ "$n" -ne 1 ]; then
        echo "check-regs: $name: $n stamp lines ('$TAG'), expected 1; run \`make regs\`"
        bad=1
        return
    fi
    stamp=$(printf '%s' "$text" | grep "$TAG")
    want_body=$(printf '%s' "$text" | grep -v "$TAG" | sha)
    case "$stamp" in
    *"rdl=$rdl_sha "*) ;;
    *) echo "check-regs: $name is stale: $RDL changed since it was generated; run \`make regs\`"
       bad=1 ;;
    esac
    case "$stamp" in
    *"gen=$gen_sha "*) ;;
    *) echo "check-regs: $name is stale: $GEN changed since it was generated; run \`make regs\`"
       bad=1 ;;
    esac
    case "$stamp" in
    *"body=$want_body"*) ;;
    *) echo "check-regs: $name was edited by hand (its text no longer matches its stamp);" \
            "edit $RDL and run \`make regs\`"
       bad=1 ;;
    esac
}

for f in rtl/nictx_reg_pkg.sv driver/nictx_regs_gen.h; do
    if [ -f "$f" ]; then check "$f" < "$f"
    else echo "check-regs: $f is missing; run \`make regs\`"; bad=1; fi
done

md=docs/device.md
nb=$(grep -c "$BEGIN" "$md" 2>/dev/null)
ne=$(grep -c "$END" "$md" 2>/dev/null)
if [ "${nb:-0}" -ne 1 ] || [ "${ne:-0}" -ne 1 ]; then
    echo "check-regs: $md needs one BEGIN and one END generated regs marker; run \`make regs\`"
    bad=1
else
    check "$md (generated regs section)" < <(sed -n "/$BEGIN/,/$END/p" "$md" | sed '1d;$d')
fi

if [ "$bad" -eq 0 ]; then
    echo "check-regs: rtl/nictx_reg_pkg.sv, driver/nictx_regs_gen.h and docs/device.md" \
         "are current with $RDL"
fi
exit "$bad"
