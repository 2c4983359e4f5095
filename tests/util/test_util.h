/* Shared helpers of the Check tests: random inputs, a brute-force evaluator
 * written straight from SPEC §2, and the suite runner. */
#ifndef MINEX_TEST_UTIL_H
#define MINEX_TEST_UTIL_H

#include "minex.h"

#include <check.h>
#include <gsl/gsl_rng.h>

/* Runs the suite (CK_NORMAL output) and returns the process exit code. */
int test_run_suite(Suite *suite);

/* Random graph of n vertices with about avg_deg*n/2 undirected edges and
 * random weights in [0.5, 4) (integers when integral != 0). */
minex_graph *test_random_graph(gsl_rng *rng, int32_t n, double avg_deg,
                               int integral);
/* 3D grid graph nx*ny*nz (6-neighbour), unit weights. */
minex_graph *test_grid_graph(int32_t nx, int32_t ny, int32_t nz);
/* Random configuration: 1..maxc clusters, 0..maxp processors each (at least
 * one in all), Proc in [1,4), Conn symmetric in [1,10). */
minex_config *test_random_config(gsl_rng *rng, int32_t maxc, int32_t maxp);
/* Random partition over available processors of cfg. */
void test_random_part(gsl_rng *rng, const minex_config *cfg, int32_t n,
                      int32_t *part);

/* Brute-force per-processor loads and metrics, SPEC §2, from the public
 * accessors only, O(P * (V + E)): the reference the library is tested
 * against. */
void test_brute_metrics(const minex_graph *g, const minex_config *cfg,
                        const int32_t *old, const int32_t *new_part,
                        double alpha, minex_remap_mode mode,
                        minex_metrics *m, double *qwgt /* P or NULL */);

/* Path to ../shared/data/<rel>, or NULL when the shared data is absent
 * (tests then skip with a message). */
const char *test_shared_path(const char *rel);

/* Path to tests/data/<name> (a static buffer, valid until the next call). */
const char *test_data_path(const char *name);

/* Asserts that reading tests/data/<name> as a mesh fails with code rc, sets
 * the output to NULL, and leaves a message containing want. */
void test_expect_mesh_read_fails(const char *name, int rc, const char *want);

/* Relative closeness: |a-b| <= tol * max(1, |a|, |b|). */
int test_close(double a, double b, double tol);

#endif
