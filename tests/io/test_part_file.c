/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/io/part_file.c: partition files round-trip, and short,
 * long, non-integer, negative or out-of-range files are refused naming the
 * line (SPEC §7). */
#include "io_test_util.h"
#include "test_util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

START_TEST(part_roundtrip_preserves_every_id) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "p.part");
  const int32_t sizes[] = {0, 1, 7, 20000};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    int32_t n = sizes[i];
    int32_t *part = malloc(sizeof *part * ((size_t)n + 1));
    for (int32_t v = 0; v < n; v++)
      part[v] = (int32_t)gsl_rng_uniform_int(rng, 1000);
    if (n > 0)
      part[n - 1] = MINEX_NPROCS_MAX - 1; /* the largest id accepted */
    ck_assert_int_eq(minex_part_write(path, n, part), MINEX_OK);
    int32_t *back = NULL;
    int rc = minex_part_read(path, n, 0, &back);
    ck_assert_msg(rc == MINEX_OK, "%s", minex_last_error());
    int32_t bad = -1;
    for (int32_t v = 0; v < n && bad < 0; v++)
      if (back[v] != part[v])
        bad = v;
    ck_assert_msg(bad < 0, "id %d differs", (int)bad);
    free(part);
    free(back);
  }
  ck_assert_int_eq(io_count_entries(dir), 1);
  io_rmdir(dir);
  gsl_rng_free(rng);
}
END_TEST

static void expect_part_error(const char *file, int32_t nparts, int code,
                              const char *where, const char *what) {
  int32_t *part = (int32_t *)&part; /* must be reset to NULL */
  int rc = minex_part_read(io_data(file), 4, nparts, &part);
  ck_assert_ptr_null(part);
  char loc[128];
  snprintf(loc, sizeof loc, "%s:%s", file, where);
  io_expect_error(rc, code, loc, what);
}

START_TEST(part_read_rejects_too_few_ids_naming_last_line) {
  expect_part_error("io_short.part", 2, MINEX_EPART, "3:", "after 3 ids");
}
END_TEST

START_TEST(part_read_rejects_too_many_ids_naming_first_extra_line) {
  expect_part_error("io_long.part", 0, MINEX_EPART, "5:", "more ids");
}
END_TEST

START_TEST(part_read_rejects_non_integer_naming_line) {
  expect_part_error("io_nonint.part", 2, MINEX_EPARSE, "2:", "'1.5'");
}
END_TEST

START_TEST(part_read_rejects_id_at_or_above_nparts_naming_line) {
  expect_part_error("io_range.part", 2, MINEX_EPART, "3:", "[0, 2)");
}
END_TEST

START_TEST(part_read_rejects_negative_id_naming_line) {
  expect_part_error("io_negative.part", 0, MINEX_EPART, "2:", "negative");
}
END_TEST

START_TEST(part_read_rejects_nul_byte_and_plus_sign_naming_line) {
  expect_part_error("io_nul.part", 0, MINEX_EPARSE, "2:", "NUL byte");
  expect_part_error("io_plus.part", 0, MINEX_EPARSE, "1:", "'+1'");
}
END_TEST

/* Without nparts, P is inferred from the largest id: one number in a
 * 4-line file used to size gigabytes (the id 1073741822 took minex repart
 * past 15 GB); ids are bounded by MINEX_NPROCS_MAX. */
START_TEST(part_read_without_nparts_bounds_ids_by_nprocs_max) {
  char dir[256], path[512], text[128];
  io_tmpdir(dir);
  io_join(path, dir, "big.part");
  const long long ids[] = {1073741822LL, MINEX_NPROCS_MAX};
  for (int i = 0; i < 2; i++) {
    snprintf(text, sizeof text, "0\n%lld\n0\n0\n", ids[i]);
    io_write_text(path, text);
    int32_t *part = (int32_t *)&part;
    int rc = minex_part_read(path, 4, 0, &part);
    ck_assert_ptr_null(part);
    io_expect_error(rc, MINEX_EPART, "big.part:2:", "MINEX_NPROCS_MAX");
  }
  io_rmdir(dir);
}
END_TEST

/* A writer killed mid-write leaves "<target>.tmp.<host>.<pid>.<n>" (as
 * large as the output): the next write of the same target removes those of
 * dead processes of this host, and only those. */
