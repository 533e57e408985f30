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

`make regs` runs all three.

The register table.  Besides offsets, fields and reset values, the .rdl
gives each writable register its legal values and refusal rule (the
user-defined properties min, max, max_param, max_log2, zero_ok, range_err,
off_err, cfg_lock; alias_of names the register a page register is a second
name of).  The exporters turn them into one table, one row per register id
(rid), written for each consumer:
  - the SystemVerilog package: Rid<R> ids, reg_rid() (a BAR offset to the
    register it names, aliases resolved), the spaces' hit and index
    functions, and the table's columns as functions of the id (rid_ro,
    rid_mask, rid_min, rid_max, rid_zero_ok, rid_range_err, rid_off_err,
    rid_cfg_lock); rtl/nictx_regs.sv decodes and checks every access with
    them;
  - the C header: enum nictx_rid, the const arrays nictx_reg_descs[] (the
    same columns) and nictx_<space>_rids[] (the decode), nictx_reg_rid();
    c-model/cm_regs.c decodes and checks with them and dispatches to its
    handlers by id;
  - the Markdown table: a column of the values a write may carry.
What a register does once a write is taken (the doorbell, the queue reset,
storage) stays in rtl/nictx_regs.sv and c-model/cm_regs.c, by id.

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
    RidW, NumRids, RidNone, Rid<R>, RidQ<R>, RidMsix<R>   register ids
    <space>_hit(off), <space>_index(off), reg_rid(off), rid_*(rid)   the
                             register table (above)
    hw_params_fit(...)       the hardware parameters a bound names fit their
                             fields
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
    enum nictx_rid (NICTX_RID_<R>, NICTX_RID_Q_<R>, NICTX_RID_MSIX_<R>),
    enum nictx_hwp, struct nictx_reg_desc, nictx_reg_descs[],
    nictx_<space>_rids[], nictx_<space>_hit(), nictx_<space>_index(),
    nictx_reg_rid()          the register table (above)
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
ONES32 = 0xFFFFFFFF
# The user-defined properties of a field that say what a write may carry
# (declared in the .rdl).
RULE_UDPS = ("min", "max", "max_param", "max_log2", "zero_ok", "range_err", "off_err",
             "cfg_lock")
RANGE_UDPS = ("min", "max", "max_param", "max_log2", "zero_ok")
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
        self.udp = {p: node.get_property(p, default=None) for p in RULE_UDPS}


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
        self.mask = 0
        for f in self.fields:
            self.mask |= f.mask
        self.alias_node = node.get_property("alias_of", default=None)
        self.alias = None  # (QBlock, Reg) once resolved
        self.rule = None   # Rule once the map is read
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
        self.bar_bits = max(1, (self.size - 1).bit_length())
        self.table = RegTable(self)


class Rule:
    """What a write to a register may carry and what a refused one does:
    legal dwords min..max (max_param: a hardware parameter's value instead;
    max_log2: (1 << the value of that register of the same queue) - 1), or 0
    with zero_ok; range_err, off_err: the ERR fields (names) a value out of
    range and a write while disabled set; cfg_lock: ring configuration.
    None for a read-only register."""

    def __init__(self, reg: Reg, where: str):
        self.min, self.max, self.max_param, self.max_log2 = 0, ONES32, None, None
        self.zero_ok = self.cfg_lock = False
        self.range_err = self.off_err = None
        self.enum = []
        ranged = [f for f in reg.fields if f.enum or any(f.udp[p] is not None for p in RANGE_UDPS)]
        if ranged and (len(reg.fields) != 1 or reg.fields[0].lsb != 0):
            raise ValueError(f"{where}: a range needs a register of one field at bit 0")

        def one(prop):
            vals = {f.udp[prop] for f in reg.fields}
            if len(vals) != 1:
                raise ValueError(f"{where}: its fields disagree on {prop}")
            return vals.pop()
        self.range_err = one("range_err")
        self.off_err = one("off_err")
        self.cfg_lock = bool(one("cfg_lock"))
        if reg.access == "W1C":
            return  # any value: bits above the fields ignored
        self.max = (1 << reg.bits) - 1 if reg.bits < 32 else ONES32
        if not ranged:
            return
        f = reg.fields[0]
        u = f.udp
        if f.enum:
            vals = [v for (_, v, _) in f.enum]
            if vals != list(range(min(vals), max(vals) + 1)):
                raise ValueError(f"{where}: enum values not contiguous")
            if u["min"] is not None or u["max"] is not None:
                raise ValueError(f"{where}: an enum's members are its range")
            self.min, self.max = min(vals), max(vals)
            self.enum = [n for (n, _, _) in f.enum]
        if u["min"] is not None:
            self.min = u["min"]
        bounds = [p for p in ("max", "max_param", "max_log2") if u[p] is not None]
        if len(bounds) > 1:
            raise ValueError(f"{where}: one of max, max_param, max_log2")
        if u["max"] is not None:
            self.max = u["max"]
        self.max_param = u["max_param"]
        self.max_log2 = u["max_log2"]
        if self.max_param or self.max_log2:
            self.max = None
        self.zero_ok = bool(u["zero_ok"])
        if self.max is not None and not (0 <= self.min <= self.max <= (1 << f.width) - 1):
            raise ValueError(f"{where}: range {self.min}..{self.max} outside the field")
        if self.max_param is not None and not re.fullmatch(r"[A-Z][A-Za-z0-9]*", self.max_param):
            raise ValueError(f"{where}: max_param {self.max_param!r}: a parameter name")

    def key(self):
        return (self.min, self.max, self.max_param, self.max_log2, self.zero_ok, self.cfg_lock,
                self.range_err, self.off_err, tuple(self.enum))


