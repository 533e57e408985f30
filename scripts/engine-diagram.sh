#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# engine-diagram.sh [TOP.sv [OUT.svg]] - the engine's block diagram, drawn
# from its RTL: the instances of rtl/nictx_tx_top.sv and the data streams
# between them, as graphviz dot, rendered to docs/img/engine.svg
# (`make diagram`; docs/device.md, Theory of operation).
#
# How: the port directions of every module come from its file in rtl/
# (`input` / `output` declarations); the top is read with its comments
# stripped; each instance's named connections `.port (expr)` give the
# signals it drives and reads; the top's own logic (`assign`, and the
# assignments of its always blocks: the target depends on the right-hand
# side, conditions left out) links signals to signals.  An arrow A -> B is
# drawn when a signal B reads is driven by A, directly or through that
# logic.  Clocks, resets, ready signals, the FIFO depths and the
# simulation-speed ports (idle, wait, wake, skip) are left out: the arrows
# are the data and control streams.  The engine's ports are grouped by
# prefix (h2d_, d2h_, wire_).
#
# Needs dot (Debian graphviz) to render; DOT_ONLY=1 prints the dot source
# instead.  The SVG is committed, so nothing else needs graphviz.
set -euo pipefail
cd "$(dirname "$0")/.."
top=${1:-rtl/nictx_tx_top.sv}
out=${2:-docs/img/engine.svg}
rtl_dir=$(dirname "$top")

