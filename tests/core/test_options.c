/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/core/options.c: the defaults, ranges, names, formatted list
 * and hash generated from MINEX_OPTIONS_LIST agree with minex.h's
 * documented fields. */
#include "test_util.h"

#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The value fields minex.h documents, in its order of the list. */
static const char *const names[] = {"throttle",
                                    "alpha",
                                    "remap_mode",
                                    "nthreads",
                                    "coarse_target",
                                    "coarse_per_proc",
                                    "sample_size",
                                    "seed",
                                    "global_candidates",
                                    "throttle_auto",
                                    "nthrottle_candidates",
                                    "refine",
                                    "scratch",
                                    "ladder",
                                    "balance",
                                    "rounds",
                                    "cluster_levels",
                                    "global_spread",
                                    "paper_exact",
                                    "refine_passes",
                                    "iterations",
                                    "max_passes",
                                    "max_imbalance"};
#define NNAMES ((int)(sizeof names / sizeof names[0]))

static double get(const minex_options *o, const char *name) {
  double v = NAN;
  ck_assert_int_eq(minex_options_get(o, name, &v), MINEX_OK);
  return v;
}

START_TEST(names_are_the_documented_fields) {
  int i = 0;
  for (; minex_options_name(i) != NULL; i++) {
    ck_assert_int_lt(i, NNAMES);
    ck_assert_str_eq(minex_options_name(i), names[i]);
  }
  ck_assert_int_eq(i, NNAMES);
  ck_assert_ptr_null(minex_options_name(-1));
}
END_TEST

/* minex_options_init's documented defaults, read by name and as fields. */
START_TEST(defaults_by_name_match_the_fields) {
  minex_options o;
  minex_options_init(&o);
  ck_assert(isinf(get(&o, "throttle")) && o.throttle > 0);
  ck_assert(get(&o, "alpha") == 0 && o.alpha == 0);
  ck_assert(get(&o, "remap_mode") == MINEX_REMAP_RECEIVER);
  ck_assert(get(&o, "coarse_per_proc") == 64 && o.coarse_per_proc == 64);
  ck_assert(get(&o, "sample_size") == 4 && o.sample_size == 4);
  ck_assert(get(&o, "seed") == 1 && o.seed == 1);
  ck_assert(get(&o, "global_candidates") == 1);
  ck_assert(get(&o, "max_passes") == 8 && o.max_passes == 8);
  ck_assert(get(&o, "iterations") == 1 && o.iterations == 1);
  ck_assert(get(&o, "refine") == MINEX_REFINE_AUTO);
  ck_assert(get(&o, "refine_passes") == 4);
  ck_assert(get(&o, "rounds") == MINEX_ROUNDS_AUTO);
  ck_assert(get(&o, "nthreads") == 1 && o.nthreads == 1);
  ck_assert(get(&o, "global_spread") == MINEX_GLOBAL_SPREAD_MAX);
  ck_assert(get(&o, "paper_exact") == 0);
  ck_assert(o.log_fn == NULL && o.qwgt_fn == NULL);
  ck_assert_ptr_null(o.workspace);
  ck_assert_int_eq(core_check_options(&o), MINEX_OK);
}
END_TEST

/* Setting by name writes the field itself: the struct equals one set
 * directly. */
START_TEST(set_by_name_equals_setting_the_field) {
  minex_options a, b;
  minex_options_init(&a);
  minex_options_init(&b);
  ck_assert_int_eq(minex_options_set(&a, "iterations", 100), MINEX_OK);
  ck_assert_int_eq(minex_options_set(&a, "alpha", 0.25), MINEX_OK);
  ck_assert_int_eq(minex_options_set(&a, "seed", 4294967296.0 * 3), MINEX_OK);
  ck_assert_int_eq(minex_options_set(&a, "remap_mode", MINEX_REMAP_BOTH),
                   MINEX_OK);
  ck_assert_int_eq(minex_options_set(&a, "rounds", MINEX_ROUNDS_OFF), MINEX_OK);
  ck_assert_int_eq(minex_options_set(&a, "throttle", 16), MINEX_OK);
  b.iterations = 100;
  b.alpha = 0.25;
  b.seed = 3ull << 32;
  b.remap_mode = MINEX_REMAP_BOTH;
  b.rounds = MINEX_ROUNDS_OFF;
  b.throttle = 16;
  ck_assert_int_eq(memcmp(&a, &b, sizeof a), 0);
  ck_assert(get(&a, "seed") == 4294967296.0 * 3);
}
END_TEST

