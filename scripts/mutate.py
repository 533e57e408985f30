#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""mutate.py - mutation testing of nictx: how many small bugs does `make test` catch?

A mutant is the source tree with one small change in one line of a source
file (.c, .cpp, .sv) of rtl/, c-model/, driver/ or sim/, made by one of the
classic operators:

  ror     a comparison flipped:  <  <=  >  >=  ==  != (one occurrence)
  const   an integer constant plus or minus one (SV sized literals keep
          their width)
  lcr     && <-> ||
  sdl     a statement deleted (C: a whole-line statement; SV: a blocking
          assignment in procedural code)
  neg     a condition inverted: if (c) -> if (!(c)), likewise while

The tool never touches the real tree.  It copies the sources (not the build
directories, not .git) into WORK/tree once, builds the test binaries the
sample's files link there in WORK/tree/build, runs them to get the baseline
(which test cases fail already, how long each binary takes), then for each
mutant: writes the mutated file into the copy, then for each test binary
that links the mutated code, fastest first, rebuilds it and runs it with a
timeout until one fails, and puts the file back.  A mutant is

  killed      a test case that passes on the baseline fails, a binary
              crashes (an RTL assertion, a sanitizer), or one times out
              (5x its baseline time, at least --min-timeout) and again at
              4x that, so that a loaded machine's slow run is not a kill;
  survived    every relevant binary ends as on the baseline;
  stillborn   it does not build (-Werror, Verilator lint): not counted;
  unjudged    its build ran past --build-timeout (a loaded machine): not
              counted, and listed, so that a score never hides it;
  equivalent  survived, and listed in scripts/mutate-equivalent.txt as a
              change no test can see (reported apart, out of the score).

Score = killed / (killed + survived).  The sample is deterministic for a
given --seed and source: it is drawn per folder (rtl, c-model, driver,
driver/linux, sim/run, ...: every folder that holds a source file a test
binary links), each folder's share of --sample in proportion to its
candidates and at least --per-folder, round-robin over the folder's files.

Usage: scripts/mutate.py [--sample N] [--per-folder K] [--seed S] [--work DIR]
                         [--jobs J] [--files a.c,b.sv] [--list] [--keep] [--no-san]
Exit status: 0 when the score reaches --min-score (default 0), 1 below it,
2 on a usage or setup error.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The folders mutated: every source file under them (SOURCE_EXT), each
# folder a stratum of the sample (sample()); a file no test binary links
# (test_map()) is named in the report and not sampled.
SOURCE_ROOTS = ["rtl", "c-model", "driver", "sim"]
SOURCE_EXT = (".c", ".cpp", ".sv")
# Generated, not written by hand: its source is mutated instead.
SOURCE_SKIP = {"rtl/nictx_reg_pkg.sv"}
COPY_IGNORE = shutil.ignore_patterns(".git", "build", "build-*", "*.o", "*.d", "__pycache__")

# ------------------------------------------------------------------ sources


def blank_literals(line, quotes):
    """The line with the insides of string (and char) literals replaced by
    spaces, so operators are looked for in code only."""
    out, i, q = [], 0, None
    while i < len(line):
        c = line[i]
        if q:
            if c == "\\" and i + 1 < len(line):
                out.append("  ")
                i += 2
                continue
            if c == q:
                q = None
                out.append(c)
            else:
                out.append(" ")
        else:
            if c in quotes:
                q = c
            out.append(c)
        i += 1
    return "".join(out)


