/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The strict number parsers of src/io/io_util.c, which parse digits
 * themselves (integers always, doubles on Clinger's fast path and by the
 * Eisel-Lemire algorithm): they give what strtoll and strtod give on the
 * tokens both accept, bit for bit and with the same end, and refuse the
 * rest (signs, hexadecimal, overflow, non-zero tokens read as zero). The
 * random-token test reads MINEX_NUMBERS_TOKENS tokens (default 1,000,000)
 * from seed MINEX_NUMBERS_SEED (default 1) and prints how many of each
 * class it compared. */
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
  /* random tokens near the limits, of 1 to 24 digits and of random
     characters */
  srand(3);
  char buf[40 + IO_READER_PAD] = {0};
  for (int it = 0; it < 300000; it++) {
    if (it % 3 == 1)
      snprintf(buf, sizeof buf, "%s92233720368547758%d%s",
               rand() % 2 ? "-" : "", rand() % 100, rand() % 2 ? " 1" : "");
    else if (it % 3 == 2) {
      int nd = 1 + rand() % 24, n = rand() % 2 ? 0 : sprintf(buf, "-");
      for (int i = 0; i < nd; i++)
        buf[n++] = (char)('0' + rand() % 10);
      buf[n++] = " \tx\n-."[rand() % 6];
      buf[n] = '\0';
    } else {
      int len = rand() % 22;
      for (int i = 0; i < len; i++)
        buf[i] = "0123456789-+ \tx."[rand() % 16];
      buf[len] = '\0';
    }
    int64_t a = 7, b = 7, c = 7;
    char *ea = NULL, *eb = NULL, *ec = NULL;
    int ra = ref_i64(buf, &ea, &a), rb = io_parse_i64(buf, &eb, &b);
    if (!(ra == rb && (ra != 0 || (a == b && ea == eb))))
      ck_abort_msg("'%s'", buf);
    /* the line form, which loads 8 bytes at once (padding after the NUL
       as io_reader keeps it) */
    int rc = io_parse_i64_line(buf, &ec, &c);
    if (!(rc == rb && (rc != 0 || (c == b && ec == eb))))
      ck_abort_msg("line form: '%s'", buf);
  }
}
END_TEST

/* x as mesh writers print it (mode 0-4: %.16g as Gmsh, %.17g, %g with 1
 * to 17 digits, fixed with 0 to 19 decimals, %e with 0 to 24), r picking
 * the precision */
static void print_like_writers(char *buf, size_t cap, double x, int mode,
                               int r) {
  switch (mode) {
  case 0:
    snprintf(buf, cap, "%.16g", x);
    break;
  case 1:
    snprintf(buf, cap, "%.17g", x);
    break;
  case 2:
    snprintf(buf, cap, "%.*g", 1 + r % 17, x);
    break;
  case 3:
    snprintf(buf, cap, "%.*f", r % 20, x);
    break;
  default:
    snprintf(buf, cap, r % 2 ? "%.*e" : "%.*E", r % 25, x);
  }
}

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
    print_like_writers(buf, sizeof buf, x, it % 5, rand());
    same_double(buf);
  }
}
END_TEST

/* xorshift64*: fast, and the same tokens on every platform */
static uint64_t rng_state;

static uint64_t rnd(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}

static int rnd_int(int lo, int hi) { /* [lo, hi] */
  return lo + (int)(rnd() % (uint64_t)(hi - lo + 1));
}

/* What io_parse_double must give on a well-formed decimal token: strtod's
 * value and end; refused when it is not finite or when strtod reports a
 * range error with zero or a normal value (a subnormal is kept). */
static int ref_double(const char *s, char **end, double *v) {
  errno = 0;
  *v = strtod(s, end);
  if (!isfinite(*v) || (errno == ERANGE && (*v == 0 || fabs(*v) >= DBL_MIN)))
    return -1;
  return 0;
}

static long n_refused;

static void compare(const char *s) {
  char *ea, *eb = NULL;
  double a, b = 7;
  int ra = ref_double(s, &ea, &a), rb = io_parse_double(s, &eb, &b);
  /* only on failure: ck_assert talks through a pipe on every call */
  if (ra != rb)
    ck_abort_msg("'%s': rc %d, expected %d", s, rb, ra);
  if (ra == 0 && (memcmp(&a, &b, sizeof a) != 0 || ea != eb))
    ck_abort_msg("'%s': %.17g, strtod %.17g", s, b, a);
  n_refused += ra != 0;
}

static const char *const sign[] = {"", "", "-", "+"};

/* nd random digits (the first may be 0), the point anywhere or absent or
 * after leading zeros, and an exponent putting the value anywhere from
 * below the subnormals (1e-345) to past the overflow (1e312) */
