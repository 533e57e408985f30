# SPDX-License-Identifier: Apache-2.0
"""nictx_regmap: PeakRDL exporter plugins for the nictx BAR0 register map.

The register map is written once, in SystemRDL (rtl/regs/nictx_regs.rdl).
Three exporters, registered with the PeakRDL command line by
scripts/regs/peakrdl.toml, write what the rest of the tree consumes:

  peakrdl nictx-svpkg    RDL -o rtl/nictx_reg_pkg.sv     SystemVerilog package
  peakrdl nictx-cheader  RDL -o driver/nictx_regs_gen.h  C header
  peakrdl nictx-markdown RDL -o docs/device.md           register table, written
                                                         between the file's
                                                         BEGIN/END generated regs
                                                         markers

`make regs` runs all three.  The register block's logic stays hand-written
(rtl/nictx_regs.sv: doorbell, reset sequencing, refused writes); it takes its
offsets, bit positions and reset values from the package.

Staleness stamp: every generated file (for docs/device.md, the generated
section) holds one line with the tag `nictx-regmap:` and three SHA-256 sums:
rdl= of the .rdl source, gen= of this file, body= of the generated text with
the stamp line removed.  scripts/check-regs.sh recomputes the three with
sha256sum alone (no Python, no PeakRDL) and fails when any differs: the
source or the generator changed without `make regs`, or the output was
edited by hand.

Names (each is checked to be unique within its language):
  SystemVerilog (nictx_reg_pkg)
    Reg<R>        logic [7:0] offset in the register page (logic [12:0], the
                  BAR offset, for a register beyond it: PBA_LO/HI)
    Reg<R>Reset   logic [31:0] the register's value after reset
    Reg<R>Bits    bits 0..Reg<R>Bits-1 hold the register's fields
    <R><F>        a 1-bit field: its bit index
    <R><F>Lsb, <R><F>Width   a wider field: its position and width
    <R><F>Reset   logic [W-1:0] the field's value after reset
    <R><V>        logic [W-1:0] value V of the field's enum
    <M>Base, <M>Bytes        a memory window (the WC window)
    BarBytes      size of the BAR
    QBase, QStride, QMax     the per-queue register blocks (the Q regfile
                             array): queue q's block at QBase + q * QStride
    QReg<R>, QReg<R>Reset, QReg<R>Bits, Q<R><F>...   a register of the block,
                             as above (offset inside the block)
    MsixBase, MsixStride, MsixMax, MsixReg<R>, Msix<R><F>...   the MSI-X
                             table (the MSIX regfile array), as the Q blocks
  C (nictx_regs_gen.h), prefix NICTX_
    NICTX_REG_<R>            offset
    NICTX_REG_<R>_RESET      the register's value after reset
    NICTX_<R>_<F>            a 1-bit field: its mask
    NICTX_<R>_<F>_SHIFT/_WIDTH/_MASK   a wider field
    NICTX_<R>_<V>            value V of the field's enum
    NICTX_<M>_BASE, NICTX_<M>_SIZE     a memory window
    NICTX_BAR0_SIZE
    NICTX_REGS(X)            X(name, offset, reset, access, swmod) for every
                             register in offset order; access RO, RW or W1C
    NICTX_Q_BASE, NICTX_Q_STRIDE, NICTX_Q_MAX   the per-queue blocks
    NICTX_QREG_<R>, NICTX_QREG_<R>_RESET, NICTX_Q_<R>_<F>...   a register
                             of the block (offset inside it)
    NICTX_REG_Q(q, r)        BAR0 offset of register r of queue q's block
    NICTX_QREGS(X)           the block's registers, as NICTX_REGS
    NICTX_MSIX_BASE, NICTX_MSIXREG_<R>, NICTX_MSIX_<R>_<F>, NICTX_REG_MSIX(v, r),
    NICTX_MSIXREGS(X)        the MSI-X table, as the queue blocks
"""

import hashlib
import os
import re
import textwrap

from systemrdl.node import AddrmapNode, FieldNode, MemNode, RegfileNode, RegNode
from systemrdl.rdltypes import OnWriteType

from peakrdl.plugins.exporter import ExporterSubcommandPlugin

STAMP_TAG = "nictx-regmap:"
MD_BEGIN = "<!-- BEGIN generated regs"
MD_END = "<!-- END generated regs -->"
REG_PAGE = 0x100  # registers live in the first 256 bytes of BAR0
REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