def _num_text(v):
    return str(v) if v <= 0x10000 else "0x%X" % v


def _err_short(name):
    return name.split(".")[-1] if name else name


def rule_text(reg):
    """The values a write to reg may carry, and what a write outside them
    sets, in a few words (the docs' and the comments' column)."""
    r = reg.rule
    if r is None:
        return "refused (BAD_ACCESS)"
    if reg.access == "W1C":
        return "any (bits %d:%d ignored)" % (31, reg.bits) if reg.bits < 32 else "any"
    parts = []
    if r.off_err:
        parts.append("while disabled: %s" % _err_short(r.off_err))
    if r.enum:
        rng = ", ".join(r.enum)
    elif r.max_log2:
        rng = "below 1 << %s" % r.max_log2
    else:
        hi = r.max_param if r.max_param else _num_text(r.max)
        rng = "%s..%s" % (_num_text(r.min), hi)
        if r.zero_ok:
            rng = "0 or " + rng
    if r.min == 0 and r.max == ONES32 and not r.zero_ok:
        parts.append("any")
    else:
        parts.append("%s, else %s" % (rng, _err_short(r.range_err)))
    if r.cfg_lock:
        parts.append("ring config (CFG)")
    return "; ".join(parts)


class Space:
    """A part of the BAR the decode tells apart by its high offset bits: the
    register page, the registers beyond it (the PBA), a regfile array (Q,
    MSIX).  base, size: a power of two, base aligned to it; stride and
    count for an array (its entries), else stride = size, count = 1."""

    def __init__(self, name, base, size, stride, count, regs):
        self.name = name            # C: NICTX_SPACE_<name>, nictx_<name.lower()>_*
        self.sv = _camel(name)      # SV: <name.lower()>_hit ...
        self.base, self.size, self.stride, self.count = base, size, stride, count
        self.regs = regs            # (offset in an entry, Reg)
        if size & (size - 1) or base % size or stride & (stride - 1) or stride * count != size:
            raise ValueError(f"{name}: 0x{base:x} + 0x{size:x} not an aligned power of two")
        self.size_bits = size.bit_length() - 1
        self.stride_bits = stride.bit_length() - 1


class Rid:
    """One row of the register table: a register with its own storage (or
    read value).  sv: its SystemVerilog id name; c: its C id name after
    <PREFIX>_RID_; name: as the docs write it."""

    def __init__(self, space, reg, sv, c, name):
        self.space, self.reg, self.sv, self.c, self.name = space, reg, sv, c, name


