/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/core/version.c: the library reports the version that
 * project(VERSION) put into the generated minex_version.h. */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

START_TEST(version_string_equals_compile_time_string) {
  ck_assert_str_eq(minex_version(), MINEX_VERSION_STRING);
}
END_TEST

START_TEST(version_parts_make_the_string_and_the_hex) {
  char want[64];
  snprintf(want, sizeof want, "%d.%d.%d", MINEX_VERSION_MAJOR,
           MINEX_VERSION_MINOR, MINEX_VERSION_PATCH);
  ck_assert_str_eq(MINEX_VERSION_STRING, want);
  ck_assert_uint_eq(minex_version_hex(), (unsigned)MINEX_VERSION_HEX);
  ck_assert_uint_eq(minex_version_hex(),
                    ((unsigned)MINEX_VERSION_MAJOR << 16) |
                        ((unsigned)MINEX_VERSION_MINOR << 8) |
                        (unsigned)MINEX_VERSION_PATCH);
}
END_TEST

int main(void) {
  Suite *s = suite_create("version");
  TCase *tc = tcase_create("version");
  tcase_add_test(tc, version_string_equals_compile_time_string);
  tcase_add_test(tc, version_parts_make_the_string_and_the_hex);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
