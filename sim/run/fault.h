/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fault.h - the harness carries out a run's fault plan (inject.h) and
 * accounts for what it costs: every frame a fault keeps off the wire is
 * dropped for that fault's reason, never silently lost.
 *
 *  - ur, ca, ep, timeout: when packet N is posted, its frame's bus range is
 *    armed in the root complex (rc_arm_fault); the first DMA read of it
 *    gets the fault.  ur/ca/ep: the engine skips the frame (ERR.DMA), so it
 *    is noted dropped at once; later frames stall behind the stopped queue.
 *    timeout: the read never completes (ERR.CPL_TIMEOUT) and the queue stalls.
 *  - db-off: the harness disables the queue (CTRL = 0, as another agent
 *    might) just before packet N is posted; its doorbell is ignored
 *    (ERR.DB_OFF) and the queue stalls.
 *  - blackout@N:T: no TLP starts on either direction of the link for T ns
 *    from packet N's posting (pcie_link_blackout).
 * Each fault names a queue's packet (KIND@Q/N; queue 0 with one queue).
 * The device's error state, CTRL and reset are global, so a fault on any
 * queue stalls them all.  A stalled queue is found by the driver's hang
 * check (txq_hung, after the tx timeout), which resets the adapter: every
 * queue (txq_reset_all), as ixgbe's transmit timeout does.  The check runs
 * whenever the watching CPU waits and between its busy passes.  The frames the
 * reset drops, of every queue, count under the reason of the latest fault
 * that fired; a reset with no fault behind it drops them as
 * SIM_DROP_RESET, which fails the run.
 */
#ifndef NICTX_FAULT_H
#define NICTX_FAULT_H

#include <stddef.h>
#include <stdint.h>

#include "run/inject.h"

struct sim;
struct sim_cpu;
struct sim_cfg;
struct sim_result;

/* Scoreboard drop reasons: enum inj_kind, then this. */
#define SIM_DROP_RESET INJ_KINDS
#define SIM_DROP_REASONS (INJ_KINDS + 1)

/* "ur" ... "blackout", "reset"; "invalid" beyond. */
const char *sim_drop_reason_name(unsigned reason);

/* Queue q's packet seq is being posted in buf[0..len) (its pktgen's
 * fill): fire what the plan has for it. */
void sim_fault_posting(struct sim *s, unsigned q, uint64_t seq, const uint8_t *buf,
                       unsigned len);

/* The root complex answered a read with an armed fault (RC_FAULTED). */
void sim_fault_fired(struct sim *s);

/* A reset dropped queue q's packet seq (its pktgen's on_drop): noted in
 * the scoreboard under the latest fault's reason. */
void sim_fault_dropped(struct sim *s, unsigned q, uint64_t seq);

/* The driver's hang check on CPU c, between its bursts or polls: if any
 * queue is hung, reset the adapter (every queue: txq_reset_all), holding
 * every CPU off every queue first; c must not be inside txq_xmit or
 * txq_clean.  One CPU watches: the last (the completion CPU when there are
 * two), or, once it is done, any that asks.  1 if it reset. */
int sim_fault_check_hang(struct sim_cpu *c);

/* The same hang check between two busy passes of CPU c (a burst, a
 * cleanup pass, a NAPI poll), as ixgbe_clean_tx_irq runs
 * ixgbe_check_tx_hang on every poll: a CPU that never runs out of work
 * (posting into a device a fault stopped) still resets a hung queue at
 * the tx timeout.  It names stuck queues (sim_live_check, a scan of the
 * rings) only when a reset is due.  1 if it reset. */
int sim_fault_poll_hang(struct sim_cpu *c);

/* The ERR bits the faults fired so far explain: DMA (ur, ca, ep),
 * CPL_TIMEOUT (timeout), DB_OFF (db-off), CPL_TIMEOUT and UNEXP_CPL
 * (blackout: reads it holds time out, their completions come late).  Any
 * other bit, at a reset or at the end, is a device_error violation. */
uint32_t sim_fault_err_explained(const struct sim *s);

#endif /* NICTX_FAULT_H */
