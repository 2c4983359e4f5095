/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers of the fuzz harnesses: temporary input file, failure report. */
#include "fuzz_util.h"

#include "mesh/mesh.h"

#include <minex.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmp_path[4096];

static void remove_tmp(void) {
  if (tmp_path[0])
    unlink(tmp_path);
}

const char *fuzz_write_tmp(const uint8_t *data, size_t size) {
  if (!tmp_path[0]) {
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
      dir = "/tmp";
    snprintf(tmp_path, sizeof tmp_path, "%s/minex-fuzz-XXXXXX", dir);
    int fd = mkstemp(tmp_path);
    if (fd < 0) {
      perror("fuzz: mkstemp");
      abort();
    }
    close(fd);
    atexit(remove_tmp);
  }
  int fd = open(tmp_path, O_WRONLY | O_TRUNC);
  if (fd < 0) {
    perror("fuzz: open");
    abort();
  }
  size_t done = 0;
  while (done < size) {
    ssize_t w = write(fd, data + done, size - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      perror("fuzz: write");
      abort();
    }
    done += (size_t)w;
  }
  close(fd);
  return tmp_path;
}

void fuzz_fail(const char *file, int line, const char *what) {
  fprintf(stderr, "%s:%d: property failed: %s\n  last error: %s\n", file, line,
          what, minex_last_error());
  abort();
}

int fuzz_reader_error_ok(int rc) {
  return rc == MINEX_EPARSE || rc == MINEX_EGRAPH || rc == MINEX_ECONFIG ||
         rc == MINEX_EPART || rc == MINEX_ESCHEMA || rc == MINEX_EUNSUP;
}

void fuzz_mesh_read_kind(int (*read)(const char *, int, struct minex_mesh **),
                         const char *path, int kind) {
  minex_mesh *mesh = NULL;
  int rc = read(path, kind, &mesh);
  if (rc != MINEX_OK) {
    FUZZ_REQUIRE(fuzz_reader_error_ok(rc));
    FUZZ_REQUIRE(mesh == NULL);
    return;
  }
  FUZZ_REQUIRE(mesh_check(mesh) == MINEX_OK);
  FUZZ_REQUIRE(kind == 0 || (int)minex_mesh_elem_type(mesh) == kind);
  const int32_t *fp = minex_mesh_file_partition(mesh);
  for (int32_t e = 0; fp != NULL && e < minex_mesh_nelems(mesh); e++)
    FUZZ_REQUIRE(fp[e] >= 0);
  minex_graph *dual = NULL;
  rc = minex_mesh_dual(mesh, NULL, NULL, NULL, NULL, &dual);
  if (rc == MINEX_OK)
    FUZZ_REQUIRE(minex_graph_nvtxs(dual) == minex_mesh_nelems(mesh));
  else
    FUZZ_REQUIRE(rc == MINEX_EPARSE && dual == NULL);
  minex_graph_destroy(dual);
  /* the ncommon rule has no failure but memory */
  dual = NULL;
  rc = minex_mesh_dual_ncommon(mesh, 2, NULL, NULL, NULL, NULL, &dual);
  FUZZ_REQUIRE(rc == MINEX_OK &&
               minex_graph_nvtxs(dual) == minex_mesh_nelems(mesh));
  minex_graph_destroy(dual);
  /* weighted inertial bisection of whatever was read */
  int32_t ne = minex_mesh_nelems(mesh);
  int32_t *part = malloc(sizeof *part * ((size_t)ne + 1));
  FUZZ_REQUIRE(part != NULL);
  FUZZ_REQUIRE(minex_mesh_partition_geom(mesh, 3, MINEX_GEOM_RIB, NULL, NULL,
                                         part) == MINEX_OK);
  for (int32_t e = 0; e < ne; e++)
    FUZZ_REQUIRE(part[e] >= 0 && part[e] < 3);
  free(part);
  minex_mesh_destroy(mesh);
}
