/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The MPI layer under mpiexec -n 1, 2, 3, 4 (ctest test_mpi_nN):
 * minex_mpi_repartition on a graph spread over the ranks equals
 * minex_repartition on the whole graph (every rank computes that
 * reference itself) for several distributions (even, a rank without
 * vertices, global ids above 2^31, rows in another order) and option sets;
 * collective errors (every rank the same code and message, naming the
 * rank at fault; outputs untouched); the ParMETIS-shaped entry points
 * against minex_mpi_repartition with the configuration they document;
 * small random problems against the serial call, every metric compared.
 * A plain MPI program: prints each failure with its rank and line and
 * exits non-zero on every rank when any rank failed. */
#include "minex_mpi.h"
#include "minex_parmetis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"
#include "mpi_fixture.h"

/* This rank's rows of g as minex_mpi_repartition takes them; rows of odd
 * vertices reversed when shuffle is set (the layer must not depend on the
 * order within a row). */
typedef struct local {
  int64_t vd[65], nloc, *xadj, *adj;
  double *pw, *rw, *cw;
} local;

static void local_make(local *l, const minex_graph *g, int empty1, int64_t base,
                       int shuffle) {
  memset(l, 0, sizeof *l);
  int32_t n = minex_graph_nvtxs(g);
  make_vtxdist(l->vd, n, empty1, base);
  int64_t first = l->vd[rank] - base;
  l->nloc = l->vd[rank + 1] - l->vd[rank];
  const int64_t *X = minex_graph_xadj(g);
  const int32_t *A = minex_graph_adjncy(g);
  const double *C = minex_graph_cwgt(g);
  int64_t nnz = l->nloc > 0 ? X[first + l->nloc] - X[first] : 0;
  l->xadj = malloc(sizeof(int64_t) * (size_t)(l->nloc + 1));
  l->adj = malloc(sizeof(int64_t) * (size_t)(nnz + 1));
  l->cw = malloc(sizeof(double) * (size_t)(nnz + 1));
  l->pw = malloc(sizeof(double) * (size_t)(l->nloc + 1));
  l->rw = malloc(sizeof(double) * (size_t)(l->nloc + 1));
  l->xadj[0] = 0;
  for (int64_t v = 0; v < l->nloc; v++) {
    int64_t s = X[first + v], e = X[first + v + 1], o = l->xadj[v];
    for (int64_t j = s; j < e; j++) {
      int64_t k = shuffle && (v & 1) ? e - 1 - (j - s) : j;
      l->adj[o + j - s] = base + A[k];
      l->cw[o + j - s] = C[k];
    }
    l->xadj[v + 1] = o + e - s;
    l->pw[v] = minex_graph_pwgt(g)[first + v];
    l->rw[v] = minex_graph_rwgt(g)[first + v];
  }
}

static void local_free(local *l) {
  free(l->xadj);
  free(l->adj);
  free(l->pw);
  free(l->rw);
  free(l->cw);
}

/* 2 clusters of P/2 processors, Proc 1 and 2, Conn 1 inside, 10 between. */
static minex_config *hetero(int32_t P) {
  int32_t np[2] = {P / 2, P - P / 2};
  double proc[2] = {1, 2}, conn[4] = {1, 10, 10, 1};
  minex_config *cfg = NULL;
  if (minex_config_create(2, np, proc, conn, &cfg) != MINEX_OK)
    MPI_Abort(MPI_COMM_WORLD, 2);
  return cfg;
}

