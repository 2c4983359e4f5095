/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared helpers of the Check tests. */
#include "test_util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TCase *test_heavy_tcase(Suite *suite, double timeout) {
  TCase *tc = tcase_create("heavy");
  tcase_set_tags(tc, "slow");
  tcase_set_timeout(tc, timeout);
  suite_add_tcase(suite, tc);
  return tc;
}

int test_run_suite(Suite *suite) {
  SRunner *sr = srunner_create(suite);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr), skipped = 0;
  /* a skip is a failure whose message starts with TEST_SKIP_PREFIX (the
   * only outcome that crosses Check's fork); any other failure wins */
  TestResult **r = srunner_results(sr);
  for (int i = 0; r != NULL && i < srunner_ntests_run(sr); i++)
    if (tr_rtype(r[i]) == CK_FAILURE &&
        strncmp(tr_msg(r[i]), TEST_SKIP_PREFIX, strlen(TEST_SKIP_PREFIX)) == 0)
      skipped++;
  free(r);
  srunner_free(sr);
  if (failed > 0 && skipped == failed) {
    printf("%d test%s skipped (above), none failed: exit %d\n", skipped,
           skipped > 1 ? "s" : "", TEST_EXIT_SKIP);
    return TEST_EXIT_SKIP;
  }
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int test_close(double a, double b, double tol) {
  double s = fmax(1.0, fmax(fabs(a), fabs(b)));
  return fabs(a - b) <= tol * s;
}

typedef struct pair32 {
  int32_t a, b;
} pair32;

static int pair_cmp(const void *x, const void *y) {
  const pair32 *p = x, *q = y;
  if (p->a != q->a)
    return (p->a > q->a) - (p->a < q->a);
  return (p->b > q->b) - (p->b < q->b);
}

/* CSR from an undirected edge list with weights (duplicates removed). */
static minex_graph *graph_from_edges(int32_t n, pair32 *e, size_t ne,
                                     const double *pw, const double *rw,
                                     gsl_rng *rng, int integral) {
  qsort(e, ne, sizeof *e, pair_cmp);
  size_t m = 0;
  for (size_t i = 0; i < ne; i++)
    if (m == 0 || pair_cmp(&e[m - 1], &e[i]) != 0)
      e[m++] = e[i];
  int64_t *xadj = calloc((size_t)n + 1, sizeof *xadj);
  int32_t *adj = malloc(sizeof *adj * (2 * m + 1));
  double *cw = malloc(sizeof *cw * (2 * m + 1));
  double *ew = malloc(sizeof *ew * (m + 1));
  for (size_t i = 0; i < m; i++) {
    xadj[e[i].a + 1]++;
    xadj[e[i].b + 1]++;
    double u = rng ? 0.5 + 3.5 * gsl_rng_uniform(rng) : 1.0;
    ew[i] = integral ? floor(u) + 1 : u;
  }
  for (int32_t v = 0; v < n; v++)
    xadj[v + 1] += xadj[v];
  int64_t *pos = malloc(sizeof *pos * ((size_t)n + 1));
  memcpy(pos, xadj, sizeof *pos * ((size_t)n + 1));
  for (size_t i = 0; i < m; i++) {
    adj[pos[e[i].a]] = e[i].b;
    cw[pos[e[i].a]++] = ew[i];
    adj[pos[e[i].b]] = e[i].a;
    cw[pos[e[i].b]++] = ew[i];
  }
  minex_graph *g = NULL;
  int rc = minex_graph_create(n, xadj, adj, pw, rw, cw, &g);
  if (rc != MINEX_OK)
    fprintf(stderr, "graph_from_edges: %s\n", minex_last_error());
  free(xadj);
  free(adj);
  free(cw);
  free(ew);
  free(pos);
  return g;
}

minex_graph *test_random_graph(gsl_rng *rng, int32_t n, double avg_deg,
                               int integral) {
  size_t ne = (size_t)(avg_deg * n / 2) + 1;
  pair32 *e = malloc(sizeof *e * ne);
  size_t k = 0;
  /* a random path keeps most of the graph connected, the rest is random */
  for (int32_t v = 1; v < n && k < ne; v++)
    if (gsl_rng_uniform(rng) < 0.9) {
      int32_t w = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)v);
      e[k++] = (pair32){w, v};
    }
  while (k < ne && n > 1) {
    int32_t a = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)n);
    int32_t b = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)n);
    if (a == b)
      continue;
    e[k++] = a < b ? (pair32){a, b} : (pair32){b, a};
  }
  double *pw = malloc(sizeof *pw * ((size_t)n + 1));
  double *rw = malloc(sizeof *rw * ((size_t)n + 1));
  for (int32_t v = 0; v < n; v++) {
    double a = 0.5 + 3.5 * gsl_rng_uniform(rng);
    double b = 0.5 + 3.5 * gsl_rng_uniform(rng);
    pw[v] = integral ? floor(a) + 1 : a;
    rw[v] = integral ? floor(b) + 1 : b;
  }
  minex_graph *g = graph_from_edges(n, e, k, pw, rw, rng, integral);
  free(e);
  free(pw);
  free(rw);
  return g;
}

