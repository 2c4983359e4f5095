/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The line reader of src/io/io_util.c (io_reader_next), which cuts lines
 * in place in a buffer filled by read(2): lines longer than the buffer,
 * lines across refills, CR LF ends, a last line without newline, NUL
 * bytes (refused, with their column, wherever they fall) and the file
 * offset after each line (io_reader_tell). */
#include "io/io_util.h"
#include "io_test_util.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_bytes(const char *path, const char *buf, size_t n) {
  FILE *fp = fopen(path, "wb");
  ck_assert_ptr_nonnull(fp);
  ck_assert_uint_eq(fwrite(buf, 1, n, fp), n);
  ck_assert_int_eq(fclose(fp), 0);
}

/* Lines of lengths 0 .. 700,000 (random letters), some ended by CR LF,
 * the last without newline: every line, number and offset as written. */
START_TEST(lines_of_any_length_come_back_whole) {
  enum { NLINES = 400 };
  size_t len[NLINES], cap = 0;
  srand(11);
  for (int i = 0; i < NLINES; i++) {
    len[i] = i % 50 == 7 ? 300000 + (size_t)(rand() % 400000)
                         : (size_t)(rand() % 200);
    cap += len[i] + 2;
  }
  char *text = malloc(cap), dir[256], path[512];
  size_t n = 0, start[NLINES + 1];
  for (int i = 0; i < NLINES; i++) {
    start[i] = n;
    for (size_t k = 0; k < len[i]; k++)
      text[n++] = (char)('a' + rand() % 26);
    if (i == NLINES - 1)
      break; /* no newline after the last line */
    if (i % 3 == 0)
      text[n++] = '\r';
    text[n++] = '\n';
  }
  start[NLINES] = n;
  io_tmpdir(dir);
  write_bytes(io_join(path, dir, "lines.txt"), text, n);
  io_reader r;
  ck_assert_int_eq(io_reader_open(&r, path), MINEX_OK);
  for (int i = 0; i < NLINES; i++) {
    ck_assert_int_eq(io_reader_next(&r), 1);
    ck_assert_int_eq(r.lineno, i + 1);
    ck_assert_uint_eq(strlen(r.line), len[i]);
    ck_assert_int_eq(memcmp(r.line, text + start[i], len[i]), 0);
    ck_assert_int_eq(io_reader_tell(&r), (int64_t)start[i + 1]);
  }
  ck_assert_int_eq(io_reader_next(&r), 0);
  ck_assert_int_eq(io_reader_next(&r), 0);
  io_reader_close(&r);
  io_rmdir(dir);
  free(text);
}
END_TEST

/* A NUL byte in line 3 (after a line longer than the first buffer) or in
 * the last line is refused with its line and column; the lines before it
 * are read. */
START_TEST(nul_bytes_are_refused_where_they_are) {
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "nul.txt");
  size_t big = 500000;
  for (int where = 0; where < 2; where++) {
    size_t n = 0;
    char *text = malloc(big + 64);
    n += (size_t)sprintf(text + n, "first\n");
    memset(text + n, 'x', big);
    n += big;
    text[n++] = '\n';
    if (where == 0) {
      memcpy(text + n, "ab\0cd\nlast\n", 11);
      n += 11;
    } else {
      memcpy(text + n, "third\nlas\0t", 11);
      n += 11;
    }
    write_bytes(path, text, n);
    io_reader r;
    ck_assert_int_eq(io_reader_open(&r, path), MINEX_OK);
    ck_assert_int_eq(io_reader_next(&r), 1);
    ck_assert_str_eq(r.line, "first");
    ck_assert_int_eq(io_reader_next(&r), 1);
    ck_assert_uint_eq(strlen(r.line), big);
    if (where == 1) {
      ck_assert_int_eq(io_reader_next(&r), 1);
      ck_assert_str_eq(r.line, "third");
    }
    ck_assert_int_eq(io_reader_next(&r), MINEX_EPARSE);
    ck_assert_ptr_nonnull(
        strstr(minex_last_error(), where == 0 ? ":3: NUL byte at column 3"
                                              : ":4: NUL byte at column 4"));
    io_reader_close(&r);
    free(text);
  }
  io_rmdir(dir);
}
END_TEST

int main(void) {
  Suite *s = suite_create("io_reader");
  TCase *tc = tcase_create("reader");
  tcase_add_test(tc, lines_of_any_length_come_back_whole);
  tcase_add_test(tc, nul_bytes_are_refused_where_they_are);
  tcase_set_timeout(tc, 60);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
