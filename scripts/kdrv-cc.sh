#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# kdrv-cc.sh OUT SRC -- CC FLAGS...: compile a driver file written against
# nictx's kernel layer (driver/linux/, docs/own-driver.md) into OUT, and say
# in a sentence what the layer does not model when that is why it fails:
#  - a kernel header the layer lacks (the compiler's "No such file"),
#  - a kernel function it lacks (an implicit declaration),
#  - one it declares unmodelled (its error attribute carries the message);
# then hand the copies the compiler made by itself (a struct assignment, an
# array's zeroing: calls of memcpy / memset) to the layer's, which announce
# each 8-byte piece (linux/string.h), and refuse an object the memory model
# could not see whole: one that calls the compiler's atomic builtins
# (__tsan_atomic*) or memmove.
# Exit status: the compiler's, or 1 for a refused object.
set -u
out=$1 src=$2
shift 2
[ "${1:-}" = "--" ] && shift
layer=driver/linux/include
have() { (cd "$layer" && find . -name '*.h' ! -name nictx_layer.h | sed 's|^\./||' | sort | tr '\n' ' '); }

err=$("$@" -c -o "$out" "$src" 2>&1)
rc=$?
[ -n "$err" ] && printf '%s\n' "$err" >&2
if [ "$rc" -ne 0 ]; then
    hdr=$(printf '%s\n' "$err" | sed -n 's/.*fatal error: \([^:]*\): No such file or directory.*/\1/p' | head -1)
    fns=$(printf '%s\n' "$err" | sed -n "s/.*implicit declaration of function ['‘]\([A-Za-z_0-9]*\)['’].*/\1/p" |
        sort -u | tr '\n' ' ')
    if [ -n "$hdr" ]; then
        echo "nictx: $src: <$hdr> is not modelled by nictx's kernel layer (driver/linux/): it has $(have)(docs/own-driver.md, What the layer has)" >&2
    fi
    if [ -n "$fns" ]; then
        echo "nictx: $src: not modelled by nictx's kernel layer (driver/linux/): ${fns}(docs/own-driver.md, What the layer has)" >&2
    fi
    rm -f "$out"
    exit "$rc"
fi
copies=$(nm -u "$out" | awk '$2 == "memcpy" || $2 == "memset" { printf " --redefine-sym %s=nictx_%s", $2, $2 }')
if [ -n "$copies" ] && ! objcopy $copies "$out"; then
    rm -f "$out"
    exit 1
fi
bad=$(nm -u "$out" | awk '{ print $2 }' | grep -E '^(__tsan_atomic|__tsan_vptr|memmove$)' |
    sort -u | tr '\n' ' ')
if [ -n "$bad" ]; then
    echo "nictx: $src: calls ${bad}which the memory model cannot see: atomic builtins (use atomic_t," \
         "linux/atomic.h) or an overlapping copy the compiler made itself (copy field by field, or" \
         "with memcpy from linux/string.h); docs/own-driver.md, What the layer has" >&2
    rm -f "$out"
    exit 1
fi
exit 0
