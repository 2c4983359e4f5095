/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness of the partition file reader (minex_part_read). The first
 * three bytes choose nvtxs (0..1023) and nparts (-128..127, <= 0 meaning
 * "any id >= 0"); the rest is the file. Any input is rejected with a reader
 * error or gives exactly nvtxs ids in range that survive write + read. */
#include "fuzz_util.h"

#include <minex.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3)
    return 0;
  int32_t nvtxs = (int32_t)((data[0] | data[1] << 8) % 1024);
  int32_t nparts = (int32_t)(int8_t)data[2];
  const char *path = fuzz_write_tmp(data + 3, size - 3);
  int32_t *part = NULL;
  int rc = minex_part_read(path, nvtxs, nparts, &part);
  if (rc != MINEX_OK) {
    FUZZ_REQUIRE(fuzz_reader_error_ok(rc));
    FUZZ_REQUIRE(part == NULL);
    return 0;
  }
  FUZZ_REQUIRE(nvtxs == 0 || part != NULL);
  for (int32_t v = 0; v < nvtxs; v++)
    FUZZ_REQUIRE(part[v] >= 0 && (nparts <= 0 || part[v] < nparts));
  char out[4200];
  snprintf(out, sizeof out, "%s.part", path);
  FUZZ_REQUIRE(minex_part_write(out, nvtxs, part) == MINEX_OK);
  int32_t *back = NULL;
  FUZZ_REQUIRE(minex_part_read(out, nvtxs, nparts, &back) == MINEX_OK);
  unlink(out);
  FUZZ_REQUIRE(nvtxs == 0 ||
               memcmp(back, part, (size_t)nvtxs * sizeof *part) == 0);
  free(back);
  free(part);
  return 0;
}