class RegTable:
    """The register table: one id per register of the page, the PBA and an
    entry of each regfile array; the page's aliases decode to their
    target's id."""

    def __init__(self, rm):
        self.rm = rm
        self.spaces = self._spaces(rm)
        self.err = self._err_reg(rm)
        self._rules()
        self._aliases(rm)
        self._ids()
        self._bounds()

    @staticmethod
    def _spaces(rm):
        """The page, the registers beyond it (one aligned window, named by
        their common prefix), each regfile array; disjoint, inside the BAR."""
        page = [r for r in rm.regs if r.in_page]
        far = [r for r in rm.regs if not r.in_page]
        spaces = [Space("PAGE", 0, REG_PAGE, REG_PAGE, 1, [(r.offset, r) for r in page])]
        if far:
            lo = min(r.offset for r in far)
            span = max(r.offset for r in far) + 4 - lo
            size = 1 << (span - 1).bit_length()
            name = os.path.commonprefix([r.name for r in far]).rstrip("_")
            if not name:
                raise ValueError("the registers beyond the page need a common name prefix")
            spaces.append(Space(name, lo, size, size, 1, [(r.offset - lo, r) for r in far]))
        for qb in rm.blocks:
            spaces.append(Space(qb.c, qb.base, qb.stride * qb.count, qb.stride, qb.count,
                                [(r.offset, r) for r in qb.regs]))
        spans = sorted((s.base, s.base + s.size, s.name) for s in spaces)
        for (_, a1, an), (b0, _, bn) in zip(spans, spans[1:]):
            if b0 < a1:
                raise ValueError(f"spaces {an} and {bn} overlap")
        if spans[-1][1] > rm.size:
            raise ValueError("a space beyond the BAR")
        return spaces

    @staticmethod
    def _err_reg(rm):
        """The register whose fields range_err and off_err name."""
        names = {f.udp[p] for r in rm.regs for f in r.fields for p in ("range_err", "off_err")
                 if f.udp[p]}
        errs = {n.partition(".")[0] for n in names}
        if len(errs) != 1:
            raise ValueError("range_err and off_err name fields of one register: %s" % sorted(errs))
        err_name = errs.pop()
        return next(r for r in rm.regs if r.name == err_name)

    def _rules(self):
        for sp in self.spaces:
            for _, r in sp.regs:
                where = r.name if sp.count == 1 else "%s.%s" % (sp.name, r.name)
                r.rule = None if r.access == "RO" else Rule(r, where)
                for e in (r.rule.range_err, r.rule.off_err) if r.rule else ():
                    if e is not None:
                        self.err_field(e, where)

    def _aliases(self, rm):
        """A page register's alias_of: entry 0 of an array, the same fields
        and rules."""
        by_block = {qb.name: qb for qb in rm.blocks}
        for _, r in self.spaces[0].regs:
            a = r.alias_node
            if a is None:
                continue
            qb = by_block.get(a.parent.inst_name)
            if qb is None or list(a.parent.current_idx or []) != [0]:
                raise ValueError(f"{r.name}: alias_of names entry 0 of a regfile array")
            t = next(x for x in qb.regs if x.name == a.inst_name)
            if ([(f.lsb, f.width, f.reset, f.access) for f in r.fields] !=
                    [(f.lsb, f.width, f.reset, f.access) for f in t.fields] or
                    (r.rule and r.rule.key()) != (t.rule and t.rule.key())):
                raise ValueError(f"{r.name}: not the same fields and rules as {qb.name}[0].{t.name}")
            r.alias = (qb, t)

    def _ids(self):
        """Ids: none, the page's own registers, the registers beyond it,
        each array's entry; an alias has its target's."""
        self.rids = [Rid(None, None, "RidNone", "NONE", "NONE")]
        self.rid_of = {}  # id(Reg) -> index in rids
        for sp in self.spaces:
            for _, r in sp.regs:
                if r.alias:
                    continue
                blk = sp.count > 1
                self.rid_of[id(r)] = len(self.rids)
                self.rids.append(Rid(sp, r, "Rid" + (sp.sv if blk else "") + _camel(r.name),
                                     (sp.name + "_" if blk else "") + r.name,
                                     (sp.name + "." if blk else "") + r.name))
        for _, r in self.spaces[0].regs:
            if r.alias:
                self.rid_of[id(r)] = self.rid_of[id(r.alias[1])]
        self.bits = max(1, (len(self.rids) - 1).bit_length())

    def _bounds(self):
        """max_log2 names a register of the same space (or its alias); the
        hardware parameters the bounds name."""
        for sp in self.spaces:
            for _, r in sp.regs:
                if r.rule and r.rule.max_log2:
                    t = next((x for _, x in sp.regs if x.name == r.rule.max_log2), None)
                    if t is None or len(t.fields) != 1:
                        raise ValueError(f"{r.name}: max_log2 {r.rule.max_log2}: no such register")
                    r.max_log2_rid = self.rid_of[id(t)]
                    r.max_log2_width = t.fields[0].width
        self.params = sorted({r.rule.max_param for r in self.primaries()
                              if r.rule and r.rule.max_param})
        logs = {(self.rids[r.max_log2_rid], r.max_log2_width) for r in self.primaries()
                if r.rule and r.rule.max_log2}
        if len(logs) > 1:
            raise ValueError("max_log2: one register bounds others, not several")
        self.log2 = logs.pop() if logs else None  # (Rid, width)

    def primaries(self):
        return [x.reg for x in self.rids[1:]]

    def err_field(self, name, where):
        """The ERR field a rule names ("ERR.<F>")."""
        reg, _, fld = (name or "").partition(".")
        f = None
        if self.err is not None and reg == self.err.name:
            f = next((x for x in self.err.fields if x.name == fld and x.width == 1), None)
        if f is None:
            raise ValueError(f"{where}: {name!r} is no 1-bit field of ERR")
        return f

    def decode(self, sp):
        """(dword offset in an entry of sp, Rid) for every register of sp."""
        return [(off, self.rids[self.rid_of[id(r)]]) for off, r in sp.regs]


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
        "// Rid<R>: a register's id in the register table (the functions at the",
        "// end: the decode of an offset, each register's write mask, legal values",
        "// and refusal rule).",
        "package %s;" % pkg,
        "",
        "  // The map names more than the RTL uses (every field, width and reset):",
        "  // an unused name here is not a fault.",
        "  // verilator lint_off UNUSEDPARAM",
        "",
    ]
    names = []
    out += _sv_format(_sv_decls(rm), names)
    out += ["", "  // verilator lint_on UNUSEDPARAM", ""]
    out += _sv_table(rm)
    out += ["", "endpackage"]
    _unique(names)
    return _stamped(out, 1, "// %s", rm)


def _sv_decls(rm):
    """The package's localparams as (type, name, value, comment); type None:
    a comment line of its own."""
    decl = []

    def p(typ, name, value, comment=""):
        decl.append((typ, name, value, comment))
    p("int unsigned", "BarBytes", str(rm.size), "BAR0 size")
    for r in rm.regs:
        _sv_reg_decls(p, r, "Reg", "", 8 if r.in_page else rm.bar_bits, None)
    for qb in rm.blocks:
        p(None, None, None, "%s[%d] @ 0x%X += 0x%X: %s" % (
            qb.name, qb.count, qb.base, qb.stride, qb.title))
        p("int unsigned", qb.sv + "Base", str(qb.base), "BAR0 offset of entry 0")
        p("int unsigned", qb.sv + "Stride", str(qb.stride), "bytes per entry")
        p("int unsigned", qb.sv + "Max", str(qb.count), "entries")
        for r in qb.regs:
            _sv_reg_decls(p, r, qb.sv + "Reg", qb.sv, max(1, (qb.stride - 1).bit_length()), qb)
    for w in rm.windows:
        wc = _camel(w.name)
        p(None, None, None, "%s 0x%03X..0x%03X %s: %s" % (
            w.name, w.offset, w.offset + w.size - 1, w.access, w.title))
        p("logic [%d:0]" % (rm.bar_bits - 1), wc + "Base", _sv_hex(rm.bar_bits, w.offset))
        p("int unsigned", wc + "Bytes", str(w.size))
    t = rm.table
    p(None, None, None, "Register ids (the register table, below): one per register; RidNone: none")
    p("int unsigned", "RidW", str(t.bits), "bits of an id")
    p("int unsigned", "NumRids", str(len(t.rids)))
    for i, x in enumerate(t.rids):
        p("logic [%d:0]" % (t.bits - 1), x.sv, "%d'd%d" % (t.bits, i), x.name)
    return decl


