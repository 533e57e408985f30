/* SPDX-License-Identifier: Apache-2.0 */
/*
 * livechk.h - what a queue that stopped moving says about its driver.
 *
 * The ownership checkers (ownchk.h) judge each access as it happens; some
 * driver bugs break no single access and only stop the queue:
 *   lost_wakeup       the queue is stopped (ring full, or BQL's limit)
 *                     while nothing is in flight: nothing will ever wake
 *                     it (a wake test that missed the stop: Linux's
 *                     netif_tx_stop_queue(); smp_mb(); re-check, and
 *                     smp_mb() in the cleanup before netif_tx_queue_stopped)
 *   bql_unbalanced    BQL stopped the queue with the ring empty: the
 *                     driver completed fewer bytes than it queued
 *   desc_unpublished  a descriptor written and never handed to the device
 *                     (ownchk_unpublished)
 *   doorbell_missing  owner bits set and never announced by a doorbell
 *                     (ownchk_unannounced)
 *   completion_unreclaimed  the device completed every descriptor the
 *                     driver wrote, long ago, and the driver still counts
 *                     some in flight: its cleanup does not see or record
 *                     the completions (next_to_clean never stored, a phase
 *                     never flipped, no cleanup running)
 * The watching CPU calls sim_live_check whenever it waits (with the
 * driver's hang check, fault.h), and before a reset the hang check
 * between its busy passes makes.  A state counts once it has lasted the
 * stuck time: half the driver's tx timeout, or a quarter of the watchdog
 * without one, so it is named before either acts.  Each queue is reported
 * once; when the watchdog ends a run, whatever is stuck is named at once
 * (sim_live_diagnose).  No state outside struct sim.
 */
#ifndef NICTX_LIVECHK_H
#define NICTX_LIVECHK_H

struct sim;
struct sim_cpu;

void sim_live_check(struct sim_cpu *c);
/* The watchdog is about to end the run: name what each queue is stuck in
 * now, however long it has been. */
void sim_live_diagnose(struct sim *s);
/* The run ended: BQL's count of bytes in flight must be back to 0 on every
 * empty ring (bql_unbalanced). */
void sim_live_final(struct sim *s);

#endif /* NICTX_LIVECHK_H */
