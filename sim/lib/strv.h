/* SPDX-License-Identifier: Apache-2.0 */
/*
 * strv.h - a growable vector of owned, NUL-terminated strings.
 *
 * What it models: nothing; it is the one list-of-strings buffer the sweep
 * tool uses (argument vectors, value lists, column names).
 *
 * Contract:
 *  - A zeroed struct strv (or strv_init) is an empty vector; v[n] is always
 *    NULL once anything was pushed, so v can be handed to execv().
 *  - The vector owns its strings: strv_push and strv_insert copy theirs,
 *    strv_take adopts a malloc'd one; strv_free frees them all and leaves an
 *    empty vector.
 *  - Functions that allocate return 0, or -1 when memory runs out (the
 *    vector is then unchanged, and strv_take has freed its argument;
 *    strv_extend may have appended part of the other vector).
 *  - No global state.
 */
#ifndef NICTX_STRV_H
#define NICTX_STRV_H

#include <stddef.h>

struct strv {
    char **v;   /* n strings, then NULL */
    size_t n;
    size_t cap; /* slots allocated, the NULL included */
};

void strv_init(struct strv *sv);
void strv_free(struct strv *sv);

/* Append a copy of s. */
int strv_push(struct strv *sv, const char *s);
/* Append a copy of the printf-formatted string. */
int strv_pushf(struct strv *sv, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Append s itself (malloc'd; the vector frees it). */
int strv_take(struct strv *sv, char *s);
/* Insert a copy of s before index i (0..n). */
int strv_insert(struct strv *sv, size_t i, const char *s);
/* Append copies of every string of other. */
int strv_extend(struct strv *sv, const struct strv *other);

/* Index of the first string equal to s, or -1. */
long strv_find(const struct strv *sv, const char *s);

#endif /* NICTX_STRV_H */