# ------------------------------------------------------------------ model

def _text(s):
    """An RDL name/desc as one line of text (two spaces after a full stop
    kept where the source has them inside a line)."""
    return re.sub(r"[ \t]*\n[ \t]*", " ", (s or "").strip())


class Field:
    def __init__(self, node: FieldNode):
        self.name = node.inst_name
        self.lsb = node.lsb
        self.msb = node.msb
        self.width = node.width
        self.reset = node.get_property("reset") or 0
        self.desc = _text(node.get_property("desc"))
        self.swmod = bool(node.get_property("swmod"))
        readable = node.is_sw_readable
        writable = node.is_sw_writable
        if not writable:
            self.access = "ro"
        elif node.get_property("onwrite") == OnWriteType.woclr:
            self.access = "w1c"
        elif not readable:
            self.access = "wo"
        else:
            self.access = "rw"
        enum = node.get_property("encode")
        self.enum = []
        if enum is not None:
            for m in sorted(enum.members.values(), key=lambda m: m.value):
                self.enum.append((m.name, m.value, _text(m.rdl_desc)))
        self.mask = ((1 << self.width) - 1) << self.lsb


class Reg:
    def __init__(self, node: RegNode):
        self.name = node.inst_name
        self.offset = node.address_offset
        self.title = _text(node.get_property("name"))
        self.desc = _text(node.get_property("desc"))
        self.fields = [Field(f) for f in node.fields()]
        self.fields.sort(key=lambda f: f.lsb)
        self.reset = 0
        for f in self.fields:
            self.reset |= f.reset << f.lsb
        self.bits = max(f.msb for f in self.fields) + 1
        w = [f for f in self.fields if f.access != "ro"]
        if not w:
            self.access = "RO"
        elif all(f.access == "w1c" for f in w):
            self.access = "W1C"
        else:
            self.access = "RW"
        self.swmod = any(f.swmod for f in self.fields)
        if node.get_property("regwidth") != 32:
            raise ValueError(f"{self.name}: registers are 32 bits")
        if self.offset % 4:
            raise ValueError(f"{self.name}: offset 0x{self.offset:x} not a dword")
        self.in_page = self.offset < REG_PAGE


class Window:
    def __init__(self, node: MemNode):
        self.name = node.inst_name
        self.offset = node.address_offset
        self.size = node.size
        self.title = _text(node.get_property("name"))
        self.desc = _text(node.get_property("desc"))
        self.access = "WO" if node.is_sw_writable and not node.is_sw_readable else (
            "RW" if node.is_sw_writable else "RO")


class QBlock:
    """A regfile array at the top level: the per-queue register blocks (Q)
    or the MSI-X table (MSIX).  sv: the SystemVerilog name prefix (Q, Msix),
    c: the C one (Q, MSIX)."""

    def __init__(self, node: RegfileNode):
        if not node.is_array or len(node.array_dimensions) != 1:
            raise ValueError(f"{node.inst_name}: a one-dimensional regfile array")
        self.name = node.inst_name
        self.sv = _camel(self.name)
        self.c = self.name
        self.base = node.raw_address_offset
        self.stride = node.array_stride
        self.count = node.array_dimensions[0]
        self.title = _text(node.get_property("name"))
        self.desc = _text(node.get_property("desc"))
        self.regs = []
        for c in node.children():
            if not isinstance(c, RegNode):
                raise ValueError(f"{c.inst_name}: only registers in {self.name}")
            self.regs.append(Reg(c))
        self.regs.sort(key=lambda r: r.offset)
        if self.regs[-1].offset + 4 > self.stride:
            raise ValueError(f"{self.name}: registers beyond the stride")


class RegMap:
    def __init__(self, top: AddrmapNode, rdl_path: str):
        self.name = top.inst_name
        self.title = _text(top.get_property("name"))
        self.desc = _text(top.get_property("desc"))
        self.size = top.size
        self.regs = []
        self.windows = []
        self.qblk = None
        self.blocks = []
        for c in top.children(unroll=False):
            if isinstance(c, RegNode):
                self.regs.append(Reg(c))
            elif isinstance(c, MemNode):
                self.windows.append(Window(c))
            elif isinstance(c, RegfileNode):
                self.blocks.append(QBlock(c))
                if c.inst_name == "Q":
                    self.qblk = self.blocks[-1]
            else:
                raise ValueError(f"{c.inst_name}: only registers and memories at the top level")
        self.regs.sort(key=lambda r: r.offset)
        self.windows.sort(key=lambda w: w.offset)
        self.rdl_rel = os.path.relpath(os.path.abspath(rdl_path), REPO)
        self.stamp = "rdl=%s gen=%s" % (_sha_file(rdl_path), _sha_file(__file__))