def _sv_reg_decls(p, r, rp, fp, offw, qb):
    """A register's localparams: offset, reset, bits, its fields and enums."""
    rc = _camel(r.name)
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


def _sv_format(decl, names):
    """The localparam lines, aligned; their names appended to names."""
    out = []
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
    return out


def _sv_num(v):
    return "32'd%d" % v if v <= 0x10000 else _sv_hex(32, v)


def _sv_case(fn, typ, args, rows, default, comment):
    """A function of the register id: one case arm per row (rid, value,
    note), the rest default."""
    out = [""] + ["  // " + l for l in comment]
    out.append("  function automatic %s %s(%s);" % (typ, fn, args))
    out.append("    unique case (rid)")
    w = max([len(r[0].sv) for r in rows] + [7])
    for rid, val, note in rows:
        line = "      %s %s = %s;" % ((rid.sv + ":").ljust(w + 1), fn, val)
        out.append(line + ("  // " + note if note else ""))
    out.append("      %s %s = %s;" % ("default:".ljust(w + 1), fn, default))
    out.append("    endcase")
    out.append("  endfunction")
    return out


SV_TABLE_HEAD = [
    "  // ---- The register table ------------------------------------------------",
    "  // Every register has an id (Rid*, above); a register of the page that is",
    "  // another's storage under a second name (alias_of: queue 0's block,",
    "  // vector 0's MSI-X entry) decodes to that one's id.  reg_rid() gives the",
    "  // id of the dword at a BAR offset; the rid_* functions give its row:",
    "  //   rid_ro         a write is refused with ERR.BAD_ACCESS (read-only, or",
    "  //                  no register: RidNone)",
    "  //   rid_mask       the bits a write stores (the register's fields)",
    "  //   rid_min, rid_max, rid_zero_ok   a written dword is legal when",
    "  //                  rid_min <= v <= rid_max, or v == 0 with rid_zero_ok;",
    "  //                  rid_max takes the hardware parameters a bound names",
    "  //                  and the value of the register a max_log2 bound names",
    "  //   rid_range_err  the ERR bits a value out of range sets",
    "  //   rid_off_err    the ERR bits a write while CTRL.ENABLE is 0 sets",
    "  //                  (refused); 0: allowed",
    "  //   rid_cfg_lock   ring configuration: refused (ERR.CFG) unless open",
    "  // A write is refused for the first of: rid_ro, rid_off_err while",
    "  // disabled, out of range, rid_cfg_lock while closed.  (Functions, not",
    "  // constant arrays: Yosys 0.23 takes no assignment patterns.)",
]


def _sv_table(rm):
    """The register table as functions of the package."""
    t = rm.table
    wr = [x for x in t.rids[1:] if x.reg.rule is not None]
    return (SV_TABLE_HEAD + _sv_spaces(t, rm.bar_bits) + _sv_decode(t, rm.bar_bits) +
            _sv_columns(t, wr) + _sv_range_err(t, wr) + _sv_fit(t, wr))


def _sv_spaces(t, bb):
    out = ["", "  // Where a BAR offset is: <space>_hit; an array's entry: <space>_index.",
           "  // Each takes the whole offset and looks at some of its bits.",
           "  // verilator lint_off UNUSEDSIGNAL"]
    hi = bb - 1
    for sp in t.spaces:
        fn = sp.name.lower() + "_hit"
        out.append("  function automatic logic %s(logic [%d:0] off);  // 0x%X..0x%X" % (
            fn, hi, sp.base, sp.base + sp.size - 1))
        out.append("    %s = off[%d:%d] == %d'h%x;" % (
            fn, hi, sp.size_bits, hi - sp.size_bits + 1, sp.base >> sp.size_bits))
        out.append("  endfunction")
        if sp.count > 1:
            fn = sp.name.lower() + "_index"
            ib = sp.size_bits - sp.stride_bits
            out.append("  function automatic logic [%d:0] %s(logic [%d:0] off);" % (ib - 1, fn, hi))
            out.append("    %s = off[%d:%d];" % (fn, sp.size_bits - 1, sp.stride_bits))
            out.append("  endfunction")
    return out + ["  // verilator lint_on UNUSEDSIGNAL"]


def _sv_decode(t, bb):
    out = ["", "  // The register the dword at BAR offset off names (RidNone: none).",
           "  function automatic logic [RidW-1:0] reg_rid(logic [%d:0] off);" % (bb - 1),
           "    reg_rid = RidNone;"]
    for i, sp in enumerate(t.spaces):
        ob = sp.stride_bits
        out.append("    %s (%s_hit(off)) begin" % ("if" if i == 0 else "end else if", sp.name.lower()))
        out.append("      unique case (off[%d:0])" % (ob - 1))
        dec = t.decode(sp)
        w = max(len(x.sv) for _, x in dec)
        regs = dict(sp.regs)
        for off, x in dec:
            r = regs[off]
            al = " (%s[0].%s)" % (r.alias[0].name, r.alias[1].name) if r.alias else ""
            out.append("        %s: reg_rid = %s  // %s%s" % (
                _sv_hex(ob, off), (x.sv + ";").ljust(w + 1), r.name, al))
        out.append("        default: reg_rid = RidNone;")
        out.append("      endcase")
    return out + ["    end", "  endfunction"]