def code_lines(path, text):
    """(line number, line, code part) of each line that may be mutated:
    comments stripped, preprocessor lines, declarations of ports and
    parameters, and simulation-only checker code (SV `ifndef SYNTHESIS`)
    left out."""
    sv = path.endswith(".sv")
    in_block, skip_depth = False, 0
    for n, line in enumerate(text.split("\n"), 1):
        code = line
        if in_block:
            end = code.find("*/")
            if end < 0:
                continue
            code = " " * (end + 2) + code[end + 2:]
            in_block = False
        code = blank_literals(code, '"' if sv else "\"'")
        while "/*" in code:
            a = code.find("/*")
            b = code.find("*/", a + 2)
            if b < 0:
                code = code[:a]
                in_block = True
                break
            code = code[:a] + " " * (b + 2 - a) + code[b + 2:]
        if "//" in code:
            code = code[:code.find("//")]
        s = code.strip()
        if sv:
            if s.startswith("`ifndef SYNTHESIS"):
                skip_depth += 1
                continue
            if skip_depth:
                if s.startswith("`if"):
                    skip_depth += 1
                elif s.startswith("`endif"):
                    skip_depth -= 1
                continue
            if re.search(r"begin\s*:\s*gen_\w*check", s):
                continue  # an elaboration-time parameter check
            if re.match(r"(input|output|inout|logic|localparam|parameter|module|typedef|"
                        r"import|package|endmodule|endpackage|\$error|assert|\.\w+\s*\()", s):
                continue
        elif s.startswith("#") or re.match(r"(assert|_Static_assert|static_assert)\b", s):
            continue
        if not s or re.search(r"\b(printf|fprintf|snprintf|fail_msg|print_message)\s*\(", s):
            continue
        yield n, line, code


C_TYPES = (r"(const|static|unsigned|signed|int|long|short|char|float|double|void|struct|enum|"
           r"union|size_t|bool|\w+_t|FILE)\b")


def find_all(pattern, code):
    return [m for m in re.finditer(pattern, code)]