def _sha_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _stamped(lines, at, stamp_fmt, rm):
    """lines (no stamp) with the stamp line inserted at index `at`; the body
    hash is of the lines without it, each ended by a newline (what
    `grep -v nictx-regmap: | sha256sum` sees)."""
    body = "".join(l + "\n" for l in lines)
    if STAMP_TAG in body:
        raise ValueError("generated text contains the stamp tag")
    stamp = stamp_fmt % ("%s %s body=%s" % (STAMP_TAG, rm.stamp,
                                          hashlib.sha256(body.encode()).hexdigest()))
    return lines[:at] + [stamp] + lines[at:]


def _camel(name):
    return "".join(p[:1].upper() + p[1:].lower() for p in name.split("_"))


def _unique(names):
    seen = set()
    for n in names:
        if n in seen:
            raise ValueError(f"generated name {n} defined twice")
        seen.add(n)


def _write(path, lines):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(l + "\n" for l in lines))


def _reset_text(v):
    return str(v) if v < 256 else "0x%X" % v


# ------------------------------------------------------------------ SystemVerilog

def _sv_hex(width, v):
    digits = "%x" % v
    digits = digits.rjust((width + 3) // 4, "0")
    if len(digits) > 4:  # group by 4 from the right
        groups = []
        while digits:
            groups.insert(0, digits[-4:])
            digits = digits[:-4]
        digits = "_".join(groups)
    return "%d'h%s" % (width, digits)


def gen_sv(rm: RegMap, pkg="nictx_reg_pkg"):
    bar_bits = max(1, (rm.size - 1).bit_length())
    decl = []   # (type, name, value, comment)

    def p(typ, name, value, comment=""):
        decl.append((typ, name, value, comment))

    out = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// %s: the BAR0 register map of the nictx transmit engine." % pkg,
        "//",
        "// GENERATED by `make regs` from %s" % rm.rdl_rel,
        "// (scripts/regs/nictx_regmap.py): do not edit; edit the .rdl and run",
        "// `make regs`.  scripts/check-regs.sh (in `make test`) checks the stamp.",
        "//",
        "// Reg<R>: offset in the register page; Reg<R>Reset: the register after",
        "// reset; Reg<R>Bits: bits 0..Reg<R>Bits-1 hold its fields.  A 1-bit field",
        "// <R><F> is its bit index; a wider one has <R><F>Lsb and <R><F>Width;",
        "// <R><F>Reset is a field's value after reset; <R><V> an enum value.",
        "package %s;" % pkg,
        "",
        "  // The map names more than the RTL uses (every field, width and reset):",
        "  // an unused name here is not a fault.",
        "  // verilator lint_off UNUSEDPARAM",
        "",
    ]
    names = []
    p("int unsigned", "BarBytes", str(rm.size), "BAR0 size")
    rows = [(r, "Reg", "", 8 if r.in_page else bar_bits, None) for r in rm.regs]
    for qb in rm.blocks:
        ow = max(1, (qb.stride - 1).bit_length())
        rows += [(r, qb.sv + "Reg", qb.sv, ow, qb) for r in qb.regs]
    for r, rp, fp, offw, qb in rows:
        rc = _camel(r.name)
        if qb and r is qb.regs[0]:
            p(None, None, None, "%s[%d] @ 0x%X += 0x%X: %s" % (
                qb.name, qb.count, qb.base, qb.stride, qb.title))
            p("int unsigned", qb.sv + "Base", str(qb.base), "BAR0 offset of entry 0")
            p("int unsigned", qb.sv + "Stride", str(qb.stride), "bytes per entry")
            p("int unsigned", qb.sv + "Max", str(qb.count), "entries")
        p(None, None, None, "%s%s 0x%02X %s: %s" % (
            "%s[i]." % qb.name if qb else "", r.name, r.offset, r.access, r.title))
        p("logic [%d:0]" % (offw - 1), rp + rc, _sv_hex(offw, r.offset))
        p("logic [31:0]", "%s%sReset" % (rp, rc), _sv_hex(32, r.reset))
        p("int unsigned", "%s%sBits" % (rp, rc), str(r.bits))
        for f in r.fields:
            fc = fp + rc + _camel(f.name)
            if f.width == 1:
                p("int unsigned", fc, str(f.lsb), f.access)
                p("logic", fc + "Reset", "1'b%d" % f.reset)
            else:
                p("int unsigned", fc + "Lsb", str(f.lsb), "%s[%d:%d] %s" % (f.name, f.msb, f.lsb, f.access))
                p("int unsigned", fc + "Width", str(f.width))
                p("logic [%d:0]" % (f.width - 1), fc + "Reset", _sv_hex(f.width, f.reset))
            for (en, ev, _) in f.enum:
                p("logic [%d:0]" % (f.width - 1), fp + rc + _camel(en), "%d'd%d" % (f.width, ev))
    for w in rm.windows:
        wc = _camel(w.name)
        p(None, None, None, "%s 0x%03X..0x%03X %s: %s" % (
            w.name, w.offset, w.offset + w.size - 1, w.access, w.title))
        p("logic [%d:0]" % (bar_bits - 1), wc + "Base", _sv_hex(bar_bits, w.offset))
        p("int unsigned", wc + "Bytes", str(w.size))

    tw = max(len(d[0]) for d in decl if d[0])
    nw = max(len(d[1]) for d in decl if d[1])
    first = True
    for typ, name, value, comment in decl:
        if typ is None:
            if not first:
                out.append("")
            out.append("  // " + comment)
            continue
        first = False
        names.append(name)
        line = "  localparam %s %s = %s;" % (typ.ljust(tw), name.ljust(nw), value)
        if comment:
            line += "  // " + comment
        out.append(line)
    out += ["", "  // verilator lint_on UNUSEDPARAM", "", "endpackage"]
    _unique(names)
    return _stamped(out, 1, "// %s", rm)