def _sv_columns(t, wr):
    rw = "logic [RidW-1:0] rid"
    out = _sv_case("rid_ro", "logic", rw, [(x, "1'b0", None) for x in wr], "1'b1",
                   ["Read-only or no register: a write is refused (ERR.BAD_ACCESS)."])
    out += _sv_case("rid_mask", "logic [31:0]", rw,
                    [(x, _sv_hex(32, x.reg.mask), None) for x in wr if x.reg.mask != ONES32],
                    "32'hffff_ffff", ["The bits a write stores."])
    out += _sv_case("rid_min", "logic [31:0]", rw,
                    [(x, _sv_num(x.reg.rule.min), None) for x in wr if x.reg.rule.min],
                    "32'd0", ["The least legal value of a written dword."])
    args = [rw] + ["int unsigned %s" % n for n in t.params]
    lname = t.log2[0].reg.name.lower() if t.log2 else None
    if t.log2:
        args.append("logic [%d:0] %s" % (t.log2[1] - 1, lname))
    rows = []
    for x in wr:
        r = x.reg.rule
        if r.max_param:
            rows.append((x, "32'(%s)" % r.max_param, None))
        elif r.max_log2:
            rows.append((x, "(32'd1 << %s) - 32'd1" % lname, "below 1 << %s" % r.max_log2))
        elif r.max != ONES32:
            rows.append((x, _sv_num(r.max), None))
    out += _sv_case("rid_max", "logic [31:0]", (",\n" + " " * 38).join(args), rows,
                    "32'hffff_ffff",
                    ["The greatest legal value of a written dword: a constant, a hardware",
                     "parameter of rtl/nictx_regs.sv, or (1 << R) - 1 for the value R of a",
                     "register of the accessed queue."])
    out += _sv_case("rid_zero_ok", "logic", rw,
                    [(x, "1'b1", None) for x in wr if x.reg.rule.zero_ok], "1'b0",
                    ["0 is legal too (0 = off)."])
    out += _sv_case("rid_cfg_lock", "logic", rw,
                    [(x, "1'b1", None) for x in wr if x.reg.rule.cfg_lock], "1'b0",
                    ["Ring configuration: refused (ERR.CFG) other than between a queue",
                     "reset (or power-on) and the next enable, or while a reset is pending."])
    return out


def _sv_range_err(t, wr):
    """rid_range_err, rid_off_err: ERR bits (the ERR register's width)."""
    rw = "logic [RidW-1:0] rid"
    typ = "logic [Reg%sBits-1:0]" % _camel(t.err.name)
    default = "%s.BAD_ACCESS" % t.err.name

    def errv(name):
        return "%d'h%x" % (t.err.bits, 1 << t.err_field(name, name).lsb)
    rows = [(x, errv(x.reg.rule.range_err), x.reg.rule.range_err) for x in wr
            if x.reg.access != "W1C" and x.reg.rule.range_err != default]
    out = _sv_case("rid_range_err", typ, rw, rows, errv(default),
                   ["The ERR bits a value out of range sets (default: %s)." % default])
    rows = [(x, errv(x.reg.rule.off_err), x.reg.rule.off_err) for x in wr if x.reg.rule.off_err]
    return out + _sv_case("rid_off_err", typ, rw, rows, "'0",
                          ["The ERR bits a write while CTRL.ENABLE is 0 sets (refused); 0: allowed."])


def _sv_fit(t, wr):
    """hw_params_fit: each parameter a bound names lies in its registers'
    range (an elaboration check of rtl/nictx_regs.sv)."""
    if not t.params:
        return []
    conds = []
    for n in t.params:
        regs = [x.reg for x in wr if x.reg.rule.max_param == n]
        lo = max(r.rule.min for r in regs)
        hi = min((1 << r.fields[0].width) - 1 for r in regs)
        conds.append("%s >= %d && %s <= %d" % (n, lo, n, hi))
    return ["", "  // The hardware parameters a bound names lie inside their registers' fields",
            "  // (and above their least legal values).",
            "  function automatic logic hw_params_fit(%s);" % (",\n" + " " * 41).join(
                "int unsigned %s" % n for n in t.params),
            "    hw_params_fit = " + " &&\n                    ".join(conds) + ";",
            "  endfunction"]


# ------------------------------------------------------------------ C

def _c_comment(text, width=78):
    if len(text) + 6 <= width:
        return ["/* " + text + " */"]
    lines = textwrap.wrap(text, width - 3)
    return ["/* " + lines[0]] + [" * " + l for l in lines[1:]] + [" */"]


C_HEAD = [
    "/* SPDX-License-Identifier: Apache-2.0 */",
    "/*",
    " * nictx_regs_gen.h - the BAR0 register map of the nictx transmit engine:",
    " * offsets, fields, reset values and access of every register.",
    " *",
    " * GENERATED by `make regs` from %(rdl)s",
    " * (scripts/regs/nictx_regmap.py): do not edit; edit the .rdl and run",
    " * `make regs`.  driver/nictx_hw.h includes it.",
    " *",
    " * NICTX_REG_<R>: offset; NICTX_REG_<R>_RESET: value after reset.  A 1-bit",
    " * field NICTX_<R>_<F> is its mask; a wider one has _SHIFT, _WIDTH and",
    " * _MASK.  NICTX_<R>_<V>: an enum value.  NICTX_REGS(X) lists every",
    " * register as X(name, offset, reset, access, swmod), in offset order:",
    " * access RO (a write is refused), RW or W1C (write 1 to clear); swmod 1",
    " * when a write does more than store (the TAIL doorbell).  A register's",
    " * comment ends with the values a write may carry (Writes:) and the ERR",
    " * bit a write outside them sets.  At the end, the register table: enum",
    " * nictx_rid, nictx_reg_descs[] (each register's storage bits, reset,",
    " * legal values and refusal rule) and the decode of an offset to its",
    " * register (nictx_reg_rid()).",
    " */",
    "#ifndef %(guard)s",
    "#define %(guard)s",
    "",
    "#include <stdint.h>",
    "",
]


