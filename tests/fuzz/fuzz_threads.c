/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness of SPEC §3's "safe to call from several threads on separate
 * data": the bytes make a problem (fuzz_problem.h) twice, as two separate
 * sets of objects; one call alone gives the reference partition, then two
 * threads repartition the two copies at the same time, twice each, and
 * every result must equal the reference bit for bit (METIS 5.1's global
 * random generator broke this; a thread-unsafe static in the library would
 * too, and ThreadSanitizer sees only the library's own code). */
#include "fuzz_problem.h"
#include "fuzz_util.h"

#include <minex.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define CALLS_PER_THREAD 2

typedef struct job {
  const fuzz_problem *p;
  const int32_t *ref; /* the single-threaded result */
  int rc_ref;
  int differs; /* a call's code or partition differed */
} job;

static void *run(void *arg) {
  job *j = arg;
  int32_t *out = malloc(sizeof *out * (size_t)j->p->n);
  if (out == NULL) {
    j->differs = 1;
    return NULL;
  }
  for (int c = 0; c < CALLS_PER_THREAD; c++) {
    int rc =
        minex_repartition(j->p->g, j->p->cfg, j->p->old, &j->p->opt, out, NULL);
    if (rc != j->rc_ref ||
        (rc == MINEX_OK &&
         memcmp(out, j->ref, sizeof *out * (size_t)j->p->n) != 0))
      j->differs = 1;
  }
  free(out);
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_problem a, b;
  fuzz_problem_make(data, size, &a);
  fuzz_problem_make(data, size, &b);
  int32_t *ref = malloc(sizeof *ref * (size_t)a.n);
  FUZZ_REQUIRE(ref != NULL);
  int rc = fuzz_repartition_silent(&a, ref, NULL);
  job ja = {&a, ref, rc, 0}, jb = {&b, ref, rc, 0};
  pthread_t ta, tb;
  FUZZ_REQUIRE(pthread_create(&ta, NULL, run, &ja) == 0);
  FUZZ_REQUIRE(pthread_create(&tb, NULL, run, &jb) == 0);
  FUZZ_REQUIRE(pthread_join(ta, NULL) == 0);
  FUZZ_REQUIRE(pthread_join(tb, NULL) == 0);
  FUZZ_REQUIRE(!ja.differs && !jb.differs);
  free(ref);
  fuzz_problem_free(&a);
  fuzz_problem_free(&b);
  return 0;
}