minex_graph *test_grid_graph(int32_t nx, int32_t ny, int32_t nz) {
  int32_t n = nx * ny * nz;
  pair32 *e = malloc(sizeof *e * (3 * (size_t)n + 1));
  size_t k = 0;
  for (int32_t z = 0; z < nz; z++)
    for (int32_t y = 0; y < ny; y++)
      for (int32_t x = 0; x < nx; x++) {
        int32_t v = x + nx * (y + ny * z);
        if (x + 1 < nx)
          e[k++] = (pair32){v, v + 1};
        if (y + 1 < ny)
          e[k++] = (pair32){v, v + nx};
        if (z + 1 < nz)
          e[k++] = (pair32){v, v + nx * ny};
      }
  minex_graph *g = graph_from_edges(n, e, k, NULL, NULL, NULL, 0);
  free(e);
  return g;
}

minex_config *test_random_config(gsl_rng *rng, int32_t maxc, int32_t maxp) {
  int32_t nc = 1 + (int32_t)gsl_rng_uniform_int(rng, (unsigned long)maxc);
  int32_t *np = malloc(sizeof *np * (size_t)nc);
  double *proc = malloc(sizeof *proc * (size_t)nc);
  double *conn = malloc(sizeof *conn * (size_t)(nc * nc));
  int32_t total = 0;
  for (int32_t c = 0; c < nc; c++) {
    np[c] = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)maxp + 1);
    total += np[c];
    proc[c] = 1.0 + 3.0 * gsl_rng_uniform(rng);
    for (int32_t d = 0; d <= c; d++)
      conn[c * nc + d] = conn[d * nc + c] = 1.0 + 9.0 * gsl_rng_uniform(rng);
  }
  if (total == 0)
    np[0] = 2;
  minex_config *cfg = NULL;
  minex_config_create(nc, np, proc, conn, &cfg);
  free(np);
  free(proc);
  free(conn);
  return cfg;
}

void test_random_part(gsl_rng *rng, const minex_config *cfg, int32_t n,
                      int32_t *part) {
  int32_t P = minex_config_nprocs(cfg);
  for (int32_t v = 0; v < n; v++) {
    int32_t p;
    do
      p = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P);
    while (!minex_config_is_available(cfg, p));
    part[v] = p;
  }
}

void test_brute_metrics(const minex_graph *g, const minex_config *cfg,
                        const int32_t *old, const int32_t *nw, double alpha,
                        minex_remap_mode mode, minex_metrics *m, double *qwgt) {
  test_brute_metrics_k(g, cfg, old, nw, alpha, mode, 1, m, qwgt);
}

void test_brute_metrics_k(const minex_graph *g, const minex_config *cfg,
                          const int32_t *old, const int32_t *nw, double alpha,
                          minex_remap_mode mode, int32_t k, minex_metrics *m,
                          double *qwgt) {
  int32_t n = minex_graph_nvtxs(g), P = minex_config_nprocs(cfg);
  const int64_t *xadj = minex_graph_xadj(g);
  const int32_t *adj = minex_graph_adjncy(g);
  const double *pw = minex_graph_pwgt(g), *rw = minex_graph_rwgt(g),
               *cw = minex_graph_cwgt(g);
  memset(m, 0, sizeof *m);
  m->max_qwgt = -INFINITY;
  m->min_qwgt = INFINITY;
  double *q = malloc(sizeof *q * (size_t)P);
  double sum_inv = 0, sum_p = 0;
  for (int32_t v = 0; v < n; v++)
    sum_p += pw[v];
  for (int32_t p = 0; p < P; p++) {
    int32_t cp = minex_config_cluster_of(cfg, p);
    double wgt = 0, comm = 0, remap = 0, vol = 0;
    for (int32_t v = 0; v < n; v++) {
      if (nw[v] == p) {
        wgt += pw[v] * minex_config_proc_slowdown(cfg, cp);
        for (int64_t j = xadj[v]; j < xadj[v + 1]; j++)
          if (nw[adj[j]] != p)
            comm += cw[j] *
                    minex_config_conn(cfg, cp,
                                      minex_config_cluster_of(cfg, nw[adj[j]]));
      }
      double r =
          rw[v] * minex_config_conn(cfg, minex_config_cluster_of(cfg, old[v]),
                                    minex_config_cluster_of(cfg, nw[v]));
      if (nw[v] == p && old[v] != p) {
        vol += rw[v];
        if (mode != MINEX_REMAP_SENDER)
          remap += r;
      }
      if (old[v] == p && nw[v] != p) {
        vol += rw[v];
        if (mode != MINEX_REMAP_RECEIVER)
          remap += r;
      }
    }
    /* SPEC §2 horizon: k * Wgt and k * Comm, Remap once */
    double x = k * comm + remap;
    q[p] = k * wgt + x - alpha * fmin(k * wgt, x);
    double steady = wgt + comm - alpha * fmin(wgt, comm);
    if (qwgt)
      qwgt[p] = q[p];
    if (!minex_config_is_available(cfg, p))
      continue;
    sum_inv += 1.0 / minex_config_proc_slowdown(cfg, cp);
    m->navailable++;
    m->qwgt_tot += q[p];
    m->max_qwgt = fmax(m->max_qwgt, q[p]);
    m->min_qwgt = fmin(m->min_qwgt, q[p]);
    m->max_wgt = fmax(m->max_wgt, wgt);
    m->max_comm = fmax(m->max_comm, comm);
    m->max_remap = fmax(m->max_remap, remap);
    m->steady_max = fmax(m->steady_max, steady);
    m->max_v = fmax(m->max_v, vol);
  }
  for (int32_t p = 0; p < P; p++)
    if (minex_config_is_available(cfg, p))
      m->min_var += (q[p] - m->min_qwgt) * (q[p] - m->min_qwgt);
  for (int32_t v = 0; v < n; v++) {
    if (nw[v] != old[v]) {
      m->moved++;
      m->total_v += rw[v];
    }
    if (!minex_config_is_available(cfg, nw[v]))
      m->stranded++;
    for (int64_t j = xadj[v]; j < xadj[v + 1]; j++)
      if (adj[j] > v && nw[adj[j]] != nw[v]) {
        m->cut_edges++;
        m->cut_weight += cw[j];
      }
  }
  m->load_imb = m->qwgt_tot > 0 ? m->navailable * m->max_qwgt / m->qwgt_tot : 0;
  m->lower_bound = sum_inv > 0 ? sum_p / sum_inv : 0;
  m->horizon_time = m->max_remap + (double)k * m->steady_max;
  free(q);
}

