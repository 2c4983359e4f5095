/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fuzz problem of fuzz_problem.h. */
#include "fuzz_problem.h"
#include "fuzz_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The machine as the bytes give it; made into a configuration once the
 * trailing bytes (fuzz_problem_make) have had their say. */
typedef struct machine_spec {
  int32_t nc, total;
  int32_t nprocs[MAX_CLUSTERS];
  double proc[MAX_CLUSTERS];
  double conn[MAX_CLUSTERS * MAX_CLUSTERS];
  unsigned drop;
} machine_spec;

static void read_machine(bytes *b, machine_spec *m) {
  int32_t nc = m->nc = (int32_t)(take(b) % MAX_CLUSTERS) + 1;
  m->total = 0;
  for (int32_t c = 0; c < nc; c++) {
    m->nprocs[c] = (int32_t)(take(b) % (MAX_PER_CLUSTER + 1));
    m->total += m->nprocs[c];
    m->proc[c] = 1.0 + (double)(take(b) % 16) * 0.5;
  }
  if (m->total == 0)
    m->nprocs[0] = m->total = 1;
  for (int32_t c = 0; c < nc; c++)
    for (int32_t d = c; d < nc; d++)
      m->conn[c * nc + d] = m->conn[d * nc + c] = 0.5 + (double)(take(b) % 20);
  m->drop = take16(b);
}

static minex_config *make_config(const machine_spec *m) {
  minex_config *cfg = NULL;
  FUZZ_REQUIRE(minex_config_create(m->nc, m->nprocs, m->proc, m->conn, &cfg) ==
               MINEX_OK);
  /* Half the inputs keep every processor; the others drop some. */
  if (m->drop & 1)
    for (int32_t p = 0; p < m->total; p++)
      if (m->drop >> (p % 15 + 1) & 1)
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
  opt->cluster_levels = (int)((rules >> 9 & 3) % 3);
}

/* The graph's weights times pscale (Pwgt) and rscale (Rwgt, Cwgt). */
static void scale_weights(minex_graph *g, double pscale, double rscale) {
  int32_t n = minex_graph_nvtxs(g);
  int64_t na = minex_graph_xadj(g)[n];
  double *pw = malloc(sizeof *pw * (size_t)(n + 1));
  double *rw = malloc(sizeof *rw * (size_t)(n + 1));
  double *cw = malloc(sizeof *cw * (size_t)(na + 1));
  FUZZ_REQUIRE(pw && rw && cw);
  for (int32_t v = 0; v < n; v++) {
    pw[v] = minex_graph_pwgt(g)[v] * pscale;
    rw[v] = minex_graph_rwgt(g)[v] * rscale;
  }
  for (int64_t j = 0; j < na; j++)
    cw[j] = minex_graph_cwgt(g)[j] * rscale;
  FUZZ_REQUIRE(minex_graph_set_weights(g, pw, rw, cw) == MINEX_OK);
  free(pw);
  free(rw);
  free(cw);
}

void fuzz_problem_make(const uint8_t *data, size_t size, fuzz_problem *p) {
  bytes b = {data, size};
  memset(p, 0, sizeof *p);
  p->n = (int32_t)(take(&b) % MAX_VTXS) + 1;
  machine_spec m;
  read_machine(&b, &m);
  make_options(&b, p->n, &p->opt);
  p->g = make_graph(&b, p->n);
  p->old = malloc(sizeof *p->old * (size_t)p->n);
  FUZZ_REQUIRE(p->old != NULL);
  for (int32_t v = 0; v < p->n; v++)
    p->old[v] = (int32_t)(take(&b) % (unsigned)m.total);

  /* Trailing bytes (0 past the end: the problem of the bytes before, so
     the inputs kept before these were added decode as they did). Weight
     scales: tiny (MinVar's squares underflow below ~1e-154) or huge; the
     largest load, 1e6 * 1e60 * 200 * Proc 1e12 * k 1e3 * Conn 1e6, stays
     far below MinVar's overflow limit (docs/reference/errors.md). */
  static const double scales[8] = {1,    1e-300, 1e-170,  1e-20,
                                   1e20, 1e60,   0x1p-60, 1e-5};
  double pscale = scales[take(&b) % 8], rscale = scales[take(&b) % 8];
  if (pscale != 1 || rscale != 1)
    scale_weights(p->g, pscale, rscale);
  unsigned x = take(&b); /* a cluster up to 1e12 times slower */
  if (x)
    m.proc[x % (unsigned)m.nc] *= pow(10.0, 1 + (x / 4) % 12);
  x = take(&b); /* a link up to 1e6 times slower */
  if (x) {
    int32_t c = (int32_t)(x % (unsigned)m.nc);
    int32_t d = (int32_t)(x / 4 % (unsigned)m.nc);
    m.conn[c * m.nc + d] = m.conn[d * m.nc + c] = pow(10.0, x / 16 % 7);
  }
  static const int32_t ks[] = {3, 7, 64, 100, 500};
  x = take(&b); /* more horizons */
  if (x)
    p->opt.iterations = ks[x % 5];
  x = take(&b);
  if (x)
    p->opt.refine_passes = (int32_t)(x % 9);
  x = take(&b); /* throttle_auto with candidates of the input's own */
  if (x & 1) {
    static double cands[3];
    for (int i = 0; i < 3; i++)
      cands[i] = throttles[take(&b) % 6];
    p->opt.throttle_auto = 1;
    p->opt.throttle_candidates = cands;
    p->opt.nthrottle_candidates = (int32_t)(x / 2 % 3) + 1;
  }
  p->cfg = make_config(&m);
  p->all_old_available = 1;
  for (int32_t v = 0; v < p->n; v++)
    p->all_old_available &= minex_config_is_available(p->cfg, p->old[v]) != 0;
}