START_TEST(set_refuses_what_the_field_cannot_hold) {
  minex_options o, before;
  minex_options_init(&o);
  before = o;
  ck_assert_int_eq(minex_options_set(&o, "iteration", 3), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "'iteration'"));
  ck_assert_int_eq(minex_options_set(&o, "iterations", 2.5), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "options.iterations"));
  ck_assert_int_eq(minex_options_set(&o, "iterations", NAN), MINEX_EINVAL);
  ck_assert_int_eq(minex_options_set(&o, "max_passes", 3e9), MINEX_EINVAL);
  ck_assert_int_eq(minex_options_set(&o, "seed", -1), MINEX_EINVAL);
  ck_assert_int_eq(minex_options_set(&o, "seed", 1.9e19), MINEX_EINVAL);
  ck_assert_int_eq(minex_options_set(NULL, "seed", 1), MINEX_EINVAL);
  ck_assert_int_eq(minex_options_set(&o, NULL, 1), MINEX_EINVAL);
  double v;
  ck_assert_int_eq(minex_options_get(&o, "nope", &v), MINEX_EINVAL);
  ck_assert_int_eq(minex_options_get(&o, "alpha", NULL), MINEX_EINVAL);
  ck_assert_int_eq(memcmp(&o, &before, sizeof o), 0); /* nothing written */
}
END_TEST

/* Each field's range, checked by the call: the limit accepted, one past it
 * refused with a message naming the field. */
typedef struct range_case {
  const char *name;
  double ok, bad;
} range_case;

START_TEST(ranges_are_checked_naming_the_field) {
  static const range_case cases[] = {
      {"throttle", INFINITY, -1},
      {"alpha", 1, 1.5},
      {"alpha", 0, NAN},
      {"remap_mode", MINEX_REMAP_BOTH, 3},
      {"nthreads", MINEX_NTHREADS_MAX, MINEX_NTHREADS_MAX + 1},
      {"coarse_target", 0, -1},
      {"coarse_per_proc", MINEX_COARSE_PER_PROC_MAX,
       MINEX_COARSE_PER_PROC_MAX + 1},
      {"sample_size", 1, 0},
      {"sample_size", MINEX_SAMPLE_SIZE_MAX, MINEX_SAMPLE_SIZE_MAX + 1},
      {"global_candidates", 0, 2},
      {"throttle_auto", 1, -1},
      {"refine", MINEX_REFINE_AUTO, 3},
      {"scratch", MINEX_SCRATCH_OFF, -1},
      {"ladder", MINEX_LADDER_ON, 7},
      {"balance", MINEX_BALANCE_AUTO, 3},
      {"rounds", MINEX_ROUNDS_OFF, 3},
      {"cluster_levels", MINEX_CLUSTER_LEVELS_ON, 4},
      {"global_spread", 1, 0},
      {"global_spread", MINEX_GLOBAL_SPREAD_MAX, MINEX_GLOBAL_SPREAD_MAX + 1},
      {"paper_exact", 1, 2},
      {"refine_passes", MINEX_MAX_PASSES_MAX, MINEX_MAX_PASSES_MAX + 1},
      {"iterations", MINEX_ITERATIONS_MAX, -1},
      {"max_passes", 0, -1},
      {"max_imbalance", 1.05, 0.99},
      {"max_imbalance", 0, -1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const range_case *c = &cases[i];
    minex_options o;
    minex_options_init(&o);
    ck_assert_int_eq(minex_options_set(&o, c->name, c->ok), MINEX_OK);
    ck_assert_msg(core_check_options(&o) == MINEX_OK, "%s = %g refused: %s",
                  c->name, c->ok, minex_last_error());
    ck_assert_int_eq(minex_options_set(&o, c->name, c->bad), MINEX_OK);
    ck_assert_msg(core_check_options(&o) == MINEX_EINVAL, "%s = %g accepted",
                  c->name, c->bad);
    char want[64];
    snprintf(want, sizeof want, "options.%s =", c->name);
    ck_assert_msg(strstr(minex_last_error(), want) != NULL, "%s: '%s'", c->name,
                  minex_last_error());
  }
  /* the conditional ones: throttle is ignored under throttle_auto,
     coarse_per_proc when coarse_target is set */
  minex_options o;
  minex_options_init(&o);
  o.throttle = -1;
  o.throttle_auto = 1;
  ck_assert_int_eq(core_check_options(&o), MINEX_OK);
  minex_options_init(&o);
  o.coarse_per_proc = 0;
  o.coarse_target = 100;
  ck_assert_int_eq(core_check_options(&o), MINEX_OK);
  double cand[2] = {1, -2};
  minex_options_init(&o);
  o.throttle_auto = 1;
  o.throttle_candidates = cand;
  o.nthrottle_candidates = 0;
  ck_assert_int_eq(core_check_options(&o), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "nthrottle_candidates"));
  o.nthrottle_candidates = 2;
  ck_assert_int_eq(core_check_options(&o), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "throttle_candidates[1]"));
}
END_TEST

