/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The from-scratch candidate (src/scratch, SPEC §3 "Beyond the paper" and
 * "Guarantees"): the same result whatever else runs in the process,
 * nothing printed, no signal handler touched, a result for every valid
 * input (METIS 5.1 fails each of these). */
#include "scratch/scratch.h"
#include "test_util.h"

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the log callback saw: whether the candidate ran (and was scored),
 * and whether a signal handler differed from the test's while the call
 * was under way (the callback runs inside minex_repartition, right after
 * the candidate's partitioner). */
typedef struct seen {
  int ran;     /* "scratch: Scotch on level ..." */
  int scored;  /* "scratch: T_k ..."            */
  int skipped; /* "scratch: skipped ..."        */
  int handler_changed;
} seen;

static const int watched[] = {SIGTERM, SIGABRT, SIGINT,
                              SIGSEGV, SIGBUS,  SIGFPE};
#define NWATCHED ((int)(sizeof watched / sizeof watched[0]))

static void test_handler(int sig) {
  (void)sig;
}

static int handlers_are_ours(void) {
  for (int i = 0; i < NWATCHED; i++) {
    struct sigaction sa;
    if (sigaction(watched[i], NULL, &sa) != 0 || sa.sa_handler != test_handler)
      return 0;
  }
  return 1;
}

static void log_seen(const char *msg, void *ctx) {
  seen *s = ctx;
  s->ran += strncmp(msg, "scratch: Scotch on level", 24) == 0;
  s->scored += strncmp(msg, "scratch: T_k", 12) == 0;
  s->skipped += strncmp(msg, "scratch: skipped", 16) == 0;
  s->handler_changed |= !handlers_are_ours();
}

/* One repartitioning problem with the candidate on. */
typedef struct problem {
  minex_graph *g;
  minex_config *cf;
  int32_t *old;
  int32_t n;
  minex_options opt;
  int32_t *ref; /* the single-threaded result */
} problem;

static void problem_make(problem *p, unsigned long seed) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, seed);
  p->n = 1500 + (int32_t)gsl_rng_uniform_int(rng, 1500);
  p->g = test_random_graph(rng, p->n, 5.0, (int)(seed % 2));
  p->cf = test_random_config(rng, 4, 6);
  p->old = malloc(sizeof(int32_t) * (size_t)p->n);
  p->ref = malloc(sizeof(int32_t) * (size_t)p->n);
  test_random_part(rng, p->cf, p->n, p->old);
  minex_options_init(&p->opt);
  p->opt.iterations = 100;
  p->opt.scratch = MINEX_SCRATCH_ON;
  p->opt.alpha = seed % 3 == 0 ? 1.0 : 0.0;
  p->opt.seed = seed;
  gsl_rng_free(rng);
}

static void problem_free(problem *p) {
  minex_graph_destroy(p->g);
  minex_config_destroy(p->cf);
  free(p->old);
  free(p->ref);
}

#define NPROBLEMS 6
#define ROUNDS 3

typedef struct worker {
  problem *pb;
  int first; /* problems first, first + 2, ... */
  int mismatches, failures;
} worker;

static void *worker_run(void *arg) {
  worker *w = arg;
  for (int r = 0; r < ROUNDS; r++)
    for (int i = w->first; i < NPROBLEMS; i += 2) {
      problem *p = &w->pb[i];
      int32_t *out = malloc(sizeof(int32_t) * (size_t)p->n);
      if (minex_repartition(p->g, p->cf, p->old, &p->opt, out, NULL) !=
          MINEX_OK)
        w->failures++;
      else if (memcmp(out, p->ref, sizeof(int32_t) * (size_t)p->n) != 0)
        w->mismatches++;
      free(out);
    }
  return NULL;
}

/* Two threads repartitioning separate graphs get the single-threaded
 * results bit for bit (METIS 5.1's process-global random generator made
 * 20-60% of such calls differ). */
START_TEST(two_threads_give_the_single_threaded_results) {
  problem pb[NPROBLEMS];
  for (int i = 0; i < NPROBLEMS; i++) {
    problem_make(&pb[i], 1000 + (unsigned long)i);
    seen s = {0};
    pb[i].opt.log_fn = log_seen;
    pb[i].opt.log_ctx = &s;
    ck_assert_msg(minex_repartition(pb[i].g, pb[i].cf, pb[i].old, &pb[i].opt,
                                    pb[i].ref, NULL) == MINEX_OK,
                  "problem %d: %s", i, minex_last_error());
    /* the candidate really ran (else the test proves nothing) */
    ck_assert_int_eq(s.ran, 1);
    ck_assert_int_eq(s.scored, 1);
    pb[i].opt.log_fn = NULL;
    pb[i].opt.log_ctx = NULL;
  }
  worker w[2] = {{pb, 0, 0, 0}, {pb, 1, 0, 0}};
  pthread_t th[2];
  for (int t = 0; t < 2; t++)
    ck_assert_int_eq(pthread_create(&th[t], NULL, worker_run, &w[t]), 0);
  for (int t = 0; t < 2; t++)
    ck_assert_int_eq(pthread_join(th[t], NULL), 0);
  for (int t = 0; t < 2; t++) {
    ck_assert_int_eq(w[t].failures, 0);
    ck_assert_msg(w[t].mismatches == 0,
                  "thread %d: %d of %d results differ from one thread's", t,
                  w[t].mismatches, ROUNDS * NPROBLEMS / 2);
  }
  for (int i = 0; i < NPROBLEMS; i++)
    problem_free(&pb[i]);
}
END_TEST

