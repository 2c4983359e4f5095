/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of sims/sim.c and sims/sweep.c, the experiment drivers of §4: the
 * machine of the study (processors spread evenly, Conn 1 inside and I
 * between clusters), one configuration's run against the library's own
 * scores recomputed step by step (without partitioning: the initial
 * partition on every step; with it: never worse than keeping the previous
 * partition, each step starting from the last), determinism, the grids of
 * the paper's Tables 1-4, the parallel runner giving the same records on
 * any number of threads and ranks, and the files the sweep writes. */
#include "sweep.h"
#include "test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ck_assert reports its location through a pipe on every call; loops over
 * many vertices or records use this quiet form, which only talks on
 * failure. */
#define QUIET_ASSERT(c)                                                        \
  do {                                                                         \
    if (!(c))                                                                  \
      ck_abort_msg("%s:%d: assertion '%s' failed", __FILE__, __LINE__, #c);    \
  } while (0)

/* ------------------------------------------------- the shared workload */

/* A small workload built once per test case: the 6x6x6 box (1,296 roots),
 * 4 adaptations of depth 2 with the default cylinder. */
#define NSTEPS 4
static minex_mesh *g_mesh;
static sim_workload g_w;
static minex_graph *g_graphs[NSTEPS]; /* each adaptation's dual graph */

static void workload_setup(void) {
  sim_adapt_params p;
  sim_adapt_defaults(&p);
  p.nsteps = NSTEPS;
  p.depth = 2;
  ck_assert_int_eq(minex_gen_box(6, 6, 6, &g_mesh), MINEX_OK);
  ck_assert_msg(sim_workload_build(g_mesh, &p, &g_w) == MINEX_OK, "%s",
                sim_last_error());
  ck_assert_int_eq(g_w.nsteps, NSTEPS);
  for (int32_t k = 0; k < NSTEPS; k++) {
    g_graphs[k] = NULL;
    ck_assert_int_eq(sim_workload_graph(&g_w, k, &g_graphs[k]), MINEX_OK);
  }
}

static void workload_teardown(void) {
  for (int32_t k = 0; k < NSTEPS; k++) {
    minex_graph_destroy(g_graphs[k]);
    g_graphs[k] = NULL;
  }
  sim_workload_free(&g_w);
  minex_mesh_destroy(g_mesh);
  g_mesh = NULL;
}

static int32_t nroots(void) {
  return sim_workload_nvtxs(&g_w);
}

static minex_config *machine(int32_t P, int32_t C, double I,
                             const double *proc) {
  minex_config *cfg = NULL;
  ck_assert_msg(sim_config_make(P, C, I, proc, &cfg) == MINEX_OK, "%s",
                sim_last_error());
  return cfg;
}

/* The initial partition of the runs: RCB of the roots into P parts. */
static int32_t *rcb(int32_t P) {
  int32_t *part = malloc(sizeof *part * (size_t)nroots());
  ck_assert_ptr_nonnull(part);
  ck_assert_int_eq(minex_mesh_partition_rcb(g_mesh, P, part), MINEX_OK);
  return part;
}

/* Copies of what the step callback saw: old and part of every step. */
typedef struct recorder {
  int32_t n;     /* roots                                  */
  int32_t calls; /* steps seen                             */
  int32_t stop;  /* > 0: ask to stop after this step       */
  int32_t old[NSTEPS][6 * 6 * 6 * 6];
  int32_t part[NSTEPS][6 * 6 * 6 * 6];
  sim_step steps[NSTEPS];
} recorder;

static int record(int32_t step, const minex_graph *graph, const int32_t *old,
                  const int32_t *part, const sim_step *s, void *ctx) {
  recorder *r = ctx;
  QUIET_ASSERT(step == r->calls + 1 && step <= NSTEPS);
  /* the run's own graph, with this adaptation's weights */
  QUIET_ASSERT(minex_graph_nvtxs(graph) == r->n);
  QUIET_ASSERT(memcmp(minex_graph_pwgt(graph), g_w.pwgt[step - 1],
                      sizeof(double) * (size_t)r->n) == 0);
  QUIET_ASSERT(memcmp(minex_graph_cwgt(graph), g_w.cwgt[step - 1],
                      sizeof(double) * (size_t)minex_graph_xadj(graph)[r->n]) ==
               0);
  memcpy(r->old[step - 1], old, sizeof(int32_t) * (size_t)r->n);
  memcpy(r->part[step - 1], part, sizeof(int32_t) * (size_t)r->n);
  r->steps[step - 1] = *s;
  r->calls++;
  return r->stop > 0 && step >= r->stop;
}

static recorder *recorder_new(void) {
  recorder *r = calloc(1, sizeof *r);
  ck_assert_ptr_nonnull(r);
  r->n = nroots();
  ck_assert_int_le(r->n, 6 * 6 * 6 * 6);
  return r;
}

static sim_params params(int partition, double alpha, double throttle) {
  sim_params p;
  memset(&p, 0, sizeof p);
  p.partition = partition;
  minex_options_init(&p.opt);
  p.opt.alpha = alpha;
  p.opt.throttle = throttle;
  return p;
}

/* The metrics a step reports equal minex_evaluate's of its old and new. */
static void assert_step_is(const sim_step *s, const minex_metrics *m) {
  ck_assert(test_close(s->max_qwgt, m->max_qwgt, 1e-12));
  ck_assert(test_close(s->min_qwgt, m->min_qwgt, 1e-12));
  ck_assert(test_close(s->qwgt_tot, m->qwgt_tot, 1e-12));
  ck_assert(test_close(s->load_imb, m->load_imb, 1e-12));
  ck_assert(test_close(s->lower_bound, m->lower_bound, 1e-12));
  ck_assert_int_eq(s->cut_edges, m->cut_edges);
  ck_assert(test_close(s->cut_weight, m->cut_weight, 1e-12));
  ck_assert_int_eq(s->moved, m->moved);
  ck_assert(test_close(s->total_v, m->total_v, 1e-12));
  ck_assert(test_close(s->max_v, m->max_v, 1e-12));
  ck_assert(test_close(s->steady_max, m->steady_max, 1e-12));
  ck_assert(test_close(s->max_remap, m->max_remap, 1e-12));
  ck_assert(test_close(s->horizon_time, m->horizon_time, 1e-12));
}

/* --------------------------------------------------------- the machine */

START_TEST(config_spreads_processors_evenly_with_conn_1_inside_and_i_between) {
  const double proc[4] = {1, 2, 0.5, 4};
  minex_config *cfg = machine(10, 4, 7, proc);
  static const int32_t want[4] = {3, 3, 2, 2};
  ck_assert_int_eq(minex_config_nclusters(cfg), 4);
  ck_assert_int_eq(minex_config_nprocs(cfg), 10);
  ck_assert_int_eq(minex_config_navailable(cfg), 10);
  int32_t p = 0;
  for (int32_t c = 0; c < 4; c++) {
    ck_assert_int_eq(minex_config_cluster_nprocs(cfg, c), want[c]);
    for (int32_t k = 0; k < want[c]; k++)
      ck_assert_int_eq(minex_config_cluster_of(cfg, p++), c);
    ck_assert(minex_config_proc_slowdown(cfg, c) == proc[c]);
    for (int32_t d = 0; d < 4; d++)
      ck_assert(minex_config_conn(cfg, c, d) == (c == d ? 1.0 : 7.0));
  }
  minex_config_destroy(cfg);

  /* every (P, C): sizes differ by at most one, larger ones first, Proc 1 */
  for (int32_t P = 1; P <= 40; P++)
    for (int32_t C = 1; C <= P && C <= 9; C++) {
      cfg = machine(P, C, 3, NULL);
      int32_t sum = 0;
      for (int32_t c = 0; c < C; c++) {
        int32_t k = minex_config_cluster_nprocs(cfg, c);
        QUIET_ASSERT(k == P / C || k == P / C + 1);
        QUIET_ASSERT(c == 0 || k <= minex_config_cluster_nprocs(cfg, c - 1));
        QUIET_ASSERT(minex_config_proc_slowdown(cfg, c) == 1.0);
        sum += k;
      }
      QUIET_ASSERT(sum == P);
      minex_config_destroy(cfg);
    }
}
END_TEST

START_TEST(config_rejects_more_clusters_than_processors_and_i_below_1) {
  minex_config *cfg = (minex_config *)&cfg; /* must come back NULL */
  ck_assert_int_eq(sim_config_make(3, 4, 3, NULL, &cfg), MINEX_EINVAL);
  ck_assert_ptr_null(cfg);
  ck_assert_msg(strstr(sim_last_error(), "3 processors cannot fill 4") != NULL,
                "%s", sim_last_error());
  ck_assert_int_eq(sim_config_make(4, 0, 3, NULL, &cfg), MINEX_EINVAL);
  ck_assert_ptr_null(cfg);
  const double bad_i[] = {0.5, 0, -3, NAN, INFINITY};
  for (size_t k = 0; k < sizeof bad_i / sizeof bad_i[0]; k++) {
    cfg = (minex_config *)&cfg;
    ck_assert_int_eq(sim_config_make(8, 2, bad_i[k], NULL, &cfg), MINEX_EINVAL);
    ck_assert_ptr_null(cfg);
    ck_assert_msg(strstr(sim_last_error(), "interconnect slowdown") != NULL,
                  "%s", sim_last_error());
  }
  /* a slowdown the library refuses: its code and message, prefixed */
  const double proc[2] = {1, -1};
  cfg = (minex_config *)&cfg;
  ck_assert_int_eq(sim_config_make(8, 2, 3, proc, &cfg), MINEX_ECONFIG);
  ck_assert_ptr_null(cfg);
  ck_assert_msg(strncmp(sim_last_error(), "machine: ", 9) == 0 &&
                    strlen(sim_last_error()) > 9,
                "%s", sim_last_error());
  /* I = 1 is the homogeneous machine: accepted */
  cfg = machine(8, 2, 1, NULL);
  minex_config_destroy(cfg);
}
END_TEST

/* ------------------------------------------------------------- sim_run */

START_TEST(without_partitioning_every_step_scores_the_initial_partition) {
  const int32_t P = 8;
  minex_config *cfg = machine(P, 2, 3, NULL);
  int32_t *init = rcb(P);
  sim_params p = params(0, 0.5, 16);
  recorder *rec = recorder_new();
  sim_result r;
  ck_assert_msg(sim_run(&g_w, cfg, init, &p, record, rec, &r) == MINEX_OK, "%s",
                sim_last_error());
  ck_assert_int_eq(r.nsteps, NSTEPS);
  ck_assert_int_eq(r.nprocs, P);
  ck_assert_int_eq(rec->calls, NSTEPS);
  double q[8], total = 0, ideal = 0;
  for (int32_t k = 0; k < NSTEPS; k++) {
    const minex_graph *g = g_graphs[k];
    minex_metrics m;
    ck_assert_int_eq(minex_evaluate(g, cfg, init, init, &p.opt, &m), MINEX_OK);
    const sim_step *s = &r.steps[k];
    assert_step_is(s, &m);
    ck_assert_int_eq(s->moved, 0);
    ck_assert(s->total_v == 0);
    ck_assert_int_eq(s->leaves, g_w.leaves[k]);
    ck_assert(s->seconds == 0);
    ck_assert(s->throttle_used == 16);
    ck_assert_int_eq(
        minex_evaluate_procs(g, cfg, init, init, &p.opt, NULL, NULL, NULL, q),
        MINEX_OK);
    ck_assert_mem_eq(q, r.qwgt + (size_t)k * P, sizeof q);
    ck_assert_mem_eq(rec->old[k], init, sizeof(int32_t) * (size_t)rec->n);
    ck_assert_mem_eq(rec->part[k], init, sizeof(int32_t) * (size_t)rec->n);
    total += m.max_qwgt;
    ideal += m.qwgt_tot / P;
  }
  /* the refinement moves: the steps are not all the same */
  ck_assert(r.steps[0].max_qwgt != r.steps[NSTEPS - 1].max_qwgt);
  ck_assert(test_close(r.total, total, 1e-12));
  ck_assert(test_close(r.load_imb, total / ideal, 1e-12));
  ck_assert(r.load_imb >= 1);
  ck_assert(r.seconds == 0);
  sim_result_free(&r);
  free(rec);
  free(init);
  minex_config_destroy(cfg);
}
END_TEST

/* With partitioning on a heterogeneous machine: each step starts from the
 * previous step's result, is no worse than keeping it, and reports the
 * scores of (previous, new) with moves and TotalV recounted here. */
static void check_partitioned_run(const sim_params *p, int32_t P, int32_t C,
                                  double I, const double *proc) {
  minex_config *cfg = machine(P, C, I, proc);
  /* every call of the run is under the workload's horizon */
  minex_options eo = p->opt;
  eo.iterations = g_w.params.iterations;
  int32_t *init = rcb(P);
  recorder *rec = recorder_new();
  sim_result r;
  ck_assert_msg(sim_run(&g_w, cfg, init, p, record, rec, &r) == MINEX_OK, "%s",
                sim_last_error());
  ck_assert_int_eq(rec->calls, NSTEPS);
  int32_t n = rec->n;
  const double *rwgt = NULL;
  double *q = malloc(sizeof *q * (size_t)P);
  double total = 0, ideal = 0, seconds = 0, horizon = 0;
  int64_t moved_all = 0;
  for (int32_t k = 0; k < NSTEPS; k++) {
    const minex_graph *g = g_graphs[k];
    const int32_t *prev = k == 0 ? init : rec->part[k - 1];
    const int32_t *cur = rec->part[k];
    const sim_step *s = &r.steps[k];
    ck_assert_mem_eq(rec->old[k], prev, sizeof(int32_t) * (size_t)n);
    minex_metrics keep, m;
    ck_assert_int_eq(minex_evaluate(g, cfg, prev, prev, &eo, &keep), MINEX_OK);
    ck_assert_msg(s->max_qwgt <= keep.max_qwgt, "step %d: %.17g > %.17g",
                  (int)k + 1, s->max_qwgt, keep.max_qwgt);
    ck_assert_int_eq(minex_evaluate(g, cfg, prev, cur, &eo, &m), MINEX_OK);
    assert_step_is(s, &m);
    int64_t moved = 0;
    double tv = 0;
    rwgt = minex_graph_rwgt(g);
    for (int32_t v = 0; v < n; v++) {
      QUIET_ASSERT(cur[v] >= 0 && cur[v] < P);
      if (cur[v] != prev[v]) {
        moved++;
        tv += rwgt[v];
      }
    }
    ck_assert_int_eq(s->moved, moved);
    ck_assert(test_close(s->total_v, tv, 1e-12));
    ck_assert_int_eq(s->leaves, g_w.leaves[k]);
    ck_assert(s->seconds >= 0);
    if (p->opt.throttle_auto) {
      static const double set[] = MINEX_THROTTLE_AUTO_SET;
      int found = 0;
      for (int i = 0; i < MINEX_THROTTLE_AUTO_COUNT; i++)
        found |= s->throttle_used == set[i];
      ck_assert_msg(found, "step %d: ThroTTle %g is no candidate", (int)k + 1,
                    s->throttle_used);
    } else {
      ck_assert(s->throttle_used == p->opt.throttle);
    }
    /* the per-processor rows, and MaxQwgt their largest */
    ck_assert_int_eq(
        minex_evaluate_procs(g, cfg, prev, cur, &eo, NULL, NULL, NULL, q),
        MINEX_OK);
    const double *row = r.qwgt + (size_t)k * (size_t)P;
    double mx = 0;
    for (int32_t i = 0; i < P; i++) {
      QUIET_ASSERT(row[i] == q[i]);
      mx = fmax(mx, row[i]);
    }
    ck_assert(test_close(mx, s->max_qwgt, 1e-12));
    ck_assert_mem_eq(&rec->steps[k], s, sizeof *s);
    total += s->max_qwgt;
    horizon += s->horizon_time;
    ideal += s->qwgt_tot / P;
    seconds += s->seconds;
    moved_all += moved;
  }
  ck_assert_int_gt(moved_all, 0); /* MinEX did something */
  ck_assert(test_close(r.total, total, 1e-12));
  ck_assert(test_close(r.total_horizon, horizon, 1e-12));
  ck_assert(test_close(r.load_imb, total / ideal, 1e-12));
  ck_assert(test_close(r.seconds, seconds, 1e-12));
  free(q);
  sim_result_free(&r);
  free(rec);
  free(init);
  minex_config_destroy(cfg);
}

/* SPEC §2 horizon: with the workload's iterations k every step runs and is
 * scored under k (the checks of check_partitioned_run), and T_k sums. */
START_TEST(a_run_under_a_horizon_is_scored_under_it) {
  const double proc[2] = {1, 2};
  sim_params p = params(1, 0, INFINITY);
  int32_t keep = g_w.params.iterations;
  g_w.params.iterations = 100; /* the graphs do not depend on it */
  check_partitioned_run(&p, 8, 2, 10, proc);
  g_w.params.iterations = keep;
}
END_TEST

START_TEST(with_partitioning_each_step_is_no_worse_than_keeping_the_last) {
  const double proc[2] = {1, 2};
  sim_params p = params(1, 1, 16);
  check_partitioned_run(&p, 8, 2, 10, proc);
  p = params(1, 0, INFINITY);
  check_partitioned_run(&p, 6, 3, 3, NULL);
}
END_TEST

START_TEST(throttle_auto_steps_use_a_candidate_and_stay_no_worse) {
  sim_params p = params(1, 1, 0);
  p.opt.throttle_auto = 1;
  check_partitioned_run(&p, 8, 2, 3, NULL);
}
END_TEST

START_TEST(two_runs_are_identical_but_for_the_times) {
  minex_config *cfg = machine(8, 2, 10, NULL);
  int32_t *init = rcb(8);
  sim_params p = params(1, 1, 4);
  recorder *ra = recorder_new(), *rb = recorder_new();
  sim_result a, b;
  ck_assert_int_eq(sim_run(&g_w, cfg, init, &p, record, ra, &a), MINEX_OK);
  ck_assert_int_eq(sim_run(&g_w, cfg, init, &p, record, rb, &b), MINEX_OK);
  ck_assert_mem_eq(ra->part, rb->part, sizeof ra->part);
  ck_assert_mem_eq(a.qwgt, b.qwgt, sizeof(double) * NSTEPS * 8);
  for (int32_t k = 0; k < NSTEPS; k++) {
    sim_step sa = a.steps[k], sb = b.steps[k];
    sa.seconds = sb.seconds = 0;
    ck_assert_mem_eq(&sa, &sb, sizeof sa);
  }
  ck_assert(a.total == b.total && a.load_imb == b.load_imb);
  sim_result_free(&a);
  sim_result_free(&b);
  free(ra);
  free(rb);
  free(init);
  minex_config_destroy(cfg);
}
END_TEST

START_TEST(a_callback_can_stop_the_run_and_nothing_is_left) {
  minex_config *cfg = machine(4, 1, 3, NULL);
  int32_t *init = rcb(4);
  sim_params p = params(1, 0, INFINITY);
  recorder *rec = recorder_new();
  rec->stop = 2;
  sim_result r;
  ck_assert_int_eq(sim_run(&g_w, cfg, init, &p, record, rec, &r), MINEX_EINVAL);
  ck_assert_int_eq(rec->calls, 2);
  ck_assert_msg(strstr(sim_last_error(), "stopped after step 2") != NULL, "%s",
                sim_last_error());
  ck_assert_ptr_null(r.steps);
  ck_assert_ptr_null(r.qwgt);
  ck_assert_int_eq(r.nsteps, 0);
  sim_result_free(&r); /* a no-op, twice */
  sim_result_free(NULL);

  sim_workload none;
  memset(&none, 0, sizeof none);
  ck_assert_int_eq(sim_run(&none, cfg, init, &p, NULL, NULL, &r), MINEX_EINVAL);
  ck_assert_msg(strstr(sim_last_error(), "no steps") != NULL, "%s",
                sim_last_error());
  /* an initial owner out of range: the library's error, with the step */
  init[0] = 4;
  ck_assert_int_ne(sim_run(&g_w, cfg, init, &p, NULL, NULL, &r), MINEX_OK);
  ck_assert_msg(strstr(sim_last_error(), "step 1") != NULL, "%s",
                sim_last_error());
  ck_assert_ptr_null(r.steps);
  free(rec);
  free(init);
  minex_config_destroy(cfg);
}
END_TEST

/* --------------------------------------------------------------- grids */

/* Specs of s equal to want (throttle ignored under auto, compared
 * relatively for the log grid). */
static int count_like(const sweep_spec *s, int32_t n, sweep_spec want) {
  int c = 0;
  for (int32_t i = 0; i < n; i++)
    c += s[i].table == want.table && s[i].P == want.P && s[i].C == want.C &&
         s[i].I == want.I && s[i].alpha == want.alpha &&
         s[i].throttle_auto == want.throttle_auto &&
         s[i].partition == want.partition &&
         (want.throttle_auto || s[i].throttle == want.throttle ||
          (isfinite(want.throttle) && isfinite(s[i].throttle) &&
           fabs(s[i].throttle - want.throttle) <= 1e-12 * want.throttle));
  return c;
}

static sweep_spec want_spec(int32_t table, int32_t P, int32_t C, double I,
                            double alpha, double throttle, int aut, int part) {
  sweep_spec s = {table, P, C, I, alpha, throttle, aut, part, 0};
  return s;
}

/* Table t holds exactly the `count` specs that `want` lists, each once. */
static void assert_grid(int32_t t, const sweep_spec *want, int32_t count) {
  sweep_spec *s = NULL;
  int32_t n = -1;
  ck_assert_int_eq(sweep_specs(t, &s, &n), MINEX_OK);
  ck_assert_int_eq(n, count);
  for (int32_t i = 0; i < count; i++)
    ck_assert_msg(count_like(s, n, want[i]) == 1,
                  "table %d: P %d C %d I %g alpha %g ThroTTle %g auto %d "
                  "part %d found %d times",
                  (int)t, (int)want[i].P, (int)want[i].C, want[i].I,
                  want[i].alpha, want[i].throttle, want[i].throttle_auto,
                  want[i].partition, count_like(s, n, want[i]));
  free(s);
}

START_TEST(specs_lay_out_the_papers_tables) {
  sweep_spec w[256];
  int32_t k = 0;
  /* Table 1: ThroTTle 0..inf and auto for C = 1..8; P 32, I 3, alpha 1 */
  static const double t1[8] = {0, 1, 4, 16, 32, 64, 128, INFINITY};
  for (int32_t C = 1; C <= 8; C++) {
    for (int i = 0; i < 8; i++)
      w[k++] = want_spec(SWEEP_T1, 32, C, 3, 1, t1[i], 0, 1);
    w[k++] = want_spec(SWEEP_T1, 32, C, 3, 1, 0, 1, 1);
  }
  ck_assert_int_eq(k, 8 * (8 + 1));
  assert_grid(SWEEP_T1, w, k);
  /* 1log: 13 ThroTTles 10^-3, 10^-2.5, ..., 10^3 */
  k = 0;
  for (int32_t C = 1; C <= 8; C++)
    for (int i = 0; i < 13; i++)
      w[k++] = want_spec(SWEEP_T1LOG, 32, C, 3, 1, pow(10, -3 + 0.5 * i), 0, 1);
  ck_assert_int_eq(k, 8 * 13);
  assert_grid(SWEEP_T1LOG, w, k);
  /* Table 2: I x C x alpha; P 32, ThroTTle 64 */
  static const double t2[4] = {3, 10, 100, 1000};
  k = 0;
  for (int a = 0; a <= 1; a++)
    for (int32_t C = 1; C <= 8; C++)
      for (int i = 0; i < 4; i++)
        w[k++] = want_spec(SWEEP_T2, 32, C, t2[i], a, 64, 0, 1);
  ck_assert_int_eq(k, 2 * 8 * 4);
  assert_grid(SWEEP_T2, w, k);
  /* Tables 3 and 4: P 2..2048 x C {1, 8} (8 only when P >= 8) x alpha;
     I 3, ThroTTle 2P; Table 3 also auto, Table 4 without partitioning */
  for (int32_t t = SWEEP_T3; t <= SWEEP_T4; t++) {
    k = 0;
    for (int a = 0; a <= 1; a++)
      for (int32_t P = 2; P <= 2048; P *= 2)
        for (int32_t C = 1; C <= 8 && C <= P; C += 7) {
          w[k++] = want_spec(t, P, C, 3, a, 2.0 * P, 0, t == SWEEP_T3);
          if (t == SWEEP_T3)
            w[k++] = want_spec(t, P, C, 3, a, 0, 1, 1);
        }
    ck_assert_int_eq(k, t == SWEEP_T3 ? 2 * (11 + 9) * 2 : 2 * (11 + 9));
    assert_grid(t, w, k);
  }
  sweep_spec *s = NULL;
  int32_t n = 0;
  ck_assert_int_eq(sweep_specs(6, &s, &n), MINEX_EINVAL);
  ck_assert_ptr_null(s);
  ck_assert_msg(strstr(sim_last_error(), "unknown table 6") != NULL, "%s",
                sim_last_error());
}
END_TEST

START_TEST(table_names_parse_and_print_both_ways) {
  static const char *names[] = {"1", "1log", "2", "3", "4"};
  static const int32_t tables[] = {SWEEP_T1, SWEEP_T1LOG, SWEEP_T2, SWEEP_T3,
                                   SWEEP_T4};
  for (int i = 0; i < 5; i++) {
    ck_assert_int_eq(sweep_table_parse(names[i]), tables[i]);
    char want[16];
    snprintf(want, sizeof want, "table%s", names[i]);
    ck_assert_str_eq(sweep_table_name(tables[i]), want);
  }
  static const char *bad[] = {"", "5", "0", "1LOG", "table1", "1 "};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    ck_assert_int_eq(sweep_table_parse(bad[i]), -1);
}
END_TEST

START_TEST(options_take_seed_alpha_and_throttle_of_the_spec) {
  sweep_spec s = want_spec(SWEEP_T3, 16, 8, 3, 1, 32, 1, 1);
  minex_options o, d;
  sweep_options(&s, 77, &o);
  minex_options_init(&d);
  ck_assert(o.seed == 77);
  ck_assert(o.alpha == 1 && o.throttle == 32 && o.throttle_auto == 1);
  /* the paper's rules alone: the sweeps reproduce its tables */
  ck_assert_int_eq(o.paper_exact, 1);
  /* everything else is the library's default */
  d.paper_exact = 1;
  d.seed = o.seed;
  d.alpha = o.alpha;
  d.throttle = o.throttle;
  d.throttle_auto = o.throttle_auto;
  ck_assert_mem_eq(&o, &d, sizeof o);
  /* --rules default: the same options with the paper's switch off */
  s.default_rules = 1;
  sweep_options(&s, 77, &o);
  d.paper_exact = 0;
  ck_assert_mem_eq(&o, &d, sizeof o);
}
END_TEST

/* -------------------------------------------------------------- runner */

/* A small mixed list: both tables' kinds, auto, no partitioning, uneven
 * clusters. */
static const sweep_spec mixed[6] = {
    {SWEEP_T3, 4, 1, 3, 0, 8, 0, 1, 0},
    {SWEEP_T3, 8, 2, 10, 1, 16, 0, 1, 0},
    {SWEEP_T3, 8, 8, 3, 1, INFINITY, 1, 1, 0},
    {SWEEP_T4, 4, 2, 3, 0, 8, 0, 0, 0},
    {SWEEP_T1, 6, 3, 3, 1, 0, 0, 1, 0},
    {SWEEP_T1, 5, 2, 100, 0.5, INFINITY, 0, 1, 1}, /* default rules */
};
#define NMIXED 6
#define RS ((size_t)SWEEP_NSUM + (size_t)SWEEP_NSTEPF * NSTEPS)

typedef struct progress_log {
  int32_t calls, last_done, todo;
} progress_log;

static void progress(const sweep_spec *s, const double *rec, int32_t done,
                     int32_t todo, void *ctx) {
  progress_log *l = ctx;
  QUIET_ASSERT(s >= mixed && s < mixed + NMIXED);
  QUIET_ASSERT(rec[SWEEP_SUM_DONE] == 1);
  QUIET_ASSERT(done == l->last_done + 1 && todo == l->todo);
  l->last_done = done;
  l->calls++;
}

static void run_mixed(int32_t rank, int32_t nranks, int32_t threads,
                      double *res) {
  progress_log l = {0, 0, 0};
  for (int32_t i = rank; i < NMIXED; i += nranks)
    l.todo++;
  ck_assert_msg(sweep_run(&g_w, g_mesh, mixed, NMIXED, 5, rank, nranks, threads,
                          res, progress, &l) == MINEX_OK,
                "%s", sim_last_error());
  ck_assert_int_eq(l.calls, l.todo);
}

/* Field f of a record is a repartition time (differs between runs). */
static int is_timing(size_t f) {
  return f == SWEEP_SUM_SECONDS ||
         (f >= SWEEP_NSUM &&
          (f - SWEEP_NSUM) % SWEEP_NSTEPF == SWEEP_ST_SECONDS);
}

/* a and b equal in every field but the repartition times */
static void assert_same_records(const double *a, const double *b) {
  for (size_t i = 0; i < NMIXED * RS; i++) {
    size_t f = i % RS;
    if (!is_timing(f) && memcmp(&a[i], &b[i], sizeof(double)) != 0)
      ck_abort_msg("record %d field %d: %.17g != %.17g", (int)(i / RS), (int)f,
                   a[i], b[i]);
  }
}

START_TEST(sweep_records_are_the_same_on_threads_and_ranks) {
  double *one = calloc(NMIXED * RS, sizeof(double));
  double *two = calloc(NMIXED * RS, sizeof(double));
  double *split = calloc(NMIXED * RS, sizeof(double));
  double *third = calloc(NMIXED * RS, sizeof(double));
  ck_assert(one && two && split && third);
  run_mixed(0, 1, 1, one);
  run_mixed(0, 1, 2, two);
  run_mixed(0, 2, 1, split); /* rank 0 of 2 */
  run_mixed(1, 2, 2, split); /* rank 1 of 2 into the same array */
  run_mixed(1, 3, 1, third); /* rank 1 of 3: records 1 and 4 only */
  for (int32_t i = 0; i < NMIXED; i++) {
    ck_assert(one[i * RS + SWEEP_SUM_DONE] == 1);
    for (size_t f = 0; f < RS; f++)
      if (i % 3 != 1)
        QUIET_ASSERT(third[i * RS + f] == 0);
      else
        QUIET_ASSERT(third[i * RS + f] == one[i * RS + f] || is_timing(f));
  }
  assert_same_records(one, two);
  assert_same_records(one, split);
  free(two);
  free(split);
  free(third);

  /* each record is the configuration's own sim_run */
  for (int32_t i = 0; i < NMIXED; i++) {
    const sweep_spec *s = &mixed[i];
    minex_config *cfg = machine(s->P, s->C, s->I, NULL);
    int32_t *init = rcb(s->P);
    sim_params p;
    p.partition = s->partition;
    sweep_options(s, 5, &p.opt);
    sim_result r;
    ck_assert_int_eq(sim_run(&g_w, cfg, init, &p, NULL, NULL, &r), MINEX_OK);
    const double *rec = one + i * RS;
    double cut = 0, tv = 0, mv = 0;
    for (int32_t k = 0; k < NSTEPS; k++) {
      const sim_step *t = &r.steps[k];
      const double *f = rec + SWEEP_NSUM + k * SWEEP_NSTEPF;
      ck_assert(f[SWEEP_ST_MAXQ] == t->max_qwgt);
      ck_assert(f[SWEEP_ST_MINQ] == t->min_qwgt);
      ck_assert(f[SWEEP_ST_QTOT] == t->qwgt_tot);
      ck_assert(f[SWEEP_ST_LOADIMB] == t->load_imb);
      ck_assert(f[SWEEP_ST_CUT] == (double)t->cut_edges);
      ck_assert(f[SWEEP_ST_CUTW] == t->cut_weight);
      ck_assert(f[SWEEP_ST_MOVED] == (double)t->moved);
      ck_assert(f[SWEEP_ST_TOTALV] == t->total_v);
      ck_assert(f[SWEEP_ST_THROTTLE] == t->throttle_used);
      ck_assert(f[SWEEP_ST_LEAVES] == (double)g_w.leaves[k]);
      cut += t->cut_weight;
      tv += t->total_v;
      mv += (double)t->moved;
    }
    ck_assert(rec[SWEEP_SUM_TOTAL] == r.total);
    ck_assert(rec[SWEEP_SUM_LOADIMB] == r.load_imb);
    ck_assert(test_close(rec[SWEEP_SUM_CUT], cut / NSTEPS, 1e-12));
    ck_assert(rec[SWEEP_SUM_TOTALV] == tv);
    ck_assert(rec[SWEEP_SUM_MOVED] == mv);
    ck_assert(rec[SWEEP_SUM_HORIZON] == r.total_horizon);
    if (!s->partition)
      ck_assert(rec[SWEEP_SUM_MOVED] == 0 && rec[SWEEP_SUM_SECONDS] == 0);
    sim_result_free(&r);
    free(init);
    minex_config_destroy(cfg);
  }
  free(one);
}
END_TEST

START_TEST(sweep_rejects_bad_ranks_and_threads_and_reports_a_failing_spec) {
  double *res = calloc(NMIXED * RS, sizeof(double));
  ck_assert_ptr_nonnull(res);
  ck_assert_int_eq(
      sweep_run(&g_w, g_mesh, mixed, NMIXED, 1, 2, 2, 1, res, NULL, NULL),
      MINEX_EINVAL);
  ck_assert_int_eq(
      sweep_run(&g_w, g_mesh, mixed, NMIXED, 1, 0, 0, 1, res, NULL, NULL),
      MINEX_EINVAL);
  ck_assert_int_eq(
      sweep_run(&g_w, g_mesh, mixed, NMIXED, 1, -1, 2, 1, res, NULL, NULL),
      MINEX_EINVAL);
  ck_assert_int_eq(
      sweep_run(&g_w, g_mesh, mixed, NMIXED, 1, 0, 1, 0, res, NULL, NULL),
      MINEX_EINVAL);
  ck_assert_msg(strstr(sim_last_error(), "0 threads") != NULL, "%s",
                sim_last_error());
  /* a spec the machine refuses (C > P): its message comes back */
  sweep_spec bad[2] = {mixed[0], mixed[0]};
  bad[1].C = 9;
  for (int32_t threads = 1; threads <= 2; threads++) {
    ck_assert_int_eq(
        sweep_run(&g_w, g_mesh, bad, 2, 1, 0, 1, threads, res, NULL, NULL),
        MINEX_EINVAL);
    ck_assert_msg(strstr(sim_last_error(), "cannot fill 9 clusters") != NULL,
                  "%s", sim_last_error());
  }
  free(res);
}
END_TEST

/* ------------------------------------------------------------- output */

static char *make_tmpdir(void) {
  const char *base = getenv("TMPDIR");
  char *dir = malloc(4096);
  ck_assert_ptr_nonnull(dir);
  snprintf(dir, 4096, "%s/minex_test_sim_XXXXXX",
           base && base[0] ? base : "/tmp");
  ck_assert_ptr_nonnull(mkdtemp(dir));
  return dir;
}

/* Removes dir and the files (and empty directories) in it. */
static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  struct dirent *e;
  char path[4096];
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (remove(path) != 0)
      ck_abort_msg("cannot remove %s", path);
  }
  closedir(d);
  ck_assert_int_eq(rmdir(dir), 0);
}