/* The same string on every rank. */
static int same_everywhere(const char *s) {
  unsigned long h = 5381;
  for (const char *p = s; *p; p++)
    h = h * 33 + (unsigned char)*p;
  unsigned long lo, hi;
  MPI_Allreduce(&h, &lo, 1, MPI_UNSIGNED_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&h, &hi, 1, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

static int metrics_equal(const minex_metrics *a, const minex_metrics *b) {
  return a->max_qwgt == b->max_qwgt && a->horizon_time == b->horizon_time &&
         a->qwgt_tot == b->qwgt_tot && a->moved == b->moved &&
         a->cut_edges == b->cut_edges && a->cut_weight == b->cut_weight &&
         a->coarse_nvtxs == b->coarse_nvtxs && a->candidates == b->candidates &&
         a->returned_old == b->returned_old;
}

static int close_to(double a, double b) {
  return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* Stage 2 (options.rounds ON or AUTO, docs/design/distributed.md): the counts
 * equal, the sums of doubles up to rounding (added per old part, not in input
 * order). */
static int metrics_close(const minex_metrics *a, const minex_metrics *b) {
  return close_to(a->max_qwgt, b->max_qwgt) &&
         close_to(a->horizon_time, b->horizon_time) &&
         close_to(a->qwgt_tot, b->qwgt_tot) &&
         close_to(a->steady_max, b->steady_max) &&
         close_to(a->max_remap, b->max_remap) &&
         close_to(a->total_v, b->total_v) && close_to(a->max_v, b->max_v) &&
         close_to(a->lower_bound, b->lower_bound) && a->moved == b->moved &&
         a->cut_edges == b->cut_edges &&
         close_to(a->cut_weight, b->cut_weight) &&
         a->coarse_nvtxs == b->coarse_nvtxs && a->candidates == b->candidates &&
         a->returned_old == b->returned_old &&
         a->horizon_used == b->horizon_used && a->stranded == b->stranded &&
         a->scratch_used == b->scratch_used &&
         a->start_nvtxs == b->start_nvtxs &&
         a->coarse_moves == b->coarse_moves &&
         a->expand_moves == b->expand_moves;
}

/* One distributed repartition against the serial one (stage 2 when the
 * options ask for it: run_distributed_applies). */
/* quick_mode (mpi_fixture.h): check_same runs every
 * QUICK_EVERY-th of its cases, spread over the option sets. */
#define QUICK_EVERY 6
static int quick, quick_calls;

static void check_same(const char *what, const fixture *f,
                       const minex_config *cfg, const int32_t *old_all,
                       const minex_options *opt, int empty1, int64_t base,
                       int shuffle) {
  if (quick && quick_calls++ % QUICK_EVERY != 0)
    return;
  int32_t n = f->n;
  int32_t *ref = malloc(sizeof *ref * (size_t)(n > 0 ? n : 1));
  int32_t *own = malloc(sizeof *own * (size_t)(n > 0 ? n : 1));
  local l;
  local_make(&l, f->g, empty1, base, shuffle);
  if (old_all == NULL) /* each vertex on its rank */
    for (int r = 0; r < size; r++)
      for (int64_t v = l.vd[r] - base; v < l.vd[r + 1] - base; v++)
        own[v] = r;
  const int32_t *old = old_all ? old_all : own;
  /* stage 2 under rounds ON or AUTO (AUTO then means ON:
     docs/design/distributed.md), unless paper_exact */
  int want2 = !opt->paper_exact && opt->rounds != MINEX_ROUNDS_OFF;
  minex_options so = *opt; /* the serial call's options */
  if (want2)
    so.rounds = MINEX_ROUNDS_ON;
  minex_metrics mref, mdist;
  int rc = minex_repartition(f->g, cfg, old, &so, ref, &mref);
  CHECK(rc == MINEX_OK, "%s: serial: %s", what, minex_last_error());
  int64_t first = l.vd[rank] - base;
  int32_t *newp = malloc(sizeof *newp * (size_t)(l.nloc + 1));
  rc = minex_mpi_repartition(l.vd, l.xadj, l.adj, l.pw, l.rw, l.cw,
                             old_all ? old_all + first : NULL, cfg, opt, newp,
                             &mdist, MPI_COMM_WORLD);
  CHECK(rc == MINEX_OK, "%s: distributed: %s", what, minex_last_error());
  if (rc == MINEX_OK) {
    int64_t diff = 0;
    for (int64_t v = 0; v < l.nloc; v++)
      diff += newp[v] != ref[first + v];
    CHECK(diff == 0, "%s: %lld of %lld owners differ from the serial result",
          what, (long long)diff, (long long)l.nloc);
    minex_mpi_stats st;
    minex_mpi_last_stats(&st);
    CHECK(st.ranks == size, "%s: stats.ranks %d", what, (int)st.ranks);
    char fig[256];
    snprintf(fig, sizeof fig, "%a %a %a %a %lld %lld", mdist.max_qwgt,
             mdist.horizon_time, mdist.qwgt_tot, mdist.cut_weight,
             (long long)mdist.moved, (long long)mdist.expand_moves);
    CHECK(same_everywhere(fig), "%s: metrics differ between ranks (%s)", what,
          fig);
    CHECK((st.solver < 0) == want2, "%s: stage %d ran", what,
          st.solver < 0 ? 2 : 1);
    if (st.solver < 0) { /* stage 2 */
      CHECK(metrics_close(&mref, &mdist),
            "%s: metrics not those of the serial call (MaxQwgt %.17g vs "
            "%.17g, T_k %.17g vs %.17g, moves %lld+%lld vs %lld+%lld)",
            what, mref.max_qwgt, mdist.max_qwgt, mref.horizon_time,
            mdist.horizon_time, (long long)mref.coarse_moves,
            (long long)mref.expand_moves, (long long)mdist.coarse_moves,
            (long long)mdist.expand_moves);
      /* the busiest receiver: one of the ranks, with no more than every
         rank sent, nothing on one rank; the same figure everywhere */
      CHECK(st.recv_max_rank >= 0 && st.recv_max_rank < size &&
                st.recv_bytes_max >= 0 &&
                st.recv_bytes_max <= st.gather_bytes &&
                (size > 1 || st.recv_bytes_max == 0),
            "%s: busiest receiver rank %d with %lld bytes of %lld", what,
            (int)st.recv_max_rank, (long long)st.recv_bytes_max,
            (long long)st.gather_bytes);
      snprintf(fig, sizeof fig, "%lld %d", (long long)st.recv_bytes_max,
               (int)st.recv_max_rank);
      CHECK(same_everywhere(fig), "%s: busiest receiver differs (%s)", what,
            fig);
    } else {
      CHECK(metrics_equal(&mref, &mdist),
            "%s: metrics differ (MaxQwgt %.17g vs %.17g, T_k %.17g vs %.17g)",
            what, mref.max_qwgt, mdist.max_qwgt, mref.horizon_time,
            mdist.horizon_time);
      CHECK(mdist.max_qwgt == mref.max_qwgt, "%s: MaxQwgt", what);
      /* rows move to the solver (rank 0) from every other rank with some */
      int64_t others = l.vd[size] - l.vd[1];
      CHECK((st.gather_bytes > 0) == (others > 0),
            "%s: %lld bytes gathered, %lld vertices off rank 0", what,
            (long long)st.gather_bytes, (long long)others);
    }
  }
  free(ref);
  free(own);
  free(newp);
  local_free(&l);
}

/* An error made on one rank: every rank returns want, the same message,
 * which contains each of the needles; outputs untouched. */
static void check_error(const char *what, int rc, int want, const int32_t *newp,
                        int64_t nloc, const minex_metrics *m,
                        const char *needle1, const char *needle2) {
  const char *msg = minex_last_error();
  CHECK(rc == want, "%s: rc %d (%s), want %d", what, rc, msg, want);
  CHECK(same_everywhere(msg), "%s: messages differ between ranks: %s", what,
        msg);
  CHECK(strstr(msg, needle1) != NULL, "%s: '%s' lacks '%s'", what, msg,
        needle1);
  CHECK(needle2 == NULL || strstr(msg, needle2) != NULL, "%s: '%s' lacks '%s'",
        what, msg, needle2);
  for (int64_t v = 0; v < nloc; v++)
    if (newp[v] != -7) {
      CHECK(0, "%s: new_part[%lld] written on error", what, (long long)v);
      break;
    }
  CHECK(m->max_qwgt == -7, "%s: metrics written on error", what);
}

static void test_errors(const fixture *f, const minex_config *cfg,
                        const int32_t *old_all) {
  local l;
  local_make(&l, f->g, 0, 0, 0);
  int64_t first = l.vd[rank];
  int32_t *newp = malloc(sizeof *newp * (size_t)(l.nloc + 1));
  int32_t *old = malloc(sizeof *old * (size_t)(l.nloc + 1));
  memcpy(old, old_all + first, sizeof *old * (size_t)l.nloc);
  minex_metrics m;
  char want[64];
  int last = size - 1, rc;
#define RESET()                                                                \
  do {                                                                         \
    for (int64_t v = 0; v < l.nloc; v++)                                       \
      newp[v] = -7;                                                            \
    m.max_qwgt = -7;                                                           \
  } while (0)
#define CALL(vd, adj, pw, cw, o, c)                                            \
  minex_mpi_repartition(vd, l.xadj, adj, pw, l.rw, cw, o, c, NULL, newp, &m,   \
                        MPI_COMM_WORLD)

  /* a neighbour id out of range on the last rank */
  RESET();
  int64_t keep = l.adj[0];
  if (rank == last)
    l.adj[0] = 5000000000LL;
  rc = CALL(l.vd, l.adj, l.pw, l.cw, old, cfg);
  l.adj[0] = keep;
  snprintf(want, sizeof want, "rank %d: adjncy[0] = 5000000000", last);
  check_error("adjncy out of range", rc, MINEX_EGRAPH, newp, l.nloc, &m, want,
              NULL);

  /* an owner out of range on rank 0 */
  RESET();
  int32_t keep_old = old[3];
  if (rank == 0)
    old[3] = 99;
  rc = CALL(l.vd, l.adj, l.pw, l.cw, old, cfg);
  old[3] = keep_old;
  check_error("old out of range", rc, MINEX_EPART, newp, l.nloc, &m,
              "rank 0: old[3] = 99", NULL);

  /* a cut edge whose Cwgt differs on the two ranks */
  if (size > 1) {
    int64_t j = -1;
    for (int64_t k = 0; rank == last && k < l.xadj[l.nloc] && j < 0; k++)
      if (l.adj[k] < l.vd[rank])
        j = k;
    RESET();
    double kc = j >= 0 ? l.cw[j] : 0;
    if (j >= 0)
      l.cw[j] += 0.5;
    rc = CALL(l.vd, l.adj, l.pw, l.cw, old, cfg);
    if (j >= 0)
      l.cw[j] = kc;
    snprintf(want, sizeof want, "on rank %d", last);
    check_error("asymmetric cwgt across ranks", rc, MINEX_EGRAPH, newp, l.nloc,
                &m, "cwgt", want);
  }

  /* a vertex that lists a neighbour which does not list it back */
  RESET();
  keep = l.adj[1];
  if (rank == 0)
    l.adj[1] = l.adj[0]; /* a duplicate, and edge to adj[1] lost */
  rc = CALL(l.vd, l.adj, l.pw, l.cw, old, cfg);
  l.adj[1] = keep;
  check_error("duplicate neighbour", rc, MINEX_EGRAPH, newp, l.nloc, &m,
              "rank 0: vertex 0 lists neighbour", "twice");

  /* vtxdist not the same everywhere */
  if (size > 1) {
    RESET();
    int64_t vd2[65];
    memcpy(vd2, l.vd, sizeof vd2);
    if (rank == last)
      vd2[size] += 1;
    rc = CALL(vd2, l.adj, l.pw, l.cw, old, cfg);
    check_error("vtxdist differs", rc, MINEX_EINVAL, newp, l.nloc, &m,
                "vtxdist[", "differs between the ranks");
  }

  /* another machine on one rank */
  RESET();
  minex_config *other = hetero(6);
  rc = CALL(l.vd, l.adj, l.pw, l.cw, old, rank == last ? other : cfg);
  snprintf(want, sizeof want, "rank %d: config differs", last);
  if (size > 1)
    check_error("config differs", rc, MINEX_EINVAL, newp, l.nloc, &m, want,
                NULL);
  minex_config_destroy(other);

  /* pwgt given on some ranks only */
  if (size > 1) {
    RESET();
    rc = CALL(l.vd, l.adj, rank == last ? NULL : l.pw, l.cw, old, cfg);
    snprintf(want, sizeof want, "rank %d: pwgt is NULL", last);
    check_error("pwgt on some ranks", rc, MINEX_EINVAL, newp, l.nloc, &m, want,
                NULL);
  }
#undef CALL
#undef RESET
  free(newp);
  free(old);
  local_free(&l);
}

/* options.log_fn: called on rank 0 only, with the layer's figures line
 * and the library's log. */
static void count_log(const char *msg, void *ctx) {
  int *c = ctx;
  c[0]++;
  if (strncmp(msg, "mpi: ", 5) == 0 &&
      strstr(msg, c[2] ? "gather to rank 0" : "stage 2 (the kernel"))
    c[1]++;
  if (strncmp(msg, "stage 2 on ", 11) == 0 && strstr(msg, "messages"))
    c[3]++;
}

static void test_log(const fixture *f, const minex_config *cfg,
                     const int32_t *old_all, int stage1) {
  local l;
  local_make(&l, f->g, 0, 0, 0);
  int32_t *newp = malloc(sizeof *newp * (size_t)(l.nloc + 1));
  /* lines, figures lines, stage 1 asked, stage 2's phase lines */
  int counts[4] = {0, 0, stage1, 0};
  minex_options o;
  minex_options_init(&o);
  if (stage1)
    o.rounds = MINEX_ROUNDS_OFF;
  o.log_fn = count_log;
  o.log_ctx = counts;
  int rc = minex_mpi_repartition(l.vd, l.xadj, l.adj, l.pw, l.rw, l.cw,
                                 old_all + l.vd[rank], cfg, &o, newp, NULL,
                                 MPI_COMM_WORLD);
  CHECK(rc == MINEX_OK, "log: %s", minex_last_error());
  if (rank == 0)
    CHECK(counts[0] > 1 && counts[1] == 1 && counts[3] == !stage1,
          "log on rank 0 (stage %d): %d lines, %d figures lines, %d phase "
          "lines",
          stage1 ? 1 : 2, counts[0], counts[1], counts[3]);
  else
    CHECK(counts[0] == 0, "log called on rank %d (%d lines)", rank, counts[0]);
  free(newp);
  local_free(&l);
}

/* Random small problems against the serial call, every field of the
 * metrics compared: a ring with random chords (6-48 vertices), weights
 * with fractions (so that sums round), 1-3 clusters of 1-4 processors,
 * unavailable processors, old random or in blocks (RC_KEEP: every
 * processor available and Rwgt x 100, so that the old partition is often
 * kept; RC_NONE: every processor unavailable). The generator is a
 * fixed xorshift: a seed names the same problem on every rank and run. */
typedef enum { RC_MIX, RC_SENDER, RC_K100, RC_KEEP, RC_NONE } rc_mode;

static uint64_t rc_state;

static uint64_t rc_next(void) {
  rc_state ^= rc_state << 13;
  rc_state ^= rc_state >> 7;
  rc_state ^= rc_state << 17;
  return rc_state;
}

static int rc_int(int lo, int hi) {
  return lo + (int)(rc_next() % (uint64_t)(hi - lo + 1));
}

typedef struct rc_problem {
  minex_graph *g;
  minex_config *cfg;
  int32_t *old;
  minex_options opt;
} rc_problem;

static void rc_make(rc_problem *pb, int seed, rc_mode mode) {
  rc_state = 0x9E3779B97F4A7C15ULL * (uint64_t)(seed + 1);
  rc_next();
  rc_next();
  int n = rc_int(6, 48);
  char *adj = calloc((size_t)n * (size_t)n, 1);
  double *w = calloc((size_t)n * (size_t)n, sizeof *w);
  for (int v = 0; v < n; v++)
    adj[v * n + (v + 1) % n] = adj[((v + 1) % n) * n + v] = 1;
  int extra = rc_int(0, 2 * n);
  for (int i = 0; i < extra; i++) {
    int a = rc_int(0, n - 1), b = rc_int(0, n - 1);
    if (a != b)
      adj[a * n + b] = adj[b * n + a] = 1;
  }
  for (int a = 0; a < n; a++)
    for (int b = a + 1; b < n; b++)
      if (adj[a * n + b])
        w[a * n + b] = w[b * n + a] =
            rc_int(1, 9) * (rc_next() % 4 == 0 ? 0.37 : 1);
  int64_t *xadj = malloc(sizeof *xadj * (size_t)(n + 1));
  int32_t *nbr = malloc(sizeof *nbr * (size_t)n * (size_t)n);
  double *cw = malloc(sizeof *cw * (size_t)n * (size_t)n);
  double *pw = malloc(sizeof *pw * (size_t)n), *rw = malloc(sizeof *rw * n);
  int64_t e = 0;
  xadj[0] = 0;
  for (int a = 0; a < n; a++) {
    for (int b = 0; b < n; b++)
      if (adj[a * n + b]) {
        nbr[e] = b;
        cw[e++] = w[a * n + b];
      }
    xadj[a + 1] = e;
    pw[a] = rc_int(0, 9) * (rc_next() % 3 == 0 ? 0.1 : 1);
    rw[a] = rc_int(0, 9) * (rc_next() % 3 == 0 ? 0.3 : 1);
  }
  int nc = rc_int(1, 3);
  int32_t np[3];
  double proc[3], conn[9];
  for (int c = 0; c < nc; c++) {
    np[c] = rc_int(1, 4);
    proc[c] = rc_int(1, 3);
  }
  for (int c = 0; c < nc; c++)
    for (int d = c; d < nc; d++)
      conn[c * nc + d] = conn[d * nc + c] = c == d ? 1 : rc_int(1, 10);
  if (minex_config_create(nc, np, proc, conn, &pb->cfg) != MINEX_OK)
    MPI_Abort(MPI_COMM_WORLD, 2);
  int32_t P = minex_config_nprocs(pb->cfg);
  for (int32_t p = 0; p < P && mode != RC_KEEP; p++)
    if (rc_next() % 4 == 0)
      minex_config_set_available(pb->cfg, p, 0);
  for (int32_t p = 0; p < P && mode == RC_NONE; p++)
    minex_config_set_available(pb->cfg, p, 0);
  if (minex_config_navailable(pb->cfg) == 0 && mode != RC_NONE)
    minex_config_set_available(pb->cfg, 0, 1);
  pb->old = malloc(sizeof *pb->old * (size_t)n);
  int blocks = rc_next() % 2;
  for (int v = 0; v < n; v++)
    pb->old[v] = blocks ? (int32_t)((int64_t)v * P / n) : rc_int(0, P - 1);
  minex_options *o = &pb->opt;
  minex_options_init(o);
  o->seed = rc_next() % 100;
  if (mode == RC_SENDER) {
    o->remap_mode = MINEX_REMAP_SENDER;
  } else if (mode == RC_K100) {
    o->iterations = 100;
    o->throttle_auto = 1;
  } else if (mode == RC_NONE) {
    o->iterations = seed % 2 ? 10 : 1; /* 10: the from-scratch too */
  } else if (mode == RC_KEEP) {
    for (int v = 0; v < n; v++)
      rw[v] *= 100;
    o->iterations = rc_int(0, 1) ? 1 : 10;
  } else {
    static const int32_t ks[4] = {1, 2, 10, 100};
    o->remap_mode = (minex_remap_mode)rc_int(0, 2);
    o->iterations = ks[rc_int(0, 3)];
    o->throttle_auto = rc_next() % 2;
    o->alpha = rc_int(0, 2) * 0.5;
  }
  if (minex_graph_create(n, xadj, nbr, pw, rw, cw, &pb->g) != MINEX_OK)
    MPI_Abort(MPI_COMM_WORLD, 2);
  free(adj), free(w), free(xadj), free(nbr), free(cw), free(pw), free(rw);
}

static void rc_free(rc_problem *pb) {
  minex_graph_destroy(pb->g);
  minex_config_destroy(pb->cfg);
  free(pb->old);
}

/* a and b equal up to rounding: relative, or absolute against scale (a
 * load that is 0 one way and 1e-15 the other) */
static int near(double a, double b, double scale) {
  return a == b || fabs(a - b) <= 1e-9 * fmax(fmax(fabs(a), fabs(b)), scale);
}

/* Every field minex_repartition sets, against the distributed call's:
 * the evaluated figures up to rounding and finite, the counts and the
 * choices equal, the times set where the serial call sets them. */
static void metrics_full(const char *what, const minex_metrics *s,
                         const minex_metrics *d) {
  double q = fmax(s->max_qwgt, d->max_qwgt);
  const struct {
    const char *name;
    double a, b, scale;
  } f[] = {{"max_qwgt", s->max_qwgt, d->max_qwgt, q},
           {"min_qwgt", s->min_qwgt, d->min_qwgt, q},
           {"qwgt_tot", s->qwgt_tot, d->qwgt_tot, q},
           {"load_imb", s->load_imb, d->load_imb, 1},
           {"min_var", s->min_var, d->min_var, q * q},
           {"lower_bound", s->lower_bound, d->lower_bound, 0},
           {"max_wgt", s->max_wgt, d->max_wgt, q},
           {"max_comm", s->max_comm, d->max_comm, q},
           {"max_remap", s->max_remap, d->max_remap, q},
           {"steady_max", s->steady_max, d->steady_max, q},
           {"horizon_time", s->horizon_time, d->horizon_time, q},
           {"cut_weight", s->cut_weight, d->cut_weight, 0},
           {"total_v", s->total_v, d->total_v, 0},
           {"max_v", s->max_v, d->max_v, 0},
           {"horizon_used", s->horizon_used, d->horizon_used, 0},
           {"throttle_used", s->throttle_used, d->throttle_used, 0}};
  for (size_t i = 0; i < sizeof f / sizeof *f; i++)
    CHECK(near(f[i].a, f[i].b, f[i].scale) &&
              (isfinite(f[i].b) || i + 1 == sizeof f / sizeof *f),
          "%s: metrics.%s %.17g, serial %.17g", what, f[i].name, f[i].b,
          f[i].a);
  const struct {
    const char *name;
    int64_t a, b;
  } c[] = {{"cut_edges", s->cut_edges, d->cut_edges},
           {"moved", s->moved, d->moved},
           {"stranded", s->stranded, d->stranded},
           {"navailable", s->navailable, d->navailable},
           {"coarse_nvtxs", s->coarse_nvtxs, d->coarse_nvtxs},
           {"start_nvtxs", s->start_nvtxs, d->start_nvtxs},
           {"coarse_moves", s->coarse_moves, d->coarse_moves},
           {"expand_moves", s->expand_moves, d->expand_moves},
           {"returned_old", s->returned_old, d->returned_old},
           {"scratch_used", s->scratch_used, d->scratch_used},
           {"candidates", s->candidates, d->candidates},
           {"threads_used", s->threads_used, d->threads_used}};
  for (size_t i = 0; i < sizeof c / sizeof *c; i++)
    CHECK(c[i].a == c[i].b, "%s: metrics.%s %lld, serial %lld", what, c[i].name,
          (long long)c[i].b, (long long)c[i].a);
  /* the times: set where the serial call sets them (the slowest rank's,
     the same on every rank) */
  const struct {
    const char *name;
    double a, b;
  } t[] = {{"seconds_contract", s->seconds_contract, d->seconds_contract},
           {"seconds_partition", s->seconds_partition, d->seconds_partition},
           {"seconds_expand", s->seconds_expand, d->seconds_expand},
           {"seconds", s->seconds, d->seconds},
           {"seconds_diffusive", s->seconds_diffusive, d->seconds_diffusive},
           {"seconds_ladder", s->seconds_ladder, d->seconds_ladder},
           {"seconds_scratch", s->seconds_scratch, d->seconds_scratch},
           {"seconds_refine", s->seconds_refine, d->seconds_refine},
           {"seconds_candidates", s->seconds_candidates, d->seconds_candidates},
           {"seconds_parallel", s->seconds_parallel, d->seconds_parallel},
           {"seconds_parallel_work", s->seconds_parallel_work,
            d->seconds_parallel_work},
           {"seconds_parallel_span", s->seconds_parallel_span,
            d->seconds_parallel_span}};
  char fig[64];
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    CHECK(isfinite(t[i].b) && t[i].b >= 0 && (t[i].a > 0) == (t[i].b > 0),
          "%s: metrics.%s %g, serial %g", what, t[i].name, t[i].b, t[i].a);
    snprintf(fig, sizeof fig, "%a", t[i].b);
    CHECK(same_everywhere(fig), "%s: metrics.%s differs between the ranks",
          what, t[i].name);
  }
}

/* Problem seed of mode: the distributed call returns the serial call's
 * code, owners and metrics on every rank. */
static void check_random(rc_mode mode, int seed) {
  rc_problem pb;
  rc_make(&pb, seed, mode);
  char what[64];
  snprintf(what, sizeof what, "random problem %d of mode %d", seed, (int)mode);
  int32_t n = minex_graph_nvtxs(pb.g);
  minex_options so = pb.opt;
  so.rounds = MINEX_ROUNDS_ON; /* what AUTO means in the MPI layer */
  int32_t *ref = malloc(sizeof *ref * (size_t)n);
  minex_metrics ms, md;
  memset(&ms, 0, sizeof ms);
  memset(&md, 0, sizeof md);
  int rs = minex_repartition(pb.g, pb.cfg, pb.old, &so, ref, &ms);
  local l;
  local_make(&l, pb.g, 0, 0, 0);
  int64_t first = l.vd[rank];
  int32_t *got = malloc(sizeof *got * (size_t)(l.nloc + 1));
  int rd = minex_mpi_repartition(l.vd, l.xadj, l.adj, l.pw, l.rw, l.cw,
                                 pb.old + first, pb.cfg, &pb.opt, got, &md,
                                 MPI_COMM_WORLD);
  CHECK(rd == rs, "%s: rc %d (%s), serial %d", what, rd, minex_last_error(),
        rs);
  CHECK(rd != MINEX_ENOPROC || strstr(minex_last_error(), "unavailable"),
        "%s: %s", what, minex_last_error());
  CHECK(same_everywhere(minex_last_error()), "%s: messages differ: %s", what,
        minex_last_error());
  if (rd == MINEX_OK && rs == MINEX_OK) {
    int64_t diff = 0;
    for (int64_t v = 0; v < l.nloc; v++)
      diff += got[v] != ref[first + v];
    CHECK(diff == 0, "%s: %lld owners differ from the serial call's", what,
          (long long)diff);
    metrics_full(what, &ms, &md);
  }
  free(ref);
  free(got);
  local_free(&l);
  rc_free(&pb);
}

/* Cases the generator found, each a defect once: */
static void test_random(void) {
  /* every processor unavailable: MINEX_ENOPROC on every rank, as the
     serial call returns (k = 10: every rank crashed in the from-scratch
     candidate; k = 1: MINEX_OK with every vertex stranded) */
  check_random(RC_NONE, 1);
  check_random(RC_NONE, 2);
  /* the old partition kept: the ghosts' owners were the best candidate's,
     so the cut depended on the number of ranks (165, 173); a result whose
     MaxQwgt ties old's, judged worse by the serial call alone (42) */
  static const int keep[] = {165, 173, 42};
  for (size_t i = 0; i < sizeof keep / sizeof *keep; i++)
    check_random(RC_KEEP, keep[i]);
  /* a processor that loses every vertex kept a running sum of -1e-14:
     SteadyMax and T_k NaN (remap mode sender; k = 100 with throttle_auto),
     or the ladder winner's loads refreshed under k refused by the cost
     model as negative (MINEX_EINVAL where the serial call succeeds) */
  static const int sender[] = {214, 3}, k100[] = {214, 230, 380, 171},
                   mix[] = {104};
  for (size_t i = 0; i < sizeof sender / sizeof *sender; i++)
    check_random(RC_SENDER, sender[i]);
  for (size_t i = 0; i < sizeof k100 / sizeof *k100; i++)
    check_random(RC_K100, k100[i]);
  for (size_t i = 0; i < sizeof mix / sizeof *mix; i++)
    check_random(RC_MIX, mix[i]);
}

/* Metrics that overflow in the caller's units are an error, never
 * MINEX_OK: the loads are kept in units that keep them near 1, so a
 * remapping of 2 x 1e308 is finite there and infinite once scaled back
 * (the serial call's evaluator refuses it too). */
static void test_nonfinite(void) {
  int64_t xadj[5] = {0, 1, 3, 5, 6};
  int32_t adj[6] = {1, 0, 2, 1, 3, 2};
  double pw[4] = {1, 1, 1, 1}, rw[4] = {1, 1, 1e308, 1e308};
  double cw[6] = {1, 1, 1, 1, 1, 1};
  int32_t old[4] = {0, 1, 2, 2}; /* 2 unavailable: both must move */
  minex_graph *g = NULL;
  minex_config *cfg = NULL;
  if (minex_graph_create(4, xadj, adj, pw, rw, cw, &g) != MINEX_OK ||
      minex_config_create_uniform(3, &cfg) != MINEX_OK)
    MPI_Abort(MPI_COMM_WORLD, 2);
  minex_config_set_available(cfg, 2, 0);
  int32_t ref[4];
  minex_metrics ms, md;
  int rs = minex_repartition(g, cfg, old, NULL, ref, &ms);
  local l;
  local_make(&l, g, 0, 0, 0);
  int32_t got[5];
  md.max_qwgt = -7;
  int rd = minex_mpi_repartition(l.vd, l.xadj, l.adj, l.pw, l.rw, l.cw,
                                 old + l.vd[rank], cfg, NULL, got, &md,
                                 MPI_COMM_WORLD);
  /* MINEX_EINVAL, or MINEX_EINTERNAL in a MINEX_CHECKS build, whose
     invariant checks meet the infinite load first: the same for the
     serial and the distributed call (both check the contracted graph) */
  CHECK((rs == MINEX_EINVAL || rs == MINEX_EINTERNAL) && rd == rs,
        "Remap of 2e308: rc %d (%s; MaxQwgt %g), serial %d", rd,
        minex_last_error(), md.max_qwgt, rs);
  CHECK(same_everywhere(minex_last_error()),
        "Remap of 2e308: messages "
        "differ: %s",
        minex_last_error());
  CHECK(md.max_qwgt == -7, "Remap of 2e308: metrics written on error");
  local_free(&l);
  minex_config_destroy(cfg);
  minex_graph_destroy(g);
}

/* The graph of no vertex: what the serial library does on it. */
static void test_empty(const minex_config *cfg) {
  int64_t vd[65];
  for (int r = 0; r <= size; r++)
    vd[r] = 7;
  minex_metrics md, ms;
  minex_graph *g = NULL;
  int64_t x0 = 0;
  int rs = minex_graph_create(0, &x0, NULL, NULL, NULL, NULL, &g);
  int32_t dummy = 0;
  if (rs == MINEX_OK)
    rs = minex_repartition(g, cfg, &dummy, NULL, &dummy, &ms);
  minex_graph_destroy(g);
  int rc = minex_mpi_repartition(vd, NULL, NULL, NULL, NULL, NULL, NULL, cfg,
                                 NULL, NULL, &md, MPI_COMM_WORLD);
  CHECK(rc == rs, "empty graph: rc %d (%s), serial %d", rc, minex_last_error(),
        rs);
  CHECK(rc != MINEX_OK || md.max_qwgt == ms.max_qwgt, "empty graph: MaxQwgt");
  /* old NULL with fewer processors than ranks: no rank holds a vertex, so
     none is owned by a processor that does not exist (it was refused) */
  minex_config *one = NULL;
  if (minex_config_create_uniform(1, &one) != MINEX_OK)
    MPI_Abort(MPI_COMM_WORLD, 2);
  rc = minex_mpi_repartition(vd, NULL, NULL, NULL, NULL, NULL, NULL, one, NULL,
                             NULL, &md, MPI_COMM_WORLD);
  CHECK(rc == rs,
        "empty graph, old NULL, P = 1 on %d ranks: rc %d (%s), "
        "serial %d",
        size, rc, minex_last_error(), rs);
  minex_config_destroy(one);
}

/* old NULL (each vertex on its rank) with fewer processors than ranks:
 * the first rank beyond the processors that holds vertices is named. */
static void test_old_null_ranks(const fixture *f) {
  if (size < 2)
    return;
  minex_config *one = NULL;
  if (minex_config_create_uniform(1, &one) != MINEX_OK)
    MPI_Abort(MPI_COMM_WORLD, 2);
  local l;
  local_make(&l, f->g, 0, 0, 0);
  int32_t *newp = malloc(sizeof *newp * (size_t)(l.nloc + 1));
  minex_metrics m;
  for (int64_t v = 0; v < l.nloc; v++)
    newp[v] = -7;
  m.max_qwgt = -7;
  int rc = minex_mpi_repartition(l.vd, l.xadj, l.adj, l.pw, l.rw, l.cw, NULL,
                                 one, NULL, newp, &m, MPI_COMM_WORLD);
  check_error("old NULL, P = 1", rc, MINEX_EINVAL, newp, l.nloc, &m,
              "rank 1: old is NULL", "P = 1");
  free(newp);
  local_free(&l);
  minex_config_destroy(one);
}

/* minex_parmetis_adaptive_repart(64) against minex_mpi_repartition with
 * the documented configuration: one cluster per run of equal tpwgts, Proc
 * = (sum / nparts) / share, Conn 1; Rwgt = vsize / itr when itr < 1. */
static void test_parmetis(const fixture *f, int32_t P, const int32_t *old_all,
                          int wide, int numflag, float itr, int coupled) {
  local l;
  local_make(&l, f->g, 0, 0, 0);
  int64_t n = l.nloc, nnz = l.xadj[n], first = l.vd[rank];
  float *tp = malloc(sizeof *tp * (size_t)P);
  double *tpd = malloc(sizeof *tpd * (size_t)P);
  for (int32_t p = 0; p < P; p++) {
    tp[p] = p < P / 2 ? 2.0f / (3.0f * (float)P) : 4.0f / (3.0f * (float)P);
    tpd[p] = tp[p];
  }
  /* the expected configuration, computed as documented */
  double sum = 0;
  for (int32_t p = 0; p < P; p++)
    sum += wide ? tpd[p] : (double)tp[p];
  int32_t np[2] = {P / 2, P - P / 2};
  double proc[2] = {(sum / P) / (wide ? tpd[0] : (double)tp[0]),
                    (sum / P) / (wide ? tpd[P - 1] : (double)tp[P - 1])};
  double conn[4] = {1, 1, 1, 1};
  minex_config *cfg = NULL;
  minex_config_create(2, np, proc, conn, &cfg);
  minex_options o;
  minex_options_init(&o);
  o.iterations = itr >= 1 ? (int32_t)lround(itr) : 1;
  o.seed = 11;
  double *rw = malloc(sizeof *rw * (size_t)(n + 1));
  for (int64_t v = 0; v < n; v++)
    rw[v] = l.rw[v] / (itr < 1 ? (double)itr : 1.0);
  int32_t *oldl = malloc(sizeof *oldl * (size_t)(n + 1));
  for (int64_t v = 0; v < n; v++)
    oldl[v] = coupled ? rank : old_all[first + v];
  int32_t *want = malloc(sizeof *want * (size_t)(n + 1));
  minex_metrics m;
  int rc = minex_mpi_repartition(l.vd, l.xadj, l.adj, l.pw, rw, l.cw, oldl, cfg,
                                 &o, want, &m, MPI_COMM_WORLD);
  CHECK(rc == MINEX_OK, "parmetis reference: %s", minex_last_error());
  /* the ParMETIS-shaped call: integer weights, numflag numbering */
  int64_t *i64 = malloc(sizeof *i64 *
                        (size_t)(2 * (n + 1) + nnz + 3 * n + nnz + size + 1));
  int64_t *vd = i64, *xadj = vd + size + 1, *adj = xadj + n + 1,
          *vwgt = adj + nnz, *vsize = vwgt + n, *adjwgt = vsize + n,
          *part = adjwgt + nnz;
  for (int r = 0; r <= size; r++)
    vd[r] = l.vd[r] + numflag;
  for (int64_t v = 0; v <= n; v++)
    xadj[v] = l.xadj[v] + numflag;
  for (int64_t j = 0; j < nnz; j++) {
    adj[j] = l.adj[j] + numflag;
    adjwgt[j] = (int64_t)l.cw[j];
  }
  for (int64_t v = 0; v < n; v++) {
    vwgt[v] = (int64_t)l.pw[v];
    vsize[v] = (int64_t)l.rw[v];
    part[v] = oldl[v] + numflag;
  }
  int64_t wgtflag = 3, nf = numflag, ncon = 1, nparts = P, edgecut = -1;
  int64_t options[4] = {1, 0, 11,
                        coupled ? MINEX_PARMETIS_PSR_COUPLED
                                : MINEX_PARMETIS_PSR_UNCOUPLED};
  MPI_Comm comm = MPI_COMM_WORLD;
  int prc;
  if (wide) {
    double ditr = itr;
    prc = minex_parmetis_adaptive_repart64(
        vd, xadj, adj, vwgt, vsize, adjwgt, &wgtflag, &nf, &ncon, &nparts, tpd,
        NULL, &ditr, options, &edgecut, part, &comm);
  } else {
    int32_t *i32 = malloc(sizeof *i32 *
                          (size_t)(2 * (n + 1) + nnz + 3 * n + nnz + size + 1));
    int64_t total = 2 * (n + 1) + nnz + 3 * n + nnz + size + 1;
    for (int64_t i = 0; i < total; i++)
      i32[i] = (int32_t)i64[i];
    int32_t *vd3 = i32, *x3 = vd3 + size + 1, *a3 = x3 + n + 1, *vw3 = a3 + nnz,
            *vs3 = vw3 + n, *aw3 = vs3 + n, *p3 = aw3 + nnz;
    int32_t wf = 3, nf3 = numflag, nc = 1, npt = P, ec = -1;
    int32_t opt3[4] = {1, 0, 11, (int32_t)options[3]};
    float fitr = itr; /* ubvec NULL: no bound (test_bound_mpi tests it) */
    prc = minex_parmetis_adaptive_repart(vd3, x3, a3, vw3, vs3, aw3, &wf, &nf3,
                                         &nc, &npt, tp, NULL, &fitr, opt3, &ec,
                                         p3, &comm);
    for (int64_t v = 0; v < n; v++)
      part[v] = p3[v];
    edgecut = ec;
    free(i32);
  }
  CHECK(prc == MINEX_PARMETIS_OK, "parmetis (wide %d numflag %d itr %g): %d %s",
        wide, numflag, (double)itr, prc, minex_last_error());
  if (prc == MINEX_PARMETIS_OK && rc == MINEX_OK) {
    int64_t diff = 0;
    for (int64_t v = 0; v < n; v++)
      diff += part[v] - numflag != want[v];
    CHECK(diff == 0, "parmetis (wide %d numflag %d itr %g): %lld owners differ",
          wide, numflag, (double)itr, (long long)diff);
    CHECK(edgecut == llround(m.cut_weight), "parmetis: edgecut %lld vs %.17g",
          (long long)edgecut, m.cut_weight);
  }
  /* ncon = 2 is refused on every rank alike */
  int64_t two = 2;
  double ditr = 1;
  prc = minex_parmetis_adaptive_repart64(
      vd, xadj, adj, vwgt, vsize, adjwgt, &wgtflag, &nf, &two, &nparts, tpd,
      NULL, &ditr, options, &edgecut, part, &comm);
  CHECK(prc == MINEX_PARMETIS_ERROR_INPUT &&
            minex_parmetis_last_error() == MINEX_EUNSUP &&
            strstr(minex_last_error(), "ncon = 2") != NULL,
        "parmetis ncon 2: %d %s", prc, minex_last_error());
  free(i64);
  free(tp);
  free(tpd);
  free(rw);
  free(oldl);
  free(want);
  minex_config_destroy(cfg);
  local_free(&l);
}

/* A cut that does not fit idx_t is an error of the 32-bit entry (it
 * returned INT32_MAX with METIS_OK); the 64-bit entry returns it. A 4-cycle
 * in two parts of two, its two cut edges of adjwgt 2^31 - 1, vsize so
 * heavy (itr 1e-5) that the old partition stays. */
static void test_parmetis_overflow(void) {
  int32_t x4[5] = {0, 2, 4, 6, 8}, a4[8] = {1, 3, 0, 2, 1, 3, 0, 2};
  int32_t w4[8] = {1, INT32_MAX, 1, INT32_MAX, INT32_MAX, 1, INT32_MAX, 1};
  int32_t own[4] = {0, 0, 1, 1};
  int64_t vd[65];
  make_vtxdist(vd, 4, 0, 0);
  int32_t f = (int32_t)vd[rank], nl = (int32_t)(vd[rank + 1] - vd[rank]);
  int32_t vd3[65], xl[5], al[8], wl[8], vw[4], vs[4], part[4];
  int64_t vd6[65], x6[5], a6[8], w6[8], vw6[4], vs6[4], part6[4];
  for (int r = 0; r <= size; r++)
    vd3[r] = (int32_t)vd[r], vd6[r] = vd[r];
  for (int32_t v = 0; v <= nl; v++)
    x6[v] = xl[v] = x4[f + v] - x4[f];
  for (int32_t j = 0; j < x4[f + nl] - x4[f]; j++) {
    a6[j] = al[j] = a4[x4[f] + j];
    w6[j] = wl[j] = w4[x4[f] + j];
  }
  for (int32_t v = 0; v < nl; v++) {
    vw6[v] = vw[v] = 1;
    vs6[v] = vs[v] = INT32_MAX;
    part6[v] = part[v] = own[f + v];
  }
  int32_t wf = 3, nf = 0, nc = 1, np = 2, ec = -1, opt[4] = {0, 0, 0, 0};
  float itr = 1e-5f;
  MPI_Comm comm = MPI_COMM_WORLD;
  int prc = minex_parmetis_adaptive_repart(vd3, xl, al, vw, vs, wl, &wf, &nf,
                                           &nc, &np, NULL, NULL, &itr, opt, &ec,
                                           part, &comm);
  CHECK(prc == MINEX_PARMETIS_ERROR_INPUT &&
            minex_parmetis_last_error() == MINEX_EUNSUP &&
            strstr(minex_last_error(), "edgecut") != NULL,
        "parmetis: a cut of 2 x (2^31 - 1) in idx_t: %d (edgecut %d) %s", prc,
        (int)ec, minex_last_error());
  CHECK(same_everywhere(minex_last_error()),
        "parmetis overflow: messages "
        "differ: %s",
        minex_last_error());
  int untouched = ec == -1;
  for (int32_t v = 0; v < nl; v++)
    untouched &= part[v] == own[f + v];
  CHECK(untouched, "parmetis overflow: part or edgecut written on error");
  int64_t wf6 = 3, nf6 = 0, nc6 = 1, np6 = 2, ec6 = -1, opt6[4] = {0};
  double itr6 = 1e-5;
  prc = minex_parmetis_adaptive_repart64(vd6, x6, a6, vw6, vs6, w6, &wf6, &nf6,
                                         &nc6, &np6, NULL, NULL, &itr6, opt6,
                                         &ec6, part6, &comm);
  CHECK(prc == MINEX_PARMETIS_OK && ec6 == 2 * (int64_t)INT32_MAX,
        "parmetis64: the same cut: %d, edgecut %lld (%s)", prc, (long long)ec6,
        minex_last_error());
}

/* The ParMETIS-shaped entry's messages name its own arguments in its
 * numbering (vwgt, not MinEX's pwgt; numflag 1: ids from 1). */
static void test_parmetis_names(const fixture *f, int32_t P,
                                const int32_t *old_all) {
  local l;
  local_make(&l, f->g, 0, 0, 0);
  int64_t n = l.nloc, nnz = l.xadj[n], first = l.vd[rank];
  int32_t *i32 =
      malloc(sizeof *i32 * (size_t)(65 + 2 * (n + 1) + 2 * nnz + 3 * n + 1));
  int32_t *vd = i32, *xadj = vd + 65, *adj = xadj + n + 1, *aw = adj + nnz,
          *vw = aw + nnz, *vs = vw + n, *part = vs + n;
  for (int r = 0; r <= size; r++)
    vd[r] = (int32_t)l.vd[r] + 1;
  for (int64_t v = 0; v <= n; v++)
    xadj[v] = (int32_t)l.xadj[v] + 1;
  for (int64_t j = 0; j < nnz; j++) {
    adj[j] = (int32_t)l.adj[j] + 1;
    aw[j] = (int32_t)l.cw[j];
  }
  int last = size - 1;
  MPI_Comm comm = MPI_COMM_WORLD;
  for (int which = 0; which < 3; which++) {
    for (int64_t v = 0; v < n; v++) {
      vw[v] = (int32_t)l.pw[v];
      vs[v] = (int32_t)l.rw[v];
      part[v] = old_all[first + v] + 1;
    }
    int64_t j = -1; /* which 1: a cut edge of the last rank */
    for (int64_t k = 0; which == 1 && rank == last && k < nnz && j < 0; k++)
      if (l.adj[k] < l.vd[rank])
        j = k;
    int32_t keep_aw = j >= 0 ? aw[j] : 0, keep_adj = nnz > 0 ? adj[0] : 0;
    if (which == 0 && rank == last && n > 0)
      vw[n - 1] = -3;
    if (j >= 0)
      aw[j] += 1;
    if (which == 2 && rank == last && nnz > 0)
      adj[0] = 5000000; /* in numflag 1 */
    int32_t wf = 3, nf = 1, nc = 1, np = P, ec = -1, opt[4] = {0, 0, 0, 0};
    float itr = 1;
    int prc = minex_parmetis_adaptive_repart(vd, xadj, adj, vw, vs, aw, &wf,
                                             &nf, &nc, &np, NULL, NULL, &itr,
                                             opt, &ec, part, &comm);
    if (j >= 0)
      aw[j] = keep_aw;
    if (nnz > 0)
      adj[0] = keep_adj;
    if (which == 1 && size < 2)
      continue;
    const char *msg = minex_last_error();
    char want[96];
    if (which == 0)
      snprintf(want, sizeof want,
               "minex_parmetis_adaptive_repart: rank %d: vwgt[%lld] = -3", last,
               (long long)(l.vd[last + 1] - l.vd[last] - 1));
    else if (which == 1)
      snprintf(want, sizeof want, "has adjwgt");
    else
      snprintf(want, sizeof want,
               "rank %d: adjncy[0] = 5000000 is outside [1, %lld)", last,
               (long long)l.vd[size] + 1);
    CHECK(prc == MINEX_PARMETIS_ERROR_INPUT && strstr(msg, want) != NULL &&
              strstr(msg, "pwgt") == NULL && strstr(msg, "cwgt") == NULL,
          "parmetis names (%d): %d '%s' lacks '%s'", which, prc, msg, want);
    CHECK(same_everywhere(msg), "parmetis names (%d): messages differ: %s",
          which, msg);
  }
  free(i32);
  local_free(&l);
}

/* options.workspace in both stages: the result of a call with
 * a workspace equals the one without; in stage 2 every rank's kernel
 * takes its large buffers from it, so a second call makes no new block on
 * any rank; in stage 1 rank 0's serial call uses it. */
static void test_workspace(void) {
  fixture big;
  fixture_make(&big, 14); /* 16,464 tets: arrays of 64 KiB and more */
  int32_t P = 8;
  minex_config *cfg = hetero(P);
  int32_t *old = malloc(sizeof *old * (size_t)big.n);
  if (minex_mesh_partition_rcb(big.mesh, P, old) != MINEX_OK)
    MPI_Abort(MPI_COMM_WORLD, 2);
  local l;
  local_make(&l, big.g, 0, 0, 0);
  int64_t first = l.vd[rank];
  int32_t *ref = malloc(sizeof *ref * (size_t)(l.nloc + 1));
  int32_t *got = malloc(sizeof *got * (size_t)(l.nloc + 1));
  for (int stage = 2; stage >= 1; stage--) {
    minex_options o;
    minex_options_init(&o);
    o.iterations = 10;
    if (stage == 1)
      o.rounds = MINEX_ROUNDS_OFF;
    minex_metrics mref, m;
    int rc =
        minex_mpi_repartition(l.vd, l.xadj, l.adj, l.pw, l.rw, l.cw,
                              old + first, cfg, &o, ref, &mref, MPI_COMM_WORLD);
    CHECK(rc == MINEX_OK, "workspace, stage %d: %s", stage, minex_last_error());
    minex_workspace *ws = NULL;
    CHECK(minex_workspace_create(&ws) == MINEX_OK, "workspace_create");
    o.workspace = ws;
    minex_workspace_stats st[2];
    for (int call = 0; call < 2; call++) {
      rc = minex_mpi_repartition(l.vd, l.xadj, l.adj, l.pw, l.rw, l.cw,
                                 old + first, cfg, &o, got, &m, MPI_COMM_WORLD);
      CHECK(rc == MINEX_OK, "workspace, stage %d, call %d: %s", stage, call,
            minex_last_error());
      int64_t diff = 0;
      for (int64_t v = 0; v < l.nloc; v++)
        diff += got[v] != ref[v];
      CHECK(diff == 0 && metrics_equal(&m, &mref),
            "workspace, stage %d, call %d: %lld owners differ, MaxQwgt %.17g "
            "against %.17g",
            stage, call, (long long)diff, m.max_qwgt, mref.max_qwgt);
      minex_workspace_get_stats(ws, &st[call]);
    }
    /* stage 2: every rank with vertices used it; stage 1: rank 0 only */
    int user = stage == 2 ? l.nloc > 0 : rank == 0;
    CHECK(st[1].calls == (user || stage == 2 ? 2 : 0),
          "workspace, stage %d: %lld calls counted", stage,
          (long long)st[1].calls);
    if (user)
      CHECK(st[0].blocks_new > 0 && st[1].blocks_new == 0 &&
                st[1].blocks_reused > 0,
            "workspace, stage %d: blocks made by the first call %lld, by the "
            "second %lld (reused %lld)",
            stage, (long long)st[0].blocks_new, (long long)st[1].blocks_new,
            (long long)st[1].blocks_reused);
    minex_workspace_destroy(ws);
  }
  free(ref);
  free(got);
  local_free(&l);
  free(old);
  minex_config_destroy(cfg);
  fixture_free(&big);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  quick = quick_mode();
  if (size > 64) {
    if (rank == 0)
      fprintf(stderr, "test_mpi: at most 64 ranks\n");
    MPI_Finalize();
    return 1;
  }
  fixture f;
  fixture_make(&f, 7); /* 2,058 tets */
  int32_t P = 8;
  minex_config *cfg = hetero(P);
  int32_t *old = malloc(sizeof *old * (size_t)f.n);
  if (minex_mesh_partition_rcb(f.mesh, P, old) != MINEX_OK)
    MPI_Abort(MPI_COMM_WORLD, 2);
  minex_options o;
  minex_options_init(&o); /* stage 2 (rounds AUTO means ON here) */
  check_same("defaults, even", &f, cfg, old, &o, 0, 0, 0);
  /* stage 1: rounds OFF, the graph gathered on rank 0 */
  o.rounds = MINEX_ROUNDS_OFF;
  check_same("stage 1: rounds off, rank 1 empty, ids from 3e9, rows reversed",
             &f, cfg, old, &o, 1, 3000000000LL, 1);
  o.iterations = 10; /* the ladder, the refinement, the scratch candidate */
  check_same("stage 1: rounds off, k = 10", &f, cfg, old, &o, 1, 0, 0);
  minex_options_init(&o);
  o.iterations = 10;
  check_same("defaults, k = 10", &f, cfg, old, &o, 0, 1LL << 35, 1);
  minex_options_init(&o);
  o.paper_exact = 1;
  o.alpha = 1;
  o.throttle_auto = 1;
  check_same("paper_exact, alpha 1, throttle_auto", &f, cfg, old, &o, 0,
             1LL << 40, 0);
  minex_options_init(&o);
  o.nthreads = 2;
  o.seed = 5;
  check_same("2 threads, seed 5", &f, cfg, old, &o, 0, 0, 1);
  /* stage 2: the kernel spread over the ranks (options.rounds ON) */
  minex_options_init(&o);
  o.rounds = MINEX_ROUNDS_ON;
  check_same("stage 2: rounds on", &f, cfg, old, &o, 0, 0, 0);
  check_same("stage 2: rank 1 empty, ids from 3e9, rows reversed", &f, cfg, old,
             &o, 1, 3000000000LL, 1);
  o.iterations = 10;
  o.ladder = MINEX_LADDER_OFF;
  o.scratch = MINEX_SCRATCH_OFF;
  o.throttle_auto = 1;
  o.seed = 3;
  check_same("stage 2: k = 10, throttle_auto, seed 3", &f, cfg, old, &o, 0, 0,
             0);
  /* cluster levels on every level (the fixture is below the AUTO
     threshold of 64 times the target): each rank's chunks clustered,
     ghosts left out of the clusters, the result the serial call's */
  minex_options_init(&o);
  o.cluster_levels = MINEX_CLUSTER_LEVELS_ON;
  check_same("stage 2: cluster levels on", &f, cfg, old, &o, 0, 0, 0);
  o.iterations = 10;
  check_same("stage 2: cluster levels on, k = 10, every candidate", &f, cfg,
             old, &o, 1, 3000000000LL, 1);
  o.rounds = MINEX_ROUNDS_OFF;
  o.iterations = 1;
  check_same("stage 1: cluster levels on, rounds off", &f, cfg, old, &o, 0, 0,
             0);
  /* the ladder's shorter horizons, one after the other on every rank */
  minex_options_init(&o);
  o.rounds = MINEX_ROUNDS_ON;
  o.iterations = 64;
  o.alpha = 1;
  o.ladder = MINEX_LADDER_ON;
  o.scratch = MINEX_SCRATCH_OFF;
  /* here the rung k = 16 wins (horizon_used compared with the serial) */
  check_same("stage 2: k = 64, alpha 1, ladder", &f, cfg, old, &o, 1, 0, 0);
  minex_options_init(&o);
  o.rounds = MINEX_ROUNDS_ON;
  o.alpha = 0.5; /* the ladder under AUTO, refinement off at k = 1 */
  check_same("stage 2: alpha 0.5, ladder (auto)", &f, cfg, old, &o, 0, 0, 1);
  /* unavailable processors: their vertices must move (forced rule, the
     final forced sweep in one round) and the guarantee on MaxQwgt does
     not apply */
  minex_config *gone = hetero(P);
  minex_config_set_available(gone, 2, 0);
  minex_config_set_available(gone, P - 1, 0);
  minex_options_init(&o);
  o.rounds = MINEX_ROUNDS_ON;
  check_same("stage 2: processors 2 and P-1 unavailable", &f, gone, old, &o, 0,
             0, 0);
  o.iterations = 64; /* the rung k = 16 wins here too */
  o.scratch = MINEX_SCRATCH_OFF;
  check_same("stage 2: unavailable, k = 64, ladder, refinement", &f, gone, old,
             &o, 1, 5000000000LL, 1);
  minex_options_init(&o);
  o.rounds = MINEX_ROUNDS_OFF;
  check_same("stage 1: unavailable, rounds off", &f, gone, old, &o, 0, 0, 0);
  /* the from-scratch candidate: Scotch on rank 0 on the gathered level,
     the rule from level s2 in rounds */
  minex_options_init(&o);
  o.rounds = MINEX_ROUNDS_ON;
  o.iterations = 10; /* ladder, refinement, scratch: all AUTO */
  check_same("stage 2: k = 10, every candidate", &f, cfg, old, &o, 1, 0, 0);
  o.iterations = 1;
  o.scratch = MINEX_SCRATCH_ON;
  check_same("stage 2: k = 1, scratch on", &f, cfg, old, &o, 0, 1LL << 33, 1);
  check_same("stage 2: unavailable, scratch on", &f, gone, old, &o, 0, 0, 0);
  /* old partitions scattered so that the from-scratch candidate wins
     (scratch_used compared with the serial call's): stripes of 50 ids at
     k = 10, every id on another part than its predecessor at k = 1 */
  int32_t *bad = malloc(sizeof *bad * (size_t)f.n);
  for (int32_t v = 0; v < f.n; v++)
    bad[v] = (v / 50) % P;
  o.scratch = MINEX_SCRATCH_AUTO;
  o.iterations = 10;
  check_same("stage 2: scattered old, k = 10, scratch wins", &f, cfg, bad, &o,
             0, 0, 0);
  for (int32_t v = 0; v < f.n; v++)
    bad[v] = v % P;
  o.scratch = MINEX_SCRATCH_ON;
  o.iterations = 1;
  check_same("stage 2: old = id mod P, scratch wins", &f, cfg, bad, &o, 1, 0,
             1);
  free(bad);
  /* throttle_auto with the from-scratch candidate: its trials in rounds
     on the candidate's level, spread over the ranks (stage 2) */
  o.throttle_auto = 1;
  check_same("stage 2: rounds on, scratch on, throttle_auto", &f, cfg, old, &o,
             0, 0, 0);
  o.rounds = MINEX_ROUNDS_AUTO;
  o.iterations = 10;
  o.seed = 5;
  check_same("stage 2: rounds auto, k = 10, scratch on, throttle_auto, rank 1 "
             "empty",
             &f, cfg, old, &o, 1, 0, 0);
  minex_config_destroy(gone);
  /* old NULL: every vertex on its rank; P = 4 >= ranks */
  minex_config *four = hetero(4);
  minex_options_init(&o);
  check_same("defaults, old = rank, P = 4", &f, four, NULL, &o, 0, 0, 0);
  o.rounds = MINEX_ROUNDS_OFF;
  check_same("stage 1: old = rank, P = 4", &f, four, NULL, &o, 0, 0, 0);
  minex_config_destroy(four);
  /* P = 2: on 3 and 4 ranks some ranks are home to no part, in every
     candidate (ladder and from-scratch candidate at k = 10) */
  minex_config *two = hetero(2);
  int32_t *half = malloc(sizeof *half * (size_t)f.n);
  for (int32_t v = 0; v < f.n; v++)
    half[v] = old[v] < P / 2 ? 0 : 1;
  minex_options_init(&o);
  o.rounds = MINEX_ROUNDS_ON;
  o.iterations = 10;
  check_same("stage 2: P = 2, k = 10, ranks without parts", &f, two, half, &o,
             0, 0, 0);
  free(half);
  minex_config_destroy(two);
  test_errors(&f, cfg, old);
  test_log(&f, cfg, old, 1);
  test_log(&f, cfg, old, 0);
  test_empty(cfg);
  test_old_null_ranks(&f);
  test_random();
  test_nonfinite();
  test_workspace();
  test_parmetis(&f, P, old, 0, 0, 1000.0f, 0);
  test_parmetis(&f, P, old, 1, 1, 0.25f, 0);
  test_parmetis(&f, size, old, 1, 0, 1.0f, 1);
  test_parmetis_overflow();
  test_parmetis_names(&f, P, old);
  int all = 0;
  MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_mpi on %d ranks: %s (%d failed checks)\n", size,
           all == 0 ? "passed" : "FAILED", all);
  free(old);
  minex_config_destroy(cfg);
  fixture_free(&f);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
