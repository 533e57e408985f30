#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tlp_seeds.py - write the hand-made seed inputs of fuzz_tlp into
tests/corpus/tlp (run from the top of the tree).  The program format is in
tests/fuzz/fuzz_tlp.c; the finding-* inputs there come from the fuzzer."""
import struct, os
OP = dict(REG_WR=0, REG_WR64=1, RAW_WR=2, RAW_RD=3, WC_WR=4, CPL=5, RAW_CPL=6, IDLE=7, READY=8,
          DESC=9, SETUP=10, TAIL=11, RESET=12, AUTO=13)
def u16(v): return struct.pack('<H', v)
def u32(v): return struct.pack('<I', v)
def u64(v): return struct.pack('<Q', v)
def desc(idx, off, ln, owner): return bytes([OP['DESC'], idx]) + u16(off) + u16(ln) + bytes([owner])
def setup(sel): return bytes([OP['SETUP'], sel])
def tail(t): return bytes([OP['TAIL']]) + u16(t)
def idle(n): return bytes([OP['IDLE'], n])
def cpl(mode): return bytes([OP['CPL'], mode])
seeds = {}
# tail protocol, two frames, reads answered as they come
seeds['tail-two-frames'] = bytes([OP['AUTO']]) + desc(0, 0x2000, 100, 0) + desc(1, 0x2100, 60, 0) + setup(0) + tail(2) + idle(200)
# the host answers by hand: whole, piece by piece, with an error status
seeds['manual-cpl'] = desc(0, 0x2000, 300, 0) + setup(0) + tail(1) + idle(10) + cpl(0) + idle(10) + cpl(1) + cpl(1) + cpl(0) + idle(20) + cpl(2) + idle(50)
# owner protocol (sel 8: ring 32, owner), owner bits set, a kick
seeds['owner-kick'] = bytes([OP['AUTO']]) + b''.join(desc(i, 0x3000 + 0x80 * i, 64 + i, 1) for i in range(4)) + setup(8) + tail(0) + idle(150)
# WC protocol (sel 16: ring 128, wc): a whole block pushed through BAR0
blk = u64(0x100000000 + 0x4000) + u64(200 | (0x80000000 << 32)) + u16(0) + bytes(46)
seeds['wc-block'] = bytes([OP['AUTO']]) + setup(16) + bytes([OP['WC_WR'], 0x80]) + blk + idle(150)
# malformed register accesses: odd sizes, beyond the page, a read of the WC window
seeds['bad-access'] = (bytes([OP['RAW_WR']]) + u16(0x101) + bytes([3]) + b'abc' +
    bytes([OP['RAW_RD']]) + u16(0x204) + bytes([4, 5]) +
    bytes([OP['RAW_RD']]) + u16(0x006) + bytes([2, 6]) +
    bytes([OP['RAW_WR']]) + u16(0x014) + bytes([0xf0]) + u16(300) + bytes(range(256)) + bytes(44) +
    bytes([OP['REG_WR'], 0x84 // 4]) + u32(7))
# completions nobody asked for: a far tag, a huge length, an error status
seeds['unexpected-cpl'] = (setup(0) + bytes([OP['RAW_CPL'], 200]) + u64(0x100000000) + bytes([8, 0]) + bytes(8) +
    bytes([OP['RAW_CPL'], 0]) + u64(0xdead0000) + bytes([0xf0]) + u16(4000) + bytes([1]) + bytes(64) + idle(20))
# stalls on d2h and the wire, traffic, a queue reset in the middle, traffic again
seeds['stall-reset'] = (bytes([OP['READY'], 0x11, 0x81, OP['AUTO']]) + desc(0, 0x2000, 1500, 0) + desc(1, 0x2800, 64, 0) +
    setup(0) + tail(2) + idle(30) + bytes([OP['RESET']]) + idle(100) + setup(0) + tail(1) + idle(250))
# tail beyond the ring, a doorbell while disabled, a ring size change while enabled
seeds['doorbell-abuse'] = (setup(0) + tail(9) + bytes([OP['REG_WR'], 0]) + u32(0) + tail(1) + setup(0) +
    bytes([OP['REG_WR'], 0x10 // 4]) + u32(5) + bytes([OP['REG_WR64'], 1]) + u64(0) + idle(40))
for k, v in seeds.items():
    open(os.path.join('tests/corpus/tlp', k), 'wb').write(v)
    print(k, len(v))