/* Entries of dir (without . and ..); those containing `part` when not
 * NULL. */
static int count_entries(const char *dir, const char *part) {
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  int c = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
        (part == NULL || strstr(e->d_name, part) != NULL))
      c++;
  closedir(d);
  return c;
}

static char *slurp(const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "rb");
  ck_assert_msg(fp != NULL, "%s missing", path);
  ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
  long len = ftell(fp);
  ck_assert_int_ge(len, 0);
  rewind(fp);
  char *s = malloc((size_t)len + 1);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(fread(s, 1, (size_t)len, fp), (size_t)len);
  s[len] = '\0';
  fclose(fp);
  return s;
}

static int exists(const char *dir, const char *name) {
  char path[4096];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return stat(path, &st) == 0;
}

/* Made-up records: record i's total is 1000 (i + 1) + 0.25 (so the table
 * shows i + 1 thousand) and LoadImb 1.001 + i / 100. */
static double *fake_records(const sweep_spec *specs, int32_t n,
                            int32_t nsteps) {
  size_t rs = (size_t)sweep_record_size(nsteps);
  double *res = calloc((size_t)n * rs, sizeof(double));
  ck_assert_ptr_nonnull(res);
  for (int32_t i = 0; i < n; i++) {
    double *r = res + (size_t)i * rs;
    r[SWEEP_SUM_TOTAL] = 1000.0 * (i + 1) + 0.25;
    r[SWEEP_SUM_LOADIMB] = 1.001 + i / 100.0;
    r[SWEEP_SUM_SECONDS] = 0.5 + i;
    r[SWEEP_SUM_CUT] = 3.5 * i;
    r[SWEEP_SUM_TOTALV] = 7.0 * i + 0.125;
    r[SWEEP_SUM_MOVED] = i;
    r[SWEEP_SUM_HORIZON] = 2000.0 * (i + 1) + 0.375;
    r[SWEEP_SUM_DONE] = 1;
    for (int32_t k = 0; k < nsteps; k++) {
      double *f = r + SWEEP_NSUM + (size_t)k * SWEEP_NSTEPF;
      f[SWEEP_ST_MAXQ] = 10.0 * i + k + 0.5;
      f[SWEEP_ST_LEAVES] = 100 + k;
      f[SWEEP_ST_THROTTLE] = specs[i].throttle_auto ? 4 : specs[i].throttle;
    }
  }
  return res;
}