def matching_paren(code, i):
    depth = 0
    for j in range(i, len(code)):
        if code[j] == "(":
            depth += 1
        elif code[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def sv_nonblocking(code, m):
    """An SV `<=` at the start of a statement is an assignment, not a
    comparison."""
    return re.match(r"\s*[\w\[\]\.:']+\s*$", code[:m.start()]) is not None


def mutants_of_line(path, n, line, code):
    """Every mutant of one line: (op, mutated line, description)."""
    sv = path.endswith(".sv")
    out = []

    def swap(m, new, op):
        out.append((op, line[:m.start()] + new + line[m.end():],
                    "%s -> %s" % (m.group(0).strip(), new.strip())))

    # ror
    ror = [(r"(?<![<>=!])<=(?!=)", "<"), (r"(?<![<>=!])>=(?!=)", ">"),
           (r"(?<![<\-])<(?![<=])", "<="), (r"(?<![>\-])>(?![>=])", ">="),
           (r"==(?!=)", "!="), (r"!=(?!=)", "==")]
    for pat, new in ror:
        for m in find_all(pat, code):
            if sv and m.group(0) == "<=" and sv_nonblocking(code, m):
                continue
            if not sv and m.group(0) in ("<", ">") and re.search(r"#include", code):
                continue
            swap(m, new, "ror")
    # lcr
    for m in find_all(r"&&", code):
        swap(m, "||", "lcr")
    for m in find_all(r"\|\|", code):
        swap(m, "&&", "lcr")
    # const
    if sv:
        for m in find_all(r"\b(\d+)'([dhb])([0-9a-fA-F_]+)\b", code):
            if code.rfind("[", 0, m.start()) > code.rfind("]", 0, m.start()):
                continue  # a bit range or index width
            w, base, digits = int(m.group(1)), m.group(2), m.group(3).replace("_", "")
            v = int(digits, {"d": 10, "h": 16, "b": 2}[base])
            for d in (1, -1):
                nv = v + d
                if nv < 0 or nv >= (1 << w):
                    continue
                s = {"d": str(nv), "h": format(nv, "x"), "b": format(nv, "b")}[base]
                swap(m, "%d'%s%s" % (w, base, s), "const")
    else:
        for m in find_all(r"(?<![\w.])(\d+)([uU]?[lL]{0,2})(?![\w.])", code):
            if code.rfind("[", 0, m.start()) > code.rfind("]", 0, m.start()) and \
                    re.match(r"\s*" + C_TYPES, code):
                continue  # an array size in a declaration
            v = int(m.group(1))
            for d in (1, -1):
                if v + d >= 0:
                    swap(m, "%d%s" % (v + d, m.group(2)), "const")
    # neg
    for m in find_all(r"\b(if|while)\s*\(", code):
        a = code.find("(", m.start())
        b = matching_paren(code, a)
        if b > a:
            out.append(("neg", line[:a] + "(!(" + line[a + 1:b] + "))" + line[b + 1:],
                        "%s (...) inverted" % m.group(1)))
    # sdl
    s = code.strip()
    if s.endswith(";") and "{" not in s and "}" not in s:
        indent = line[:len(line) - len(line.lstrip())]
        if sv:
            if re.match(r"[\w\[\]\.:']+\s*=[^=]", s) and not s.startswith("assign"):
                out.append(("sdl", indent + ";", "deleted: " + s))
        elif not re.match(r"(return|break|continue|case|default|goto)\b", s) and \
                not re.match(C_TYPES, s) and s.count("(") == s.count(")") and \
                re.match(r"[\w*(]", s) and not s.startswith("else"):
            out.append(("sdl", indent + ";", "deleted: " + s))
    return out


def statement_start(prev_code):
    p = prev_code.rstrip()
    return not p or p.endswith((";", "{", "}", ")", ":", "begin", "end", "else"))


def candidates(path, text):
    """Every mutant of a file: dicts with file, line, op, orig, mut, desc."""
    out, prev = [], ""
    for n, line, code in code_lines(path, text):
        for op, mut, desc in mutants_of_line(path, n, line, code):
            if op == "sdl" and not statement_start(prev):
                continue
            out.append({"file": path, "line": n, "op": op, "orig": line, "mut": mut,
                        "desc": desc})
        prev = code
    return out


def source_files(base_dir):
    """Every source file under SOURCE_ROOTS, by folder: {folder: [files]}."""
    by = {}
    for root in SOURCE_ROOTS:
        for d, dirs, names in os.walk(os.path.join(base_dir, root)):
            dirs.sort()
            for n in sorted(names):
                f = os.path.relpath(os.path.join(d, n), base_dir)
                if n.endswith(SOURCE_EXT) and f not in SOURCE_SKIP:
                    by.setdefault(os.path.dirname(f), []).append(f)
    return by


def quotas(sizes, total, floor):
    """Each folder's share of `total` mutants: in proportion to its
    candidates, at least `floor` (or as many as it has)."""
    whole = sum(sizes.values()) or 1
    return {d: min(n, max(floor, int(round(total * n / whole)))) for d, n in sizes.items()}


def sample(files_by_dir, total, floor, seed, base_dir):
    """Draw about `total` candidates from the sources under base_dir, a
    stratum per folder (quotas()), round-robin over each folder's files,
    each file's candidates shuffled by the seed: [(folder, quota, order)]."""
    rng = random.Random(seed)
    pools_by = {}
    for d in sorted(files_by_dir):
        pools = []
        for f in files_by_dir[d]:
            with open(os.path.join(base_dir, f)) as fh:
                c = candidates(f, fh.read())
            rng.shuffle(c)
            pools.append(c)
        pools_by[d] = pools
    quota = quotas({d: sum(map(len, p)) for d, p in pools_by.items()}, total, floor)
    picked = []
    for d, pools in pools_by.items():
        order = []
        while any(pools):
            for p in pools:
                if p:
                    order.append(p.pop())
        picked.append((d, quota[d], order))
    return picked

# ------------------------------------------------------------------ running


def make_var(tree, name):
    r = subprocess.run(["make", "-s", "--no-print-directory", "--eval",
                        "print-%%: ; @echo $(%s)" % "$*", "print-" + name],
                       cwd=tree, capture_output=True, text=True)
    return r.stdout.split()


def obj_sources(tree, objs):
    """The sources of the Makefile's object paths ($(BUILD)/obj/X.o,
    $(BUILD)/obj/k/X.o for the kernel layer's, a width's shim
    sim/device/dev_rtl[_trace]_wN.o for dev_rtl.cpp); archives and the
    Verilator runtime have none here."""
    out = set()
    for o in objs:
        m = re.match(r"[^/]+/obj/(?:k/)?(.+)\.o$", o)
        if not m:
            continue
        for stem in (m.group(1), re.sub(r"(_trace)?_w\d+$", "", m.group(1))):
            hit = [stem + e for e in (".c", ".cpp") if os.path.exists(os.path.join(tree, stem + e))]
            if hit:
                out.add(hit[0])
                break
    return out


# The simulation tests that also link every width's model and the C model
# (the Makefile's rule for them with $(WIDE_MODELS)).
WIDE_SIM_TESTS = ("width", "lockstep", "observe")
# The test of the kernel layer's own drivers: it runs nictx built with
# driver/examples/ixgbe_tx.c (the Makefile's OWN_BINS).
OWN_DRIVER_TEST = ("own_driver", "driver/examples/ixgbe_tx.c")


def test_map(tree):
    """Which test binaries link each source file, from the Makefile's
    variables: UNIT/ENGINE/SIM/CLI_TESTS and RTL_UNIT_TESTS; T_<test> (the
    sources a unit or RTL test links), TO_<test> (objects built otherwise:
    the kernel layer's driver), RT_<test> (the RTL an RTL test verilates);
    SIM_BASE and KTXQ_OBJS (what the simulation tests link), WIDE_MODELS
    (every width and the C model: the engine tests, nictx, WIDE_SIM_TESTS),
    SWEEP_SRCS and sim/cli/main.c (nictx, which the CLI tests run).
    Returns (tests_for(file), every test)."""
    unit, engine, simt, cli, rtl_unit = (make_var(tree, v) for v in (
        "UNIT_TESTS", "ENGINE_TESTS", "SIM_TESTS", "CLI_TESTS", "RTL_UNIT_TESTS"))
    sim_links = obj_sources(tree, make_var(tree, "SIM_BASE") + make_var(tree, "KTXQ_OBJS"))
    wide = obj_sources(tree, make_var(tree, "WIDE_MODELS")) | {"sim/device/dev_rtl.cpp"}
    nictx = sim_links | wide | set(make_var(tree, "SWEEP_SRCS")) | {"sim/cli/main.c"}
    links = {t: set(make_var(tree, "T_" + t)) | obj_sources(tree, make_var(tree, "TO_" + t))
             for t in unit + rtl_unit}
    rtl_links = {t: set(make_var(tree, "RT_" + t)) for t in rtl_unit}

    def tests_for(f):
        if f.endswith(".sv"):
            return engine + simt + cli + [t for t in rtl_unit if f in rtl_links[t]]
        ts = [t for t in unit + rtl_unit if f in links[t]]
        ts += [t for t in simt if f in sim_links or (t in WIDE_SIM_TESTS and f in wide)]
        ts += engine if f in wide else []
        ts += cli if f in nictx else []
        if f == OWN_DRIVER_TEST[1] and OWN_DRIVER_TEST[0] in cli:
            ts.append(OWN_DRIVER_TEST[0])
        return ts
    return tests_for, unit + engine + simt + cli + rtl_unit


FAILED_RE = re.compile(r"^\[  FAILED  \] (test_\w+)\s*$", re.M)
RAN_RE = re.compile(r"^\[==========\] (\d+) test\(s\) run\.", re.M)


def run_test(tree, build, name, timeout):
    """(status, failed test names, seconds): status ok, fail, crash, timeout."""
    env = dict(os.environ, NICTX=os.path.join(build, "nictx"))
    t0 = time.time()
    try:
        r = subprocess.run([os.path.join(build, "tests", "test_" + name)], cwd=tree, env=env,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", set(), time.time() - t0
    dt = time.time() - t0
    out = r.stdout + r.stderr
    failed = set(FAILED_RE.findall(out))
    if r.returncode < 0 or not RAN_RE.search(out):
        return "crash", failed, dt
    return ("fail" if failed or r.returncode else "ok"), failed, dt


def build(tree, jobs, targets, timeout, stage="build"):
    """make the targets (relative to the stage's build directory) in the
    tree: stage "build" as `make test` builds, "build-san" as `make SAN=1`."""
    args = ["make", "-s", "BUILD=" + stage, "-j%d" % jobs]
    if stage == "build-san":
        args.append("SAN=1")
    try:
        r = subprocess.run(args + [stage + "/" + t for t in targets], cwd=tree,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "build timed out"
    return r.returncode == 0, (r.stdout + r.stderr)[-2000:]


def targets_for(tests):
    t = ["tests/test_" + x for x in tests]
    return t + ["nictx"] if any(x in ("cli", "sweep_cli") for x in tests) else t


def load_equivalent(path):
    """Mutants judged equivalent: lines `file | original | mutated | why`
    (the lines stripped, a `|` that ends one written `\\|`); '#' starts a
    comment."""
    eq = {}
    if not os.path.exists(path):
        return eq
    with open(path) as fh:
        for line in fh:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = [p.strip().replace("\\|", "|") for p in line.rstrip("\n").split(" | ")]
            if len(parts) >= 4:
                eq[(parts[0], parts[1], parts[2])] = parts[3]
    return eq


def run_mutant(m, tree, args, tests_for, base, eq, stage="build"):
    """Build and test one mutant in the tree (stage: build directory, as in
    build()); m["result"] says what happened."""
    path = os.path.join(tree, m["file"])
    with open(path) as fh:
        text = fh.read()
    lines = text.split("\n")
    assert lines[m["line"] - 1] == m["orig"]
    lines[m["line"] - 1] = m["mut"]
    t0 = time.time()
    try:
        with open(path, "w") as fh:
            fh.write("\n".join(lines))
        tests = sorted((t for t in tests_for(m["file"]) if t in base),
                       key=lambda t: base[t]["time"])
        m["result"] = "survived"
        for t in tests:
            # each binary built just before it runs: the first that kills
            # spares building the rest (an RTL mutant's every width)
            ok, log = build(tree, args.jobs, targets_for([t]), args.build_timeout, stage)
            if not ok:
                m["result"] = "stillborn" if ok is False else "unjudged"
                break
            limit = max(args.min_timeout, 5 * base[t]["time"])
            st, failed, _ = run_test(tree, os.path.join(tree, stage), t, limit)
            if st == "timeout":
                # a loaded machine times out healthy binaries too: a kill by
                # timeout stands only if the binary times out again at 4x
                st, failed, _ = run_test(tree, os.path.join(tree, stage), t, 4 * limit)
            new = failed - base[t]["failed"]
            if st in ("crash", "timeout") or new or (st == "fail" and not base[t]["failed"]):
                m["result"] = "killed"
                first = sorted(new)[:2] + (["..."] if len(new) > 2 else [])
                m["by"] = "test_%s %s%s%s" % (t, st, ": " + ", ".join(first) if new else "",
                                              " (SAN=1)" if stage == "build-san" else "")
                break
        key = (m["file"], m["orig"].strip(), m["mut"].strip())
        if m["result"] == "survived" and key in eq:
            m["result"] = "equivalent"
            m["why"] = eq[key]
    finally:
        with open(path, "w") as fh:
            fh.write(text)
    m["seconds"] = round(time.time() - t0, 1)


def baseline(tree, args, all_tests, stage="build"):
    """Build everything once and run every test binary: the time each takes
    and the test cases that fail already (a mutant must fail others).
    None when the stage does not build."""
    ok, log = build(tree, args.jobs, targets_for(all_tests) + ["nictx"], 3600, stage)
    if not ok:
        print("mutate: the unmutated tree does not build in %s:\n%s" % (stage, log))
        return None
    base = {}
    for t in all_tests:
        st, failed, dt = run_test(tree, os.path.join(tree, stage), t, 1200)
        if st in ("crash", "timeout"):
            print("mutate: baseline test_%s %s: left out" % (t, st))
            continue
        if failed:
            print("mutate: baseline test_%s already fails %s: a mutant must fail another case"
                  % (t, ", ".join(sorted(failed))))
        base[t] = {"time": dt, "failed": failed}
    return base

def san_stage(done, tree, args, tests_for, eq):
    """CI runs the tests under AddressSanitizer and UBSan too (make SAN=1
    test): each survivor again in a SAN build; what they catch (a leak, a
    double free, undefined behaviour) kills it."""
    surv = [m for m in done if m["result"] == "survived"]
    if not surv:
        return
    need = sorted({t for m in surv for t in tests_for(m["file"])})
    print("mutate: %d survivors again under SAN=1 (tests: %s)" % (len(surv), " ".join(need)),
          flush=True)
    base = baseline(tree, args, need, "build-san")
    if base is None:
        return
    for m in surv:
        run_mutant(m, tree, args, tests_for, base, eq, "build-san")
        print("[san] %-8s %-26s %4d %-5s %s  (%.0f s)%s" % (
            m["result"], m["file"], m["line"], m["op"], m["desc"][:60], m["seconds"],
            "  by " + m["by"] if "by" in m else ""), flush=True)
        if m["result"] == "stillborn":
            m["result"] = "survived"  # built once: a SAN build failure says nothing
        elif m["result"] == "unjudged":
            m["result"] = "survived"  # the SAN build timed out: the first stage's verdict

# ------------------------------------------------------------------ report


def folder_table(ms):
    """The score of each folder, a line each."""
    kinds = ("killed", "survived", "equivalent", "stillborn", "unjudged")
    by = {}
    for m in ms:
        b = by.setdefault(os.path.dirname(m["file"]), dict.fromkeys(kinds, 0))
        b[m["result"]] += 1
    out = ["  %-18s %6s %8s %10s %9s %8s %6s" % (("folder",) + kinds + ("score",))]
    for d, b in sorted(by.items()):
        scored = b["killed"] + b["survived"]
        out.append("  %-18s %6d %8d %10d %9d %8d %6s" % (
            (d,) + tuple(b[k] for k in kinds) +
            ("%.0f%%" % (100.0 * b["killed"] / scored) if scored else "-",)))
    return out


def report(ms, secs, args, out, untested=()):
    n = {k: sum(1 for m in ms if m["result"] == k)
         for k in ("killed", "survived", "stillborn", "equivalent", "unjudged")}
    scored = n["killed"] + n["survived"]
    score = 100.0 * n["killed"] / scored if scored else 0.0
    lines = ["", "mutation testing: %d mutants drawn (seed %d), %d built, %d stillborn" %
             (len(ms), args.seed, len(ms) - n["stillborn"], n["stillborn"]),
             "  killed %d, survived %d, equivalent %d (not scored)" %
             (n["killed"], n["survived"], n["equivalent"]),
             "  unjudged %d (a build ran past --build-timeout %.0f s: not scored)" %
             (n["unjudged"], args.build_timeout),
             "  score %.1f%% (killed / (killed + survived)); %.0f s (%.1f min)" %
             (score, secs, secs / 60),
             "  counting the equivalent ones as survivors: %.1f%%" %
             (100.0 * n["killed"] / (scored + n["equivalent"]) if scored + n["equivalent"] else 0.0)]
    san = sum(1 for m in ms if "SAN=1" in m.get("by", ""))
    if san:
        lines.append("  of the killed, %d only under SAN=1 (a leak or undefined behaviour)" % san)
    lines += [""] + folder_table(ms)
    if untested:
        lines += ["", "not sampled, no test binary links them: " + " ".join(untested)]
    for kind in ("survived", "equivalent", "unjudged"):
        sel = [m for m in ms if m["result"] == kind]
        if sel:
            lines.append("")
            lines.append("%s:" % kind)
        for m in sel:
            lines.append("  %s:%d  %s  [%s]" % (m["file"], m["line"], m["desc"], m["op"]))
            lines.append("      - %s" % m["orig"].strip())
            lines.append("      + %s" % m["mut"].strip())
            if kind == "equivalent":
                lines.append("      why: %s" % m["why"])
    text = "\n".join(lines) + "\n"
    print(text)
    with open(out + ".txt", "w") as fh:
        fh.write(text)
    with open(out + ".json", "w") as fh:
        json.dump({"seed": args.seed, "seconds": round(secs), "score": round(score, 2),
                   "counts": n, "mutants": ms}, fh, indent=1)
    return score

# ------------------------------------------------------------------ main


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=24,
                    help="mutants to draw, about (default 24), shared by the folders")
    ap.add_argument("--per-folder", type=int, default=2,
                    help="mutants each folder gets at least (default 2)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--files", help="comma-separated files instead of every source file")
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "mutate"),
                    help="work directory (the tree copy and the report)")
    ap.add_argument("--jobs", type=int, default=2, help="make -j for builds")
    ap.add_argument("--min-timeout", type=float, default=20.0,
                    help="seconds a test binary may take at least (else 5x its baseline)")
    ap.add_argument("--build-timeout", type=float, default=600.0)
    ap.add_argument("--min-score", type=float, default=0.0)
    ap.add_argument("--list", action="store_true", help="print the sample and stop")
    ap.add_argument("--keep", action="store_true", help="reuse WORK/tree (and its build)")
    ap.add_argument("--no-san", action="store_true",
                    help="skip the second stage (survivors again under make SAN=1)")
    ap.add_argument("--equivalent", default=os.path.join(ROOT, "scripts", "mutate-equivalent.txt"))
    return ap.parse_args()


