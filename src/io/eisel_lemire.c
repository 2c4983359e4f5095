/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Eisel-Lemire algorithm: m * 10^q, for an integer m < 2^64, as the
 * correctly rounded double (round to nearest, ties to even), from one or
 * two 64 x 64 -> 128-bit products with a 128-bit approximation of 10^q's
 * mantissa (pow5_table.h, made and checked at build time by pow5_gen.c).
 * D. Lemire, "Number parsing at a gigabyte per second", Software: Practice
 * and Experience 51(8), 2021; this is the form of Go's strconv
 * (eiselLemire64, by N. Tao), which gives up, rather than deciding, when
 * the truncated products cannot tell the rounding (the wider product still
 * ambiguous; an exact halfway case) and for results outside the normal
 * doubles (subnormal, zero, infinite): the caller then asks strtod, so the
 * errors of those (ERANGE) stay strtod's. */
#include "io/io_util.h"

#include <string.h>

#include "pow5_table.h"

/* a * b as {high, low} */
static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
#ifdef __SIZEOF_INT128__
  __extension__ typedef unsigned __int128 u128;
  u128 p = (u128)a * b;
  *hi = (uint64_t)(p >> 64);
  *lo = (uint64_t)p;
#else
  uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu,
           b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  *lo = (mid << 32) | (p00 & 0xffffffffu);
#endif
}

static int clz64(uint64_t x) { /* x != 0 */
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_clzll(x);
#else
  int n = 0;
  while (!(x >> 63))
    x <<= 1, n++;
  return n;
#endif
}

int io_eisel_lemire(uint64_t m, int64_t q, int neg, double *out) {
  uint64_t bits;
  if (m == 0) {
    bits = 0;
  } else {
    if (q < POW5_MIN || q > POW5_MAX)
      return -1;
    const uint64_t *p = pow5_128[q - POW5_MIN];
    int lz = clz64(m);
    m <<= lz;
    /* floor(q log2(10)) + 1087 - lz, the binary exponent (biased) when the
       product's top bit is set: 217706 / 2^16 is log2(10) within the
       range; the floor division is spelt out (>> of a negative value is
       implementation-defined in C) */
    int64_t t = 217706 * q;
    int64_t e2 = (t >= 0 ? t / 65536 : -((-t + 65535) / 65536)) + 64 + 1023 -
                 (int64_t)lz;
    uint64_t hi, lo;
    mul64(m, p[0], &hi, &lo);
    /* the 9 bits below the 55 kept are all ones and the low word could
       carry: add the product with the table's low word */
    if ((hi & 0x1ff) == 0x1ff && lo + m < m) {
      uint64_t yhi, ylo;
      mul64(m, p[1], &yhi, &ylo);
      uint64_t mhi = hi, mlo = lo + yhi;
      if (mlo < lo)
        mhi++;
      if ((mhi & 0x1ff) == 0x1ff && mlo + 1 == 0 && ylo + m < m)
        return -1; /* still cannot tell */
      hi = mhi, lo = mlo;
    }
    uint64_t msb = hi >> 63;
    uint64_t mant = hi >> (msb + 9); /* 54 bits */
    e2 -= (int64_t)(1 ^ msb);
    if (lo == 0 && (hi & 0x1ff) == 0 && (mant & 3) == 1)
      return -1;      /* exactly halfway, perhaps: ties to even needs more */
    mant += mant & 1; /* to 53 bits, rounding half up */
    mant >>= 1;
    if (mant >> 53) {
      mant >>= 1;
      e2++;
    }
    if (e2 <= 0 || e2 >= 0x7ff)
      return -1; /* subnormal or zero, or infinite: strtod's */
    bits = (uint64_t)e2 << 52 | (mant & (((uint64_t)1 << 52) - 1));
  }
  if (neg)
    bits |= (uint64_t)1 << 63;
  memcpy(out, &bits, sizeof *out);
  return 0;
}