static void fmt_throttle(char *buf, size_t size, double t, int aut) {
  if (aut)
    snprintf(buf, size, "auto");
  else if (isinf(t))
    snprintf(buf, size, "inf");
  else
    snprintf(buf, size, "%g", t);
}

START_TEST(write_puts_one_csv_row_per_spec_with_its_record) {
  sweep_spec *specs = NULL;
  int32_t n = 0;
  const int32_t nsteps = 2;
  ck_assert_int_eq(sweep_specs(SWEEP_T1, &specs, &n), MINEX_OK);
  double *res = fake_records(specs, n, nsteps);
  char *dir = make_tmpdir();
  ck_assert_msg(sweep_write(dir, SWEEP_T1, specs, n, nsteps, res) == MINEX_OK,
                "%s", sim_last_error());

  char *csv = slurp(dir, "table1.csv");
  char *line = strtok(csv, "\n");
  ck_assert_str_eq(line, "table,P,C,I,alpha,throttle,partition,"
                         "total_maxqwgt,load_imb,mean_cut_weight,total_v,"
                         "moved,throttle_used_last,total_horizon,"
                         "seconds_repartition");
  int32_t rows = 0;
  while ((line = strtok(NULL, "\n")) != NULL) {
    ck_assert_int_lt(rows, n);
    const sweep_spec *s = &specs[rows];
    const double *r = res + (size_t)rows * sweep_record_size(nsteps);
    char tname[32], th[32], tu[32], want_th[32], want_tu[32];
    int P, C, part;
    double I, alpha, total, imb, cut, tv, moved, sec, hor;
    ck_assert_int_eq(sscanf(line,
                            "%31[^,],%d,%d,%lf,%lf,%31[^,],%d,%lf,%lf,"
                            "%lf,%lf,%lf,%31[^,],%lf,%lf",
                            tname, &P, &C, &I, &alpha, th, &part, &total, &imb,
                            &cut, &tv, &moved, tu, &hor, &sec),
                     15);
    fmt_throttle(want_th, sizeof want_th, s->throttle, s->throttle_auto);
    fmt_throttle(want_tu, sizeof want_tu, s->throttle_auto ? 4 : s->throttle,
                 0);
    ck_assert_str_eq(tname, "table1");
    ck_assert(P == s->P && C == s->C && I == s->I && alpha == s->alpha);
    ck_assert_str_eq(th, want_th);
    ck_assert_int_eq(part, s->partition);
    ck_assert(total == r[SWEEP_SUM_TOTAL]); /* %.17g: exact */
    ck_assert(test_close(imb, r[SWEEP_SUM_LOADIMB], 1e-6));
    ck_assert(test_close(cut, r[SWEEP_SUM_CUT], 1e-6));
    ck_assert(tv == r[SWEEP_SUM_TOTALV]);
    ck_assert(moved == r[SWEEP_SUM_MOVED]);
    ck_assert_str_eq(tu, want_tu);
    ck_assert(test_close(sec, r[SWEEP_SUM_SECONDS], 1e-6));
    ck_assert(hor == r[SWEEP_SUM_HORIZON]); /* %.17g: exact */
    rows++;
  }
  ck_assert_int_eq(rows, n);
  free(csv);

  /* per step: one row per spec and step, step numbers 1.., MaxQwgt exact */
  char *steps = slurp(dir, "table1_steps.csv");
  line = strtok(steps, "\n");
  ck_assert(strncmp(line, "table,P,C,I,alpha,throttle,partition,step,", 42) ==
            0);
  rows = 0;
  while ((line = strtok(NULL, "\n")) != NULL) {
    int32_t i = rows / nsteps, k = rows % nsteps;
    int step;
    double leaves, maxq;
    ck_assert_int_eq(sscanf(line,
                            "%*[^,],%*d,%*d,%*f,%*f,%*[^,],%*d,%d,%lf,"
                            "%lf",
                            &step, &leaves, &maxq),
                     3);
    ck_assert_int_eq(step, k + 1);
    ck_assert(leaves == 100 + k);
    ck_assert(maxq == 10.0 * i + k + 0.5);
    rows++;
  }
  ck_assert_int_eq(rows, n * nsteps);
  free(steps);

  /* the paper's layout: ThroTTle across, C down; thousands, LoadImb */
  char *md = slurp(dir, "table1.md");
  ck_assert_ptr_nonnull(strstr(md, "# table1: MaxQwgt"));
  ck_assert_ptr_nonnull(
      strstr(md, "| C | 0 | 1 | 4 | 16 | 32 | 64 | 128 | inf | auto |"));
  ck_assert_ptr_nonnull(
      strstr(md, "| 1 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 |"));
  ck_assert_ptr_nonnull(
      strstr(md, "| 8 | 64 | 65 | 66 | 67 | 68 | 69 | 70 | 71 | 72 |"));
  ck_assert_ptr_nonnull(strstr(md, "| 1 | 1.00 | 1.01 | 1.02 | 1.03 | 1.04 | "
                                   "1.05 | 1.06 | 1.07 | 1.08 |"));
  free(md);
  ck_assert(exists(dir, "table1.dat") && exists(dir, "table1.gp"));
  ck_assert_int_eq(count_entries(dir, NULL), 5);
  remove_tree(dir);
  free(dir);
  free(res);
  free(specs);
}
END_TEST

