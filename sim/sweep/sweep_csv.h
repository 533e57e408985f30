/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_csv.h - CSV (RFC 4180) as results.csv holds it: one field written
 * (sweep_table.c writes its tables with it) and a whole table read back
 * (nictx sweep compare reads two).
 *
 * Writing: a field is quoted when it holds a comma, a quote, a line break
 * or a blank at either edge; a quote inside is doubled.
 *
 * Reading: the first record is the header (the column names), every other
 * record a row with exactly as many fields.  A field may be quoted; inside
 * quotes a comma or line break is part of the field and "" is one quote.
 * Records end with LF or CRLF; the last may lack its line break.  An
 * unterminated quote, a quote inside an unquoted field, text after a
 * closing quote, a row whose field count is not the header's, an empty
 * header or a NUL byte is an error naming the line.
 *
 * Contract: sweep_csv_parse and sweep_csv_load return 0 with *t filled in,
 * or -1 with the reason in err ("PATH:LINE: reason" for a file) and *t
 * empty.  sweep_csv_free leaves an empty table.  No global state.
 */
#ifndef NICTX_SWEEP_CSV_H
#define NICTX_SWEEP_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "lib/strv.h"

struct sweep_csv {
    struct strv cols; /* the header's names */
    char **cells;     /* nrows * cols.n fields, row by row (owned) */
    size_t nrows;
};

void sweep_csv_init(struct sweep_csv *t);
void sweep_csv_free(struct sweep_csv *t);

/* text[0..len) as a table; name prefixes the error ("NAME:LINE: ..."). */
int sweep_csv_parse(struct sweep_csv *t, const char *text, size_t len, const char *name,
                    char *err, size_t errlen);
/* The file at path as a table. */
int sweep_csv_load(struct sweep_csv *t, const char *path, char *err, size_t errlen);

/* Row r's field of column c (both in range). */
const char *sweep_csv_cell(const struct sweep_csv *t, size_t r, size_t c);

/* Write one field, quoted when it must be (see above). */
void sweep_csv_field(FILE *f, const char *s);

#endif /* NICTX_SWEEP_CSV_H */
