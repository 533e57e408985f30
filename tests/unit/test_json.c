/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_json.c - cmocka tests for sim/lib/json.c: exact pretty-printed output,
 * escaping, numbers that round-trip, numbers given as text, non-finite
 * numbers, misuse and write errors, and the atomic output file (created
 * only at commit, nothing left by abort or failure).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream, fmemopen, mkdtemp */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/json.h"

/* ---- fixture: a writer on a memory stream ---------------------------------- */

struct mem {
    FILE *f;
    char *buf;
    size_t len;
    struct json j;
};

static int mem_setup(void **state)
{
    struct mem *m = calloc(1, sizeof *m);
    if (!m)
        return -1;
    m->f = open_memstream(&m->buf, &m->len);
    if (!m->f) {
        free(m);
        return -1;
    }
    json_init(&m->j, m->f);
    *state = m;
    return 0;
}

static int mem_teardown(void **state)
{
    struct mem *m = *state;
    if (m->f)
        fclose(m->f);
    free(m->buf);
    free(m);
    return 0;
}

/* Everything written so far, NUL-terminated. */
static const char *mem_text(struct mem *m)
{
    fflush(m->f);
    return m->buf;
}

/* ---- output shape ------------------------------------------------------------ */

static void write_sample(struct json *j)
{
    json_obj_begin(j, NULL);
    json_obj_begin(j, "config");
    json_u64(j, "pkts", 1000);
    json_str(j, "model", "rtl");
    json_obj_end(j);
    json_num(j, "mpps", 14.2);
    json_bool(j, "clean", 1);
    json_arr_begin(j, "violations");
    json_obj_begin(j, NULL);
    json_str(j, "kind", "stale");
    json_u64(j, "desc", 3);
    json_obj_end(j);
    json_arr_begin(j, NULL);
    json_u64(j, NULL, 1);
    json_u64(j, NULL, 2);
    json_arr_end(j);
    json_arr_end(j);
    json_obj_begin(j, "empty_obj");
    json_obj_end(j);
    json_arr_begin(j, "empty_arr");
    json_arr_end(j);
    json_bool(j, "done", 0);
    json_null(j, "none");
    json_obj_end(j);
}

static const char sample_text[] =
    "{\n"
    "  \"config\": {\n"
    "    \"pkts\": 1000,\n"
    "    \"model\": \"rtl\"\n"
    "  },\n"
    "  \"mpps\": 14.2,\n"
    "  \"clean\": true,\n"
    "  \"violations\": [\n"
    "    {\n"
    "      \"kind\": \"stale\",\n"
    "      \"desc\": 3\n"
    "    },\n"
    "    [\n"
    "      1,\n"
    "      2\n"
    "    ]\n"
    "  ],\n"
    "  \"empty_obj\": {},\n"
    "  \"empty_arr\": [],\n"
    "  \"done\": false,\n"
    "  \"none\": null\n"
    "}\n";

static void test_json_nested_exact(void **state)
{
    struct mem *m = *state;
    write_sample(&m->j);
    assert_int_equal(json_error(&m->j), 0);
    assert_int_equal(json_finish(&m->j), 0);
    assert_string_equal(mem_text(m), sample_text);
}

static void test_json_deterministic(void **state)
{
    struct mem *m = *state;
    write_sample(&m->j);
    /* the same calls on a second stream give the same bytes */
    char *buf2 = NULL;
    size_t len2 = 0;
    FILE *f2 = open_memstream(&buf2, &len2);
    assert_non_null(f2);
    struct json j2;
    json_init(&j2, f2);
    write_sample(&j2);
    fclose(f2);
    mem_text(m);
    assert_int_equal(len2, m->len);
    assert_memory_equal(buf2, m->buf, len2);
    free(buf2);
}

