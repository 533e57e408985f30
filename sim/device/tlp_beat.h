/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tlp_beat.h - TLPs to device port beats and back (sim/device/device.h is the
 * contract), shared by the native harness (sim/run/dev_port.c) and the SystemC
 * model (sc/nictx_sc.cpp).
 *
 * tlp_beat_from_tlp() gives beat k of a TLP on a W-byte port: header fields
 * on every beat, data lanes following the address, an MRd with no data;
 * tlp_beat_next() the next beat from the one before.
 * tlp_beat_collect() gathers a device's beats into one TLP: header from the
 * sop beat (status UR when err is set), data lanes to data[] by address; it
 * returns 1 on the eop beat, when the TLP is whole.  The beat counter is the
 * caller's (one per stream).  Neither fails; data beyond TLP_MAX_DATA is
 * dropped.
 */
#ifndef NICTX_TLP_BEAT_H
#define NICTX_TLP_BEAT_H

#include "device/device.h"
#include "pcie/tlp.h"

void tlp_beat_from_tlp(unsigned w, const struct tlp *t, unsigned k, struct dev_beat *b);
/* The same for k >= 1 when b holds beat k - 1 of the same TLP, as
 * tlp_beat_from_tlp() or this gave it: only sop, eop and the lanes change
 * (the header is the TLP's on every beat). */
void tlp_beat_next(unsigned w, const struct tlp *t, unsigned k, struct dev_beat *b);
int tlp_beat_collect(unsigned w, struct tlp *t, unsigned *beat, const struct dev_beat *b);

#endif /* NICTX_TLP_BEAT_H */
