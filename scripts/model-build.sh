#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# model-build.sh CACHE KEY WIDTH Name=Value...: build the Verilated engine
# for one hardware combination into CACHE/KEY/model.so (docs/codesign.md).
#
# Called by nictx (sim/device/dev_models.c) on every run at another
# combination than the default; it returns at once when the model is
# current.  A model is keyed by its parameters (KEY) and a hash of what it
# is built from (the RTL, the shim, this script): CACHE/KEY@HASH, and
# CACHE/KEY a symbolic link to the current one.  One builder per key: the
# builder holds an flock on CACHE/KEY.lock, and a process that waits on it
# finds the model built.  The build goes to a temporary directory, renamed
# when whole, so a model directory is either absent or complete.  Every
# build appends a line to CACHE/builds.log (the test of the cache counts
# them).
#
# The Verilator flags are the Makefile's VFLAGS (the prebuilt models' flags)
# and its model optimization (VOPT_FAST); RTL sources in the Makefile's order
# (RTL_SRCS: packages, primitives, then the nictx_ modules).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 CACHE KEY WIDTH Name=Value..." >&2; exit 2; }
cache=$1 key=$2 width=$3
shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
vflags=(--cc --assert -Wall -O3 -fno-dfg --top-module nictx_tx_top)
cls=Vnictx_tx_top_so
srcs=("$root"/rtl/nictx_reg_pkg.sv "$root"/rtl/nictx_pkg.sv "$root"/rtl/prim_fifo_sync.sv \
      "$root"/rtl/prim_arbiter_rr.sv "$root"/rtl/prim_rr_pick.sv)
for f in $(cd "$root/rtl" && ls nictx_*.sv | LC_ALL=C sort); do
    case $f in nictx_reg_pkg.sv | nictx_pkg.sv) ;; *) srcs+=("$root/rtl/$f") ;; esac
done
# What the model is built from: a change to any of it is another model.
hash=$(cat "${srcs[@]}" "$root/sim/device/dev_rtl.cpp" "$root/sim/device/device.h" "$0" |
       sha256sum | cut -c1-12)
mkdir -p "$cache"
exec 9>"$cache/$key.lock"
flock 9
[ -f "$cache/$key@$hash/model.so" ] && [ "$(readlink "$cache/$key")" = "$key@$hash" ] && exit 0
if [ ! -f "$cache/$key@$hash/model.so" ]; then
echo "nictx: building the RTL model $key into $cache/$key (once; a few minutes)" >&2
tmp=$(mktemp -d "$cache/.build-$key.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
vroot=$(verilator --getenv VERILATOR_ROOT)
gparams=()
for p in "$@"; do gparams+=("-G$p"); done
verilator "${vflags[@]}" "${gparams[@]}" --prefix "$cls" --Mdir "$tmp/v" "${srcs[@]}" >&2
echo "nictx: $key: compiling the model" >&2
make -s -C "$tmp/v" -f "$cls.mk" OPT_FAST=-O3 VM_PARALLEL_BUILDS=0 USER_CPPFLAGS=-fPIC \
    "${cls}__ALL.a" >/dev/null
mkdir "$tmp/out"
g++ -O2 -g -fPIC -shared -Wall -DDEV_RTL_SO=1 -DDEV_RTL_WIDTH="$width" -DDEV_RTL_HAVE_TRACE=0 \
    -I"$root/sim" -I"$tmp/v" -I"$vroot/include" -I"$vroot/include/vltstd" \
    -o "$tmp/out/model.so" "$root/sim/device/dev_rtl.cpp" "$tmp/v/${cls}__ALL.a"
printf '%s\n' "$@" > "$tmp/out/params"
mv -T "$tmp/out" "$cache/$key@$hash"
echo "$key $(date -u +%Y-%m-%dT%H:%M:%SZ) pid $$ rtl $hash" >> "$cache/builds.log"
echo "nictx: $key: built" >&2
fi
# CACHE/KEY names the model of the sources as they are (a symbolic link
# replaced by a rename: a run sees the old model or the new one).
ln -sfn "$key@$hash" "$cache/.$key.link"
mv -T "$cache/.$key.link" "$cache/$key"