def pick(args, base_dir, tests_for):
    """The sample: (strata, the files left out because no test links them)."""
    if args.files:
        by = {}
        for f in args.files.split(","):
            by.setdefault(os.path.dirname(f), []).append(f)
    else:
        by = source_files(base_dir)
    untested = sorted(f for fs in by.values() for f in fs if not tests_for(f))
    by = {d: [f for f in fs if tests_for(f)] for d, fs in by.items()}
    by = {d: fs for d, fs in by.items() if fs}
    return sample(by, args.sample, args.per_folder, args.seed, base_dir), untested


def copy_tree(work, keep):
    """The sources, copied to WORK/tree: no build directory (nor the work
    directory itself, wherever it is), no .git."""
    tree = os.path.join(work, "tree")
    if keep and os.path.isdir(tree):
        return tree
    if os.path.isdir(tree):
        shutil.rmtree(tree)
    os.makedirs(work, exist_ok=True)

    def ignore(d, names):
        skip = set(COPY_IGNORE(d, names))
        for n in names:
            p = os.path.abspath(os.path.join(d, n))
            if work == p or work.startswith(p + os.sep):
                skip.add(n)
        return skip
    shutil.copytree(ROOT, tree, ignore=ignore, symlinks=True)
    return tree


def needed_tests(strata, tests_for, all_tests):
    """The test binaries the sample's files link, in all_tests' order."""
    need = {t for _, _, order in strata for m in order for t in tests_for(m["file"])}
    return [t for t in all_tests if t in need]