const char *test_repo_data(const char *rel) {
  static char buf[4][4096];
  static int slot;
  char *b = buf[slot++ % 4];
  snprintf(b, sizeof buf[0], "%s/%s", MINEX_REPO_DATA, rel);
  ck_assert_msg(access(b, R_OK) == 0,
                "%s: cannot read (%s): data/ of the "
                "repository is incomplete",
                b, strerror(errno));
  return b;
}

const char *test_data_path(const char *name) {
  static char buf[4096];
  snprintf(buf, sizeof buf, "%s/%s", MINEX_TEST_DATA, name);
  return buf;
}

void test_expect_mesh_read_fails(const char *name, int rc, const char *want) {
  minex_mesh *m = (minex_mesh *)1;
  int got = minex_mesh_read(test_data_path(name), &m);
  ck_assert_msg(got == rc, "%s: %s (%s)", name, minex_err_name(got),
                minex_last_error());
  ck_assert_ptr_null(m);
  ck_assert_msg(strstr(minex_last_error(), want) != NULL,
                "%s: message '%s' lacks '%s'", name, minex_last_error(), want);
}

pid_t test_fifo_reader(const char *path, const char *copy) {
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    FILE *in = fopen(path, "r"), *out = fopen(copy, "w");
    if (in == NULL || out == NULL)
      _exit(1);
    int c;
    while ((c = getc(in)) != EOF)
      putc(c, out);
    _exit(fclose(out) == 0 && fclose(in) == 0 ? 0 : 1);
  }
  return pid;
}

void test_sim_box988_step1(minex_graph **g, int32_t **old) {
  *g = NULL;
  *old = NULL;
  ck_assert_int_eq(
      minex_graph_read_metis(test_data_path("sim_box988_c2_step1.graph"), g),
      MINEX_OK);
  ck_assert_int_eq(minex_part_read(test_data_path("sim_box988_c2_initial.part"),
                                   minex_graph_nvtxs(*g), 8, old),
                   MINEX_OK);
}

void test_assert_graphs_equal(const minex_graph *a, const minex_graph *b) {
  int32_t n = minex_graph_nvtxs(a);
  ck_assert_int_eq(n, minex_graph_nvtxs(b));
  int64_t m = minex_graph_xadj(a)[n];
  ck_assert(memcmp(minex_graph_xadj(a), minex_graph_xadj(b),
                   sizeof(int64_t) * ((size_t)n + 1)) == 0);
  ck_assert(memcmp(minex_graph_adjncy(a), minex_graph_adjncy(b),
                   sizeof(int32_t) * (size_t)m) == 0);
  ck_assert(memcmp(minex_graph_cwgt(a), minex_graph_cwgt(b),
                   sizeof(double) * (size_t)m) == 0);
  ck_assert(memcmp(minex_graph_pwgt(a), minex_graph_pwgt(b),
                   sizeof(double) * (size_t)n) == 0);
  ck_assert(memcmp(minex_graph_rwgt(a), minex_graph_rwgt(b),
                   sizeof(double) * (size_t)n) == 0);
}
