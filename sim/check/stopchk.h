/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stopchk.h - the stop/wake protocol between the transmit path and the
 * cleanup, checked at every stop and every test of the queue's state.
 *
 * Linux's contract (ixgbe_maybe_stop_tx, ixgbe_clean_tx_irq; the
 * store-buffering pattern of tools/memory-model) is two halves, each a
 * store then a load of what the other CPU stores:
 *   transmit:  netif_tx_stop_queue();  smp_mb();  re-read next_to_clean
 *   cleanup:   store next_to_clean;    smp_mb();  netif_tx_queue_stopped()
 * Without either barrier both loads may read the old value: the queue
 * stops with room, and nothing wakes it.  The window is nanoseconds and
 * needs the last completions to land in it, so the checker does not wait
 * for it to open; it names a half that breaks the contract, by the full
 * barriers (smp_mb) the CPU executed between the store and the load:
 *   stop_unordered   no smp_mb() between a stop and the CPU's next load of
 *                    shared state (the re-check);
 *   stop_no_recheck  a CPU that stopped the queue tested it again (the
 *                    stack's test before its next transmit, or its own)
 *                    without reading any shared index in between: the stop
 *                    was never re-checked;
 *   wake_unordered   a CPU tested the queue's state (netif_tx_queue_stopped,
 *                    the cleanup's test) with no smp_mb() since
 *                    its store to a location the transmit path re-checks
 *                    (learnt from the re-checks: next_to_clean).
 * smp_wmb, wmb, release and acquire do not order a store before a later
 * load, so none of them counts.
 * State: per CPU (struct sim_cpu: the stop awaiting its re-check) and per
 * simulation (the re-checked locations); nothing global.
 */
#ifndef NICTX_STOPCHK_H
#define NICTX_STOPCHK_H

#include <stdint.h>

struct sim;
struct sim_cpu;

#define STOPCHK_LOCS 4u   /* re-checked locations, and stores a CPU remembers */

/* The queue whose state word (struct txq's `stopped`, netdev.h) is
 * `state`, 0 when none is; whether `w` is one. */
unsigned stopchk_queue(struct sim *s, const uint32_t *state);
int stopchk_is_state(struct sim *s, const uint32_t *w);
/* CPU c stopped the queue whose state word is `state`. */
void stopchk_stop(struct sim_cpu *c, const uint32_t *state);
/* CPU c stores shared driver state at `dst` (WRITE_ONCE and friends). */
void stopchk_store(struct sim_cpu *c, const void *dst);
/* CPU c executes a full barrier (smp_mb). */
void stopchk_mb(struct sim_cpu *c);
/* CPU c loads shared driver state at `src` now (READ_ONCE and friends). */
void stopchk_load(struct sim_cpu *c, const void *src);
/* The same for a plain load or store of shared driver state (driver code
 * compiled with the kernel layer, sim/run/plain_access.c): a plain load
 * after a stop is its re-check once an smp_mb() came after the stop, or
 * at a location learnt from a re-check (before it, a driver's own
 * bookkeeping is not taken for one), and so is every plain load after it
 * up to the CPU's next platform call (a re-check reads both indices, in
 * whatever order the compiler put them); a plain store counts for the
 * cleanup's half only at a learnt location. */
void stopchk_load_plain(struct sim_cpu *c, const void *src);
void stopchk_store_plain(struct sim_cpu *c, const void *dst);
/* CPU c tests the queue's state word `state` now: the driver's test
 * (netif_tx_queue_stopped), or the stack's before a transmit
 * (netif_xmit_stopped). */
void stopchk_tested(struct sim_cpu *c, const uint32_t *state);
void stopchk_xmit_tested(struct sim_cpu *c, const uint32_t *state);

#endif /* NICTX_STOPCHK_H */