# ------------------------------------------------------------------ C

def _c_comment(text, width=78):
    if len(text) + 6 <= width:
        return ["/* " + text + " */"]
    lines = textwrap.wrap(text, width - 3)
    return ["/* " + lines[0]] + [" * " + l for l in lines[1:]] + [" */"]


def gen_c(rm: RegMap, prefix="NICTX", guard="NICTX_REGS_GEN_H"):
    out = [
        "/* SPDX-License-Identifier: Apache-2.0 */",
        "/*",
        " * nictx_regs_gen.h - the BAR0 register map of the nictx transmit engine:",
        " * offsets, fields, reset values and access of every register.",
        " *",
        " * GENERATED by `make regs` from %s" % rm.rdl_rel,
        " * (scripts/regs/nictx_regmap.py): do not edit; edit the .rdl and run",
        " * `make regs`.  driver/nictx_hw.h includes it.",
        " *",
        " * NICTX_REG_<R>: offset; NICTX_REG_<R>_RESET: value after reset.  A 1-bit",
        " * field NICTX_<R>_<F> is its mask; a wider one has _SHIFT, _WIDTH and",
        " * _MASK.  NICTX_<R>_<V>: an enum value.  NICTX_REGS(X) lists every",
        " * register as X(name, offset, reset, access, swmod), in offset order:",
        " * access RO (a write is refused), RW or W1C (write 1 to clear); swmod 1",
        " * when a write does more than store (the TAIL doorbell).",
        " */",
        "#ifndef %s" % guard,
        "#define %s" % guard,
        "",
    ]
    names = []

    def d(name, value, comment=None, indent=24):
        names.append(name)
        s = "#define %s %s" % (name.ljust(indent), value)
        if comment:
            s += " /* %s */" % comment
        out.append(s)

    d("%s_BAR0_SIZE" % prefix, "0x%Xu" % rm.size)
    for r in rm.regs:
        out.append("")
        out += _c_comment("%s 0x%02X %s: %s.  %s" % (r.name, r.offset, r.access, r.title, r.desc))
        d("%s_REG_%s" % (prefix, r.name), "0x%02Xu" % r.offset)
        d("%s_REG_%s_RESET" % (prefix, r.name), "0x%08Xu" % r.reset)
        for f in r.fields:
            fn = "%s_%s_%s" % (prefix, r.name, f.name)
            rng = ("bit %d" % f.lsb) if f.width == 1 else ("bits %d:%d" % (f.msb, f.lsb))
            out += _c_comment("%s, %s, reset %s: %s" % (rng, f.access, _reset_text(f.reset), f.desc))
            if f.width == 1:
                d(fn, "0x%Xu" % f.mask)
            else:
                d(fn + "_SHIFT", "%du" % f.lsb)
                d(fn + "_WIDTH", "%du" % f.width)
                d(fn + "_MASK", "0x%08Xu" % f.mask)
            for (en, ev, ed) in f.enum:
                d("%s_%s_%s" % (prefix, r.name, en), "%du" % ev, ed)
    for w in rm.windows:
        out.append("")
        out += _c_comment("%s 0x%03X..0x%03X %s: %s.  %s" % (
            w.name, w.offset, w.offset + w.size - 1, w.access, w.title, w.desc))
        d("%s_%s_BASE" % (prefix, w.name), "0x%03Xu" % w.offset)
        d("%s_%s_SIZE" % (prefix, w.name), "0x%03Xu" % w.size)
    for qb in rm.blocks:
        b = qb.c
        ix = "q" if b == "Q" else "v"
        out.append("")
        out += _c_comment("%s[%d] @ 0x%X += 0x%X: %s.  %s" % (
            qb.name, qb.count, qb.base, qb.stride, qb.title, qb.desc))
        d("%s_%s_BASE" % (prefix, b), "0x%04Xu" % qb.base)
        d("%s_%s_STRIDE" % (prefix, b), "0x%02Xu" % qb.stride)
        d("%s_%s_MAX" % (prefix, b), "%du" % qb.count)
        names.append("%s_REG_%s" % (prefix, b))
        out.append("#define %s_REG_%s(%s, r) (%s_%s_BASE + (%s) * %s_%s_STRIDE + (r))" % (
            prefix, b, ix, prefix, b, ix, prefix, b))
        for r in qb.regs:
            out.append("")
            out += _c_comment("%s[%s].%s 0x%02X %s: %s.  %s" % (
                b, ix, r.name, r.offset, r.access, r.title, r.desc))
            d("%s_%sREG_%s" % (prefix, b, r.name), "0x%02Xu" % r.offset)
            d("%s_%sREG_%s_RESET" % (prefix, b, r.name), "0x%08Xu" % r.reset)
            for f in r.fields:
                fn = "%s_%s_%s_%s" % (prefix, b, r.name, f.name)
                rng = ("bit %d" % f.lsb) if f.width == 1 else ("bits %d:%d" % (f.msb, f.lsb))
                out += _c_comment("%s, %s, reset %s: %s" % (rng, f.access, _reset_text(f.reset), f.desc))
                if f.width == 1:
                    d(fn, "0x%Xu" % f.mask)
                else:
                    d(fn + "_SHIFT", "%du" % f.lsb)
                    d(fn + "_WIDTH", "%du" % f.width)
                    d(fn + "_MASK", "0x%08Xu" % f.mask)

    out += ["", "/* Every register: X(name, offset, reset, access, swmod). */",
            "#define %s_REGS(X) \\" % prefix]
    nw = max(len(r.name) for r in rm.regs) + 1
    for r in rm.regs:
        out.append("    X(%s 0x%02Xu, 0x%08Xu, %-4s %d) \\" % (
            (r.name + ",").ljust(nw), r.offset, r.reset, r.access + ",", int(r.swmod)))
    out[-1] = out[-1][:-2]
    d("%s_NUM_REGS" % prefix, "%du" % len(rm.regs))
    for qb in rm.blocks:
        what = "a queue block" if qb.c == "Q" else "an entry of %s" % qb.name
        out += ["", "/* Every register of %s: X(name, offset in the block, reset," % what,
                " * access, swmod). */", "#define %s_%sREGS(X) \\" % (prefix, qb.c)]
        nw = max(len(r.name) for r in qb.regs) + 1
        for r in qb.regs:
            out.append("    X(%s 0x%02Xu, 0x%08Xu, %-4s %d) \\" % (
                (r.name + ",").ljust(nw), r.offset, r.reset, r.access + ",", int(r.swmod)))
        out[-1] = out[-1][:-2]
        d("%s_NUM_%sREGS" % (prefix, qb.c), "%du" % len(qb.regs))
    out += ["", "#endif /* %s */" % guard]
    _unique(names)
    return _stamped(out, 1, "/* %s */", rm)


