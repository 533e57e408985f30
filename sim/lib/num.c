/* SPDX-License-Identifier: Apache-2.0 */
/*
 * num.c - strict decimal numbers (see num.h).
 */
#include "lib/num.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DIGITS "0123456789"

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* The form of the text, before its value: `real` allows .fraction, eN. */
static enum num_err num_form(const char *s, int real, enum num_rules rules)
{
    size_t n = strlen(s), mant = strspn(s, DIGITS);
    const char *p = s + mant;

    if (n == 0)
        return NUM_EMPTY;
    if (is_blank(s[0]) || is_blank(s[n - 1]))
        return NUM_BLANK;
    if (s[0] == '-' || s[0] == '+')
        return NUM_SIGN;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return NUM_HEX;
    if (rules == NUM_STRICT && s[0] == '0' && mant > 1)
        return NUM_OCTAL;
    if (real && (strncasecmp(s, "inf", 3) == 0 || strncasecmp(s, "nan", 3) == 0))
        return NUM_NONFINITE;
    if (real && *p == '.') {
        size_t frac = strspn(p + 1, DIGITS);
        mant += frac;
        p += 1 + frac;
    }
    if (mant == 0)
        return NUM_SYNTAX;
    if (real && (*p == 'e' || *p == 'E')) {
        size_t exp;
        p += (p[1] == '+' || p[1] == '-') ? 2 : 1;
        exp = strspn(p, DIGITS);
        if (exp == 0)
            return NUM_SYNTAX;
        p += exp;
    }
    return *p == '\0' ? NUM_OK : NUM_SYNTAX;
}

enum num_err num_u64(const char *s, uint64_t max, enum num_rules rules, uint64_t *v)
{
    enum num_err e = num_form(s, 0, rules);
    unsigned long long x;

    if (e != NUM_OK)
        return e;
    errno = 0;
    x = strtoull(s, NULL, 10);
    if (errno == ERANGE || x > max)
        return NUM_RANGE;
    *v = x;
    return NUM_OK;
}

enum num_err num_uint(const char *s, enum num_rules rules, unsigned *v)
{
    uint64_t x;
    enum num_err e = num_u64(s, UINT_MAX, rules, &x);

    if (e == NUM_OK)
        *v = (unsigned)x;
    return e;
}

/* Out of range when it overflows, and (strict) when it underflows. */
enum num_err num_real(const char *s, enum num_rules rules, double *v)
{
    enum num_err e = num_form(s, 1, rules);
    double x;

    if (e != NUM_OK)
        return e;
    errno = 0;
    x = strtod(s, NULL);
    if ((rules == NUM_STRICT && errno == ERANGE) || !isfinite(x))
        return NUM_RANGE;
    *v = x;
    return NUM_OK;
}

const char *num_why(enum num_err e, uint64_t max, char *buf, size_t len)
{
    switch (e) {
    case NUM_OK: return "ok";
    case NUM_EMPTY: return "empty; expected a decimal number";
    case NUM_BLANK: return "leading or trailing blank; expected a decimal number";
    case NUM_SIGN: return "no sign allowed; expected a decimal number >= 0";
    case NUM_HEX: return "hex is not accepted; write the number in decimal";
    case NUM_OCTAL: return "leading zero (octal?) is not accepted; write the number in decimal";
    case NUM_NONFINITE: return "not a finite number";
    case NUM_SYNTAX: return max ? "not a decimal integer" : "not a decimal number";
    case NUM_RANGE:
        if (!max)
            return "out of range";
        snprintf(buf, len, "out of range (at most %" PRIu64 ")", max);
        return buf;
    }
    return "not a number";
}