static void random_digits(char *buf, size_t cap, int nd) {
  char dig[80];
  for (int i = 0; i < nd; i++)
    dig[i] = (char)('0' + rnd_int(0, 9));
  dig[nd] = '\0';
  int n = snprintf(buf, cap, "%s", sign[rnd() % 4]);
  switch (rnd() % 4) {
  case 0: /* integer */
    n += snprintf(buf + n, cap - (size_t)n, "%s", dig);
    break;
  case 1: { /* point inside or at either end */
    int at = rnd_int(0, nd);
    n += snprintf(buf + n, cap - (size_t)n, "%.*s.%s", at, dig, dig + at);
    break;
  }
  default: /* 0.000ddd */
    n += snprintf(buf + n, cap - (size_t)n, "0.%0*d%s", rnd_int(1, 6), 0, dig);
  }
  if (rnd() % 8 != 0) { /* with an exponent */
    int mag = rnd_int(-345, 312) - nd;
    n += snprintf(buf + n, cap - (size_t)n, "%c%s%s%d", "eE"[rnd() % 2],
                  mag < 0     ? "-"
                  : rnd() % 2 ? "+"
                              : "",
                  rnd() % 8 ? "" : "00", abs(mag));
  }
}

/* the exact decimal value of the midpoint between a random positive
 * double and the next one up, and the same just above and just below
 * (a last digit added, or the last one lowered); 0 if long double cannot
 * hold the midpoint */
static int halfway(char *buf, size_t cap) {
#if LDBL_MANT_DIG >= 54
  double d;
  do {
    uint64_t bits = rnd() >> 1;
    memcpy(&d, &bits, sizeof d);
  } while (!isfinite(d) || d == DBL_MAX);
  if (rnd() % 2) { /* near 1 too, where the exponents are small */
    d = ldexp(1.0 + (double)(rnd() >> 12) / 4503599627370496.0,
              rnd_int(-70, 70));
  }
  long double mid = ((long double)d + (long double)nextafter(d, INFINITY)) / 2;
  int n = snprintf(buf, cap, "%.780Le", mid);
  char *e = strchr(buf, 'e'), *z = e;
  while (z[-1] == '0')
    z--;
  if (z[-1] == '.')
    z--;
  char expo[16];
  snprintf(expo, sizeof expo, "%s", e);
  int end = (int)(z - buf);
  switch (rnd() % 3) {
  case 0: /* above */
    buf[end++] = (char)('1' + rnd_int(0, 8));
    break;
  case 1: /* below (the last digit is not 0; a lone "5" becomes "4") */
    if (buf[end - 1] != '.')
      buf[end - 1]--;
    break;
  default:
    break;
  }
  (void)n;
  snprintf(buf + end, cap - (size_t)end, "%s", expo);
  return 1;
#else
  (void)buf, (void)cap;
  return 0;
#endif
}

static void random_tokens(long count) {
  long cls[7] = {0};
  n_refused = 0;
  char buf[900];
  for (long it = 0; it < count; it++) {
    int c = (int)(rnd() % 7);
    switch (c) {
    case 0: /* 1..19 significant digits */
      random_digits(buf, sizeof buf, rnd_int(1, 19));
      break;
    case 1: /* 20..60 digits: the truncated mantissa */
      random_digits(buf, sizeof buf, rnd_int(20, 60));
      break;
    case 2:
    case 3: { /* any finite double, subnormals included, as printed */
      uint64_t bits = rnd();
      double x;
      memcpy(&x, &bits, sizeof x);
      if (!isfinite(x)) {
        x = 0;
        bits = rnd() % 2 ? (uint64_t)1 << 63 : 0; /* +-0 */
        memcpy(&x, &bits, sizeof x);
      }
      print_like_writers(buf, sizeof buf, x, (int)(rnd() % 5),
                         (int)(rnd() >> 33));
      break;
    }
    case 4: /* halfway, just above, just below */
      if (!halfway(buf, sizeof buf))
        random_digits(buf, sizeof buf, 17);
      break;
    case 5: { /* halfway integers of up to 20 digits: (2M + 1) 2^(k-1) */
      uint64_t m = (rnd() >> 11) | (uint64_t)1 << 52;
      int k = rnd_int(1, 11);
      uint64_t h = (2 * m + 1) << (k - 1);
      int z = rnd_int(0, 3);
      snprintf(buf, sizeof buf, "%s%" PRIu64 "%.*se-%d", sign[rnd() % 4], h, z,
               "000", z);
      break;
    }
    default: { /* around the ends of the range: 1e308, DBL_MAX, DBL_MIN,
                  the smallest subnormal, zero written long */
      static const char *const base[] = {"1.7976931348623157",
                                         "1.797693134862315807937289714053",
                                         "1.797693134862315708145274237317",
                                         "2.2250738585072011",
                                         "2.225073858507201136057409796709",
                                         "4.940656458412465441765687928682",
                                         "2.4703282292062327208828439643411",
                                         "0.000000000000000000000000"};
      static const int ex[] = {308, 308, 308, -308, -308, -324, -324, 999};
      int b = rnd_int(0, 7), d = rnd_int(-1, 1);
      snprintf(buf, sizeof buf, "%s%s%d%de%d", sign[rnd() % 4], base[b],
               rnd_int(0, 9), rnd_int(0, 9), ex[b] + (b == 7 ? 0 : d));
    }
    }
    compare(buf);
    cls[c]++;
  }
  printf("random doubles: %ld tokens (%ld of 1-19 digits, %ld of 20-60, %ld "
         "printed doubles, %ld halfway, %ld halfway integers, %ld at the "
         "ends of the range), %ld refused as strtod's range errors\n",
         count, cls[0], cls[1], cls[2] + cls[3], cls[4], cls[5], cls[6],
         n_refused);
}

