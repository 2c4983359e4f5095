/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LINPACK-like benchmark giving a computing node's MFLOPS rating b_n
 * (Faik's thesis §3.1.1: "LINPACK is used as a benchmark to compute a
 * MFLOPS rating"; §3.1.2.1: b_n; app. A, DRUM_cpuMonitor.mflops).
 *
 * A random n x n system (entries uniform in [-1, 1), GSL's mt19937) is
 * factorised by GSL's LU with partial pivoting and solved, again and again
 * on a fresh copy of the matrix until the timed work reaches min_seconds.
 * Only LU_decomp + LU_solve are timed; the O(n^2) copy is not. The matrix,
 * vectors and permutation are views of our own arrays, so no GSL call can
 * fail on allocation, and the singular case that LU_solve reports through
 * the GSL error handler (abort by default) is checked here first: the
 * library never changes the application's GSL error handler. */
#include "drum/drum.h"

#include <float.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ||A x - b||_inf / (||A||_inf ||x||_inf n eps): small (O(1)..O(10)) for
 * a backward-stable solve. */
static double scaled_residual(const double *a, const double *x, const double *b,
                              int32_t n) {
  double rmax = 0, amax = 0, xmax = 0;
  for (int32_t i = 0; i < n; i++) {
    const double *row = a + (size_t)i * (size_t)n;
    double r = -b[i], s = 0;
    for (int32_t j = 0; j < n; j++) {
      r += row[j] * x[j];
      s += fabs(row[j]);
    }
    rmax = fmax(rmax, fabs(r));
    amax = fmax(amax, s);
    xmax = fmax(xmax, fabs(x[i]));
  }
  double den = amax * xmax * n * DBL_EPSILON;
  if (den == 0)
    return rmax == 0 ? 0 : HUGE_VAL;
  return rmax / den;
}

int minex_drum_benchmark(int32_t n, double min_seconds, uint64_t seed,
                         double *mflops) {
  core_error_clear();
  const char *fn = "minex_drum_benchmark";
  if (mflops == NULL)
    return core_error(MINEX_EINVAL, "%s: mflops is NULL", fn);
  *mflops = 0;
  if (n < 1 || n > 10000)
    return core_error(MINEX_EINVAL, "%s: n = %d must be in [1, 10000]", fn,
                      (int)n);
  if (!isfinite(min_seconds) || min_seconds < 0)
    return core_error(MINEX_EINVAL,
                      "%s: min_seconds = %g must be finite "
                      "and >= 0",
                      fn, min_seconds);
  size_t nn = (size_t)n * (size_t)n;
  double *a = malloc(sizeof *a * nn), *lu = malloc(sizeof *lu * nn);
  double *b = malloc(sizeof *b * (size_t)n), *x = malloc(sizeof *x * (size_t)n);
  size_t *perm = malloc(sizeof *perm * (size_t)n);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  int rc = MINEX_OK;
  if (a == NULL || lu == NULL || b == NULL || x == NULL || perm == NULL ||
      rng == NULL) {
    rc = core_error(MINEX_ENOMEM, "%s: out of memory for n = %d", fn, (int)n);
    goto done;
  }
  gsl_rng_set(rng, (unsigned long)seed);
  for (size_t k = 0; k < nn; k++)
    a[k] = 2 * gsl_rng_uniform(rng) - 1;
  for (int32_t i = 0; i < n; i++)
    b[i] = 2 * gsl_rng_uniform(rng) - 1;

  gsl_matrix_view LU = gsl_matrix_view_array(lu, (size_t)n, (size_t)n);
  gsl_vector_view B = gsl_vector_view_array(b, (size_t)n);
  gsl_vector_view X = gsl_vector_view_array(x, (size_t)n);
  gsl_permutation p = {(size_t)n, perm};
  double timed = 0, reps = 0;
  do {
    memcpy(lu, a, sizeof *a * nn);
    int signum;
    double t0 = core_wtime();
    int e = gsl_linalg_LU_decomp(&LU.matrix, &p, &signum);
    for (int32_t i = 0; e == 0 && i < n; i++)
      if (lu[(size_t)i * (size_t)n + (size_t)i] == 0)
        e = -1;
    if (e != 0) {
      rc = core_error(MINEX_EINTERNAL,
                      "%s: the random %d x %d matrix "
                      "(seed %llu) is singular",
                      fn, (int)n, (int)n, (unsigned long long)seed);
      goto done;
    }
    e = gsl_linalg_LU_solve(&LU.matrix, &p, &B.vector, &X.vector);
    timed += core_wtime() - t0;
    reps++;
    if (e != 0) {
      rc = core_error(MINEX_EINTERNAL,
                      "%s: gsl_linalg_LU_solve failed "
                      "(GSL error %d)",
                      fn, e);
      goto done;
    }
  } while (timed < min_seconds || timed <= 0);

  double res = scaled_residual(a, x, b, n);
  if (!(res < 100)) {
    rc = core_error(MINEX_EINTERNAL,
                    "%s: scaled residual ||Ax-b|| / "
                    "(||A|| ||x|| n eps) = %g is not below 100",
                    fn, res);
    goto done;
  }
  double dn = n, flops = 2.0 / 3.0 * dn * dn * dn + 2.0 * dn * dn;
  *mflops = reps * flops / timed / 1e6;
done:
  gsl_rng_free(rng);
  free(a);
  free(lu);
  free(b);
  free(x);
  free(perm);
  return rc;
}
