/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/partition/move_heap.c: heap order (forced first, then Gain,
 * then id) and handles stay right under any mix of inserts, key changes
 * and removals. */
#include "partition/partition.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>

typedef struct ref_entry {
  int present;
  double key;
  int forced;
} ref_entry;

static int ref_before(const ref_entry *r, int32_t a, int32_t b) {
  if (r[a].forced != r[b].forced)
    return r[a].forced > r[b].forced;
  if (r[a].key != r[b].key)
    return r[a].key < r[b].key;
  return a < b;
}

START_TEST(heap_pops_in_order_and_keeps_handles_under_random_updates) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 8);
  enum { N = 300 };
  partition_heap h;
  ck_assert_int_eq(partition_heap_create(&h, N, N), MINEX_OK);
  ref_entry ref[N] = {{0}};
  for (int op = 0; op < 20000; op++) {
    int32_t id = (int32_t)gsl_rng_uniform_int(rng, N);
    double u = gsl_rng_uniform(rng);
    if (u < 0.55) {
      double key = floor(gsl_rng_uniform(rng) * 50) - 25; /* ties happen */
      int forced = gsl_rng_uniform(rng) < 0.1;
      partition_heap_set(&h, id, key, forced);
      ref[id] = (ref_entry){1, key, forced};
    } else if (u < 0.8) {
      partition_heap_remove(&h, id);
      ref[id].present = 0;
    } else {
      int32_t best = -1;
      for (int32_t x = 0; x < N; x++)
        if (ref[x].present && (best < 0 || ref_before(ref, x, best)))
          best = x;
      ck_assert_int_eq(partition_heap_pop(&h), best);
      if (best >= 0)
        ref[best].present = 0;
    }
    if (op % 97 == 0)
      ck_assert_int_eq(partition_heap_check(&h), MINEX_OK);
  }
  ck_assert_int_eq(partition_heap_check(&h), MINEX_OK);
  partition_heap_destroy(&h);
  gsl_rng_free(rng);
}
END_TEST

START_TEST(precedes_top_puts_forced_moves_first) {
  partition_heap h;
  partition_heap_create(&h, 4, 4);
  ck_assert(partition_heap_precedes_top(&h, 1e9, 0));
  partition_heap_set(&h, 0, -5, 0);
  ck_assert(partition_heap_precedes_top(&h, -5, 0));
  ck_assert(!partition_heap_precedes_top(&h, -4, 0));
  ck_assert(partition_heap_precedes_top(&h, 100, 1));
  partition_heap_set(&h, 1, 100, 1);
  ck_assert_int_eq(partition_heap_pop(&h), 1);
  ck_assert_int_eq(partition_heap_pop(&h), 0);
  ck_assert_int_eq(partition_heap_pop(&h), -1);
  partition_heap_destroy(&h);
}
END_TEST

int main(void) {
  Suite *s = suite_create("move_heap");
  TCase *tc = tcase_create("move_heap");
  tcase_add_test(tc, heap_pops_in_order_and_keeps_handles_under_random_updates);
  tcase_add_test(tc, precedes_top_puts_forced_moves_first);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