START_TEST(tables_3_and_4_share_one_plot_of_maxqwgt_against_p) {
  char *dir = make_tmpdir();
  for (int32_t t = SWEEP_T3; t <= SWEEP_T4; t++) {
    sweep_spec *specs = NULL;
    int32_t n = 0;
    ck_assert_int_eq(sweep_specs(t, &specs, &n), MINEX_OK);
    double *res = fake_records(specs, n, 1);
    ck_assert_int_eq(sweep_write(dir, t, specs, n, 1, res), MINEX_OK);
    char *gp = slurp(dir, "maxqwgt_against_p.gp");
    ck_assert_ptr_nonnull(strstr(gp, "'table3.dat'"));
    if (t == SWEEP_T3)
      ck_assert_ptr_null(strstr(gp, "'table4.dat'"));
    else
      ck_assert_ptr_nonnull(strstr(gp, "'table4.dat'"));
    free(gp);
    char *md = slurp(dir, t == SWEEP_T3 ? "table3.md" : "table4.md");
    ck_assert_ptr_nonnull(strstr(md, "| P | MaxQwgt C=1 | MaxQwgt C=8"));
    /* P = 2 has no C = 8 column value */
    ck_assert_ptr_nonnull(strstr(md, "| 2 | 1 | - |"));
    free(md);
    free(res);
    free(specs);
  }
  ck_assert(!exists(dir, "table3.gp") && !exists(dir, "table4.gp"));
  remove_tree(dir);
  free(dir);
}
END_TEST