static void no_log(const char *m, void *ctx) {
  (void)m;
  (void)ctx;
}

/* The MPI layer's agreement: every value option changes the hash, the log
 * does not, the throttle candidates count by value. */
START_TEST(hash_sees_every_option_and_not_the_log) {
  minex_options base;
  minex_options_init(&base);
  uint64_t h0 = core_options_hash(&base);
  for (int i = 0; minex_options_name(i) != NULL; i++) {
    minex_options o = base;
    double v = get(&o, minex_options_name(i));
    ck_assert_int_eq(
        minex_options_set(&o, minex_options_name(i), isinf(v) ? 2 : v + 1),
        MINEX_OK);
    ck_assert_msg(core_options_hash(&o) != h0, "%s not hashed",
                  minex_options_name(i));
  }
  minex_options o = base;
  o.log_fn = no_log;
  o.log_ctx = &o;
  ck_assert(core_options_hash(&o) == h0);
  double c1[2] = {1, 4}, c2[2] = {1, 4}, c3[2] = {1, 5};
  minex_options a = base, b = base;
  a.nthrottle_candidates = b.nthrottle_candidates = 2;
  a.throttle_candidates = c1;
  b.throttle_candidates = c2;
  ck_assert(core_options_hash(&a) == core_options_hash(&b));
  b.throttle_candidates = c3;
  ck_assert(core_options_hash(&a) != core_options_hash(&b));
}
END_TEST

START_TEST(format_lists_every_option) {
  minex_options o;
  minex_options_init(&o);
  o.iterations = 10;
  o.seed = 18446744073709551615ull;
  char buf[2048];
  size_t len = core_options_format(&o, buf, sizeof buf);
  ck_assert_uint_eq(len, strlen(buf));
  for (int i = 0; i < NNAMES; i++) {
    char want[64];
    snprintf(want, sizeof want, "%s=", names[i]);
    ck_assert_msg(strstr(buf, want) != NULL, "%s missing in '%s'", names[i],
                  buf);
  }
  ck_assert_ptr_nonnull(strstr(buf, " iterations=10 "));
  ck_assert_ptr_nonnull(strstr(buf, "seed=18446744073709551615"));
  ck_assert_ptr_nonnull(strstr(buf, "throttle=inf"));
  /* cut short, still terminated, the whole length returned */
  char small[16];
  ck_assert_uint_eq(core_options_format(&o, small, sizeof small), len);
  ck_assert_uint_lt(strlen(small), sizeof small);
}
END_TEST

int main(void) {
  Suite *s = suite_create("options");
  TCase *tc = tcase_create("options");
  tcase_add_test(tc, names_are_the_documented_fields);
  tcase_add_test(tc, defaults_by_name_match_the_fields);
  tcase_add_test(tc, set_by_name_equals_setting_the_field);
  tcase_add_test(tc, set_refuses_what_the_field_cannot_hold);
  tcase_add_test(tc, ranges_are_checked_naming_the_field);
  tcase_add_test(tc, hash_sees_every_option_and_not_the_log);
  tcase_add_test(tc, format_lists_every_option);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
