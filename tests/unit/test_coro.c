/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_coro.c - stackful coroutines (sim/lib/coro.h): resume/yield order,
 * completion, two coroutines interleaved, a deep stack, and locals kept
 * across switches.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/coro.h"

struct counter {
    struct coro co;
    int steps;
    int log[16];
    int *shared_log;
    int *shared_n;
    int id;
};

static void count_three(void *arg)
{
    struct counter *c = arg;
    for (int i = 0; i < 3; i++) {
        c->log[c->steps++] = i;
        coro_yield(&c->co);
    }
}

static void test_coro_resume_yield(void **state)
{
    struct counter c;
    (void)state;
    memset(&c, 0, sizeof(c));
    assert_int_equal(coro_init(&c.co, count_three, &c, 64 * 1024), 0);
    assert_int_equal(c.steps, 0); /* nothing runs before the first resume */
    assert_int_equal(coro_resume(&c.co), 1);
    assert_int_equal(c.steps, 1);
    assert_int_equal(coro_resume(&c.co), 1);
    assert_int_equal(coro_resume(&c.co), 1);
    assert_int_equal(c.steps, 3);
    assert_int_equal(coro_resume(&c.co), 0); /* fn returned */
    assert_int_equal(coro_resume(&c.co), 0); /* and stays done */
    assert_int_equal(c.log[2], 2);
    coro_destroy(&c.co);
}

static void interleave(void *arg)
{
    struct counter *c = arg;
    double local = c->id * 1.5; /* kept in a register or on this stack */
    for (int i = 0; i < 4; i++) {
        c->shared_log[(*c->shared_n)++] = c->id;
        coro_yield(&c->co);
        local += 1.0;
    }
    c->steps = (int)local;
}

static void test_coro_two_interleaved(void **state)
{
    struct counter a, b;
    int log[16], n = 0;
    (void)state;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    a.id = 1; b.id = 2;
    a.shared_log = b.shared_log = log;
    a.shared_n = b.shared_n = &n;
    assert_int_equal(coro_init(&a.co, interleave, &a, 64 * 1024), 0);
    assert_int_equal(coro_init(&b.co, interleave, &b, 64 * 1024), 0);
    while (coro_resume(&a.co) | coro_resume(&b.co))
        ;
    assert_int_equal(n, 8);
    for (int i = 0; i < 8; i++)
        assert_int_equal(log[i], 1 + i % 2);
    assert_int_equal(a.steps, 5); /* 1.5 + 4 */
    assert_int_equal(b.steps, 7); /* 3.0 + 4 */
    coro_destroy(&a.co);
    coro_destroy(&b.co);
}

static int depth(int n, struct coro *co)
{
    volatile char pad[512];
    pad[0] = (char)n;
    if (n == 0) {
        coro_yield(co);
        return pad[0];
    }
    return depth(n - 1, co) + 1 + pad[0] * 0;
}

static void deep(void *arg)
{
    struct counter *c = arg;
    c->steps = depth(100, &c->co); /* ~50 KiB of stack, yielding at the bottom */
}

static void test_coro_deep_stack(void **state)
{
    struct counter c;
    (void)state;
    memset(&c, 0, sizeof(c));
    assert_int_equal(coro_init(&c.co, deep, &c, 256 * 1024), 0);
    assert_int_equal(coro_resume(&c.co), 1);
    assert_int_equal(coro_resume(&c.co), 0);
    assert_int_equal(c.steps, 100);
    coro_destroy(&c.co);
}

/* A coroutine that longjmps within its own stack (a noreturn call, as an
 * error path may make): under AddressSanitizer this is where it must know
 * which stack is current (coro.h), else it warns and may report false
 * errors; everywhere the locals and the next resume must be intact. */
struct jumper {
    struct coro co;
    jmp_buf jb;
    int sum;
};

static int jump_from(struct jumper *j, int n)
{
    volatile char pad[256];
    memset((char *)pad, n, sizeof(pad));
    if (n < 0)
        return 0;
    if (n == 0)
        longjmp(j->jb, 1);
    return jump_from(j, n - 1) + pad[1]; /* not reached */
}

static void jumps(void *arg)
{
    struct jumper *j = arg;
    for (volatile int i = 0; i < 3; i++) {
        if (!setjmp(j->jb))
            j->sum += jump_from(j, 20);
        j->sum += 10;
        coro_yield(&j->co);
    }
}

static void test_coro_longjmp_inside(void **state)
{
    struct jumper j;
    int resumes = 0;
    (void)state;
    memset(&j, 0, sizeof(j));
    assert_int_equal(coro_init(&j.co, jumps, &j, 64 * 1024), 0);
    while (coro_resume(&j.co)) {
        volatile char big[4096]; /* the scheduler's stack in use between switches */
        memset((char *)big, 1, sizeof(big));
        resumes += big[7];
    }
    assert_int_equal(resumes, 3);
    assert_int_equal(j.sum, 30);
    coro_destroy(&j.co);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coro_resume_yield),
        cmocka_unit_test(test_coro_two_interleaved),
        cmocka_unit_test(test_coro_deep_stack),
        cmocka_unit_test(test_coro_longjmp_inside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
