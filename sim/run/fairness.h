/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fairness.h - how fairly the transmit scheduler shared the wire among
 * queues over the contended window (docs/user-guide.md, Queues).
 *
 * Inputs per queue q (n queues): bytes_q, its wire bytes in the window,
 * and weight_q (1..255; all 1 under round robin).
 *   share_q          = bytes_q / sum(bytes)
 *   expected_share_q = weight_q / sum(weight)
 *   max_share_dev    = max over q of |share_q / expected_share_q - 1|
 *                      (relative: 0.02 is 2% of the expected share)
 *   jain             = (sum x)^2 / (n * sum x^2), x_q = bytes_q / weight_q
 *                      (Jain's index over weight-normalised throughput:
 *                      1 when every queue got its weight's share, 1/n when
 *                      one queue got everything)
 * With no bytes at all, shares, the deviation and jain are NAN; with no
 * weight (every weight 0), expected shares, the deviation and jain are.
 * Pure functions of their inputs; nothing kept.
 */
#ifndef NICTX_FAIRNESS_H
#define NICTX_FAIRNESS_H

#include <stdint.h>

struct fair_result {
    double jain;
    double max_share_dev;
};

/* share[q] and expected[q] for q < n (either may be NULL). */
void fair_shares(const uint64_t *bytes, const unsigned *weight, unsigned n, double *share,
                 double *expected);
double fair_jain(const uint64_t *bytes, const unsigned *weight, unsigned n);
double fair_max_share_dev(const uint64_t *bytes, const unsigned *weight, unsigned n);
void fair_compute(const uint64_t *bytes, const unsigned *weight, unsigned n,
                  struct fair_result *out);

#endif /* NICTX_FAIRNESS_H */
