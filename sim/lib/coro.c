/* SPDX-License-Identifier: Apache-2.0 */
/*
 * coro.c - stackful coroutines (see coro.h).
 */
#define _GNU_SOURCE
#include "lib/coro.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* AddressSanitizer must be told of every stack switch (coro.h). */
#if defined(__SANITIZE_ADDRESS__)
#define CORO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORO_ASAN 1
#endif
#endif

#ifdef CORO_ASAN
#include <sanitizer/common_interface_defs.h>

/* Scheduler -> coroutine, on the scheduler's side. */
static void coro_asan_enter(struct coro *co)
{
    __sanitizer_start_switch_fiber(&co->asan_caller_fake, co->stack, co->stack_bytes);
}

/* Back on the scheduler's side. */
static void coro_asan_entered_caller(struct coro *co)
{
    __sanitizer_finish_switch_fiber(co->asan_caller_fake, NULL, NULL);
}

/* Coroutine -> scheduler, on the coroutine's side; `final`: it never
 * runs again, so its fake stack can go. */
static void coro_asan_leave(struct coro *co, int final)
{
    __sanitizer_start_switch_fiber(final ? NULL : &co->asan_fake, co->asan_caller_bottom,
                                   co->asan_caller_size);
}

/* Running on the coroutine's stack (first entry or back from a yield). */
static void coro_asan_entered(struct coro *co)
{
    __sanitizer_finish_switch_fiber(co->asan_fake, &co->asan_caller_bottom,
                                    &co->asan_caller_size);
}
#else
static void coro_asan_enter(struct coro *co) { (void)co; }
static void coro_asan_entered_caller(struct coro *co) { (void)co; }
static void coro_asan_leave(struct coro *co, int final) { (void)co; (void)final; }
static void coro_asan_entered(struct coro *co) { (void)co; }
#endif

#if defined(__x86_64__) && !defined(NICTX_CORO_UCONTEXT)

/* Save the callee-saved registers on the current stack, store the stack
 * pointer in *save, switch to `to` and restore its registers (System V
 * AMD64: rbx, rbp, r12-r15 are callee-saved). */
void nictx_coro_switch(void **save, void *to);
/* First entry of a coroutine: its struct coro is in rbx.  Only the
 * assembly calls nictx_coro_main: `used` keeps it (and its name) under
 * link-time optimization, which cannot see that call. */
void nictx_coro_tramp(void);
void nictx_coro_main(struct coro *co) __attribute__((used));

__asm__(".text\n"
        ".globl nictx_coro_switch\n"
        ".type nictx_coro_switch,@function\n"
        "nictx_coro_switch:\n"
        "    pushq %rbp\n    pushq %rbx\n    pushq %r12\n"
        "    pushq %r13\n    pushq %r14\n    pushq %r15\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    popq %r15\n    popq %r14\n    popq %r13\n"
        "    popq %r12\n    popq %rbx\n    popq %rbp\n"
        "    ret\n"
        ".size nictx_coro_switch, .-nictx_coro_switch\n"
        ".globl nictx_coro_tramp\n"
        ".type nictx_coro_tramp,@function\n"
        "nictx_coro_tramp:\n"
        "    movq %rbx, %rdi\n"
        "    call nictx_coro_main\n"
        "    ud2\n"
        ".size nictx_coro_tramp, .-nictx_coro_tramp\n");

void nictx_coro_main(struct coro *co)
{
    coro_asan_entered(co);
    co->fn(co->arg);
    co->done = 1;
    for (;;) {
        coro_asan_leave(co, 1);
        nictx_coro_switch(&co->sp, co->caller_sp);
    }
}

static void coro_arch_init(struct coro *co)
{
    uintptr_t top = ((uintptr_t)co->stack + co->stack_bytes) & ~(uintptr_t)15;
    void **sp = (void **)top;

    /* After the six pops and the ret below, rsp is 16-aligned at the
     * trampoline, so its call leaves the ABI's entry alignment. */
    *--sp = (void *)nictx_coro_tramp;
    *--sp = NULL;       /* rbp */
    *--sp = (void *)co; /* rbx: the trampoline's argument */
    *--sp = NULL;       /* r12 */
    *--sp = NULL;       /* r13 */
    *--sp = NULL;       /* r14 */
    *--sp = NULL;       /* r15 */
    co->sp = sp;
}

static int coro_arch_alloc(struct coro *co) { (void)co; return 0; }
static void coro_arch_free(struct coro *co) { (void)co; }

static void coro_arch_resume(struct coro *co)
{
    coro_asan_enter(co);
    nictx_coro_switch(&co->caller_sp, co->sp);
    coro_asan_entered_caller(co);
}

void coro_yield(struct coro *co)
{
    coro_asan_leave(co, 0);
    nictx_coro_switch(&co->sp, co->caller_sp);
    coro_asan_entered(co);
}

#else /* portable fallback */

#include <ucontext.h>

static void coro_uc_main(unsigned hi, unsigned lo)
{
    struct coro *co = (struct coro *)(((uintptr_t)hi << 32) | (uintptr_t)lo);
    coro_asan_entered(co);
    co->fn(co->arg);
    co->done = 1;
    for (;;) {
        coro_asan_leave(co, 1);
        swapcontext(co->uc, co->caller_uc);
    }
}

static int coro_arch_alloc(struct coro *co)
{
    co->uc = calloc(1, sizeof(ucontext_t));
    co->caller_uc = calloc(1, sizeof(ucontext_t));
    return co->uc && co->caller_uc ? 0 : -1;
}

static void coro_arch_free(struct coro *co)
{
    free(co->uc);
    free(co->caller_uc);
}

static void coro_arch_init(struct coro *co)
{
    ucontext_t *uc = co->uc;
    uintptr_t p = (uintptr_t)co;

    getcontext(uc);
    uc->uc_stack.ss_sp = co->stack;
    uc->uc_stack.ss_size = co->stack_bytes;
    uc->uc_link = NULL;
    makecontext(uc, (void (*)(void))coro_uc_main, 2, (unsigned)(p >> 32), (unsigned)p);
}

static void coro_arch_resume(struct coro *co)
{
    coro_asan_enter(co);
    swapcontext(co->caller_uc, co->uc);
    coro_asan_entered_caller(co);
}

void coro_yield(struct coro *co)
{
    coro_asan_leave(co, 0);
    swapcontext(co->uc, co->caller_uc);
    coro_asan_entered(co);
}

#endif

int coro_init(struct coro *co, void (*fn)(void *arg), void *arg, size_t stack_bytes)
{
    memset(co, 0, sizeof(*co));
    co->fn = fn;
    co->arg = arg;
    co->stack_bytes = stack_bytes;
    co->stack = malloc(stack_bytes);
    if (!co->stack || coro_arch_alloc(co) != 0) {
        coro_destroy(co);
        return -1;
    }
    coro_arch_init(co);
    return 0;
}

void coro_destroy(struct coro *co)
{
    coro_arch_free(co);
    free(co->stack);
    co->stack = NULL;
    co->uc = co->caller_uc = NULL;
}

int coro_resume(struct coro *co)
{
    if (co->done)
        return 0;
    coro_arch_resume(co);
    return !co->done;
}