/* Machines and weights of every valid magnitude: the call succeeds, the
 * candidate runs and is scored (it is skipped only when its partitioner
 * fails, which none of these may make it do), nothing is printed on
 * stdout or stderr and the signal handlers stay the application's, during
 * the call and after it. METIS 5.1 printed ("***Cannot bisect a graph with
 * 0 vertices!", "Input Error: Incorrect tpwgts"), failed the whole call at
 * speed ratios of 1e8 and left its own SIGTERM/SIGABRT handlers behind;
 * a total Pwgt of 1e-300 made its weight scaling convert inf to int. */
START_TEST(extreme_machines_and_weights_print_nothing_touch_no_signal) {
  for (int i = 0; i < NWATCHED; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = test_handler;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(watched[i], &sa, NULL), 0);
  }
  /* stdout and stderr into a file for the duration of the calls */
  fflush(stdout);
  fflush(stderr);
  char path[] = "/tmp/minex_test_scratch_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  int save_out = dup(1), save_err = dup(2);
  ck_assert(save_out >= 0 && save_err >= 0);
  ck_assert_int_ge(dup2(fd, 1), 0);
  ck_assert_int_ge(dup2(fd, 2), 0);

  const double ratios[] = {1, 1e4, 1e8, 1e12, 1e100, 1e300};
  const double scales[] = {1, 1e-300, 1e-170, 1e-20, 1e20, 1e150};
  int calls = 0, bad = 0;
  char what[256] = "";
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 5);
  for (int r = 0; r < 6; r++)
    for (int s = 0; s < 6; s++) {
      /* loads above ~1e150 are refused as an overflow of MinVar (the
         sum of squared loads, docs/reference/errors.md): not the candidate's
         case */
      if (ratios[r] * scales[s] > 1e140)
        continue;
      int32_t n = 200 + (int32_t)gsl_rng_uniform_int(rng, 300);
      minex_graph *g0 = test_random_graph(rng, n, 4.0, 1);
      const int64_t *xadj = minex_graph_xadj(g0);
      double *pw = malloc(sizeof(double) * (size_t)n);
      for (int32_t v = 0; v < n; v++)
        pw[v] = minex_graph_pwgt(g0)[v] * scales[s];
      minex_graph *g = NULL;
      ck_assert_int_eq(minex_graph_create(n, xadj, minex_graph_adjncy(g0), pw,
                                          minex_graph_rwgt(g0),
                                          minex_graph_cwgt(g0), &g),
                       MINEX_OK);
      /* three clusters: fast, slow by the ratio, and a one-processor one
         (a cluster with fewer vertices of its own than processors) */
      int32_t np[3] = {4, 4, 1};
      double proc[3] = {1, ratios[r], 2};
      double conn[9] = {1, 10, 10, 10, 1, 10, 10, 10, 1};
      minex_config *cf = NULL;
      ck_assert_int_eq(minex_config_create(3, np, proc, conn, &cf), MINEX_OK);
      int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
      int32_t *nw = malloc(sizeof(int32_t) * (size_t)n);
      for (int32_t v = 0; v < n; v++) /* everything on the slow cluster */
        old[v] = 4 + v % 4;
      seen sn = {0};
      minex_options opt;
      minex_options_init(&opt);
      opt.iterations = 10;
      opt.scratch = MINEX_SCRATCH_ON;
      opt.log_fn = log_seen;
      opt.log_ctx = &sn;
      int rc = minex_repartition(g, cf, old, &opt, nw, NULL);
      calls++;
      if (rc != MINEX_OK || sn.ran != 1 || sn.scored != 1 || sn.skipped ||
          sn.handler_changed || !handlers_are_ours()) {
        if (!bad)
          snprintf(what, sizeof what,
                   "ratio %g, Pwgt x %g: rc %d (%s), ran %d, scored %d, "
                   "skipped %d, handler changed %d/%d",
                   ratios[r], scales[s], rc, rc ? minex_last_error() : "ok",
                   sn.ran, sn.scored, sn.skipped, sn.handler_changed,
                   !handlers_are_ours());
        bad++;
      }
      free(pw);
      free(old);
      free(nw);
      minex_graph_destroy(g0);
      minex_graph_destroy(g);
      minex_config_destroy(cf);
    }
  gsl_rng_free(rng);
  fflush(stdout);
  fflush(stderr);
  dup2(save_out, 1);
  dup2(save_err, 2);
  close(save_out);
  close(save_err);
  off_t printed = lseek(fd, 0, SEEK_END);
  char head[200] = "";
  if (printed > 0) {
    lseek(fd, 0, SEEK_SET);
    ssize_t got = read(fd, head, sizeof head - 1);
    head[got > 0 ? got : 0] = '\0';
  }
  close(fd);
  unlink(path);
  for (int i = 0; i < NWATCHED; i++)
    signal(watched[i], SIG_DFL);
  ck_assert_msg(bad == 0, "%d of %d calls: first %s", bad, calls, what);
  ck_assert_msg(printed == 0, "the library printed %lld bytes: %s",
                (long long)printed, head);
}
END_TEST

