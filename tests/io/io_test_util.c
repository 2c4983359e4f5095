/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the tests of src/io. */
#include "io_test_util.h"

#include "test_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *io_data(const char *name) {
  return test_data_path(name);
}

void io_tmpdir(char *dir) {
  const char *t = getenv("TMPDIR");
  snprintf(dir, 256, "%s/minex_io_XXXXXX", t && *t ? t : "/tmp");
  ck_assert_ptr_nonnull(mkdtemp(dir));
}

char *io_join(char *buf, const char *dir, const char *name) {
  snprintf(buf, 512, "%s/%s", dir, name);
  return buf;
}

void io_rmdir(const char *dir) {
  DIR *d = opendir(dir);
  if (d == NULL)
    return;
  struct dirent *e;
  char path[512];
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    io_join(path, dir, e->d_name);
    if (unlink(path) != 0)
      io_rmdir(path);
  }
  closedir(d);
  rmdir(dir);
}

int io_count_entries(const char *dir) {
  DIR *d = opendir(dir);
  if (d == NULL)
    return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
      n++;
  closedir(d);
  return n;
}

void io_write_text(const char *path, const char *text) {
  FILE *fp = fopen(path, "w");
  ck_assert_ptr_nonnull(fp);
  ck_assert_int_eq(fputs(text, fp) >= 0, 1);
  ck_assert_int_eq(fclose(fp), 0);
}

void io_expect_error(int rc, int want, const char *sub1, const char *sub2) {
  const char *msg = minex_last_error();
  ck_assert_msg(rc == want, "returned %s, expected %s; message: %s",
                minex_err_name(rc), minex_err_name(want), msg);
  ck_assert_msg(sub1 == NULL || strstr(msg, sub1) != NULL,
                "message \"%s\" lacks \"%s\"", msg, sub1);
  ck_assert_msg(sub2 == NULL || strstr(msg, sub2) != NULL,
                "message \"%s\" lacks \"%s\"", msg, sub2);
}