static void test_json_top_level_scalar_and_empty(void **state)
{
    struct mem *m = *state;
    /* boundary: the whole document is one scalar */
    json_u64(&m->j, NULL, UINT64_MAX);
    assert_int_equal(json_finish(&m->j), 0);
    assert_string_equal(mem_text(m), "18446744073709551615\n");

    /* boundary: an empty top-level array */
    rewind(m->f);
    json_init(&m->j, m->f);
    json_arr_begin(&m->j, NULL);
    json_arr_end(&m->j);
    assert_int_equal(json_finish(&m->j), 0);
    fflush(m->f);
    assert_memory_equal(m->buf, "[]\n", 3);
}

/* ---- strings and numbers ------------------------------------------------------ */

static void test_json_escaping(void **state)
{
    struct mem *m = *state;
    json_obj_begin(&m->j, NULL);
    json_str(&m->j, "q\"k\\", "a\"b\\c/d");
    json_str(&m->j, "ctl", "\n\r\t\b\f\x01\x1f\x7f");
    json_str(&m->j, "utf8", "\xc2\xb5s"); /* "µs" passes through */
    json_str(&m->j, "empty", "");          /* boundary: empty string */
    json_str(&m->j, "nul", NULL);
    json_obj_end(&m->j);
    assert_int_equal(json_finish(&m->j), 0);
    assert_string_equal(mem_text(m), "{\n"
                                     "  \"q\\\"k\\\\\": \"a\\\"b\\\\c/d\",\n"
                                     "  \"ctl\": \"\\n\\r\\t\\b\\f\\u0001\\u001f\x7f\",\n"
                                     "  \"utf8\": \"\xc2\xb5s\",\n"
                                     "  \"empty\": \"\",\n"
                                     "  \"nul\": null\n"
                                     "}\n");
}

/* A number given as text is written as it is; text that is not a JSON
 * number is refused (sticky error, nothing written). */
static void test_json_num_text(void **state)
{
    struct mem *m = *state;
    json_arr_begin(&m->j, NULL);
    json_num_text(&m->j, NULL, "18446744073709551615"); /* beyond a double */
    json_num_text(&m->j, NULL, "-0.30000000000000004e+10");
    json_num_text(&m->j, NULL, "0");
    json_arr_end(&m->j);
    assert_int_equal(json_finish(&m->j), 0);
    assert_string_equal(mem_text(m), "[\n  18446744073709551615,\n  -0.30000000000000004e+10,"
                                     "\n  0\n]\n");
}

static void test_json_num_text_refused(void **state)
{
    static const char *const bad[] = {"", "01", "1.", ".5", "+1", "1e", "NaN", "0x10", "1 "};
    struct mem *m = *state;

    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)
        assert_false(json_is_number(bad[k]));
    assert_true(json_is_number("-0.5E-3"));
    assert_int_equal(json_number_len("12,3", 4), 2); /* the extent of a prefix */
    json_arr_begin(&m->j, NULL);
    json_num_text(&m->j, NULL, "01");
    assert_true(json_error(&m->j));
    assert_string_equal(mem_text(m), "[");
}

static void test_json_numbers(void **state)
{
    struct mem *m = *state;
    json_arr_begin(&m->j, NULL);
    json_num(&m->j, NULL, NAN);
    json_num(&m->j, NULL, INFINITY);
    json_num(&m->j, NULL, -INFINITY);
    json_num(&m->j, NULL, 0.0);
    json_num(&m->j, NULL, 14880952.0 / 1e6);
    json_num(&m->j, NULL, 1e20);
    json_num(&m->j, NULL, -2.5e-7);
    json_u64(&m->j, NULL, 0);
    json_arr_end(&m->j);
    assert_int_equal(json_finish(&m->j), 0);
    assert_string_equal(mem_text(m), "[\n"
                                     "  null,\n"
                                     "  null,\n"
                                     "  null,\n"
                                     "  0,\n"
                                     "  14.880952,\n"
                                     "  1e+20,\n"
                                     "  -2.5e-07,\n"
                                     "  0\n"
                                     "]\n");
}

/* Every finite double reads back as itself, in the shortest of %.15g,
 * %.16g and %.17g that does. */