# ------------------------------------------------------------------ Markdown

def _md_cell(s):
    return s.replace("|", "\\|")


def gen_md(rm: RegMap):
    begin = "%s: `make regs` writes this section from %s; edit that, not this -->" % (
        MD_BEGIN, rm.rdl_rel)
    out = [
        "",
        "| offset | register / field | bits | access | reset | description |",
        "|---|---|---|---|---|---|",
    ]
    for r in rm.regs:
        desc = r.title + "." + (" " + r.desc if r.desc else "")
        one = len(r.fields) == 1
        if one:
            f = r.fields[0]
            desc += " " + f.desc
            if f.enum:
                desc += " " + " ".join("%s = %d: %s" % e for e in f.enum)
            bits = str(f.lsb) if f.width == 1 else "%d:%d" % (f.msb, f.lsb)
            reset = _reset_text(r.reset)
        else:
            bits = ""
            reset = "0x%X" % r.reset
        out.append("| 0x%02X | **%s** | %s | %s | %s | %s |" % (
            r.offset, r.name, bits, r.access.lower(), reset, _md_cell(desc)))
        if one:
            continue
        for f in r.fields:
            bits = str(f.lsb) if f.width == 1 else "%d:%d" % (f.msb, f.lsb)
            out.append("| | `%s` | %s | %s | %s | %s |" % (
                f.name, bits, f.access, _reset_text(f.reset), _md_cell(f.desc)))
    for w in rm.windows:
        out.append("| 0x%03X-0x%03X | **%s** | | %s | - | %s |" % (
            w.offset, w.offset + w.size - 1, w.name, w.access.lower(),
            _md_cell(w.title + ". " + w.desc)))
    for qb in rm.blocks:
        if qb.c == "Q":
            head = "Queue register blocks (%s[%d]): queue q's block at 0x%X + q * 0x%X.  %s" % (
                qb.name, qb.count, qb.base, qb.stride, _md_cell(qb.desc))
        else:
            head = "%s (%s[%d]): vector v's entry at 0x%X + v * 0x%X.  %s" % (
                qb.title, qb.name, qb.count, qb.base, qb.stride, _md_cell(qb.desc))
        out += ["", head, "",
            "| offset in block | register / field | bits | access | reset | description |",
            "|---|---|---|---|---|---|"]
        for r in qb.regs:
            desc = r.title + "." + (" " + r.desc if r.desc else "")
            f = r.fields[0]
            desc += (" " + f.desc) if f.desc else ""
            bits = str(f.lsb) if f.width == 1 else "%d:%d" % (f.msb, f.lsb)
            out.append("| 0x%02X | **%s** | %s | %s | %s | %s |" % (
                r.offset, r.name, bits, r.access.lower(), _reset_text(r.reset), _md_cell(desc)))
    out += ["", "Access: ro read-only (a write is refused), rw read/write, wo write-only "
            "(reads 0), w1c write 1 to clear.  A register's reset is its value after reset; "
            "offsets of the register page not listed read 0 and refuse writes.", ""]
    return [begin] + _stamped(out, 0, "<!-- %s -->", rm) + [MD_END]


