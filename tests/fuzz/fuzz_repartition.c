/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness of the API (SPEC §3): the bytes choose a small valid
 * problem, a graph of <= 200 vertices with symmetric edges and finite
 * weights in [0, 1e6], a configuration of <= 16 processors in <= 4
 * clusters with some unavailable, an old partition and the options (the
 * horizon, the refinement, the ladder, the from-scratch candidate and
 * paper_exact among them). It checks the guarantees of minex_repartition: every
 * vertex gets an available processor; MaxQwgt(new) <= MaxQwgt(old) when every
 * old owner is available; the same seed gives the same output; the metrics it
 * returns equal a fresh minex_evaluate of its output. */
#include "fuzz_util.h"

#include <minex.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VTXS 200
#define MAX_CLUSTERS 4
#define MAX_PER_CLUSTER 4 /* P <= 16 */

typedef struct bytes {
  const uint8_t *p; /* next byte                  */
  size_t left;      /* bytes left; 0 reads as 0   */
} bytes;

static unsigned take(bytes *b) {
  if (!b->left)
    return 0;
  b->left--;
  return *b->p++;
}

/* Two bytes, low first (two statements: the order of evaluation of the
 * operands of | is unspecified, and gcc and clang must agree). */
static unsigned take16(bytes *b) {
  unsigned lo = take(b);
  return lo | take(b) << 8;
}

/* A weight in [0, 1e6]: mostly small integers (where ties and exact
 * balance live), sometimes 0, sometimes large or fractional. */
static double take_weight(bytes *b) {
  unsigned k = take(b);
  if (k < 160)
    return (double)(k % 10);
  if (k < 224)
    return (double)(k - 150) * 0.37;
  return (double)take16(b) / 65535.0 * 1e6;
}

static const double throttles[] = {0.0, 0.25, 1.0, 4.0, 64.0, INFINITY};

/* A non-decreasing user Qwgt: processing plus the larger of the two. */
static double qwgt_max(double wgt, double comm, double remap, void *ctx) {
  (void)ctx;
  return wgt + (comm > remap ? comm : remap);
}

static int near(double a, double b) {
  double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  return fabs(a - b) <= 1e-9 * scale + 1e-12;
}

static void require_same_metrics(const minex_metrics *r,
                                 const minex_metrics *e) {
  FUZZ_REQUIRE(near(r->max_qwgt, e->max_qwgt));
  FUZZ_REQUIRE(near(r->min_qwgt, e->min_qwgt));
  FUZZ_REQUIRE(near(r->qwgt_tot, e->qwgt_tot));
  FUZZ_REQUIRE(near(r->load_imb, e->load_imb));
  FUZZ_REQUIRE(near(r->lower_bound, e->lower_bound));
  FUZZ_REQUIRE(near(r->max_wgt, e->max_wgt));
  FUZZ_REQUIRE(near(r->max_comm, e->max_comm));
  FUZZ_REQUIRE(near(r->max_remap, e->max_remap));
  FUZZ_REQUIRE(r->cut_edges == e->cut_edges);
  FUZZ_REQUIRE(near(r->cut_weight, e->cut_weight));
  FUZZ_REQUIRE(r->moved == e->moved);
  FUZZ_REQUIRE(near(r->total_v, e->total_v));
  FUZZ_REQUIRE(near(r->max_v, e->max_v));
  FUZZ_REQUIRE(r->stranded == e->stranded && r->stranded == 0);
  FUZZ_REQUIRE(r->navailable == e->navailable);
  /* MinVar is a sum of squares of differences: compare it on the scale of
   * the loads, since cancellation makes a relative test meaningless when
   * it is near 0. */
  double s = r->max_qwgt * r->max_qwgt * (double)(r->navailable + 1);
  FUZZ_REQUIRE(fabs(r->min_var - e->min_var) <= 1e-9 * s + 1e-12);
}

/* Builds the graph: n vertices, edges chosen pairwise from the bytes, each
 * undirected edge stored in both directions with one Cwgt. */
static minex_graph *make_graph(bytes *b, int32_t n) {
  static uint8_t adj[MAX_VTXS][MAX_VTXS];
  static double cw[MAX_VTXS][MAX_VTXS];
  memset(adj, 0, sizeof adj);
  unsigned nedges = take16(b) % (unsigned)(4 * n + 1);
  for (unsigned e = 0; e < nedges; e++) {
    int32_t u = (int32_t)(take(b) % (unsigned)n);
    int32_t v = (int32_t)(take(b) % (unsigned)n);
    if (u == v || adj[u][v])
      continue;
    adj[u][v] = adj[v][u] = 1;
    cw[u][v] = cw[v][u] = take_weight(b);
  }
  int64_t *xadj = malloc(sizeof *xadj * (size_t)(n + 1));
  int32_t *adjncy = malloc(sizeof *adjncy * (size_t)(n * n + 1));
  double *cwgt = malloc(sizeof *cwgt * (size_t)(n * n + 1));
  double *pwgt = malloc(sizeof *pwgt * (size_t)n);
  double *rwgt = malloc(sizeof *rwgt * (size_t)n);
  FUZZ_REQUIRE(xadj && adjncy && cwgt && pwgt && rwgt);
  xadj[0] = 0;
  for (int32_t u = 0; u < n; u++) {
    xadj[u + 1] = xadj[u];
    for (int32_t v = 0; v < n; v++)
      if (adj[u][v]) {
        adjncy[xadj[u + 1]] = v;
        cwgt[xadj[u + 1]++] = cw[u][v];
      }
  }
  for (int32_t v = 0; v < n; v++) {
    pwgt[v] = take_weight(b);
    rwgt[v] = take_weight(b);
  }
  minex_graph *g = NULL;
  FUZZ_REQUIRE(minex_graph_create(n, xadj, adjncy, pwgt, rwgt, cwgt, &g) ==
               MINEX_OK);
  free(xadj);
  free(adjncy);
  free(cwgt);
  free(pwgt);
  free(rwgt);
  return g;
}