static void test_json_numbers_round_trip(void **state)
{
    struct mem *m = *state;
    static const struct {
        double v;
        const char *text; /* NULL: only the round trip is checked */
    } cases[] = {
        {0.1, "0.1"},                         /* %.15g suffices */
        {1.0 / 3.0, "0.3333333333333333"},    /* needs %.16g */
        {0.1 + 0.2, "0.30000000000000004"},   /* needs %.17g */
        {1e-300, "1e-300"},
        {123456789.123456789, "123456789.12345679"},
        {DBL_MAX, "1.7976931348623157e+308"}, /* boundary: largest finite */
        {5e-324, NULL},                       /* boundary: smallest subnormal */
        {DBL_MIN, "2.2250738585072014e-308"}, /* boundary: smallest normal */
        {-DBL_MAX, "-1.7976931348623157e+308"},
        {-0.0, "-0"},
        {9007199254740993.0, "9007199254740992"}, /* 2^53 + 1 rounds to 2^53 */
        {14.880952, "14.880952"},
    };
    const size_t n = sizeof cases / sizeof cases[0];

    json_arr_begin(&m->j, NULL);
    for (size_t i = 0; i < n; i++)
        json_num(&m->j, NULL, cases[i].v);
    json_arr_end(&m->j);
    assert_int_equal(json_finish(&m->j), 0);

    /* one number per line between "[\n" and "]\n" */
    const char *p = mem_text(m);
    assert_true(strncmp(p, "[\n", 2) == 0);
    p += 2;
    for (size_t i = 0; i < n; i++) {
        char tok[64];
        size_t len = 0;
        while (*p == ' ')
            p++;
        while (*p && *p != ',' && *p != '\n' && len < sizeof tok - 1)
            tok[len++] = *p++;
        tok[len] = '\0';
        p += *p == ',' ? 2 : 1;
        char *end;
        double back = strtod(tok, &end);
        assert_true(*end == '\0');
        if (memcmp(&back, &cases[i].v, sizeof back) != 0) /* bit-exact, so -0 too */
            fail_msg("case %zu: %.17g written as \"%s\", read back as %.17g", i, cases[i].v,
                     tok, back);
        if (cases[i].text)
            assert_string_equal(tok, cases[i].text);
        /* shortest: one digit less does not read back */
        char shorter[64];
        for (int prec = 15; prec <= 17; prec++) {
            snprintf(shorter, sizeof shorter, "%.*g", prec, cases[i].v);
            if (strtod(shorter, NULL) == cases[i].v)
                break;
        }
        assert_string_equal(tok, shorter);
    }
    assert_string_equal(p, "]\n");
}

/* Many doubles from all over the range, bit patterns from a generator. */
static void test_json_numbers_round_trip_random(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 20000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t bits = x ^ (x >> 29);
        double v;
        memcpy(&v, &bits, sizeof v);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        struct json j;
        json_init(&j, f);
        json_num(&j, NULL, v);
        assert_int_equal(json_finish(&j), 0);
        fclose(f);
        if (!isfinite(v)) {
            assert_string_equal(buf, "null\n");
        } else {
            char *end;
            double back = strtod(buf, &end);
            assert_string_equal(end, "\n");
            if (memcmp(&back, &v, sizeof v) != 0)
                fail_msg("%.17g written as %s", v, buf);
        }
        free(buf);
    }
}

/* ---- misuse and write errors ------------------------------------------------- */

static void test_json_key_in_array_is_error(void **state)
{
    struct mem *m = *state;
    json_arr_begin(&m->j, NULL);
    json_u64(&m->j, "k", 1);
    assert_int_not_equal(json_error(&m->j), 0);
    assert_string_equal(mem_text(m), "["); /* the bad call wrote nothing */
    json_u64(&m->j, NULL, 2);               /* sticky: nothing more either */
    json_arr_end(&m->j);
    assert_string_equal(mem_text(m), "[");
    assert_int_equal(json_finish(&m->j), -1);
}

