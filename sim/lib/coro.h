/* SPDX-License-Identifier: Apache-2.0 */
/*
 * coro.h - stackful coroutines: each simulated CPU runs its straight-line
 * driver code on a stack of its own, and gives control back to the
 * scheduler (the event loop) whenever it must wait: an MMIO read, a poll,
 * or its clock running ahead of the rest of the world.
 *
 * Contract:
 * - coro_init() prepares a coroutine that will run fn(arg) on a stack of
 *   `stack_bytes`; nothing runs until the first coro_resume().
 * - coro_resume() (from the scheduler) runs the coroutine until it calls
 *   coro_yield() or fn returns; it returns 1 while the coroutine can be
 *   resumed again, 0 once fn has returned.
 * - coro_yield(co) (from inside co's fn) returns to the scheduler; the next
 *   coro_resume(co) continues after it.
 * - Coroutines never resume each other; the caller knows which coroutine
 *   it runs in (no global "current" pointer: two simulations can share a
 *   process).
 * On x86-64 the switch is a few instructions (callee-saved registers and
 * the stack pointer); elsewhere it falls back to POSIX ucontext, which
 * also saves the signal mask (a system call per switch: slower, correct).
 * Under AddressSanitizer every switch is announced to it
 * (__sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber), so
 * it knows which stack is current and keeps each one's fake stack for
 * detect_stack_use_after_return; a coroutine destroyed before its fn
 * returned leaves its fake stack to ASan (a small leak in sanitized builds
 * only).
 */
#ifndef NICTX_CORO_H
#define NICTX_CORO_H

#include <stddef.h>

struct coro {
    void (*fn)(void *arg);
    void *arg;
    void *stack;
    size_t stack_bytes;
    void *sp;          /* x86-64: the coroutine's saved stack pointer */
    void *caller_sp;   /* x86-64: the scheduler's */
    void *uc, *caller_uc; /* fallback: ucontext_t, allocated */
    /* AddressSanitizer's view (unused otherwise): each side's fake stack
     * while it is switched out, and the scheduler's stack bounds. */
    void *asan_fake, *asan_caller_fake;
    const void *asan_caller_bottom;
    size_t asan_caller_size;
    int done;
};

/* 0, or -1 if the stack cannot be allocated. */
int coro_init(struct coro *co, void (*fn)(void *arg), void *arg, size_t stack_bytes);
void coro_destroy(struct coro *co);
int coro_resume(struct coro *co);
void coro_yield(struct coro *co);

#endif /* NICTX_CORO_H */
