/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness of the configuration XML reader (minex_config_load, schema
 * validated). Any input is rejected with a reader error or gives a
 * configuration that survives save + load unchanged. */
#include "fuzz_util.h"

#include <minex.h>

#include <stdio.h>
#include <unistd.h>

static int same_config(const minex_config *a, const minex_config *b) {
  int32_t nc = minex_config_nclusters(a);
  if (nc != minex_config_nclusters(b) ||
      minex_config_nprocs(a) != minex_config_nprocs(b))
    return 0;
  for (int32_t c = 0; c < nc; c++) {
    if (minex_config_cluster_nprocs(a, c) !=
            minex_config_cluster_nprocs(b, c) ||
        minex_config_proc_slowdown(a, c) != minex_config_proc_slowdown(b, c))
      return 0;
    for (int32_t d = 0; d < nc; d++)
      if (minex_config_conn(a, c, d) != minex_config_conn(b, c, d))
        return 0;
  }
  for (int32_t p = 0; p < minex_config_nprocs(a); p++)
    if (minex_config_is_available(a, p) != minex_config_is_available(b, p))
      return 0;
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_write_tmp(data, size);
  minex_config *cfg = NULL;
  int rc = minex_config_load(path, &cfg);
  if (rc != MINEX_OK) {
    FUZZ_REQUIRE(fuzz_reader_error_ok(rc));
    FUZZ_REQUIRE(cfg == NULL);
    return 0;
  }
  FUZZ_REQUIRE(minex_config_nclusters(cfg) >= 1);
  FUZZ_REQUIRE(minex_config_navailable(cfg) <= minex_config_nprocs(cfg));
  char out[4200];
  snprintf(out, sizeof out, "%s.xml", path);
  FUZZ_REQUIRE(minex_config_save(cfg, out) == MINEX_OK);
  minex_config *back = NULL;
  FUZZ_REQUIRE(minex_config_load(out, &back) == MINEX_OK);
  unlink(out);
  FUZZ_REQUIRE(same_config(cfg, back));
  minex_config_destroy(back);
  minex_config_destroy(cfg);
  return 0;
}