static void test_json_missing_key_in_object_is_error(void **state)
{
    struct mem *m = *state;
    json_obj_begin(&m->j, NULL);
    json_u64(&m->j, NULL, 1);
    assert_int_not_equal(json_error(&m->j), 0);
}

static void test_json_key_at_top_level_is_error(void **state)
{
    struct mem *m = *state;
    json_obj_begin(&m->j, "root");
    assert_int_not_equal(json_error(&m->j), 0);
    assert_string_equal(mem_text(m), "");
}

static void test_json_mismatched_end_is_error(void **state)
{
    struct mem *m = *state;
    json_obj_begin(&m->j, NULL);
    json_arr_end(&m->j);
    assert_int_not_equal(json_error(&m->j), 0);
}

static void test_json_end_without_begin_is_error(void **state)
{
    struct mem *m = *state;
    json_obj_end(&m->j); /* boundary: depth 0 */
    assert_int_not_equal(json_error(&m->j), 0);
}

static void test_json_second_root_is_error(void **state)
{
    struct mem *m = *state;
    json_obj_begin(&m->j, NULL);
    json_obj_end(&m->j);
    assert_int_equal(json_error(&m->j), 0);
    json_obj_begin(&m->j, NULL);
    assert_int_not_equal(json_error(&m->j), 0);
    assert_string_equal(mem_text(m), "{}\n");
}

static void test_json_depth_limit(void **state)
{
    struct mem *m = *state;
    for (int i = 0; i < JSON_MAX_DEPTH; i++) /* boundary: exactly the limit */
        json_arr_begin(&m->j, NULL);
    assert_int_equal(json_error(&m->j), 0);
    assert_int_equal(m->j.depth, JSON_MAX_DEPTH);
    json_arr_begin(&m->j, NULL); /* one too deep */
    assert_int_not_equal(json_error(&m->j), 0);
    assert_int_equal(m->j.depth, JSON_MAX_DEPTH);
}

static void test_json_incomplete_document(void **state)
{
    struct mem *m = *state;
    assert_int_equal(json_finish(&m->j), -1); /* boundary: nothing written */
    json_obj_begin(&m->j, NULL);
    json_u64(&m->j, "a", 1);
    assert_int_equal(json_error(&m->j), 0); /* no misuse yet... */
    assert_int_equal(json_finish(&m->j), -1); /* ...but not closed */
    json_obj_end(&m->j);
    assert_int_equal(json_finish(&m->j), 0);
}

static void test_json_write_failure(void **state)
{
    (void)state;
    char small[8];
    FILE *f = fmemopen(small, sizeof small, "w");
    assert_non_null(f);
    setvbuf(f, NULL, _IONBF, 0); /* fail at the write, not at a later flush */
    struct json j;
    json_init(&j, f);
    json_obj_begin(&j, NULL);
    json_str(&j, "key", "a value longer than eight bytes");
    json_obj_end(&j);
    assert_int_not_equal(json_error(&j), 0);
    assert_int_equal(json_finish(&j), -1);
    fclose(f);
}

/* ---- atomic file ---------------------------------------------------------------- */

struct dir {
    char path[64];
    char file[128];
};

static int dir_setup(void **state)
{
    struct dir *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    snprintf(d->path, sizeof d->path, "/tmp/test_json.XXXXXX");
    if (!mkdtemp(d->path)) {
        free(d);
        return -1;
    }
    snprintf(d->file, sizeof d->file, "%s/run.json", d->path);
    *state = d;
    return 0;
}

static int dir_entries(const char *path)
{
    DIR *dp = opendir(path);
    if (!dp)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(dp);
    return n;
}