def splice_md(path, section):
    """Replace the lines from the BEGIN marker to the END marker in `path`."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    b = [i for i, l in enumerate(lines) if l.startswith(MD_BEGIN)]
    e = [i for i, l in enumerate(lines) if l.startswith(MD_END)]
    if len(b) != 1 or len(e) != 1 or e[0] < b[0]:
        raise ValueError("%s: needs one '%s ...' line and one '%s' line after it"
                         % (path, MD_BEGIN, MD_END))
    _write(path, lines[:b[0]] + section + lines[e[0] + 1:])


# ------------------------------------------------------------------ PeakRDL plugins

class _Exporter(ExporterSubcommandPlugin):
    def rm(self, top, options):
        if len(options.input_files) != 1:
            raise ValueError("one .rdl input: the stamp hashes it")
        return RegMap(top, options.input_files[0])


class SvPkgExporter(_Exporter):
    short_desc = "nictx: SystemVerilog package of register offsets, bits and resets"

    def do_export(self, top_node, options):
        _write(options.output, gen_sv(self.rm(top_node, options)))


class CHeaderExporter(_Exporter):
    short_desc = "nictx: C header of register offsets, fields, resets and a register table"

    def do_export(self, top_node, options):
        _write(options.output, gen_c(self.rm(top_node, options)))


class MarkdownExporter(_Exporter):
    short_desc = "nictx: Markdown register table, spliced between markers in the output file"

    def do_export(self, top_node, options):
        splice_md(options.output, gen_md(self.rm(top_node, options)))
