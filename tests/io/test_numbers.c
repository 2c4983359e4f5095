/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The strict number parsers of src/io/io_util.c, which parse digits
 * themselves (integers always, doubles on Clinger's fast path): they give
 * what strtoll and strtod give on the tokens both accept, bit for bit and
 * with the same end, and refuse the rest (signs, hexadecimal, overflow). */
#include "io/io_util.h"
#include "test_util.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* strtoll on a [-]digits token followed by the end or a blank. */
static int ref_i64(const char *s, char **end, int64_t *v) {
  while (*s == ' ' || *s == '\t')
    s++;
  const char *t = s + (*s == '-');
  if (*t < '0' || *t > '9')
    return -1;
  errno = 0;
  long long x = strtoll(s, end, 10);
  if (errno == ERANGE || (**end != '\0' && !isspace((unsigned char)**end)))
    return -1;
  *v = x;
  return 0;
}

START_TEST(integers_are_strtolls_within_int64) {
  const struct {
    const char *s;
    int rc;
    int64_t v;
  } cases[] = {
      {"0", 0, 0},
      {"-0", 0, 0},
      {" \t42 x", 0, 42},
      {"9223372036854775807", 0, INT64_MAX},
      {"-9223372036854775808", 0, INT64_MIN},
      {"9223372036854775808", -1, 0},
      {"-9223372036854775809", -1, 0},
      {"18446744073709551616", -1, 0},
      {"000000000000000000000000012", 0, 12},
      {"+1", -1, 0},
      {"0x10", -1, 0},
      {"1.5", -1, 0},
      {"-", -1, 0},
      {"", -1, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int64_t v = 7;
    ck_assert_msg(io_parse_i64(cases[i].s, NULL, &v) == cases[i].rc &&
                      (cases[i].rc != 0 || v == cases[i].v),
                  "'%s'", cases[i].s);
  }
  /* random tokens near the limits and of random characters */
  srand(3);
  char buf[40];
  for (int it = 0; it < 200000; it++) {
    if (it % 2)
      snprintf(buf, sizeof buf, "%s92233720368547758%d%s",
               rand() % 2 ? "-" : "", rand() % 100, rand() % 2 ? " 1" : "");
    else {
      int len = rand() % 22;
      for (int i = 0; i < len; i++)
        buf[i] = "0123456789-+ \tx."[rand() % 16];
      buf[len] = '\0';
    }
    int64_t a = 7, b = 7;
    char *ea = NULL, *eb = NULL;
    int ra = ref_i64(buf, &ea, &a), rb = io_parse_i64(buf, &eb, &b);
    ck_assert_msg(ra == rb && (ra != 0 || (a == b && ea == eb)), "'%s'", buf);
  }
}
END_TEST

static void same_double(const char *s) {
  char *ea, *eb = NULL;
  double a = strtod(s, &ea), b = 7;
  ck_assert_msg(io_parse_double(s, &eb, &b) == 0, "'%s' refused", s);
  ck_assert_msg(memcmp(&a, &b, sizeof a) == 0 && ea == eb,
                "'%s': %.17g, strtod %.17g", s, b, a);
}

START_TEST(doubles_are_strtods_bit_for_bit) {
  const char *ok[] = {"0",
                      "-0",
                      "+.5e-3",
                      "1e22",
                      "1e23",
                      "9007199254740992",
                      "9007199254740993", /* 2^53 + 1: rounds */
                      "9007199254740993e-22",
                      "1234567890123456789e-3",
                      "0.1",
                      "0.30000000000000004",
                      "4.9e-324",
                      "2.2250738585072011e-308",
                      "1.7976931348623157e308",
                      "1e-0000000000000000000022",
                      "00000000000000000000000001.5"};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
    same_double(ok[i]);
  double z = 0;
  ck_assert(io_parse_double("-0", NULL, &z) == 0 && signbit(z));
  const char *bad[] = {"1e400", "1e-400", "inf", "nan",
                       "0x1p3", "1.5x",   ".",   "1e+"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    double v;
    ck_assert_msg(io_parse_double(bad[i], NULL, &v) != 0, "'%s' read", bad[i]);
  }
  /* the way mesh writers print: %.16g (Gmsh), %.17g, fixed, exponent */
  srand(4);
  char buf[64];
  for (int it = 0; it < 300000; it++) {
    double x = (double)rand() / RAND_MAX * pow(10, rand() % 40 - 20);
    if (rand() % 2)
      x = -x;
    switch (it % 5) {
    case 0:
      snprintf(buf, sizeof buf, "%.16g", x);
      break;
    case 1:
      snprintf(buf, sizeof buf, "%.17g", x);
      break;
    case 2:
      snprintf(buf, sizeof buf, "%.*g", 1 + rand() % 17, x);
      break;
    case 3:
      snprintf(buf, sizeof buf, "%.*f", rand() % 20, x);
      break;
    default:
      snprintf(buf, sizeof buf, "%.*e", rand() % 18, x);
    }
    same_double(buf);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("io_numbers");
  TCase *tc = tcase_create("numbers");
  tcase_add_test(tc, integers_are_strtolls_within_int64);
  tcase_add_test(tc, doubles_are_strtods_bit_for_bit);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