def main():
    args = parse_args()
    if args.list:
        tests_for, _ = test_map(ROOT)
        strata, untested = pick(args, ROOT, tests_for)
        for d, q, order in strata:
            for m in order[:q]:
                print("%s:%d [%s] %s" % (m["file"], m["line"], m["op"], m["desc"]))
        print("not sampled, no test binary links them: " + (" ".join(untested) or "none"))
        return 0
    t0 = time.time()
    tree = copy_tree(os.path.abspath(args.work), args.keep)
    tests_for, all_tests = test_map(tree)
    strata, untested = pick(args, tree, tests_for)
    print("mutate: %d folders: %s" % (len(strata), ", ".join(
        "%s %d" % (d, q) for d, q, _ in strata)), flush=True)
    base = baseline(tree, args, needed_tests(strata, tests_for, all_tests))
    if base is None:
        return 2
    eq = load_equivalent(args.equivalent)
    done = []
    for d, quota, order in strata:
        built = 0
        for m in order:
            if built >= quota:
                break
            run_mutant(m, tree, args, tests_for, base, eq)
            done.append(m)
            built += m["result"] not in ("stillborn", "unjudged")
            print("[%3d] %-8s %-26s %4d %-5s %s  (%.0f s)%s" % (
                len(done), m["result"], m["file"], m["line"], m["op"], m["desc"][:60],
                m["seconds"], "  by " + m["by"] if "by" in m else ""), flush=True)
    if not args.no_san:
        san_stage(done, tree, args, tests_for, eq)
    # the tree is left as it was copied; the builds stay for --keep
    score = report(done, time.time() - t0, args, os.path.join(args.work, "report"), untested)
    return 0 if score >= args.min_score else 1


if __name__ == "__main__":
    sys.exit(main())