START_TEST(part_write_removes_stale_temporaries_of_dead_writers_only) {
  char dir[256], path[512], host[64], name[1024];
  io_tmpdir(dir);
  io_join(path, dir, "p.part");
  if (gethostname(host, sizeof host) != 0 || host[0] == '\0')
    snprintf(host, sizeof host, "localhost");
  host[sizeof host - 1] = '\0';
  for (char *c = host; *c; c++)
    if (*c == '/' || *c == '.')
      *c = '_';
  pid_t child = fork();
  if (child == 0)
    _exit(0);
  ck_assert_int_gt(child, 0);
  waitpid(child, NULL, 0); /* a pid that no longer runs */
  snprintf(name, sizeof name, "%s.tmp.%s.%ld.0", path, host, (long)child);
  io_write_text(name, "stale");
  char alive[1024], other[1024], unrelated[1024];
  snprintf(alive, sizeof alive, "%s.tmp.%s.%ld.0", path, host, (long)getppid());
  io_write_text(alive, "a live writer");
  snprintf(other, sizeof other, "%s.tmp.otherhost.%ld.0", path, (long)child);
  io_write_text(other, "another host's");
  snprintf(unrelated, sizeof unrelated, "%s/q.part.tmp.%s.%ld.0", dir, host,
           (long)child);
  io_write_text(unrelated, "another target's");
  int32_t part[3] = {0, 1, 0};
  ck_assert_int_eq(minex_part_write(path, 3, part), MINEX_OK);
  ck_assert_int_ne(access(name, F_OK), 0);
  ck_assert_int_eq(access(alive, F_OK), 0);
  ck_assert_int_eq(access(other, F_OK), 0);
  ck_assert_int_eq(access(unrelated, F_OK), 0);
  ck_assert_int_eq(io_count_entries(dir), 4);
  io_rmdir(dir);
}
END_TEST

START_TEST(part_read_with_nparts_zero_accepts_any_nonnegative_id) {
  int32_t *part = NULL;
  ck_assert_int_eq(minex_part_read(io_data("io_range.part"), 4, 0, &part),
                   MINEX_OK);
  ck_assert_int_eq(part[2], 4);
  free(part);
  /* bad arguments set *part_out to NULL too, as every other error does */
  part = (int32_t *)&part;
  ck_assert_int_eq(minex_part_read(NULL, 4, 0, &part), MINEX_EINVAL);
  ck_assert_ptr_null(part);
  part = (int32_t *)&part;
  ck_assert_int_eq(minex_part_read(io_data("io_range.part"), -1, 0, &part),
                   MINEX_EINVAL);
  ck_assert_ptr_null(part);
}
END_TEST

START_TEST(part_read_ignores_blank_lines_but_not_two_ids_on_a_line) {
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "b.part");
  io_write_text(path, "\n1\n  \n0\n1\n\n");
  int32_t *part = NULL;
  ck_assert_int_eq(minex_part_read(path, 3, 2, &part), MINEX_OK);
  ck_assert_int_eq(part[0], 1);
  ck_assert_int_eq(part[2], 1);
  free(part);
  io_write_text(path, "1\n0 1\n1\n");
  io_expect_error(minex_part_read(path, 3, 2, &part), MINEX_EPARSE,
                  "b.part:2:", "one id per line");
  io_write_text(path, "1\n99999999999999999999\n1\n");
  io_expect_error(minex_part_read(path, 3, 0, &part), MINEX_EPARSE,
                  "b.part:2:", NULL);
  io_expect_error(minex_part_read(path, -1, 0, &part), MINEX_EINVAL, NULL,
                  NULL);
  io_expect_error(minex_part_read("/nonexistent/p.part", 3, 0, &part),
                  MINEX_EIO, "/nonexistent/p.part", NULL);
  io_rmdir(dir);
}
END_TEST

START_TEST(part_write_into_missing_directory_is_eio_and_leaves_no_file) {
  int32_t part[] = {0, 1, 2};
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "missing/p.part");
  io_expect_error(minex_part_write(path, 3, part), MINEX_EIO, path, NULL);
  ck_assert_int_eq(io_count_entries(dir), 0);
  io_rmdir(dir);
}
END_TEST

START_TEST(part_write_rejects_negative_id_and_creates_no_file) {
  int32_t part[] = {0, -1, 2};
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "neg.part");
  io_expect_error(minex_part_write(path, 3, part), MINEX_EPART, "part[1]",
                  NULL);
  ck_assert_int_eq(io_count_entries(dir), 0);
  ck_assert_int_eq(minex_part_write(path, 3, NULL), MINEX_EINVAL);
  io_rmdir(dir);
}
END_TEST