def gen_c(rm: RegMap, prefix="NICTX", guard="NICTX_REGS_GEN_H"):
    out = [l % {"rdl": rm.rdl_rel, "guard": guard} for l in C_HEAD]
    names = []

    def d(name, value, comment=None, indent=24):
        names.append(name)
        s = "#define %s %s" % (name.ljust(indent), value)
        if comment:
            s += " /* %s */" % comment
        out.append(s)

    d("%s_BAR0_SIZE" % prefix, "0x%Xu" % rm.size)
    for r in rm.regs:
        _c_reg(out, d, r, r.name, "%s_REG_%s" % (prefix, r.name), "%s_%s" % (prefix, r.name),
               "%s_%s" % (prefix, r.name))
    for w in rm.windows:
        out.append("")
        out += _c_comment("%s 0x%03X..0x%03X %s: %s.  %s" % (
            w.name, w.offset, w.offset + w.size - 1, w.access, w.title, w.desc))
        d("%s_%s_BASE" % (prefix, w.name), "0x%03Xu" % w.offset)
        d("%s_%s_SIZE" % (prefix, w.name), "0x%03Xu" % w.size)
    for qb in rm.blocks:
        _c_block(out, d, names, qb, prefix)
    out += _c_lists(rm, prefix, names)
    out += _c_table(rm, prefix, names)
    out += ["", "#endif /* %s */" % guard]
    _unique(names)
    return _stamped(out, 1, "/* %s */", rm)


def _c_reg(out, d, r, title, reg_name, field_prefix, enum_prefix=None):
    """A register: its offset, reset and fields (masks; enum values, named
    after enum_prefix)."""
    out.append("")
    out += _c_comment("  ".join(x for x in ("%s 0x%02X %s: %s." % (
        title, r.offset, r.access, r.title), r.desc, "Writes: %s." % rule_text(r)) if x))
    d(reg_name, "0x%02Xu" % r.offset)
    d(reg_name + "_RESET", "0x%08Xu" % r.reset)
    for f in r.fields:
        fn = "%s_%s" % (field_prefix, f.name)
        rng = ("bit %d" % f.lsb) if f.width == 1 else ("bits %d:%d" % (f.msb, f.lsb))
        out += _c_comment("%s, %s, reset %s: %s" % (rng, f.access, _reset_text(f.reset), f.desc))
        if f.width == 1:
            d(fn, "0x%Xu" % f.mask)
        else:
            d(fn + "_SHIFT", "%du" % f.lsb)
            d(fn + "_WIDTH", "%du" % f.width)
            d(fn + "_MASK", "0x%08Xu" % f.mask)
        for (en, ev, ed) in f.enum if enum_prefix else ():
            d("%s_%s" % (enum_prefix, en), "%du" % ev, ed)


def _c_block(out, d, names, qb, prefix):
    """A regfile array: its base, stride, count, offset macro, registers."""
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
        _c_reg(out, d, r, "%s[%s].%s" % (b, ix, r.name), "%s_%sREG_%s" % (prefix, b, r.name),
               "%s_%s_%s" % (prefix, b, r.name))


def _c_lists(rm, prefix, names):
    """NICTX_REGS(X) and each array's NICTX_<B>REGS(X)."""
    def rows(regs):
        nw = max(len(r.name) for r in regs) + 1
        lines = ["    X(%s 0x%02Xu, 0x%08Xu, %-4s %d) \\" % (
            (r.name + ",").ljust(nw), r.offset, r.reset, r.access + ",", int(r.swmod))
            for r in regs]
        lines[-1] = lines[-1][:-2]
        return lines
    out = ["", "/* Every register: X(name, offset, reset, access, swmod). */",
           "#define %s_REGS(X) \\" % prefix] + rows(rm.regs)
    names.append("%s_NUM_REGS" % prefix)
    out.append("#define %s %du" % (("%s_NUM_REGS" % prefix).ljust(24), len(rm.regs)))
    for qb in rm.blocks:
        what = "a queue block" if qb.c == "Q" else "an entry of %s" % qb.name
        out += ["", "/* Every register of %s: X(name, offset in the block, reset," % what,
                " * access, swmod). */", "#define %s_%sREGS(X) \\" % (prefix, qb.c)]
        out += rows(qb.regs)
        names.append("%s_NUM_%sREGS" % (prefix, qb.c))
        out.append("#define %s %du" % (("%s_NUM_%sREGS" % (prefix, qb.c)).ljust(24), len(qb.regs)))
    return out


def _c_enum(name, rows, comment):
    """enum name { rows (ident, note) }."""
    out = [""] + _c_comment(comment) + ["enum %s {" % name]
    w = max(len(r[0]) for r in rows) + 1
    for ident, note in rows:
        out.append(("    %s%s" % ((ident + ",").ljust(w), (" /* %s */" % note) if note else "")).rstrip())
    out.append("};")
    return out


def _c_hwp(prefix, n):
    return "%s_HWP_%s" % (prefix, re.sub(r"(?<!^)(?=[A-Z])", "_", n).upper())


def _c_table(rm, prefix, names):
    """The register table as C: the ids, the rows, the decode."""
    t = rm.table
    names += ["%s_RID_%s" % (prefix, x.c) for x in t.rids] + ["%s_NUM_RIDS" % prefix]
    return (["", "/* ---- The register table (rtl/nictx_reg_pkg.sv has it as functions) ---- */"] +
            _c_enums(t, prefix) + _c_struct(prefix) + _c_rows(t, prefix) +
            _c_decode(rm, t, prefix))


