/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The distributed algorithm (src/dist) on R ranks simulated by threads
 * (dist_inproc_run), without MPI: the communicator's collectives against
 * their definitions, a failure agreed by every rank, and dist_solve -- the
 * MPI layer's stage 2 -- on 1 to 8 ranks against the serial
 * minex_repartition under the same options (rounds ON, what AUTO means
 * there): the same owners, bit for bit, and the same metrics on every
 * rank. */
#include "test_util.h"

#include "dist/dist.h"
#include "dist/inproc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANKS 8

/* ------------------------------------------------------ the collectives */

typedef struct coll_arg {
  int fails; /* the rank that reports a failure to agree on, or -1 */
  int ok;    /* every check of this rank held */
  char why[256];
} coll_arg;

#define EXPECT(a, cond, ...)                                                   \
  do {                                                                         \
    if (!(cond) && (a)->ok) {                                                  \
      (a)->ok = 0;                                                             \
      snprintf((a)->why, sizeof(a)->why, __VA_ARGS__);                         \
    }                                                                          \
  } while (0)

static int collectives(const dist_comm *cm, void *p) {
  coll_arg *a = p;
  int r = cm->rank, R = cm->size;
  a->ok = 1;
  /* allgather: rank q gives q + 1 bytes of value q */
  unsigned char mine[MAX_RANKS + 1];
  memset(mine, r, sizeof mine);
  int64_t count[MAX_RANKS];
  for (int64_t cap = -1; cap <= R; cap += R + 1) { /* unbounded, then R */
    void *all = NULL;
    EXPECT(a,
           cm->allgather(cm->ctx, MINEX_OK, mine, r + 1, cap, &all, count) ==
               MINEX_OK,
           "allgather (cap %lld)", (long long)cap);
    int64_t at = 0;
    for (int q = 0; q < R && all != NULL; q++) {
      EXPECT(a, count[q] == q + 1, "allgather count[%d] = %lld", q,
             (long long)count[q]);
      for (int i = 0; i <= q; i++)
        EXPECT(a, ((unsigned char *)all)[at + i] == q, "allgather byte");
      at += q + 1;
    }
    core_free(all);
  }
  /* exchange: rank r sends d + 1 int64 values 100 r + d to rank d */
  int64_t sbuf[MAX_RANKS * (MAX_RANKS + 1)] = {0}, scount[MAX_RANKS] = {0},
                                        rcount[MAX_RANKS];
  int64_t ns = 0;
  for (int d = 0; d < R; d++) {
    scount[d] = 8 * (d + 1);
    for (int i = 0; i <= d; i++)
      sbuf[ns++] = 100 * r + d;
  }
  void *rbuf = NULL;
  EXPECT(a,
         cm->exchange(cm->ctx, MINEX_OK, sbuf, scount, &rbuf, rcount) ==
             MINEX_OK,
         "exchange");
  for (int q = 0, k = 0; q < R && rbuf != NULL; q++) {
    EXPECT(a, rcount[q] == 8 * (r + 1), "exchange rcount[%d]", q);
    for (int i = 0; i <= r; i++, k++)
      EXPECT(a, ((int64_t *)rbuf)[k] == 100 * q + r, "exchange value");
  }
  core_free(rbuf);
  /* allreduce in rank order, exscan, bcast */
  int64_t iv[2] = {r + 1, 10 - r}, isum[2], imax[2], ex[2];
  double dv[1] = {0.1 * (r + 1)}, dsum[1], want = 0;
  for (int q = 0; q < R; q++)
    want += 0.1 * (q + 1);
  EXPECT(a,
         cm->allreduce(cm->ctx, iv, isum, 2, DIST_I64, DIST_SUM) == MINEX_OK &&
             isum[0] == (int64_t)R * (R + 1) / 2 &&
             isum[1] == 10 * (int64_t)R - (int64_t)R * (R - 1) / 2,
         "allreduce sum");
  EXPECT(a,
         cm->allreduce(cm->ctx, iv, imax, 2, DIST_I64, DIST_MAX) == MINEX_OK &&
             imax[0] == R && imax[1] == 10,
         "allreduce max");
  EXPECT(a,
         cm->allreduce(cm->ctx, dv, dsum, 1, DIST_F64, DIST_SUM) == MINEX_OK &&
             dsum[0] == want,
         "allreduce of doubles in rank order: %.17g, not %.17g", dsum[0], want);
  EXPECT(a,
         cm->exscan(cm->ctx, iv, ex, 2) == MINEX_OK &&
             ex[0] == (int64_t)r * (r + 1) / 2 &&
             ex[1] == 10 * (int64_t)r - (int64_t)r * (r - 1) / 2,
         "exscan");
  int64_t b[3] = {r, r, r};
  int root = R - 1;
  EXPECT(a,
         cm->bcast(cm->ctx, b, sizeof b, root) == MINEX_OK && b[0] == root &&
             b[2] == root,
         "bcast");
  EXPECT(a, cm->idle_barrier(cm->ctx) == MINEX_OK, "barrier");
  /* agree: the lowest failing rank's code and message everywhere */
  int rc = MINEX_OK;
  if (a->fails >= 0 && (r == a->fails || r == a->fails + 1))
    rc = core_error(r == a->fails ? MINEX_EGRAPH : MINEX_ENOMEM,
                    "bad row on rank %d", r);
  /* the same through the rc an exchange and an allgather carry, and
     through agree */
  for (int op = 0; op < 3; op++) {
    int got;
    if (rc != MINEX_OK)
      core_error(rc, "bad row on rank %d", r);
    if (op == 0) {
      void *all = NULL;
      got = cm->allgather(cm->ctx, rc, mine, r + 1, R, &all, count);
      core_free(all);
    } else if (op == 1) {
      int64_t sc[MAX_RANKS], rcv[MAX_RANKS];
      for (int d = 0; d < R; d++)
        sc[d] = 1;
      void *rb = NULL;
      got = cm->exchange(cm->ctx, rc, mine, sc, &rb, rcv);
      core_free(rb);
    } else {
      got = cm->agree(cm->ctx, rc);
    }
    if (a->fails >= 0 && a->fails < R) {
      char want_msg[64];
      snprintf(want_msg, sizeof want_msg, "bad row on rank %d", a->fails);
      EXPECT(a,
             got == MINEX_EGRAPH &&
                 strstr(minex_last_error(), want_msg) != NULL,
             "failure through op %d: %d '%s'", op, got, minex_last_error());
    } else {
      EXPECT(a, got == MINEX_OK, "op %d without failure: %d", op, got);
    }
  }
  return MINEX_OK;
}

