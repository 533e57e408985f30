/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json.h - a small streaming JSON writer and an atomically replaced output
 * file, for run results (docs/architecture.md, Results).
 *
 * Writer contract.  Values are written as they are called, nothing is
 * buffered beyond stdio: json_obj_begin/json_arr_begin open a container,
 * the matching _end closes it, scalars are written in place.  Inside an
 * object every value needs a key; inside an array and at the top level the
 * key must be NULL.  Exactly one top-level value is written, followed by a
 * newline.  Output is deterministic and pretty-printed: 2-space indent, one
 * key or array element per line, empty containers as {} and [].  Numbers:
 * json_u64 exactly; json_num round-trips: the shortest of "%.15g", "%.16g"
 * and "%.17g" that strtod() reads back as the same double (so 0.1 is "0.1"
 * and 1.0/3 is "0.3333333333333333"); NaN and infinities, which JSON
 * cannot hold, as null (callers use NaN for "not measured").  The C locale's
 * decimal point is assumed (nictx never calls setlocale).
 * Strings are escaped (", \, control characters); other bytes pass through
 * (UTF-8 expected).  A misuse (wrong key use, mismatched _end, nesting
 * deeper than JSON_MAX_DEPTH, a second top-level value) or a failed write
 * sets a sticky error; the offending call and all later ones write nothing.
 * json_error() reports it; json_finish() also checks that the document is
 * complete.
 *
 * Atomic file contract.  afile_open creates "<path>.tmp.<pid>" next to the
 * target; afile_commit flushes and renames it over path, so readers see
 * the old file or the whole new one, never a partial one; on any error, and
 * in afile_abort, the temporary file is removed.  (No fsync: this guards
 * against concurrent readers and failed runs, not power loss.)  A path that
 * is a symbolic link is written through, as a shell's `>` would: the file
 * the link chain ends at is the target (created if the link dangles), the
 * links stay links; a chain longer than 40 links fails with ELOOP.
 */
#ifndef NICTX_JSON_H
#define NICTX_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
    FILE *f;
    int depth;                          /* open containers */
    unsigned char is_arr[JSON_MAX_DEPTH]; /* per open container: array? */
    unsigned char first[JSON_MAX_DEPTH];  /* no member written yet? */
    int root_done;                      /* the top-level value is complete */
    int err;                            /* sticky: see json_error() */
};

/* Start a document written to f (the caller keeps ownership of f). */
void json_init(struct json *j, FILE *f);

/* Containers; key is NULL inside arrays and at the top level. */
void json_obj_begin(struct json *j, const char *key);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j, const char *key);
void json_arr_end(struct json *j);

/* Scalars.  json_str writes null for a NULL val. */
void json_str(struct json *j, const char *key, const char *val);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_num(struct json *j, const char *key, double v); /* round-trips; NaN/inf -> null */
void json_bool(struct json *j, const char *key, int v);
/* A number given as its text, written as it is (a value read back from
 * JSON keeps its digits); text that is not a JSON number sets the error. */
void json_num_text(struct json *j, const char *key, const char *text);
void json_null(struct json *j, const char *key);

/* Nonzero if any write failed or the calls were misused (see above). */
int json_error(const struct json *j);

/* End of document: flushes f; returns 0 if there was no error and exactly
 * one complete top-level value was written, else -1. */
int json_finish(struct json *j);

/* The length of the JSON number (RFC 8259: -?(0|[1-9][0-9]*)(.[0-9]+)?
 * ([eE][+-]?[0-9]+)?) at the start of s[0..len), or 0 if none starts there. */
size_t json_number_len(const char *s, size_t len);
/* 1 if the whole of the string s is one JSON number. */
int json_is_number(const char *s);

/* Atomically replaced output file (see above). */
struct afile {
    FILE *f;         /* write here between open and commit/abort */
    char tmp[4096];  /* "<path>.tmp.<pid>" */
    char path[4096]; /* the target */
};

/* 0, or -1 with errno set (ENAMETOOLONG if path does not fit, or fopen's
 * errno, e.g. ENOENT for a missing directory); nothing is left behind on
 * failure. */
int afile_open(struct afile *a, const char *path);

/* Flush, close and rename over the target: 0, or -1 with errno set and
 * the temporary file removed (the target is then untouched).  -1 with
 * EINVAL if a is not open. */
int afile_commit(struct afile *a);

/* Close and remove the temporary file; the target is untouched.  Safe on a
 * closed afile. */
void afile_abort(struct afile *a);

#endif /* NICTX_JSON_H */