START_TEST(random_tokens_short) {
  rng_state = 0x9E3779B97F4A7C15ULL;
  random_tokens(20000);
}
END_TEST

START_TEST(random_tokens_long) {
  const char *n = getenv("MINEX_NUMBERS_TOKENS"),
             *seed = getenv("MINEX_NUMBERS_SEED");
  rng_state = 0x9E3779B97F4A7C15ULL * (seed ? strtoull(seed, NULL, 10) : 1);
  if (rng_state == 0)
    rng_state = 1;
  random_tokens(n ? strtol(n, NULL, 10) : 1000000);
}
END_TEST

/* the fast paths' own decisions: exact, or given up for strtod */
START_TEST(eisel_lemire_decides_or_gives_up) {
  double v;
  ck_assert(io_eisel_lemire(1, 0, 0, &v) == 0 && v == 1);
  ck_assert(io_eisel_lemire(0, 400, 1, &v) == 0 && v == 0 && signbit(v));
  ck_assert(io_eisel_lemire(17976931348623157ULL, 292, 0, &v) == 0 &&
            v == DBL_MAX);
  ck_assert(io_eisel_lemire(22250738585072014ULL, -324, 0, &v) == 0 &&
            v == DBL_MIN);
  ck_assert(io_eisel_lemire(1, 309, 0, &v) != 0);  /* infinite */
  ck_assert(io_eisel_lemire(1, -310, 0, &v) != 0); /* subnormal */
  ck_assert(io_eisel_lemire(1, -400, 0, &v) != 0); /* beyond the table */
  /* 2^53 + 1 is halfway between 2^53 and 2^53 + 2: ties to even */
  ck_assert(io_eisel_lemire(9007199254740993ULL, 0, 0, &v) != 0);
  /* 2^53 + 3: halfway too, but rounding half up is to even there */
  ck_assert(io_eisel_lemire(9007199254740995ULL, 0, 0, &v) == 0 &&
            v == 9007199254740996.0);
  ck_assert(io_eisel_lemire(9007199254740994ULL, 0, 0, &v) == 0 &&
            v == 9007199254740994.0);
  /* 17 digits (what %.17g prints) over the normal range: decided, as
     strtod, except exact halfway cases, which need q in [-4, 23] (beyond,
     the odd part of m 10^q would be too large for 54 bits) */
  rng_state = 5;
  int decided = 0, far = 0;
  for (int i = 0; i < 100000; i++) {
    uint64_t m = 10000000000000000ULL + rnd() % 90000000000000000ULL;
    int q = rnd_int(-323, 291);
    char buf[40];
    snprintf(buf, sizeof buf, "%" PRIu64 "e%d", m, q);
    double ref = strtod(buf, NULL);
    far += q < -4 || q > 23;
    if (io_eisel_lemire(m, q, 0, &v) == 0) {
      decided += q < -4 || q > 23;
      if (memcmp(&v, &ref, sizeof v) != 0)
        ck_abort_msg("%s: %.17g, strtod %.17g", buf, v, ref);
    } else if (q < -4 || q > 23) {
      ck_abort_msg("%s: not decided", buf);
    }
  }
  ck_assert_int_eq(decided, far);
  ck_assert_int_gt(far, 90000);
}
END_TEST

int main(void) {
  Suite *s = suite_create("io_numbers");
  TCase *tc = tcase_create("numbers");
  tcase_add_test(tc, eisel_lemire_decides_or_gives_up);
  tcase_add_test(tc, random_tokens_short);
  suite_add_tcase(s, tc);
  TCase *heavy = test_heavy_tcase(s, 600);
  tcase_add_test(heavy, doubles_are_strtods_bit_for_bit);
  tcase_add_test(heavy, integers_are_strtolls_within_int64);
  TCase *big = tcase_create("random_tokens");
  tcase_add_test(big, random_tokens_long);
  tcase_set_tags(big, "slow"); /* skipped by the valgrind stage */
  tcase_set_timeout(big, 600);
  suite_add_tcase(s, big);
  return test_run_suite(s);
}
