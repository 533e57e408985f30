/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sweep_values.c - value lists and ranges of sweep parameters (see
 * sweep_values.h).
 */
#include "sweep/sweep_values.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIGITS "0123456789"
#define ITEM_BYTES 512

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* One number of a range: digits, optionally .digits; no leading zero
 * before more digits.  Its length in s, or 0 if it is not one. */
static size_t range_num_len(const char *s, int *is_int)
{
    size_t n = strspn(s, DIGITS);

    *is_int = 1;
    if (n == 0 || (s[0] == '0' && n > 1))
        return 0;
    if (s[n] == '.' && s[n + 1] != '.') {
        size_t f = strspn(s + n + 1, DIGITS);
        if (f == 0)
            return 0;
        n += 1 + f;
        *is_int = 0;
    }
    return n;
}

/* A parsed range A..B, A..B+S or A..B*F. */
struct range {
    double a, b, step; /* step: S or F */
    uint64_t ia, ib, istep;
    int geometric;
    int integers; /* all of A, B and the step are integers */
};

static int range_syntax(const char *s, struct range *r, char *err, size_t errlen)
{
    const char *p = s;
    int ai, bi, si = 1;
    size_t n;

    memset(r, 0, sizeof(*r));
    errno = 0;
    if (!(n = range_num_len(p, &ai)) || strncmp(p + n, "..", 2) != 0)
        goto bad;
    r->a = strtod(p, NULL);
    r->ia = strtoull(p, NULL, 10);
    p += n + 2;
    if (!(n = range_num_len(p, &bi)))
        goto bad;
    r->b = strtod(p, NULL);
    r->ib = strtoull(p, NULL, 10);
    p += n;
    r->step = 1;
    r->istep = 1;
    if (*p == '+' || *p == '*') {
        r->geometric = *p == '*';
        if (!(n = range_num_len(++p, &si)))
            goto bad;
        r->step = strtod(p, NULL);
        r->istep = strtoull(p, NULL, 10);
        p += n;
    }
    if (*p != '\0')
        goto bad;
    r->integers = ai && bi && si;
    if (r->integers && (r->ia == ULLONG_MAX || r->ib == ULLONG_MAX || r->istep == ULLONG_MAX) &&
        errno == ERANGE) {
        snprintf(err, errlen, "bad range '%s': a number is above 18446744073709551615", s);
        return -1;
    }
    return 0;
bad:
    snprintf(err, errlen, "bad range '%s': expected A..B, A..B+STEP or A..B*FACTOR "
             "with unsigned decimal numbers", s);
    return -1;
}

static int range_limits(const char *s, const struct range *r, char *err, size_t errlen)
{
    const char *why = NULL;

    if (r->integers ? r->ia > r->ib : r->a > r->b)
        why = "the start is above the end";
    else if (!r->geometric && r->step <= 0)
        why = "the step must be above 0";
    else if (r->geometric && r->step <= 1)
        why = "the factor must be above 1";
    else if (r->geometric && r->a <= 0)
        why = "a geometric range must start above 0";
    if (!why)
        return 0;
    snprintf(err, errlen, "bad range '%s': %s", s, why);
    return -1;
}

/* The value after v in an integer range: 0, or -1 past its end. */
static int range_next_int(const struct range *r, uint64_t *v)
{
    if (r->geometric ? *v > r->ib / r->istep : r->istep > r->ib - *v)
        return -1;
    *v = r->geometric ? *v * r->istep : *v + r->istep;
    return 0;
}

/* The i-th value of a range with fractions: 1, or 0 once past its end. */
static int range_value_real(const struct range *r, size_t i, char *buf, size_t len)
{
    double v = r->geometric ? r->a * pow(r->step, (double)i) : r->a + (double)i * r->step;

    if (v > r->b * (1 + 1e-9))
        return 0;
    snprintf(buf, len, "%.15g", v);
    return 1;
}

/* The i-th value into buf: 1, or 0 once past the end (*iv: integer state). */
static int range_value(const struct range *r, size_t i, uint64_t *iv, char *buf, size_t len)
{
    if (!r->integers)
        return range_value_real(r, i, buf, len);
    if (i == 0)
        *iv = r->ia;
    else if (range_next_int(r, iv) != 0)
        return 0;
    snprintf(buf, len, "%" PRIu64, *iv);
    return 1;
}

