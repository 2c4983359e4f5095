/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared helpers of the Check tests: random inputs, a brute-force evaluator
 * written straight from SPEC §2, and the suite runner. */
#ifndef MINEX_TEST_UTIL_H
#define MINEX_TEST_UTIL_H

#include "minex.h"

#include <check.h>
#include <gsl/gsl_rng.h>
#include <sys/types.h>

/* ck_assert reports its location through a pipe on every call; loops over
 * 1e5+ entries use this quiet form, which only talks on failure. */
#define QUIET_ASSERT(c)                                                        \
  do {                                                                         \
    if (!(c))                                                                  \
      ck_abort_msg("%s:%d: assertion '%s' failed", __FILE__, __LINE__, #c);    \
  } while (0)

/* Runs the suite (CK_NORMAL output) and returns the process exit code:
 * EXIT_SUCCESS when every test passed, TEST_EXIT_SKIP when some called
 * test_skip and none failed (ctest's SKIP_RETURN_CODE, set on every test
 * by tests/CMakeLists.txt, then reports the test as skipped, not passed),
 * else EXIT_FAILURE. */
int test_run_suite(Suite *suite);

/* A tcase of suite's heavier cases, tagged "slow": CI's valgrind stage
 * leaves it out (CK_EXCLUDE_TAGS=slow), scripts/test.sh --full runs it;
 * ctest runs it in every build. */
TCase *test_heavy_tcase(Suite *suite, double timeout);

/* Ends the running test as skipped, with the reason: for a condition of
 * the machine the test cannot control (a CPU busy with other load), never
 * for missing inputs. Check sees a failure with this message prefix;
 * test_run_suite turns it into TEST_EXIT_SKIP. */
#define TEST_EXIT_SKIP 77
#define TEST_SKIP_PREFIX "skipped: "
#define test_skip(...) ck_abort_msg(TEST_SKIP_PREFIX __VA_ARGS__)

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
                        double alpha, minex_remap_mode mode, minex_metrics *m,
                        double *qwgt /* P or NULL */);
/* The same under horizon k (SPEC §2): Qwgt with k * Wgt and k * Comm,
 * SteadyMax, MaxRemap and T_k = MaxRemap + k * SteadyMax. */
void test_brute_metrics_k(const minex_graph *g, const minex_config *cfg,
                          const int32_t *old, const int32_t *nw, double alpha,
                          minex_remap_mode mode, int32_t k, minex_metrics *m,
                          double *qwgt);

/* Path to data/<rel>, the repository's real meshes and graphs (one of 4
 * static buffers used in turn). A missing file fails the running test:
 * the data is part of the repository, so its absence is a defect, not a
 * reason to skip. */
const char *test_repo_data(const char *rel);

/* Path to tests/data/<name> (a static buffer, valid until the next call). */
const char *test_data_path(const char *name);
/* The first step of the 2-cluster simulation of tests/data
 * (sim_box988_c2_step1.graph, 3,456 roots) and its old partition into 8
 * (sim_box988_c2_initial.part); asserts that both read. */
void test_sim_box988_step1(minex_graph **g, int32_t **old);

/* Asserts that reading tests/data/<name> as a mesh fails with code rc, sets
 * the output to NULL, and leaves a message containing want. */
void test_expect_mesh_read_fails(const char *name, int rc, const char *want);

/* Asserts that every array of a equals b's bit for bit: the topology
 * (xadj, adjncy) and the three weights. */
void test_assert_graphs_equal(const minex_graph *a, const minex_graph *b);

/* Relative closeness: |a-b| <= tol * max(1, |a|, |b|). */
int test_close(double a, double b, double tol);

/* Copies what arrives through the FIFO at path into copy, in a child
 * process (exit status 0 when all was copied); returns its pid. */
pid_t test_fifo_reader(const char *path, const char *copy);

#endif
