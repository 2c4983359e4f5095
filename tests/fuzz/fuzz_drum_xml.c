/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness of the DRUM machine-model XML reader
 * (minex_drum_model_load, both dialects). Any input is rejected with a
 * reader error or gives a model that survives save + load with the same
 * node count and tree, and whose MinEX configuration can be computed (or
 * is refused with a configuration error, e.g. no computing node). */
#include "fuzz_util.h"

#include <minex.h>
#include <minex_drum.h>

#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_write_tmp(data, size);
  minex_drum_model *model = NULL;
  int rc = minex_drum_model_load(path, &model);
  if (rc != MINEX_OK) {
    FUZZ_REQUIRE(fuzz_reader_error_ok(rc));
    FUZZ_REQUIRE(model == NULL);
    return 0;
  }
  int32_t n = minex_drum_nnodes(model);
  for (int32_t i = 0; i < n; i++) {
    const minex_drum_node *node = minex_drum_get(model, i);
    FUZZ_REQUIRE(node != NULL);
    FUZZ_REQUIRE(node->parent >= -1 && node->parent < n);
  }
  char out[4200];
  snprintf(out, sizeof out, "%s.xml", path);
  for (int dialect = 0; dialect < 2; dialect++) {
    FUZZ_REQUIRE(minex_drum_model_save(
                     model, out, (minex_drum_dialect)dialect) == MINEX_OK);
    minex_drum_model *back = NULL;
    FUZZ_REQUIRE(minex_drum_model_load(out, &back) == MINEX_OK);
    FUZZ_REQUIRE(minex_drum_nnodes(back) == n);
    for (int32_t i = 0; i < n; i++)
      FUZZ_REQUIRE(minex_drum_get(back, i)->parent ==
                   minex_drum_get(model, i)->parent);
    minex_drum_model_destroy(back);
  }
  unlink(out);
  minex_drum_options opt;
  minex_drum_options_init(&opt);
  minex_config *cfg = NULL;
  rc = minex_drum_config(model, &opt, &cfg, NULL);
  if (rc == MINEX_OK)
    FUZZ_REQUIRE(minex_config_nprocs(cfg) >= 1);
  else
    FUZZ_REQUIRE(fuzz_reader_error_ok(rc) || rc == MINEX_ENOPROC);
  minex_config_destroy(cfg);
  minex_drum_model_destroy(model);
  return 0;
}