def _c_enums(t, prefix):
    lp = prefix.lower()
    spaces = [("%s_SPACE_NONE" % prefix, "no register")] + [
        ("%s_SPACE_%s" % (prefix, sp.name), "0x%X..0x%X%s" % (
            sp.base, sp.base + sp.size - 1,
            ", %d entries of 0x%X bytes" % (sp.count, sp.stride) if sp.count > 1 else ""))
        for sp in t.spaces]
    out = _c_enum("%s_space" % lp, spaces, "Where a register is: the parts of BAR0 the decode "
                  "tells apart by the offset's high bits.")
    out += _c_enum("%s_access" % lp, [("%s_ACC_RO" % prefix, "a write is refused (BAD_ACCESS)"),
                                      ("%s_ACC_RW" % prefix, None),
                                      ("%s_ACC_W1C" % prefix, "write 1 to clear")],
                   "A register's software access.")
    hw = [("%s_HWP_NONE" % prefix, "the bound is the row's max")]
    hw += [(_c_hwp(prefix, n), n) for n in t.params] + [("%s_NUM_HWPS" % prefix, None)]
    out += _c_enum("%s_hwp" % lp, hw, "The hardware parameters of rtl/nictx_regs.sv a register's "
                   "greatest legal value may be (max_param): sizes its instance sets.")
    rids = []
    for x in t.rids:
        off = dict((id(r), o) for o, r in x.space.regs)[id(x.reg)] if x.space else None
        rids.append(("%s_RID_%s" % (prefix, x.c),
                     ("0x%04X " % (x.space.base + off) if x.space else "") + x.name))
    rids += [("%s_NUM_RIDS" % prefix, None)]
    return out + _c_enum("%s_rid" % lp, rids, "Register ids: one per register of the page, the "
                         "%s and an entry of each array; a page register that is another's "
                         "storage under a second name decodes to that one's id."
                         % t.spaces[1].name)


def _c_struct(prefix):
    lp = prefix.lower()
    return [""] + _c_comment(
        "A row of the register table.  A written dword v is legal when min <= v <= max (max: "
        "the hardware parameter max_hwp instead, or (1 << R) - 1 for the value R of register "
        "max_log2 of the same queue), or v == 0 with zero_ok.  A write is refused, the register "
        "unchanged, for the first of: access RO (ERR.BAD_ACCESS), off_err with CTRL.ENABLE 0, "
        "v out of range (range_err), cfg_lock while the ring configuration is closed "
        "(ERR.CFG).  A write taken stores v & mask.") + [
        "struct %s_reg_desc {" % lp,
        "    const char *name;   /* as in the map: CTRL, Q.TAIL, MSIX.VEC_CTRL */",
        "    uint8_t space;      /* enum %s_space */" % lp,
        "    uint8_t access;     /* enum %s_access */" % lp,
        "    uint16_t off;       /* offset in the space (an entry of an array) */",
        "    uint32_t mask;      /* the bits a write stores (the register's fields) */",
        "    uint32_t reset;     /* the value after reset */",
        "    uint32_t min, max;  /* legal values */",
        "    uint8_t max_hwp;    /* enum %s_hwp: max is that parameter */" % lp,
        "    uint8_t max_log2;   /* enum %s_rid: max is (1 << its value) - 1 */" % lp,
        "    uint8_t zero_ok;    /* 0 is legal too */",
        "    uint8_t cfg_lock;   /* ring configuration (ERR.CFG unless open) */",
        "    uint32_t range_err; /* ERR bits a value out of range sets */",
        "    uint32_t off_err;   /* ERR bits a write while disabled sets; 0: allowed */",
        "};"]


def _c_rows(t, prefix):
    """nictx_reg_descs[]: one row per id (a read-only row's range unused)."""
    lp = prefix.lower()
    out = ["", "static const struct %s_reg_desc %s_reg_descs[%s_NUM_RIDS] = {" % (lp, lp, prefix),
           "    /* name, space, access, off, mask, reset, min, max,",
           "     * max_hwp, max_log2, zero_ok, cfg_lock, range_err, off_err */"]
    bad = "%s.BAD_ACCESS" % t.err.name

    def errm(name):
        t.err_field(name, name)
        return "%s_%s" % (prefix, name.replace(".", "_"))
    for x in t.rids:
        r = x.reg
        ru = r.rule if r else None
        off = dict((id(y), o) for o, y in x.space.regs)[id(r)] if r else 0
        mx = ru.max if ru and ru.max is not None else 0
        out.append('    {"%s", %s_SPACE_%s, %s_ACC_%s, 0x%03Xu, 0x%08Xu, 0x%08Xu, %du, %s,' % (
            x.name, prefix, x.space.name if x.space else "NONE", prefix,
            r.access if r else "RO", off, r.mask if r else 0, r.reset if r else 0,
            ru.min if ru else 0, ("0x%Xu" % mx) if mx > 0x10000 else "%du" % mx))
        out.append("     %s, %s_RID_%s, %d, %d, %s, %s}," % (
            _c_hwp(prefix, ru.max_param) if ru and ru.max_param else "%s_HWP_NONE" % prefix,
            prefix, t.rids[r.max_log2_rid].c if ru and ru.max_log2 else "NONE",
            int(bool(ru and ru.zero_ok)), int(bool(ru and ru.cfg_lock)),
            errm(ru.range_err if ru and r.access != "W1C" else bad),
            errm(ru.off_err) if ru and ru.off_err else "0"))
    return out + ["};"]


