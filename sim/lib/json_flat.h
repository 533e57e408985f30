/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json_flat.h - a small JSON reader that flattens a document into columns:
 * one (dotted key, value) item per scalar, in document order.
 *
 * What it models: nothing; it reads the result of a run (`nictx run
 * --json`, report.h) back so that a sweep can put every figure of every
 * point in one table.
 *
 * Flattening.  An object member's key is its parent's key, '.', its name
 * ("latency_ns.p50"); an array element's name is its index from 0
 * ("violations.0.kind"); a scalar at the top level has the key "".  An
 * empty object or array gives no item.  Keys are not escaped: a name that
 * holds a '.' reads like two levels ("cachelines_per_pkt.txq.ro.transfers").
 *
 * Values.  Each item keeps its type: JSON_FLAT_NUM keeps the number's text
 * exactly as written (so numbers round-trip byte for byte), JSON_FLAT_STR
 * the unescaped string (UTF-8; \uXXXX and surrogate pairs decoded; \u0000
 * is refused), JSON_FLAT_BOOL "true" or "false", JSON_FLAT_NULL "null".
 *
 * Contract: json_flat_parse reads one complete JSON text (RFC 8259: strict
 * grammar, blanks around it allowed, nesting at most JSON_FLAT_DEPTH) and
 * returns 0 with the items in *out (which it initialises); or -1 with *out
 * empty and "line L, column C: reason" in err for a syntax error, a second
 * top-level value, or two items with the same key.  json_flat_load does
 * the same for a file ("PATH: ..." in err).  json_flat_free releases the
 * items.  No global state.
 */
#ifndef NICTX_JSON_FLAT_H
#define NICTX_JSON_FLAT_H

#include <stddef.h>

#define JSON_FLAT_DEPTH 64

enum json_flat_type { JSON_FLAT_NULL, JSON_FLAT_BOOL, JSON_FLAT_NUM, JSON_FLAT_STR };

struct json_flat_item {
    char *key;
    char *text;
    enum json_flat_type type;
};

struct json_flat {
    struct json_flat_item *items;
    size_t n, cap;
};

void json_flat_init(struct json_flat *f);
int json_flat_parse(struct json_flat *out, const char *text, size_t len, char *err, size_t errlen);
int json_flat_load(struct json_flat *out, const char *path, char *err, size_t errlen);
void json_flat_free(struct json_flat *f);

/* Append an item (copies of key and text): 0, or -1 out of memory. */
int json_flat_add(struct json_flat *f, const char *key, enum json_flat_type type,
                  const char *text);
/* The item with this key, or NULL. */
const struct json_flat_item *json_flat_get(const struct json_flat *f, const char *key);

#endif /* NICTX_JSON_FLAT_H */