/* No available processor: MINEX_ENOPROC, as minex_repartition answers,
 * and part untouched. */
START_TEST(partition_graph_without_available_processor_is_enoproc) {
  minex_graph *g = test_grid_graph(4, 4, 1);
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create_uniform(2, &cf), MINEX_OK);
  ck_assert_int_eq(minex_config_set_available(cf, 0, 0), MINEX_OK);
  ck_assert_int_eq(minex_config_set_available(cf, 1, 0), MINEX_OK);
  int32_t part[16];
  for (int v = 0; v < 16; v++)
    part[v] = -7;
  ck_assert_int_eq(minex_partition_graph(g, cf, 1, part), MINEX_ENOPROC);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "unavailable"));
  for (int v = 0; v < 16; v++)
    ck_assert_int_eq(part[v], -7);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
}
END_TEST

/* scratch_partition itself: every vertex on an available processor, the
 * clusters' loads in proportion to their speed (the targets of
 * SCOTCH_archCmpltw) within Scotch's tolerance and the granularity of the
 * vertices, and the same partition for the same seed. */
START_TEST(partition_follows_the_speeds_and_the_seed) {
  minex_graph *g = test_grid_graph(24, 24, 12); /* 6,912 unit vertices */
  int32_t n = minex_graph_nvtxs(g);
  int32_t np[3] = {4, 4, 4};
  double proc[3] = {1, 2, 4};
  double conn[9] = {1, 10, 10, 10, 1, 10, 10, 10, 1};
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create(3, np, proc, conn, &cf), MINEX_OK);
  ck_assert_int_eq(minex_config_set_available(cf, 11, 0), MINEX_OK);
  int32_t *old = calloc((size_t)n, sizeof(int32_t));
  int32_t *a = malloc(sizeof(int32_t) * (size_t)n);
  int32_t *b = malloc(sizeof(int32_t) * (size_t)n);
  for (int32_t v = 0; v < n; v++)
    old[v] = v % 12;
  ck_assert_int_eq(scratch_partition(g, cf, old, 7, a), MINEX_OK);
  ck_assert_int_eq(scratch_partition(g, cf, old, 7, b), MINEX_OK);
  ck_assert_mem_eq(a, b, sizeof(int32_t) * (size_t)n);
  double load[3] = {0, 0, 0};
  for (int32_t v = 0; v < n; v++) {
    QUIET_ASSERT(a[v] >= 0 && a[v] < 12 && a[v] != 11);
    load[a[v] / 4] += 1;
  }
  /* speeds 4/1, 4/2, 3/4 (processor 11 is gone) of 6.75 in all */
  const double share[3] = {4 / 6.75, 2 / 6.75, 0.75 / 6.75};
  for (int c = 0; c < 3; c++)
    ck_assert_msg(fabs(load[c] / n - share[c]) < 0.05 * share[c],
                  "cluster %d: %.4f of the load, target %.4f", c, load[c] / n,
                  share[c]);
  free(old);
  free(a);
  free(b);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
}
END_TEST

int main(void) {
  Suite *s = suite_create("scratch");
  TCase *tc = tcase_create("scratch");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc,
                 extreme_machines_and_weights_print_nothing_touch_no_signal);
  tcase_add_test(tc, partition_follows_the_speeds_and_the_seed);
  tcase_add_test(tc, partition_graph_without_available_processor_is_enoproc);
  suite_add_tcase(s, tc);
  TCase *heavy = test_heavy_tcase(s, 600);
  tcase_add_test(heavy, two_threads_give_the_single_threaded_results);
  return test_run_suite(s);
}
