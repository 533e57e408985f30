/* SPDX-License-Identifier: Apache-2.0 */
/*
 * num.h - strict decimal numbers, as the command line and the profiles
 * take them.
 *
 * Strict: digits only, no sign, no blanks, no hex, nothing after the
 * number, within the type's range; a real may also have a fraction and an
 * exponent and must be finite.  Two rule sets:
 *  - NUM_STRICT (the command line): a leading zero is refused (C would read
 *    010 as octal) and a real that underflows is out of range;
 *  - NUM_LENIENT (profile keys): a leading zero is decimal (007 is 7) and a
 *    real that underflows is taken as what strtod gives.
 * Each parser returns NUM_OK (and sets *v) or why the text is refused
 * (*v untouched); num_why() words the reason.  Pure functions, no state.
 */
#ifndef NICTX_NUM_H
#define NICTX_NUM_H

#include <stddef.h>
#include <stdint.h>

enum num_err {
    NUM_OK, NUM_EMPTY, NUM_BLANK, NUM_SIGN, NUM_HEX, NUM_OCTAL, NUM_NONFINITE,
    NUM_SYNTAX, NUM_RANGE
};

enum num_rules { NUM_STRICT, NUM_LENIENT };

/* A decimal integer 0..max. */
enum num_err num_u64(const char *s, uint64_t max, enum num_rules rules, uint64_t *v);
/* A decimal integer 0..UINT_MAX. */
enum num_err num_uint(const char *s, enum num_rules rules, unsigned *v);
/* A finite decimal real >= 0. */
enum num_err num_real(const char *s, enum num_rules rules, double *v);

/* Why a number was refused, in words ("hex is not accepted; ..."); `max`
 * is the integer limit, 0 for a real.  The text may live in buf. */
const char *num_why(enum num_err e, uint64_t max, char *buf, size_t len);

#endif /* NICTX_NUM_H */