void fuzz_problem_free(fuzz_problem *p) {
  free(p->old);
  minex_graph_destroy(p->g);
  minex_config_destroy(p->cfg);
  memset(p, 0, sizeof *p);
}

int fuzz_repartition_silent(const fuzz_problem *p, int32_t *new_part,
                            minex_metrics *m) {
  static FILE *sink; /* deleted when closed (tmpfile) */
  if (sink == NULL)
    sink = tmpfile();
  FUZZ_REQUIRE(sink != NULL);
  int fd = fileno(sink);
  FUZZ_REQUIRE(ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0);
  fflush(stdout);
  fflush(stderr);
  int out = dup(1), err = dup(2);
  FUZZ_REQUIRE(out >= 0 && err >= 0);
  FUZZ_REQUIRE(dup2(fd, 1) >= 0 && dup2(fd, 2) >= 0);
  int rc = minex_repartition(p->g, p->cfg, p->old, &p->opt, new_part, m);
  fflush(stdout);
  fflush(stderr);
  FUZZ_REQUIRE(dup2(out, 1) >= 0 && dup2(err, 2) >= 0);
  close(out);
  close(err);
  off_t printed = lseek(fd, 0, SEEK_END);
  if (printed != 0) {
    char head[256] = "";
    FUZZ_REQUIRE(lseek(fd, 0, SEEK_SET) == 0);
    ssize_t got = read(fd, head, sizeof head - 1);
    head[got > 0 ? got : 0] = '\0';
    fprintf(stderr, "the library printed %lld bytes: %s\n", (long long)printed,
            head);
  }
  FUZZ_REQUIRE(printed == 0);
  return rc;
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

void fuzz_problem_check(const fuzz_problem *pb) {
  int32_t n = pb->n, P = minex_config_nprocs(pb->cfg);
  const minex_graph *g = pb->g;
  const minex_config *cfg = pb->cfg;
  const int32_t *old = pb->old;
  const minex_options opt = pb->opt;
  int32_t *new1 = malloc(sizeof *new1 * (size_t)n);
  int32_t *new2 = malloc(sizeof *new2 * (size_t)n);
  FUZZ_REQUIRE(new1 && new2);

  minex_metrics m1, m2, fresh, before;
  int rc = fuzz_repartition_silent(pb, new1, &m1);
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
  if (pb->all_old_available) {
    FUZZ_REQUIRE(minex_evaluate(g, cfg, old, old, &opt, &before) == MINEX_OK);
    FUZZ_REQUIRE(m1.max_qwgt <= before.max_qwgt * (1 + 1e-9) + 1e-12);
  }
  /* Determinism: the same inputs and seed give the same partition. */
  FUZZ_REQUIRE(fuzz_repartition_silent(pb, new2, &m2) == MINEX_OK);
  FUZZ_REQUIRE(memcmp(new1, new2, sizeof *new1 * (size_t)n) == 0);
  FUZZ_REQUIRE(m1.max_qwgt == m2.max_qwgt && m1.moved == m2.moved);
done:
  free(new1);
  free(new2);
}