START_TEST(write_into_a_missing_directory_fails_and_leaves_nothing) {
  sweep_spec *specs = NULL;
  int32_t n = 0;
  ck_assert_int_eq(sweep_specs(SWEEP_T2, &specs, &n), MINEX_OK);
  double *res = fake_records(specs, n, 1);
  char *dir = make_tmpdir();
  char missing[4200];
  snprintf(missing, sizeof missing, "%s/missing", dir);
  ck_assert_int_eq(sweep_write(missing, SWEEP_T2, specs, n, 1, res), MINEX_EIO);
  ck_assert_msg(strstr(sim_last_error(), missing) != NULL, "%s",
                sim_last_error());
  ck_assert_int_eq(count_entries(dir, NULL), 0);

  /* a file that cannot be replaced (a directory in its place) stops the
     writing there: the files before it are whole, no temporary is left */
  char blocker[4200];
  snprintf(blocker, sizeof blocker, "%s/table2.md", dir);
  ck_assert_int_eq(mkdir(blocker, 0777), 0);
  ck_assert_int_eq(sweep_write(dir, SWEEP_T2, specs, n, 1, res), MINEX_EIO);
  ck_assert_msg(strstr(sim_last_error(), "table2.md") != NULL, "%s",
                sim_last_error());
  ck_assert_int_eq(count_entries(dir, "tmp"), 0);
  ck_assert(exists(dir, "table2.csv") && exists(dir, "table2_steps.csv"));
  ck_assert(!exists(dir, "table2.dat") && !exists(dir, "table2.gp"));
  char *csv = slurp(dir, "table2.csv");
  int lines = 0;
  for (const char *p = csv; *p; p++)
    lines += *p == '\n';
  ck_assert_int_eq(lines, n + 1);
  free(csv);
  remove_tree(dir);
  free(dir);
  free(res);
  free(specs);
}
END_TEST