def _c_decode(rm, t, prefix):
    """The decode: a lookup table per space, the hit and index functions,
    nictx_reg_rid()."""
    lp = prefix.lower()
    out = [""] + _c_comment("The decode: the register the dword at an offset names, per space "
                            "(index: the offset in the space, or in an entry, / 4).")
    for sp in t.spaces:
        dec = dict(t.decode(sp))
        regs = dict(sp.regs)
        w = max(len(x.c) for x in dec.values()) + len(prefix) + 6
        out.append("static const uint8_t %s_%s_rids[%d] = {" % (lp, sp.name.lower(), sp.stride // 4))
        for i in range(sp.stride // 4):
            x, r = dec.get(4 * i), regs.get(4 * i)
            al = " = %s[0].%s" % (r.alias[0].name, r.alias[1].name) if r and r.alias else ""
            out.append("    %s /* 0x%02X%s%s */" % (
                ("%s_RID_%s," % (prefix, x.c if x else "NONE")).ljust(w), 4 * i,
                " " + r.name if r else "", al))
        out.append("};")
    out += [""] + _c_comment("Where a BAR offset is (<space>_hit), the entry of an array it is in "
                             "(<space>_index), and the register it names (%s_reg_rid: "
                             "%s_RID_NONE for none)." % (lp, prefix))
    for sp in t.spaces:
        out += ["static inline unsigned %s_%s_hit(unsigned off)" % (lp, sp.name.lower()), "{",
                "    return (off & 0x%04Xu) == 0x%04Xu;" % ((rm.size - 1) & ~(sp.size - 1), sp.base),
                "}"]
        if sp.count > 1:
            out += ["static inline unsigned %s_%s_index(unsigned off)" % (lp, sp.name.lower()), "{",
                    "    return (off >> %d) & 0x%Xu;" % (sp.stride_bits, sp.count - 1), "}"]
    out += ["static inline unsigned %s_reg_rid(unsigned off)" % lp, "{"]
    for sp in t.spaces:
        out += ["    if (%s_%s_hit(off))" % (lp, sp.name.lower()),
                "        return %s_%s_rids[(off & 0x%Xu) >> 2];" % (lp, sp.name.lower(), sp.stride - 1)]
    return out + ["    return %s_RID_NONE;" % prefix, "}"]


# ------------------------------------------------------------------ Markdown

def _md_cell(s):
    return s.replace("|", "\\|")


MD_HEAD = ["| %s | register / field | bits | access | reset | writes | description |",
           "|---|---|---|---|---|---|---|"]
MD_LEGEND = (
    "Access: ro read-only (a write is refused), rw read/write, wo write-only (reads 0), w1c "
    "write 1 to clear.  A register's reset is its value after reset; offsets of the register "
    "page not listed read 0 and refuse writes.  Writes: the values a write may carry, and the "
    "`ERR` bit a write outside them sets (the register keeps its value); a bound named after a "
    "parameter (%s) is the hardware's (`rtl/nictx_tx_top.sv` sets it); \"while disabled\": "
    "refused while `CTRL.ENABLE` is 0; "
    "\"ring config (CFG)\": refused with `ERR.CFG` other than between a queue reset (or "
    "power-on) and the next enable, or while a reset is pending.  The rules are the .rdl's "
    "properties min, max, max_param, max_log2, zero_ok, range_err, off_err and cfg_lock; the "
    "RTL and the C model check every write with the table generated from them.")


def _md_reg(out, r, off_text):
    """A register's row (its one field's bits, reset and enum values in it),
    or a row and a row per field."""
    desc = " ".join(x for x in (r.title + ".", r.desc) if x)
    one = len(r.fields) == 1
    if one:
        f = r.fields[0]
        desc += (" " + f.desc) if f.desc else ""
        if f.enum:
            desc += " " + " ".join("%s = %d: %s" % e for e in f.enum)
        bits = str(f.lsb) if f.width == 1 else "%d:%d" % (f.msb, f.lsb)
        reset = _reset_text(r.reset)
    else:
        bits = ""
        reset = "0x%X" % r.reset
    out.append("| %s | **%s** | %s | %s | %s | %s | %s |" % (
        off_text, r.name, bits, r.access.lower(), reset, _md_cell(rule_text(r)), _md_cell(desc)))
    for f in r.fields if not one else ():
        bits = str(f.lsb) if f.width == 1 else "%d:%d" % (f.msb, f.lsb)
        out.append("| | `%s` | %s | %s | %s | | %s |" % (
            f.name, bits, f.access, _reset_text(f.reset), _md_cell(f.desc)))


def gen_md(rm: RegMap):
    begin = "%s: `make regs` writes this section from %s; edit that, not this -->" % (
        MD_BEGIN, rm.rdl_rel)
    out = ["", MD_HEAD[0] % "offset", MD_HEAD[1]]
    for r in rm.regs:
        _md_reg(out, r, "0x%02X" % r.offset)
    for w in rm.windows:
        out.append("| 0x%03X-0x%03X | **%s** | | %s | - | - | %s |" % (
            w.offset, w.offset + w.size - 1, w.name, w.access.lower(),
            _md_cell(w.title + ". " + w.desc)))
    for qb in rm.blocks:
        if qb.c == "Q":
            head = "Queue register blocks (%s[%d]): queue q's block at 0x%X + q * 0x%X.  %s" % (
                qb.name, qb.count, qb.base, qb.stride, _md_cell(qb.desc))
        else:
            head = "%s (%s[%d]): vector v's entry at 0x%X + v * 0x%X.  %s" % (
                qb.title, qb.name, qb.count, qb.base, qb.stride, _md_cell(qb.desc))
        out += ["", head, "", MD_HEAD[0] % "offset in block", MD_HEAD[1]]
        for r in qb.regs:
            _md_reg(out, r, "0x%02X" % r.offset)
    out += ["", MD_LEGEND % ", ".join("`%s`" % n for n in rm.table.params), ""]
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
