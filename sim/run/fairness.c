/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fairness.c - shares, deviation and Jain's index (see fairness.h).
 */
#include "run/fairness.h"

#include <math.h>
#include <stddef.h>

static double fair_sum_bytes(const uint64_t *bytes, unsigned n)
{
    double s = 0;

    for (unsigned q = 0; q < n; q++)
        s += (double)bytes[q];
    return s;
}

static double fair_sum_weights(const unsigned *weight, unsigned n)
{
    double s = 0;

    for (unsigned q = 0; q < n; q++)
        s += weight[q];
    return s;
}

void fair_shares(const uint64_t *bytes, const unsigned *weight, unsigned n, double *share,
                 double *expected)
{
    double b = fair_sum_bytes(bytes, n), w = fair_sum_weights(weight, n);

    for (unsigned q = 0; q < n; q++) {
        if (share)
            share[q] = b > 0 ? (double)bytes[q] / b : NAN;
        if (expected)
            expected[q] = w > 0 ? weight[q] / w : NAN;
    }
}

double fair_jain(const uint64_t *bytes, const unsigned *weight, unsigned n)
{
    double sx = 0, sxx = 0;

    for (unsigned q = 0; q < n; q++) {
        double x = weight[q] ? (double)bytes[q] / weight[q] : 0;
        sx += x;
        sxx += x * x;
    }
    return n && sxx > 0 ? sx * sx / (n * sxx) : NAN;
}

double fair_max_share_dev(const uint64_t *bytes, const unsigned *weight, unsigned n)
{
    double b = fair_sum_bytes(bytes, n), w = fair_sum_weights(weight, n), dev = 0;

    if (!(b > 0 && w > 0))
        return NAN;
    for (unsigned q = 0; q < n; q++) {
        double d = fabs(((double)bytes[q] / b) / (weight[q] / w) - 1.0);
        if (d > dev)
            dev = d;
    }
    return dev;
}

void fair_compute(const uint64_t *bytes, const unsigned *weight, unsigned n,
                  struct fair_result *out)
{
    out->jain = fair_jain(bytes, weight, n);
    out->max_share_dev = fair_max_share_dev(bytes, weight, n);
}