START_TEST(plots_are_rendered_by_gnuplot_or_fail_with_eio) {
  char *dir = make_tmpdir();
  /* no script in dir: gnuplot fails (or is missing): MINEX_EIO; its
     complaint on stderr is expected, so it goes to /dev/null */
  fflush(stderr);
  int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
  if (saved >= 0 && null >= 0)
    dup2(null, STDERR_FILENO);
  int rc = sweep_plot(dir, SWEEP_T2);
  if (saved >= 0) {
    dup2(saved, STDERR_FILENO);
    close(saved);
  }
  if (null >= 0)
    close(null);
  ck_assert_int_eq(rc, MINEX_EIO);
  ck_assert_msg(strstr(sim_last_error(), "gnuplot") != NULL, "%s",
                sim_last_error());
  if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
    fprintf(stderr, "test_sim: gnuplot missing, rendering not tested\n");
  } else {
    sweep_spec *specs = NULL;
    int32_t n = 0;
    ck_assert_int_eq(sweep_specs(SWEEP_T2, &specs, &n), MINEX_OK);
    double *res = fake_records(specs, n, 1);
    ck_assert_int_eq(sweep_write(dir, SWEEP_T2, specs, n, 1, res), MINEX_OK);
    ck_assert_msg(sweep_plot(dir, SWEEP_T2) == MINEX_OK, "%s",
                  sim_last_error());
    ck_assert(exists(dir, "table2_interconnect.png"));
    ck_assert(exists(dir, "table2_interconnect.svg"));
    free(res);
    free(specs);
  }
  remove_tree(dir);
  free(dir);
}
END_TEST