/* Outputs get the usual 0666 & ~umask mode, not a temp file's 0600. */
START_TEST(part_write_honours_the_umask) {
  int32_t part[] = {0, 1, 2};
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "mode.part");
  mode_t prev = umask(022);
  ck_assert_int_eq(minex_part_write(path, 3, part), MINEX_OK);
  umask(prev);
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  ck_assert_int_eq(st.st_mode & 0777, 0644);
  ck_assert_int_eq(io_count_entries(dir), 1); /* no temporary left */
  io_rmdir(dir);
}
END_TEST

static char *read_all(const char *path) {
  FILE *fp = fopen(path, "r");
  ck_assert_ptr_nonnull(fp);
  char *s = calloc(1, 4096);
  size_t n = fread(s, 1, 4095, fp);
  s[n] = '\0';
  fclose(fp);
  return s;
}

/* Only a regular file is replaced by the temporary's rename. A
 * FIFO (or a device: /dev/null) is written in place and stays what it was;
 * a symbolic link to a regular file stays a link, its target gets the
 * content; a directory is refused. Before, the rename replaced a FIFO, a
 * device node (as root) or a link with a regular file. */
START_TEST(part_write_onto_fifo_or_link_writes_through_and_keeps_it) {
  int32_t part[] = {0, 1, 2, 1};
  char dir[256], fifo[512], copy[512], plain[512], link[512], target[512];
  io_tmpdir(dir);
  io_join(fifo, dir, "p.fifo");
  io_join(copy, dir, "copy.part");
  io_join(plain, dir, "plain.part");
  io_join(link, dir, "link.part");
  io_join(target, dir, "target.part");
  ck_assert_int_eq(minex_part_write(plain, 4, part), MINEX_OK);
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  /* nothing allocated before the fork: under valgrind (CK_FORK=no) the
     child's exit would report the parent's blocks as lost */
  pid_t r = test_fifo_reader(fifo, copy);
  ck_assert_int_eq(minex_part_write(fifo, 4, part), MINEX_OK);
  struct stat sb;
  ck_assert_int_eq(lstat(fifo, &sb), 0);
  if (!S_ISFIFO(sb.st_mode))
    kill(r, SIGKILL); /* it waits on the FIFO that is gone */
  int st;
  ck_assert_int_eq(waitpid(r, &st, 0), r);
  ck_assert_msg(S_ISFIFO(sb.st_mode), "the FIFO was replaced");
  ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  char *want = read_all(plain);
  char *got = read_all(copy);
  ck_assert_str_eq(got, want);
  free(got);
  /* a link to a regular file */
  io_write_text(target, "old content\n");
  ck_assert_int_eq(symlink("target.part", link), 0);
  ck_assert_int_eq(minex_part_write(link, 4, part), MINEX_OK);
  ck_assert_int_eq(lstat(link, &sb), 0);
  ck_assert_msg(S_ISLNK(sb.st_mode), "the link was replaced");
  got = read_all(target);
  ck_assert_str_eq(got, want);
  free(got);
  /* a directory: refused, left alone */
  io_expect_error(minex_part_write(dir, 4, part), MINEX_EIO, dir, "directory");
  /* nothing else was made: plain, fifo, copy, link, target */
  ck_assert_int_eq(io_count_entries(dir), 5);
  free(want);
  io_rmdir(dir);
}
END_TEST

int main(void) {
  Suite *s = suite_create("part_file");
  TCase *tc = tcase_create("part");
  tcase_add_test(tc, part_roundtrip_preserves_every_id);
  tcase_add_test(tc, part_write_onto_fifo_or_link_writes_through_and_keeps_it);
  tcase_add_test(tc, part_read_rejects_too_few_ids_naming_last_line);
  tcase_add_test(tc, part_read_rejects_too_many_ids_naming_first_extra_line);
  tcase_add_test(tc, part_read_rejects_non_integer_naming_line);
  tcase_add_test(tc, part_read_rejects_id_at_or_above_nparts_naming_line);
  tcase_add_test(tc, part_read_rejects_negative_id_naming_line);
  tcase_add_test(tc, part_read_with_nparts_zero_accepts_any_nonnegative_id);
  tcase_add_test(tc, part_read_ignores_blank_lines_but_not_two_ids_on_a_line);
  tcase_add_test(tc,
                 part_write_into_missing_directory_is_eio_and_leaves_no_file);
  tcase_add_test(tc, part_write_rejects_negative_id_and_creates_no_file);
  tcase_add_test(tc, part_write_honours_the_umask);
  tcase_add_test(tc, part_read_rejects_nul_byte_and_plus_sign_naming_line);
  tcase_add_test(tc, part_read_without_nparts_bounds_ids_by_nprocs_max);
  tcase_add_test(tc, part_write_removes_stale_temporaries_of_dead_writers_only);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
