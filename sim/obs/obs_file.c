/* SPDX-License-Identifier: Apache-2.0 */
/* obs_file.c - output files written whole or not at all (obs_file.h). */
#define _GNU_SOURCE
#include "obs/obs_file.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A symbolic link's target (a link loop or a dangling link: the name as it
 * is, which then fails to open or is created). */
static void resolve(const char *path, char *out, size_t n)
{
    char buf[PATH_MAX];
    struct stat st;

    snprintf(out, n, "%s", path);
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && realpath(path, buf) &&
        strlen(buf) < n)
        memcpy(out, buf, strlen(buf) + 1);
}

int obs_file_begin(struct obs_file *of, const char *path, int open, char *err, size_t n)
{
    struct stat st;

    memset(of, 0, sizeof(*of));
    if (!*path) {
        snprintf(err, n, "empty; expected a file name");
        return -1;
    }
    if (strlen(path) >= sizeof(of->path)) {
        snprintf(err, n, "longer than %zu bytes", sizeof(of->path) - 1);
        return -1;
    }
    resolve(path, of->path, sizeof(of->path));
    if (stat(of->path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, n, "%s; the output replaces a regular file",
                 S_ISDIR(st.st_mode) ? "is a directory" : "exists and is not a regular file");
        return -1;
    }
    snprintf(of->tmp, sizeof(of->tmp), "%s.tmp.%ld", of->path, (long)getpid());
    if (open) {
        of->f = fopen(of->tmp, "w");
        if (!of->f) {
            snprintf(err, n, "cannot create a file in its directory: %s", strerror(errno));
            return -1;
        }
    }
    return 0;
}

int obs_file_commit(struct obs_file *of, char *err, size_t n)
{
    int bad = 0;

    if (of->f) {
        bad = ferror(of->f) || fflush(of->f) != 0;
        bad |= fclose(of->f) != 0;
        of->f = NULL;
    }
    if (bad || rename(of->tmp, of->path) != 0) {
        snprintf(err, n, "%s: cannot write: %s", of->path, strerror(errno ? errno : EIO));
        unlink(of->tmp);
        return -1;
    }
    return 0;
}

void obs_file_abort(struct obs_file *of)
{
    if (of->f) {
        fclose(of->f);
        of->f = NULL;
    }
    if (of->tmp[0])
        unlink(of->tmp);
}

int obs_file_writable(const char *path, char *why, size_t n)
{
    struct obs_file of;

    if (obs_file_begin(&of, path, 1, why, n) != 0)
        return -1;
    obs_file_abort(&of);
    return 0;
}
