/* SPDX-License-Identifier: Apache-2.0 */
/*
 * obs_file.h - an output file written whole or not at all: written under a
 * temporary name beside its path (PATH.tmp.PID), renamed over the path when
 * done, removed when abandoned.  A path that is a symbolic link is written
 * through (the link stays), as shell redirection would.
 */
#ifndef NICTX_OBS_FILE_H
#define NICTX_OBS_FILE_H

#include <stddef.h>
#include <stdio.h>

struct obs_file {
    char path[1024];  /* where it goes (a link resolved) */
    char tmp[1100];   /* where it is written */
    FILE *f;          /* NULL for a writer that opens tmp itself (libpcap, FST) */
};

/* Name the temporary file for `path` and, if `open`, open it for writing.
 * 0, or -1 with the reason in err (an empty name, a directory, a directory
 * that cannot take a new file). */
int obs_file_begin(struct obs_file *of, const char *path, int open, char *err, size_t n);
/* Close (if open) and rename into place: 0, or -1 with the reason (the
 * temporary file is removed). */
int obs_file_commit(struct obs_file *of, char *err, size_t n);
/* Close and remove the temporary file. */
void obs_file_abort(struct obs_file *of);
/* Can `path` be written so (checked before a run)?  0, or -1 with why. */
int obs_file_writable(const char *path, char *why, size_t n);

#endif /* NICTX_OBS_FILE_H */
