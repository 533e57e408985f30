/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_values.h - the value lists of a sweep parameter: "1,2,4", ranges
 * "1..32*2", "64..1518+64", and escaped commas.
 *
 * What it models: nothing; it is the syntax of `nictx sweep --set NAME=LIST`
 * and of the [params] lines of a sweep file (docs/user-guide.md).
 *
 * Syntax.  A list is one or more items separated by ','; "\," is a comma
 * inside a value (fc-dev=ph=1\,pd=32).  Blanks around an item are ignored;
 * a value may not contain blanks.  An item is a literal value, or a range
 * when it starts with a digit and contains "..":
 *   A..B      A, A+1, ..., B                 (integers)
 *   A..B+S    A, A+S, A+2S, ... up to B      (S > 0)
 *   A..B*F    A, A*F, A*F*F, ... up to B     (A > 0, F > 1)
 * A, B, S and F are unsigned decimals (digits, optionally a fraction: no
 * sign, exponent, hex or leading zero).  When all are integers the values
 * are exact integers; otherwise each is computed from A (not accumulated)
 * and written with up to 15 significant digits, and B counts as reached
 * within one part in 10^9.  Ranges and literals mix: "1,2,8..64*2".
 *
 * Contract.  sweep_values_parse appends the values, in order, to *out and
 * returns 0; or returns -1, leaves *out unchanged and writes a one-line
 * reason to err: empty list, empty item, blank inside a value, bad range
 * (syntax, A > B, S = 0, F <= 1, A = 0 with F), more than
 * SWEEP_MAX_VALUES values, or a value given twice (it would make two
 * identical points).  No global state.
 */
#ifndef NICTX_SWEEP_VALUES_H
#define NICTX_SWEEP_VALUES_H

#include <stddef.h>

#include "lib/strv.h"

#define SWEEP_MAX_VALUES 10000

int sweep_values_parse(const char *list, struct strv *out, char *err, size_t errlen);

/* Write value v with its commas escaped ("\,") to buf: 0, or -1 if it
 * does not fit. */
int sweep_value_escape(const char *v, char *buf, size_t len);

#endif /* NICTX_SWEEP_VALUES_H */