/* Remove path and, if it is a directory, everything under it. */
static void remove_tree(const char *path)
{
    DIR *dp = opendir(path);
    if (dp) {
        struct dirent *e;
        char p[512];
        while ((e = readdir(dp)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(p, sizeof p, "%s/%s", path, e->d_name);
            remove_tree(p);
        }
        closedir(dp);
    }
    remove(path);
}

static int dir_teardown(void **state)
{
    struct dir *d = *state;
    remove_tree(d->path);
    free(d);
    return 0;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void read_file(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

static void test_json_afile_created_only_at_commit(void **state)
{
    struct dir *d = *state;
    struct afile a;
    assert_int_equal(afile_open(&a, d->file), 0);
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", d->file, (long)getpid());
    assert_string_equal(a.tmp, tmp);
    assert_true(exists(tmp));
    assert_false(exists(d->file));

    struct json j;
    json_init(&j, a.f);
    write_sample(&j);
    assert_int_equal(json_finish(&j), 0);
    assert_false(exists(d->file)); /* still only the temp file */

    assert_int_equal(afile_commit(&a), 0);
    assert_true(exists(d->file));
    assert_false(exists(tmp));
    assert_int_equal(dir_entries(d->path), 1);
    char buf[1024];
    read_file(d->file, buf, sizeof buf);
    assert_string_equal(buf, sample_text);

    /* boundary: a second commit has nothing to commit; abort is harmless */
    errno = 0;
    assert_int_equal(afile_commit(&a), -1);
    assert_int_equal(errno, EINVAL);
    afile_abort(&a);
    assert_true(exists(d->file));
}

static void test_json_afile_replaces_existing(void **state)
{
    struct dir *d = *state;
    FILE *f = fopen(d->file, "w");
    assert_non_null(f);
    fputs("old contents, longer than the new ones\n", f);
    fclose(f);

    struct afile a;
    assert_int_equal(afile_open(&a, d->file), 0);
    fputs("new\n", a.f);
    char buf[256];
    read_file(d->file, buf, sizeof buf);
    assert_string_equal(buf, "old contents, longer than the new ones\n"); /* until commit */
    assert_int_equal(afile_commit(&a), 0);
    read_file(d->file, buf, sizeof buf);
    assert_string_equal(buf, "new\n");
    assert_int_equal(dir_entries(d->path), 1);
}

static void test_json_afile_abort_leaves_nothing(void **state)
{
    struct dir *d = *state;
    struct afile a;
    assert_int_equal(afile_open(&a, d->file), 0);
    fputs("partial", a.f);
    assert_int_equal(dir_entries(d->path), 1);
    afile_abort(&a);
    assert_int_equal(dir_entries(d->path), 0);
    assert_null(a.f);
    afile_abort(&a); /* boundary: twice */
}

static void test_json_afile_missing_directory(void **state)
{
    struct dir *d = *state;
    char path[256];
    snprintf(path, sizeof path, "%s/no/such/dir/run.json", d->path);
    struct afile a;
    errno = 0;
    assert_int_equal(afile_open(&a, path), -1);
    assert_int_equal(errno, ENOENT);
    assert_null(a.f);
    assert_int_equal(dir_entries(d->path), 0);
}

/* A link is written through, as `>` would: the file at the chain's end is
 * replaced (created when the link dangles), relative links are relative to
 * their own directory, the links stay links; a loop is ELOOP. */
static void test_json_afile_through_symlinks(void **state)
{
    struct dir *d = *state;
    char sub[128], real[200], l1[200], l2[200], dang[200], loop[200], buf[64];
    struct afile a;
    struct stat st;

    snprintf(sub, sizeof sub, "%s/sub", d->path);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(real, sizeof real, "%s/real.json", sub);
    snprintf(l1, sizeof l1, "%s/l1", sub);
    snprintf(l2, sizeof l2, "%s/l2", d->path);
    assert_int_equal(symlink("real.json", l1), 0); /* relative to sub/ */
    assert_int_equal(symlink(l1, l2), 0);
    FILE *f = fopen(real, "w");
    assert_non_null(f);
    fputs("old\n", f);
    fclose(f);
    assert_int_equal(afile_open(&a, l2), 0);
    assert_string_equal(a.path, real);
    fputs("new\n", a.f);
    assert_int_equal(afile_commit(&a), 0);
    read_file(real, buf, sizeof buf);
    assert_string_equal(buf, "new\n");
    assert_int_equal(lstat(l1, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(lstat(l2, &st), 0);
    assert_true(S_ISLNK(st.st_mode));

    snprintf(dang, sizeof dang, "%s/dangling", d->path);
    assert_int_equal(symlink("sub/made.json", dang), 0);
    assert_int_equal(afile_open(&a, dang), 0);
    fputs("made\n", a.f);
    assert_int_equal(afile_commit(&a), 0);
    snprintf(real, sizeof real, "%s/sub/made.json", d->path);
    read_file(real, buf, sizeof buf);
    assert_string_equal(buf, "made\n");
    assert_int_equal(lstat(dang, &st), 0);
    assert_true(S_ISLNK(st.st_mode));

    snprintf(loop, sizeof loop, "%s/loop", d->path);
    assert_int_equal(symlink("loop", loop), 0);
    errno = 0;
    assert_int_equal(afile_open(&a, loop), -1);
    assert_int_equal(errno, ELOOP);
    assert_null(a.f);
}

static void test_json_afile_path_too_long(void **state)
{
    (void)state;
    /* boundary: the path fits but "<path>.tmp.<pid>" does not */
    static char path[4096];
    memset(path, 'a', sizeof path - 1);
    path[sizeof path - 1] = '\0';
    struct afile a;
    errno = 0;
    assert_int_equal(afile_open(&a, path), -1);
    assert_int_equal(errno, ENAMETOOLONG);
    assert_null(a.f);
}

static void test_json_afile_commit_failure_removes_temp(void **state)
{
    struct dir *d = *state;
    /* the target is a non-empty directory: rename fails */
    assert_int_equal(mkdir(d->file, 0700), 0);
    char inner[256];
    snprintf(inner, sizeof inner, "%s/x", d->file);
    FILE *f = fopen(inner, "w");
    assert_non_null(f);
    fclose(f);

    struct afile a;
    assert_int_equal(afile_open(&a, d->file), 0);
    fputs("data", a.f);
    errno = 0;
    assert_int_equal(afile_commit(&a), -1);
    assert_int_not_equal(errno, 0);
    assert_false(exists(a.tmp));
    assert_int_equal(dir_entries(d->path), 1); /* only the directory */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_json_nested_exact, mem_setup, mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_deterministic, mem_setup, mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_top_level_scalar_and_empty, mem_setup,
                                        mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_escaping, mem_setup, mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_num_text, mem_setup, mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_num_text_refused, mem_setup, mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_numbers, mem_setup, mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_numbers_round_trip, mem_setup, mem_teardown),
        cmocka_unit_test(test_json_numbers_round_trip_random),
        cmocka_unit_test_setup_teardown(test_json_key_in_array_is_error, mem_setup, mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_missing_key_in_object_is_error, mem_setup,
                                        mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_key_at_top_level_is_error, mem_setup,
                                        mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_mismatched_end_is_error, mem_setup,
                                        mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_end_without_begin_is_error, mem_setup,
                                        mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_second_root_is_error, mem_setup, mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_depth_limit, mem_setup, mem_teardown),
        cmocka_unit_test_setup_teardown(test_json_incomplete_document, mem_setup, mem_teardown),
        cmocka_unit_test(test_json_write_failure),
        cmocka_unit_test_setup_teardown(test_json_afile_created_only_at_commit, dir_setup,
                                        dir_teardown),
        cmocka_unit_test_setup_teardown(test_json_afile_replaces_existing, dir_setup,
                                        dir_teardown),
        cmocka_unit_test_setup_teardown(test_json_afile_abort_leaves_nothing, dir_setup,
                                        dir_teardown),
        cmocka_unit_test_setup_teardown(test_json_afile_missing_directory, dir_setup,
                                        dir_teardown),
        cmocka_unit_test_setup_teardown(test_json_afile_through_symlinks, dir_setup,
                                        dir_teardown),
        cmocka_unit_test(test_json_afile_path_too_long),
        cmocka_unit_test_setup_teardown(test_json_afile_commit_failure_removes_temp, dir_setup,
                                        dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
