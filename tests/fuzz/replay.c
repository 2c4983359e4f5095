/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Replays files through a harness's LLVMFuzzerTestOneInput without
 * libFuzzer, so that the seed corpus and the kept regression inputs run as
 * ordinary ctest tests in every build (gcc Release, Asan).
 * Usage: fuzz_<name>_replay PATH...  (a directory: every file in it, in
 * name order). Exit 0 when every input ran; a failing property aborts. */
#include "fuzz_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    perror(path);
    return 1;
  }
  size_t cap = 4096, len = 0;
  uint8_t *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + len, 1, cap - len, fp)) > 0) {
    len += got;
    if (len == cap) {
      uint8_t *grown = realloc(buf, cap *= 2);
      if (!grown)
        free(buf);
      buf = grown;
    }
  }
  int bad = ferror(fp) || !buf;
  fclose(fp);
  if (bad) {
    fprintf(stderr, "%s: read failed\n", path);
    free(buf);
    return 1;
  }
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path, int *count) {
  struct stat st;
  if (stat(path, &st) != 0) {
    perror(path);
    return 1;
  }
  if (!S_ISDIR(st.st_mode)) {
    ++*count;
    return run_file(path);
  }
  DIR *dir = opendir(path);
  if (!dir) {
    perror(path);
    return 1;
  }
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(dir)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char **grown = realloc(names, (n + 1) * sizeof *names);
    size_t len = strlen(path) + strlen(e->d_name) + 2;
    char *full = grown ? malloc(len) : NULL;
    if (!full) {
      free(grown ? grown : names);
      closedir(dir);
      return 1;
    }
    names = grown;
    snprintf(full, len, "%s/%s", path, e->d_name);
    names[n++] = full;
  }
  closedir(dir);
  qsort(names, n, sizeof *names, by_name);
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    rc |= run_path(names[i], count);
    free(names[i]);
  }
  free(names);
  return rc;
}

int main(int argc, char **argv) {
  int rc = 0, count = 0;
  for (int i = 1; i < argc; i++)
    rc |= run_path(argv[i], &count);
  printf("replayed %d inputs%s\n", count, rc ? " (some unreadable)" : "");
  return rc;
}