static int range_expand(const char *s, struct strv *out, char *err, size_t errlen)
{
    struct range r;
    char buf[64];
    uint64_t iv = 0;
    size_t i;

    if (range_syntax(s, &r, err, errlen) != 0 || range_limits(s, &r, err, errlen) != 0)
        return -1;
    for (i = 0; range_value(&r, i, &iv, buf, sizeof(buf)); i++) {
        if (i >= SWEEP_MAX_VALUES) {
            snprintf(err, errlen, "range '%s' has more than %d values", s, SWEEP_MAX_VALUES);
            return -1;
        }
        if (strv_push(out, buf) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* Cut the next item from *p into buf (unescaping "\,", trimming blanks);
 * *p moves past its comma.  -1 if it does not fit. */
static int next_item(const char **p, char *buf, size_t len)
{
    const char *s = *p;
    size_t n = 0, lead;

    while (*s && *s != ',') {
        if (s[0] == '\\' && s[1] == ',')
            s++;
        if (n + 1 >= len)
            return -1;
        buf[n++] = *s++;
    }
    *p = *s ? s + 1 : NULL;
    while (n > 0 && is_blank(buf[n - 1]))
        n--;
    buf[n] = '\0';
    lead = 0;
    while (is_blank(buf[lead]))
        lead++;
    memmove(buf, buf + lead, n - lead + 1);
    return 0;
}

static int is_range(const char *item)
{
    return item[0] >= '0' && item[0] <= '9' && strstr(item, "..") != NULL;
}

static int add_item(const char *item, struct strv *out, char *err, size_t errlen)
{
    if (*item == '\0') {
        snprintf(err, errlen, "empty value in the list");
        return -1;
    }
    if (strpbrk(item, " \t\n\v\f\r")) {
        snprintf(err, errlen, "value '%s' contains a blank", item);
        return -1;
    }
    if (is_range(item))
        return range_expand(item, out, err, errlen);
    if (strv_push(out, item) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

/* No value twice, and not too many in all. */
static int values_distinct(const struct strv *v, char *err, size_t errlen)
{
    if (v->n > SWEEP_MAX_VALUES) {
        snprintf(err, errlen, "more than %d values", SWEEP_MAX_VALUES);
        return -1;
    }
    for (size_t i = 1; i < v->n; i++)
        for (size_t k = 0; k < i; k++)
            if (strcmp(v->v[i], v->v[k]) == 0) {
                snprintf(err, errlen, "value '%s' is given twice", v->v[i]);
                return -1;
            }
    return 0;
}

int sweep_values_parse(const char *list, struct strv *out, char *err, size_t errlen)
{
    struct strv vals;
    char item[ITEM_BYTES];
    const char *p = list;
    size_t nnew;

    strv_init(&vals);
    if (strspn(list, " \t\n\v\f\r") == strlen(list)) {
        snprintf(err, errlen, "empty list: expected values separated by ','");
        return -1;
    }
    while (p) {
        if (next_item(&p, item, sizeof(item)) != 0) {
            snprintf(err, errlen, "a value is longer than %d characters", ITEM_BYTES - 1);
            goto fail;
        }
        if (add_item(item, &vals, err, errlen) != 0)
            goto fail;
    }
    nnew = vals.n;
    for (size_t i = 0; i < out->n; i++)
        if (strv_push(&vals, out->v[i]) != 0)
            goto fail;
    if (values_distinct(&vals, err, errlen) != 0)
        goto fail;
    for (size_t i = 0; i < nnew; i++)
        if (strv_push(out, vals.v[i]) != 0)
            goto fail;
    strv_free(&vals);
    return 0;
fail:
    strv_free(&vals);
    return -1;
}

int sweep_value_escape(const char *v, char *buf, size_t len)
{
    size_t n = 0;

    for (; *v; v++) {
        if (n + 3 > len)
            return -1;
        if (*v == ',')
            buf[n++] = '\\';
        buf[n++] = *v;
    }
    if (n + 1 > len)
        return -1;
    buf[n] = '\0';
    return 0;
}