START_TEST(collectives_on_1_to_8_ranks) {
  for (int R = 1; R <= MAX_RANKS; R++)
    for (int fails = -1; fails < 2; fails++) {
      coll_arg args[MAX_RANKS];
      void *ptr[MAX_RANKS];
      int rcs[MAX_RANKS];
      for (int q = 0; q < R; q++) {
        args[q].fails = fails;
        ptr[q] = &args[q];
      }
      ck_assert_int_eq(dist_inproc_run(R, collectives, ptr, rcs), MINEX_OK);
      for (int q = 0; q < R; q++)
        ck_assert_msg(rcs[q] == MINEX_OK && args[q].ok,
                      "%d ranks, failing rank %d: rank %d: %s", R, fails, q,
                      args[q].why);
    }
}
END_TEST

/* ------------------------------------------------------------ dist_solve */

/* The whole problem, and one rank's rows of it. */
typedef struct problem {
  minex_graph *g;
  minex_mesh *mesh;
  minex_config *cfg;
  int32_t *old;
  int32_t n;
} problem;

typedef struct solve_arg {
  const problem *pb;
  const minex_options *opt;
  const int64_t *vd;
  int64_t *xadj, *adj;
  double *pw, *rw, *cw;
  int32_t *old, *newp;
  minex_metrics m;
  char err[1024];
} solve_arg;

/* 2 clusters of P/2 processors, Proc 1 and 2, Conn 1 inside, 10 between. */
static minex_config *hetero(int32_t P) {
  int32_t np[2] = {P / 2, P - P / 2};
  double proc[2] = {1, 2}, conn[4] = {1, 10, 10, 1};
  minex_config *c = NULL;
  ck_assert_int_eq(minex_config_create(2, np, proc, conn, &c), MINEX_OK);
  return c;
}

static void problem_make(problem *pb, int nx, int32_t P) {
  memset(pb, 0, sizeof *pb);
  minex_ball ball = {{0.3, 0.4, 0.5}, 0.3, 8, 4};
  ck_assert_int_eq(minex_gen_box(nx, nx, nx, &pb->mesh), MINEX_OK);
  ck_assert_int_eq(minex_mesh_dual_ball(pb->mesh, &ball, &pb->g), MINEX_OK);
  pb->n = minex_graph_nvtxs(pb->g);
  pb->cfg = hetero(P);
  pb->old = malloc(sizeof *pb->old * (size_t)pb->n);
  ck_assert_int_eq(minex_mesh_partition_rcb(pb->mesh, P, pb->old), MINEX_OK);
}

static void problem_free(problem *pb) {
  minex_graph_destroy(pb->g);
  minex_mesh_destroy(pb->mesh);
  minex_config_destroy(pb->cfg);
  free(pb->old);
}