static minex_config *make_config(bytes *b) {
  int32_t nc = (int32_t)(take(b) % MAX_CLUSTERS) + 1;
  int32_t nprocs[MAX_CLUSTERS];
  double proc[MAX_CLUSTERS];
  double conn[MAX_CLUSTERS * MAX_CLUSTERS];
  int32_t total = 0;
  for (int32_t c = 0; c < nc; c++) {
    nprocs[c] = (int32_t)(take(b) % (MAX_PER_CLUSTER + 1));
    total += nprocs[c];
    proc[c] = 1.0 + (double)(take(b) % 16) * 0.5;
  }
  if (total == 0)
    nprocs[0] = total = 1;
  for (int32_t c = 0; c < nc; c++)
    for (int32_t d = c; d < nc; d++)
      conn[c * nc + d] = conn[d * nc + c] = 0.5 + (double)(take(b) % 20);
  minex_config *cfg = NULL;
  FUZZ_REQUIRE(minex_config_create(nc, nprocs, proc, conn, &cfg) == MINEX_OK);
  /* Half the inputs keep every processor; the others drop some. */
  unsigned drop = take16(b);
  if (drop & 1)
    for (int32_t p = 0; p < total; p++)
      if (drop >> (p % 15 + 1) & 1)
        FUZZ_REQUIRE(minex_config_set_available(cfg, p, 0) == MINEX_OK);
  return cfg;
}

static void make_options(bytes *b, int32_t n, minex_options *opt) {
  minex_options_init(opt);
  opt->throttle = throttles[take(b) % 6];
  opt->alpha = (double)(take(b) % 5) / 4.0;
  opt->remap_mode = (minex_remap_mode)(take(b) % 3);
  opt->coarse_per_proc = (int32_t)(take(b) % 64) + 1;
  opt->coarse_target = take(b) % 2 ? (int32_t)(take(b) % (unsigned)n) : 0;
  opt->sample_size = (int32_t)(take(b) % 8) + 1;
  uint64_t seed_hi = take16(b);
  opt->seed = seed_hi << 16 | take16(b);
  opt->global_candidates = (int)(take(b) % 2);
  opt->max_passes = (int32_t)(take(b) % 9);
  unsigned flags = take(b);
  opt->throttle_auto = (int)(flags & 1);
  if (flags & 2)
    opt->qwgt_fn = qwgt_max;
  /* the horizon and the rules beyond the paper (SPEC §2, §3): each mode
     OFF, ON or AUTO, and paper_exact */
  static const int32_t ks[] = {1, 2, 10, 1000};
  unsigned rules = take16(b);
  opt->iterations = ks[rules & 3];
  opt->refine = (int)((rules >> 2 & 3) % 3);
  opt->scratch = (int)((rules >> 4 & 3) % 3);
  opt->ladder = (int)((rules >> 6 & 3) % 3);
  opt->paper_exact = (int)(rules >> 8 & 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bytes b = {data, size};
  int32_t n = (int32_t)(take(&b) % MAX_VTXS) + 1;
  minex_config *cfg = make_config(&b);
  minex_options opt;
  make_options(&b, n, &opt);
  minex_graph *g = make_graph(&b, n);
  int32_t P = minex_config_nprocs(cfg);
  int32_t *old = malloc(sizeof *old * (size_t)n);
  int32_t *new1 = malloc(sizeof *new1 * (size_t)n);
  int32_t *new2 = malloc(sizeof *new2 * (size_t)n);
  FUZZ_REQUIRE(old && new1 && new2);
  int all_old_available = 1;
  for (int32_t v = 0; v < n; v++) {
    old[v] = (int32_t)(take(&b) % (unsigned)P);
    all_old_available &= minex_config_is_available(cfg, old[v]) != 0;
  }

  minex_metrics m1, m2, fresh, before;
  int rc = minex_repartition(g, cfg, old, &opt, new1, &m1);
  if (minex_config_navailable(cfg) == 0) {
    FUZZ_REQUIRE(rc == MINEX_ENOPROC);
    goto done;
  }
  FUZZ_REQUIRE(rc == MINEX_OK);
  for (int32_t v = 0; v < n; v++)
    FUZZ_REQUIRE(new1[v] >= 0 && new1[v] < P &&
                 minex_config_is_available(cfg, new1[v]));
  FUZZ_REQUIRE(minex_evaluate(g, cfg, old, new1, &opt, &fresh) == MINEX_OK);
  require_same_metrics(&m1, &fresh);
  if (all_old_available) {
    FUZZ_REQUIRE(minex_evaluate(g, cfg, old, old, &opt, &before) == MINEX_OK);
    FUZZ_REQUIRE(m1.max_qwgt <= before.max_qwgt * (1 + 1e-9) + 1e-12);
  }
  /* Determinism: the same inputs and seed give the same partition. */
  FUZZ_REQUIRE(minex_repartition(g, cfg, old, &opt, new2, &m2) == MINEX_OK);
  FUZZ_REQUIRE(memcmp(new1, new2, sizeof *new1 * (size_t)n) == 0);
  FUZZ_REQUIRE(m1.max_qwgt == m2.max_qwgt && m1.moved == m2.moved);
done:
  free(old);
  free(new1);
  free(new2);
  minex_graph_destroy(g);
  minex_config_destroy(cfg);
  return 0;
}