rtl_input() {
    # Port directions: "dir MODULE PORT" for every module file in rtl/.
    for f in "$rtl_dir"/*.sv; do
        m=$(basename "$f" .sv)
        sed 's://.*$::' "$f" |
            awk -v m="$m" '/^[ \t]*(input|output)[ \t]/ {
                line = $0; sub(/[,;)].*$/, "", line)
                n = split(line, w, /[^A-Za-z0-9_]+/)
                while (n > 0 && w[n] == "") n--
                if (n > 0) print "dir", m, ($0 ~ /^[ \t]*input/) ? "in" : "out", w[n] }'
    done
    echo "top $(basename "$top" .sv)"
    echo "text"
    # The top without comments, on one line per original line.
    sed 's://.*$::' "$top"
}

gen_dot() {
rtl_input | awk -v Q="'" '
function is_ident_start(c) { return c ~ /[A-Za-z_]/ }
function is_ident(c)       { return c ~ /[A-Za-z0-9_$]/ }
# identifiers(s, arr): the signal names in an expression, into arr (set);
# literals, package names and keywords left out.  Returns their count.
function identifiers(s, arr,    n, i, c, tok, prev) {
    gsub("[0-9]*" Q "[sS]?[bodhBODH][0-9a-fA-F_xXzZ?]+", " ", s)   # sized literals
    gsub(Q "[{]", "{", s); gsub(Q "[01xz]", " ", s)                # fills
    gsub(/[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*/, " ", s)  # pkg::name
    gsub(/\.[A-Za-z_][A-Za-z0-9_]*/, " ", s)                        # struct fields
    n = 0; tok = ""
    for (i = 1; i <= length(s) + 1; i++) {
        c = substr(s, i, 1)
        if (tok != "" && is_ident(c)) { tok = tok c; continue }
        if (tok != "") {
            if (!(tok in KW) && tok !~ /^[0-9]/ && tok !~ /^\$/) { if (!(tok in arr)) n++; arr[tok] = 1 }
            tok = ""
        }
        if (is_ident_start(c)) tok = c
    }
    return n
}
# skip(p): a port we do not draw.
function skip(p) {
    return p ~ /ready/ || p ~ /^clk/ || p ~ /^rst/ || p ~ /idle/ || p ~ /(^|_)wait(_|$)/ ||
           p ~ /wake/ || p ~ /skip/ || p ~ /depth/
}
function stem(p) { sub(/_[io]$/, "", p); return p }
# group(p): the top port group of a top-level port.
function group(p,    g) { g = p; sub(/_.*/, "", g); return g }
# Sources of signal s, through the glue, into srcs (node names).
function resolve(s, depth,    k, key, parts, t) {
    if (depth > 12 || (s in seen)) return
    seen[s] = 1
    if ((s in topdir) && topdir[s] == "in" && !skip(s)) srcs["port_" group(s)] = 1
    if (s in drv) {
        split(drv[s], parts, " ")
        for (k in parts) if (parts[k] != "") srcs[parts[k]] = 1
    }
    if (s in dep) {
        split(dep[s], parts, " ")
        for (k in parts) if (parts[k] != "") resolve(parts[k], depth + 1)
    }
}
BEGIN {
    split("begin end if else case endcase default for int unsigned logic assign always always_comb " \
          "always_ff posedge negedge or and not genvar generate localparam parameter typedef struct " \
          "packed unique priority return function automatic signed", kw, " ")
    for (i in kw) KW[kw[i]] = 1
}
$1 == "dir" { DIR[$2, $4] = $3; MOD[$2] = 1; next }
$1 == "top" { topname = $2; next }
$1 == "text" && !intext { intext = 1; next }
intext { text = text " " $0 }
END {
    for (k in DIR) { split(k, kk, SUBSEP); if (kk[1] == topname) topdir[kk[2]] = DIR[k] }
    # Walk the top: instances (MODULE [#(...)] NAME (...);) and the rest.
    L = length(text); i = 1; rest = ""; ninst = 0
    while (i <= L) {
        c = substr(text, i, 1)
        if (is_ident_start(c) && !is_ident(substr(text, i - 1, 1))) {
            j = i; while (j <= L && is_ident(substr(text, j, 1))) j++
            w = substr(text, i, j - i)
            if ((w in MOD) && w != topname) {
                # parameters
                k = j; while (substr(text, k, 1) ~ /[ \t]/) k++
                if (substr(text, k, 1) == "#") {
                    k++; while (substr(text, k, 1) ~ /[ \t]/) k++
                    d = 0
                    do { ch = substr(text, k, 1); if (ch == "(") d++; else if (ch == ")") d--; k++ } while (d > 0 && k <= L)
                }
                while (substr(text, k, 1) ~ /[ \t]/) k++
                q = k; while (is_ident(substr(text, q, 1))) q++
                inst = substr(text, k, q - k)
                while (substr(text, q, 1) ~ /[ \t]/) q++
                if (inst != "" && substr(text, q, 1) == "(") {
                    ninst++; IMOD[inst] = w; INST[ninst] = inst
                    # the connection list: .port (expr), ...
                    d = 0; k = q; body = ""
                    do { ch = substr(text, k, 1); if (ch == "(") d++; else if (ch == ")") d--; body = body ch; k++ } while (d > 0 && k <= L)
                    body = substr(body, 2, length(body) - 2)
                    m = length(body); p = 1
                    while (p <= m) {
                        if (substr(body, p, 1) != ".") { p++; continue }
                        p++; s0 = p; while (is_ident(substr(body, p, 1))) p++
                        port = substr(body, s0, p - s0)
                        while (substr(body, p, 1) != "(" && p <= m) p++
                        d = 0; expr = ""
                        do { ch = substr(body, p, 1); if (ch == "(") d++; else if (ch == ")") d--; expr = expr ch; p++ } while (d > 0 && p <= m)
                        expr = substr(expr, 2, length(expr) - 2)
                        nconn++; CI[nconn] = inst; CP[nconn] = port; CE[nconn] = expr
                    }
                    while (substr(text, k, 1) != ";" && k <= L) k++
                    i = k + 1; rest = rest " ; "
                    continue
                }
            }
            rest = rest w; i = j; continue
        }
        rest = rest c; i++
    }
    # Instance outputs drive their signals.
    for (n = 1; n <= nconn; n++) {
        inst = CI[n]; port = CP[n]; d = DIR[IMOD[inst], port]
        if (d != "out" || skip(port)) continue
        delete ids; identifiers(CE[n], ids)
        for (s in ids) {
            drv[s] = drv[s] " " inst
            if ((s in topdir) && topdir[s] == "out" && !skip(s)) edge(inst, "port_" group(s), group(s))
        }
    }
    # The glue: statements of the top, "target = expr" or "target <= expr".
    for (n = 0; n < 2; n++)
        gsub(/(^|[^A-Za-z0-9_])(begin|end|else)([^A-Za-z0-9_]|$)/, " ; ", rest)
    nst = split(rest, st, ";")
    for (n = 1; n <= nst; n++) {
        s = st[n]; m = length(s); d = 0; op = 0
        for (p = 1; p <= m; p++) {
            ch = substr(s, p, 1)
            if (ch == "(" || ch == "[" || ch == "{") d++
            else if (ch == ")" || ch == "]" || ch == "}") d--
            else if (d == 0 && ch == "=") {
                pc = substr(s, p - 1, 1); nc = substr(s, p + 1, 1)
                if (nc == "=" || pc == "=" || pc == "!" || pc == ">") continue
                op = (pc == "<") ? p - 1 : p; break
            }
        }
        if (!op) continue
        lhs = substr(s, 1, op - 1); rhs = substr(s, (substr(s, op, 1) == "<") ? op + 2 : op + 1)
        # the target: a {concatenation}, or the last name (index and field dropped)
        sub(/[ \t]+$/, "", lhs)
        if (lhs ~ /\}$/) { sub(/^.*\{/, "", lhs) }
        else {
            while (lhs ~ /\]$/) sub(/\[[^][]*\]$/, "", lhs)
            sub(/\.[A-Za-z_][A-Za-z0-9_]*$/, "", lhs)
            sub(/^.*[^A-Za-z0-9_]/, "", lhs)
        }
        delete L1; delete R1
        identifiers(lhs, L1); identifiers(rhs, R1)
        for (t in L1) for (r in R1) if (r != t) dep[t] = dep[t] " " r
    }
    # Top outputs driven through the glue.
    for (t in topdir) {
        if (topdir[t] != "out" || skip(t)) continue
        delete seen; delete srcs; resolve(t, 0)
        for (x in srcs) if (x !~ /^port_/) edge(x, "port_" group(t), group(t))
    }
    # Instance inputs: what drives what they read.
    for (n = 1; n <= nconn; n++) {
        inst = CI[n]; port = CP[n]
        if (DIR[IMOD[inst], port] != "in" || skip(port)) continue
        delete ids; identifiers(CE[n], ids)
        delete srcs
        for (s in ids) { delete seen; resolve(s, 0) }
        for (x in srcs) if (x != inst) edge(x, inst, stem(port))
    }
    # The graph.
    print "digraph engine {"
    print "  rankdir=LR; nodesep=0.35; ranksep=0.9; splines=true;"
    print "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\", fontname=\"Helvetica\", fontsize=11];"
    print "  edge [fontname=\"Helvetica\", fontsize=8, color=\"#555555\", fontcolor=\"#333333\"];"
    for (n = 1; n <= ninst; n++)
        printf "  %s [label=\"%s\\n%s\"];\n", INST[n], INST[n], IMOD[INST[n]]
    ng = 0; for (g in GROUP) GS[++ng] = g
    for (i = 2; i <= ng; i++) { t = GS[i]; for (j = i - 1; j >= 1 && GS[j] > t; j--) GS[j + 1] = GS[j]; GS[j + 1] = t }
    for (i = 1; i <= ng; i++) {
        g = GS[i]
        printf "  port_%s [shape=ellipse, fillcolor=\"#fff4dc\", label=\"%s_*\\n(%s)\"];\n", g, g,
            g == "h2d" ? "host to device" : (g == "d2h" ? "device to host" : (g == "wire" ? "Ethernet" : "port"))
    }
    # edges in a fixed order (any awk gives the same file)
    ne = 0; for (e in EDGE) ES[++ne] = e
    for (i = 2; i <= ne; i++) { t = ES[i]; for (j = i - 1; j >= 1 && ES[j] > t; j--) ES[j + 1] = ES[j]; ES[j + 1] = t }
    for (i = 1; i <= ne; i++) {
        e = ES[i]
        split(e, ab, SUBSEP)
        printf "  %s -> %s [label=\"%s\"%s];\n", ab[1], ab[2], wrapl(EDGE[e]),
            (ab[1] ~ /regs/ || ab[2] ~ /regs/) ? ", style=dashed" : ""
    }
    print "}"
}
function edge(a, b, label,    k) {
    if (a ~ /^port_/) GROUP[substr(a, 6)] = 1
    if (b ~ /^port_/) GROUP[substr(b, 6)] = 1
    k = a SUBSEP b
    if (!(k in EDGE)) EDGE[k] = ""
    if (index(" " EDGE[k] " ", " " label " ") == 0) EDGE[k] = EDGE[k] (EDGE[k] == "" ? "" : " ") label
}
# wrapl(s): the labels sorted, three a line.
function wrapl(s,    n, a, i, j, t, o) {
    n = split(s, a, " ")
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    o = ""
    for (i = 1; i <= n && i <= 6; i++) o = o (i == 1 ? "" : ((i - 1) % 3 == 0 ? "\\n" : ", ")) a[i]
    if (n > 6) o = o "\\n... (" n " ports)"
    return o
}
'
}

if [ "${DOT_ONLY:-}" = 1 ]; then
    gen_dot
    exit 0
fi
command -v dot >/dev/null || { echo "engine-diagram: needs dot (apt-get install graphviz)" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
gen_dot > "$tmp.dot"
# An SVG without the generator's comment lines (graphviz version, title).
dot -Tsvg "$tmp.dot" | sed '/^<!-- Generated by/,/-->/d' > "$tmp"
rm -f "$tmp.dot"
chmod 644 "$tmp"
mv "$tmp" "$out"
echo "engine-diagram: $out from $top"