static int solve_rank(const dist_comm *cm, void *p) {
  solve_arg *a = p;
  dist_ctx c;
  dist_ctx_init(&c, cm);
  dist_input in = {a->vd, a->xadj, a->adj, a->pw, a->rw, a->cw, a->old};
  int rc = dist_solve(&c, &in, a->pb->cfg, a->opt, a->newp, &a->m);
  if (rc != MINEX_OK)
    snprintf(a->err, sizeof a->err, "%s", minex_last_error());
  return rc;
}

static int close_to(double a, double b) {
  return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* Runs pb on R ranks (rank `empty` without rows, -1: none) and compares
 * with the serial call. */
static void check_ranks(const char *what, const problem *pb,
                        const minex_options *opt, int R, int empty) {
  int32_t n = pb->n;
  minex_options so = *opt;
  so.rounds = MINEX_ROUNDS_ON;
  int32_t *ref = malloc(sizeof *ref * (size_t)n);
  minex_metrics mref;
  ck_assert_int_eq(minex_repartition(pb->g, pb->cfg, pb->old, &so, ref, &mref),
                   MINEX_OK);
  int64_t vd[MAX_RANKS + 1];
  int holders = empty >= 0 && R > 1 ? R - 1 : R, h = 0;
  vd[0] = 0;
  for (int q = 0; q < R; q++) {
    if (q == empty && R > 1) {
      vd[q + 1] = vd[q];
      continue;
    }
    vd[q + 1] = (int64_t)n * ++h / holders;
  }
  const int64_t *X = minex_graph_xadj(pb->g);
  const int32_t *A = minex_graph_adjncy(pb->g);
  solve_arg args[MAX_RANKS];
  void *ptr[MAX_RANKS];
  int rcs[MAX_RANKS];
  for (int q = 0; q < R; q++) {
    solve_arg *a = &args[q];
    memset(a, 0, sizeof *a);
    a->pb = pb;
    a->opt = opt;
    a->vd = vd;
    int64_t lo = vd[q], nl = vd[q + 1] - lo, nnz = X[lo + nl] - X[lo];
    a->xadj = malloc(sizeof *a->xadj * (size_t)(nl + 1));
    a->adj = malloc(sizeof *a->adj * (size_t)(nnz + 1));
    a->cw = malloc(sizeof *a->cw * (size_t)(nnz + 1));
    a->pw = malloc(sizeof *a->pw * (size_t)(nl + 1));
    a->rw = malloc(sizeof *a->rw * (size_t)(nl + 1));
    a->old = malloc(sizeof *a->old * (size_t)(nl + 1));
    a->newp = malloc(sizeof *a->newp * (size_t)(nl + 1));
    for (int64_t v = 0; v <= nl; v++)
      a->xadj[v] = X[lo + v] - X[lo];
    for (int64_t j = 0; j < nnz; j++) {
      a->adj[j] = A[X[lo] + j];
      a->cw[j] = minex_graph_cwgt(pb->g)[X[lo] + j];
    }
    for (int64_t v = 0; v < nl; v++) {
      a->pw[v] = minex_graph_pwgt(pb->g)[lo + v];
      a->rw[v] = minex_graph_rwgt(pb->g)[lo + v];
      a->old[v] = pb->old[lo + v];
    }
    ptr[q] = a;
  }
  ck_assert_int_eq(dist_inproc_run(R, solve_rank, ptr, rcs), MINEX_OK);
  for (int q = 0; q < R; q++) {
    solve_arg *a = &args[q];
    ck_assert_msg(rcs[q] == MINEX_OK, "%s, %d ranks: rank %d: %s", what, R, q,
                  a->err);
    int64_t diff = 0;
    for (int64_t v = 0; v < vd[q + 1] - vd[q]; v++)
      diff += a->newp[v] != ref[vd[q] + v];
    ck_assert_msg(diff == 0, "%s, %d ranks: rank %d: %lld owners differ", what,
                  R, q, (long long)diff);
    const minex_metrics *m = &a->m, *m0 = &args[0].m;
    ck_assert_msg(
        m->max_qwgt == m0->max_qwgt && m->horizon_time == m0->horizon_time &&
            m->qwgt_tot == m0->qwgt_tot && m->cut_weight == m0->cut_weight &&
            m->moved == m0->moved && m->candidates == m0->candidates,
        "%s, %d ranks: rank %d's metrics differ from rank 0's", what, R, q);
    ck_assert_msg(
        close_to(m->max_qwgt, mref.max_qwgt) &&
            close_to(m->horizon_time, mref.horizon_time) &&
            close_to(m->qwgt_tot, mref.qwgt_tot) &&
            close_to(m->cut_weight, mref.cut_weight) &&
            m->moved == mref.moved && m->cut_edges == mref.cut_edges &&
            m->candidates == mref.candidates &&
            m->returned_old == mref.returned_old &&
            m->scratch_used == mref.scratch_used &&
            m->horizon_used == mref.horizon_used &&
            m->coarse_nvtxs == mref.coarse_nvtxs &&
            m->coarse_moves == mref.coarse_moves &&
            m->expand_moves == mref.expand_moves,
        "%s, %d ranks: metrics not the serial call's (MaxQwgt %.17g vs "
        "%.17g, moves %lld+%lld vs %lld+%lld)",
        what, R, m->max_qwgt, mref.max_qwgt, (long long)m->coarse_moves,
        (long long)m->expand_moves, (long long)mref.coarse_moves,
        (long long)mref.expand_moves);
  }
  for (int q = 0; q < R; q++) {
    solve_arg *a = &args[q];
    free(a->xadj), free(a->adj), free(a->cw), free(a->pw), free(a->rw);
    free(a->old), free(a->newp);
  }
  free(ref);
}

/* The option sets of the quick and the whole runs. */
typedef struct opt_case {
  const char *name;
  int32_t iterations;
  double alpha;
  int throttle_auto, scratch, ladder, cluster_levels, nthreads, unavailable;
  uint64_t seed;
} opt_case;

static const opt_case cases[] = {
    {"defaults", 1, 0, 0, MINEX_SCRATCH_AUTO, MINEX_LADDER_AUTO,
     MINEX_CLUSTER_LEVELS_AUTO, 1, 0, 1},
    {"k = 10, throttle_auto, seed 3", 10, 0, 1, MINEX_SCRATCH_AUTO,
     MINEX_LADDER_AUTO, MINEX_CLUSTER_LEVELS_AUTO, 1, 0, 3},
    {"k = 64, alpha 1, every candidate, cluster levels on", 64, 1, 0,
     MINEX_SCRATCH_ON, MINEX_LADDER_ON, MINEX_CLUSTER_LEVELS_ON, 1, 0, 1},
    {"processors 2 and 7 unavailable, k = 64", 64, 0, 0, MINEX_SCRATCH_OFF,
     MINEX_LADDER_AUTO, MINEX_CLUSTER_LEVELS_AUTO, 1, 1, 1},
    {"alpha 0.5, 2 threads per rank", 1, 0.5, 0, MINEX_SCRATCH_AUTO,
     MINEX_LADDER_AUTO, MINEX_CLUSTER_LEVELS_AUTO, 2, 0, 5},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static void run_case(const problem *pb, const opt_case *c, int R) {
  minex_options o;
  minex_options_init(&o);
  o.iterations = c->iterations;
  o.alpha = c->alpha;
  o.throttle_auto = c->throttle_auto;
  o.scratch = c->scratch;
  o.ladder = c->ladder;
  o.cluster_levels = c->cluster_levels;
  o.nthreads = c->nthreads;
  o.seed = c->seed;
  problem gone = *pb;
  if (c->unavailable) {
    gone.cfg = hetero(8);
    minex_config_set_available(gone.cfg, 2, 0);
    minex_config_set_available(gone.cfg, 7, 0);
  }
  check_ranks(c->name, c->unavailable ? &gone : pb, &o, R, R > 2 ? 1 : -1);
  if (c->unavailable)
    minex_config_destroy(gone.cfg);
}

/* CI's valgrind stage: the defaults and one candidate-rich set, 1 and 3
 * ranks (3: one rank without rows). */
START_TEST(solve_quick_matches_serial) {
  problem pb;
  problem_make(&pb, 6, 8); /* 1,296 tets */
  int ranks[] = {1, 3};
  for (int i = 0; i < 2; i++) {
    run_case(&pb, &cases[0], ranks[i]);
    run_case(&pb, &cases[2], ranks[i]);
  }
  problem_free(&pb);
}
END_TEST

/* Every option set on 1 to 8 ranks. */
START_TEST(solve_every_case_matches_serial) {
  problem pb;
  problem_make(&pb, 7, 8); /* 2,058 tets */
  for (int c = 0; c < NCASES; c++)
    for (int R = 1; R <= MAX_RANKS; R++)
      run_case(&pb, &cases[c], R);
  problem_free(&pb);
}
END_TEST

int main(void) {
  Suite *s = suite_create("inproc");
  TCase *tc = tcase_create("inproc");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, collectives_on_1_to_8_ranks);
  tcase_add_test(tc, solve_quick_matches_serial);
  suite_add_tcase(s, tc);
  TCase *heavy = test_heavy_tcase(s, 1200);
  tcase_add_test(heavy, solve_every_case_matches_serial);
  return test_run_suite(s);
}