int main(void) {
  Suite *s = suite_create("sims_sim");
  TCase *tc = tcase_create("machine");
  tcase_add_test(
      tc, config_spreads_processors_evenly_with_conn_1_inside_and_i_between);
  tcase_add_test(tc,
                 config_rejects_more_clusters_than_processors_and_i_below_1);
  tcase_add_test(tc, specs_lay_out_the_papers_tables);
  tcase_add_test(tc, table_names_parse_and_print_both_ways);
  tcase_add_test(tc, options_take_seed_alpha_and_throttle_of_the_spec);
  tcase_add_test(tc, write_puts_one_csv_row_per_spec_with_its_record);
  tcase_add_test(tc, tables_3_and_4_share_one_plot_of_maxqwgt_against_p);
  tcase_add_test(tc, write_into_a_missing_directory_fails_and_leaves_nothing);
  tcase_add_test(tc, plots_are_rendered_by_gnuplot_or_fail_with_eio);
  suite_add_tcase(s, tc);
  TCase *run = tcase_create("runs");
  tcase_add_unchecked_fixture(run, workload_setup, workload_teardown);
  tcase_set_timeout(run, 120);
  tcase_add_test(run,
                 without_partitioning_every_step_scores_the_initial_partition);
  tcase_add_test(run,
                 with_partitioning_each_step_is_no_worse_than_keeping_the_last);
  tcase_add_test(run, a_run_under_a_horizon_is_scored_under_it);
  tcase_add_test(run, a_callback_can_stop_the_run_and_nothing_is_left);
  tcase_add_test(
      run, sweep_rejects_bad_ranks_and_threads_and_reports_a_failing_spec);
  suite_add_tcase(s, run);
  TCase *heavy = test_heavy_tcase(s, 120);
  tcase_add_unchecked_fixture(heavy, workload_setup, workload_teardown);
  tcase_add_test(heavy, sweep_records_are_the_same_on_threads_and_ranks);
  tcase_add_test(heavy, throttle_auto_steps_use_a_candidate_and_stay_no_worse);
  tcase_add_test(heavy, two_runs_are_identical_but_for_the_times);
  return test_run_suite(s);
}
