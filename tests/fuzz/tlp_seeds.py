#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tlp_seeds.py - write the hand-made seed inputs of fuzz_tlp into
tests/corpus/tlp (run from the top of the tree).  The program format is in
tests/fuzz/fuzz_tlp.c; the finding-* inputs there come from the fuzzer.
The mq-* seeds are version-2 programs (first byte V2: the queue ops and the
whole 8 KiB BAR0)."""
import struct, os
OP = dict(REG_WR=0, REG_WR64=1, RAW_WR=2, RAW_RD=3, WC_WR=4, CPL=5, RAW_CPL=6, IDLE=7, READY=8,
          DESC=9, SETUP=10, TAIL=11, RESET=12, AUTO=13,
          QREG_WR=14, QREG_RD=15, QGLOBAL=16, QTAIL=17, MQSETUP=18)  # 14.. version 2 only
V2 = bytes([0xa5])
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
# version 2: queue blocks, the new registers, several queues at once
def qwr(q, off, v, n=4): return bytes([OP['QREG_WR'], q, off // 4 | (16 if n == 8 else 0)]) + (u64(v) if n == 8 else u32(v))
def qrd(q, off, n=4, tag=0x30): return bytes([OP['QREG_RD'], q, off // 4 | (16 if n == 8 else 0), tag])
def qglobal(sel, v): return bytes([OP['QGLOBAL'], sel]) + u32(v)
def qtail(q, t): return bytes([OP['QTAIL'], q]) + u16(t)
def mqsetup(sel, n, lens): return bytes([OP['MQSETUP'], sel, n - 1]) + bytes(lens)
def raw_rd(off, ln, tag): return bytes([OP['RAW_RD']]) + u16(off) + bytes([ln, tag])
def raw_wr(off, data): return bytes([OP['RAW_WR']]) + u16(off) + bytes([len(data)]) + data
# four queues, round robin, 3 descriptors each (sel 2: nd 3, RR, quantum 64)
seeds['mq-rr'] = V2 + bytes([OP['AUTO']]) + mqsetup(2, 4, [i * 9 % 128 for i in range(12)]) + idle(255) + idle(255) + qrd(1, 4) + qrd(3, 0x20)
# 64 queues, DRR (sel 0x3b: nd 4, DRR, quantum 64 << 3), one bad descriptor,
# then the head of a few queues and their counters, 8-byte reads
seeds['mq-drr-64'] = (V2 + bytes([OP['AUTO']]) + mqsetup(0x3b, 64, [0x80] + [i * 13 % 128 for i in range(255)]) +
    idle(255) * 8 + qrd(0, 0x20, 8) + qrd(63, 0x08, 8) + qrd(40, 0x24) + qrd(40, 0x28) + qglobal(1, 0) + idle(100))
# the map: queue blocks in and out of use, 0x400..0xFFF, the new registers' refusals
seeds['mq-regs'] = (V2 + qglobal(0, 8) + raw_rd(0x9c, 4, 1) + qwr(3, 0x14, 200) + qwr(7, 0x08, 0x100000000 + 0x2000, 8) +
    qwr(8, 0x14, 5) + qrd(8, 0) + qrd(7, 0x14) + qrd(2, 0x3c) + qwr(2, 0x30, 1) + raw_rd(0x800, 4, 2) +
    raw_wr(0x400, u32(1)) + raw_wr(0xffc, u32(1)) + raw_rd(0x1fc0, 8, 3) + raw_wr(0x1004, u32(1)) + raw_rd(0x1006, 2, 4) +
    qglobal(0, 0) + qglobal(0, 65) + qglobal(1, 2) + qglobal(2, 63) + qglobal(2, 65537) + qglobal(2, 65536) +
    qglobal(0, 64) + qrd(63, 0x14) + qtail(63, 3) + qtail(5, 900) + idle(50))
# enabled with several queues: QUEUES refused (CFG), a doorbell past a ring,
# a wrong protocol for several queues refused at enable, the reset in the middle
seeds['mq-refusals'] = (V2 + bytes([OP['AUTO']]) + mqsetup(6, 3, [10, 20, 30, 40, 50, 60, 70] * 3) + qglobal(0, 2) +
    qtail(1, 12) + idle(200) + bytes([OP['RESET']]) + idle(100) + bytes([OP['REG_WR'], 0x6c // 4]) + u32(1) +
    bytes([OP['REG_WR'], 0]) + u32(1) + qtail(0, 1) + idle(50) + mqsetup(0x81, 2, [5] * 8) + idle(200))
for k, v in seeds.items():
    open(os.path.join('tests/corpus/tlp', k), 'wb').write(v)
    print(k, len(v))
