/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/core/abi.c: minex_abi_get reports the widths and sizes of
 * this build's types, every name minex_abi_name lists can be read, and
 * unknown names and NULL arguments are refused. */
#include "test_util.h"

#include <limits.h>
#include <string.h>

static int64_t abi(const char *name) {
  int64_t v = -1;
  ck_assert_int_eq(minex_abi_get(name, &v), MINEX_OK);
  return v;
}

START_TEST(abi_reports_the_types_of_this_build) {
  ck_assert_int_eq(abi("xadj_bits"), 64);
  ck_assert_int_eq(abi("adjncy_bits"), 32);
  ck_assert_int_eq(abi("part_bits"), 32);
  ck_assert_int_eq(abi("real_bits"), (int64_t)(sizeof(double) * CHAR_BIT));
  ck_assert_int_eq(abi("int_bits"), (int64_t)(sizeof(int) * CHAR_BIT));
  ck_assert_int_eq(abi("options_size"), (int64_t)sizeof(minex_options));
  ck_assert_int_eq(abi("metrics_size"), (int64_t)sizeof(minex_metrics));
  ck_assert_int_eq(abi("version_hex"), (int64_t)minex_version_hex());
}
END_TEST

START_TEST(abi_names_are_listed_once_and_readable) {
  int n = 0;
  for (; minex_abi_name(n) != NULL; n++) {
    int64_t v = -1;
    ck_assert_int_eq(minex_abi_get(minex_abi_name(n), &v), MINEX_OK);
    ck_assert_int_ge(v, 0);
    for (int j = 0; j < n; j++)
      ck_assert_str_ne(minex_abi_name(j), minex_abi_name(n));
  }
  ck_assert_int_eq(n, 8);
  ck_assert_ptr_null(minex_abi_name(-1));
}
END_TEST

START_TEST(abi_refuses_unknown_names_and_null) {
  int64_t v = 42;
  ck_assert_int_eq(minex_abi_get("no_such_entry", &v), MINEX_EINVAL);
  ck_assert_int_eq(v, 42);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "no_such_entry"));
  ck_assert_int_eq(minex_abi_get(NULL, &v), MINEX_EINVAL);
  ck_assert_int_eq(minex_abi_get("xadj_bits", NULL), MINEX_EINVAL);
  ck_assert_int_eq(minex_abi_get("xadj_bits", &v), MINEX_OK);
  ck_assert_str_eq(minex_last_error(), "");
}
END_TEST

int main(void) {
  Suite *s = suite_create("abi");
  TCase *tc = tcase_create("abi");
  tcase_add_test(tc, abi_reports_the_types_of_this_build);
  tcase_add_test(tc, abi_names_are_listed_once_and_readable);
  tcase_add_test(tc, abi_refuses_unknown_names_and_null);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
