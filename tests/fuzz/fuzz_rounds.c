/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness of the parallel execution (SPEC §3 "Parallel execution";
 * docs/design/algorithm.md "Synchronous rounds"): the first byte chooses
 * options.global_spread (1..8), a thread count (2, 3 or 4) and
 * options.rounds (OFF, ON or AUTO), the others a problem as for
 * `repartition` (fuzz_problem.h). It checks `repartition`'s guarantees
 * (fuzz_problem_check, on 1 thread) and that the result does not depend
 * on the threads: the call on 1 thread and the call on the chosen count
 * give the same code, partition and metrics, bit for bit. The other
 * problem harnesses keep the default spread and 1 OpenMP thread (the
 * `threads` harness runs two single-threaded calls at once), and their
 * stored inputs decode as before. */
#include "fuzz_problem.h"
#include "fuzz_util.h"

#include <minex.h>

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  unsigned first = size > 0 ? data[0] : 0;
  fuzz_problem pb;
  fuzz_problem_make(size > 0 ? data + 1 : data, size > 0 ? size - 1 : 0, &pb);
  pb.opt.rounds = (int)(first / 24 % 3); /* OFF, ON, AUTO */
  pb.opt.global_spread = (int32_t)(first % 8) + 1;
  pb.opt.nthreads = 1;
  fuzz_problem_check(&pb);
  int32_t n = pb.n;
  int32_t *one = malloc(sizeof *one * (size_t)n);
  int32_t *many = malloc(sizeof *many * (size_t)n);
  FUZZ_REQUIRE(one && many);
  minex_metrics m1, mt;
  int r1 = fuzz_repartition_silent(&pb, one, &m1);
  pb.opt.nthreads = (int32_t)(first / 8 % 3) + 2;
  int rt = fuzz_repartition_silent(&pb, many, &mt);
  FUZZ_REQUIRE(r1 == rt);
  if (r1 == MINEX_OK) {
    FUZZ_REQUIRE(memcmp(one, many, sizeof *one * (size_t)n) == 0);
    FUZZ_REQUIRE(m1.max_qwgt == mt.max_qwgt && m1.moved == mt.moved &&
                 m1.horizon_time == mt.horizon_time);
  }
  free(one);
  free(many);
  fuzz_problem_free(&pb);
  return 0;
}
