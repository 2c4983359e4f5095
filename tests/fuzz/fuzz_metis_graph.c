/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness of the METIS graph reader (minex_graph_read_metis): any
 * input is either rejected with a reader error or gives a graph that
 * minex_graph_create accepts again and that survives write + read
 * unchanged. */
#include "fuzz_util.h"

#include <minex.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int same_doubles(const double *a, const double *b, int64_t n) {
  return n == 0 || memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_write_tmp(data, size);
  minex_graph *g = NULL;
  int rc = minex_graph_read_metis(path, &g);
  if (rc != MINEX_OK) {
    FUZZ_REQUIRE(fuzz_reader_error_ok(rc));
    FUZZ_REQUIRE(g == NULL);
    return 0;
  }
  int32_t n = minex_graph_nvtxs(g);
  const int64_t *xadj = minex_graph_xadj(g);
  int64_t m = xadj[n];
  /* The graph the reader made passes the API's own validation. */
  minex_graph *copy = NULL;
  FUZZ_REQUIRE(minex_graph_create(n, xadj, minex_graph_adjncy(g),
                                  minex_graph_pwgt(g), minex_graph_rwgt(g),
                                  minex_graph_cwgt(g), &copy) == MINEX_OK);
  minex_graph_destroy(copy);
  /* Round trip through the writer. */
  char out[4200];
  snprintf(out, sizeof out, "%s.graph", path);
  FUZZ_REQUIRE(minex_graph_write_metis(g, out) == MINEX_OK);
  minex_graph *back = NULL;
  FUZZ_REQUIRE(minex_graph_read_metis(out, &back) == MINEX_OK);
  unlink(out);
  FUZZ_REQUIRE(minex_graph_nvtxs(back) == n);
  FUZZ_REQUIRE(memcmp(minex_graph_xadj(back), xadj,
                      (size_t)(n + 1) * sizeof *xadj) == 0);
  FUZZ_REQUIRE(m == 0 || memcmp(minex_graph_adjncy(back), minex_graph_adjncy(g),
                                (size_t)m * sizeof(int32_t)) == 0);
  FUZZ_REQUIRE(same_doubles(minex_graph_pwgt(back), minex_graph_pwgt(g), n));
  FUZZ_REQUIRE(same_doubles(minex_graph_rwgt(back), minex_graph_rwgt(g), n));
  FUZZ_REQUIRE(same_doubles(minex_graph_cwgt(back), minex_graph_cwgt(g), m));
  minex_graph_destroy(back);
  minex_graph_destroy(g);
  return 0;
}
