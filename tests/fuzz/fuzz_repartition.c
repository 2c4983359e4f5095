/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness of the API (SPEC §3): the bytes choose a small valid
 * problem (fuzz_problem.h: extreme speed ratios, tiny and huge weights,
 * horizons, every option). It checks the guarantees of minex_repartition:
 * nothing is printed; every vertex gets an available processor;
 * MaxQwgt(new) <= MaxQwgt(old) when every old owner is available; the same
 * seed gives the same output; the metrics it returns equal a fresh
 * minex_evaluate of its output. */
#include "fuzz_problem.h"
#include "fuzz_util.h"

#include <minex.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_problem pb;
  fuzz_problem_make(data, size, &pb);
  fuzz_problem_check(&pb);
  fuzz_problem_free(&pb);
  return 0;
}
