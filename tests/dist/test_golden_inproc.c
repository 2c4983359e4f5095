/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The golden corpus of the MPI layer's stage 2 on in-process ranks: every
 * case of golden_mpi_cases (tests/util/golden.c) that minex_mpi_repartition
 * solves in stage 2 (run_distributed_applies: not paper_exact, rounds not
 * OFF) goes through dist_solve on R ranks simulated by threads
 * (dist_inproc_run), the graph in the even blocks of global ids that
 * test_golden_mpi gives its MPI ranks (golden_rows_make), and gives on
 * every rank the line tests/data/golden/mpi.txt records for it, bit for
 * bit: the same partition (the FNV-1a hash of the owners in global id
 * order) and the same metrics. No MPI: it runs in every build.
 *
 * The arguments are those minex_mpi_repartition hands dist_solve: the
 * options checked (core_check_options) and copied per rank, log_fn NULL
 * on every rank but 0, the configuration shared.
 *
 * The rank counts (case_ranks): on 4elt and perfusion the defaults on 1 to
 * 8 ranks; every other option set of 4elt on 1 and two more rank counts,
 * so that each of 2 to 8 ranks sees three of 4elt's cases, and each of
 * perfusion's on one of 2 to 6; cube_mesh on 5 ranks and cube_ball_p16 on
 * 8 (test_golden_mpi checks 1 to 4 MPI ranks). The cases run in the
 * "heavy" tcase
 * (tagged slow: not under CI's valgrind), which a quick tcase precedes:
 * five of 4elt's cases on 1, 2, 3, 5 or 8 ranks. MINEX_GOLDEN_QUICK=1
 * (CI's Asan stage): the heavy tcase runs 4elt alone, its j-th case on
 * 1 + j ranks. */
#include "golden.h"
#include "test_util.h"

#include "core/core.h"
#include "dist/dist.h"
#include "dist/inproc.h"
#include "driver/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GOLDEN_MPI MINEX_TEST_DATA "/golden/mpi.txt"
#define MAX_RANKS 8

/* The rank counts of the j-th stage-2 case of input in, into r (at most
 * MAX_RANKS); returns their number. On both inputs that take several
 * option sets the first case (the defaults) runs on every rank count. On
 * 4elt the j-th runs on 1, 2 + (j - 1) % 7 and 2 + (j + 2) % 7 ranks, so
 * that each of 2 to 8 ranks sees two more of its option sets; on
 * perfusion on 1 + j ranks. The one case of a large input runs on more
 * ranks than test_golden_mpi's 4: cube_mesh on 5, cube_ball_p16 on 8.
 * quick (MINEX_GOLDEN_QUICK): 4elt alone, its j-th case on 1 + j ranks. */
static int case_ranks(golden_input in, int j, int quick, int *r) {
  if (quick) {
    r[0] = 1 + j % MAX_RANKS;
    return in == GOLDEN_4ELT;
  }
  if (j == 0 && (in == GOLDEN_4ELT || in == GOLDEN_PERFUSION)) {
    for (int q = 0; q < MAX_RANKS; q++)
      r[q] = q + 1;
    return MAX_RANKS;
  }
  switch (in) {
  case GOLDEN_4ELT:
    r[0] = 1;
    r[1] = 2 + (j - 1) % 7;
    r[2] = 2 + (j + 2) % 7;
    return 3;
  case GOLDEN_PERFUSION:
    r[0] = 1 + j % MAX_RANKS;
    return 1;
  case GOLDEN_CUBE_MESH:
    r[0] = 5;
    return 1;
  default:
    r[0] = 8;
    return 1;
  }
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Whether minex_mpi_repartition runs case c in stage 2. */
static int stage2(const golden_case *c) {
  minex_options opt;
  golden_options(c->optset, &opt);
  return run_distributed_applies(&opt);
}

/* One rank's arguments and results. */
typedef struct rank_arg {
  golden_rows rows;
  const minex_config *cfg;
  minex_options opt;
  int32_t *newp;
  minex_metrics m;
  char err[1024];
} rank_arg;

static int solve_rank(const dist_comm *cm, void *p) {
  rank_arg *a = p;
  dist_ctx c;
  dist_ctx_init(&c, cm);
  const golden_rows *r = &a->rows;
  dist_input in = {r->vtxdist, r->xadj, r->adjncy, r->pwgt,
                   r->rwgt,    r->cwgt, r->old};
  int rc = dist_solve(&c, &in, a->cfg, &a->opt, a->newp, &a->m);
  if (rc != MINEX_OK)
    snprintf(a->err, sizeof a->err, "%s (%s)", minex_last_error(),
             minex_err_name(rc));
  return rc;
}

/* Runs case c of p on R in-process ranks; asserts that every rank
 * succeeds and formats the same line, which goes to buf. */
static void run_case(const golden_case *c, const golden_problem *p, int R,
                     int32_t *all, char *buf, size_t len) {
  char id[128];
  minex_config *cfg;
  minex_options opt;
  ck_assert_msg(golden_case_setup(c, p, id, sizeof id, &cfg, &opt, buf, len) ==
                    MINEX_OK,
                "%s", buf);
  /* what minex_mpi_repartition checks before dist_solve */
  ck_assert_msg(core_check_options(&opt) == MINEX_OK, "%s: options: %s", id,
                minex_last_error());
  ck_assert_int_gt(minex_config_navailable(cfg), 0);
  rank_arg args[MAX_RANKS];
  void *ptr[MAX_RANKS];
  int rcs[MAX_RANKS];
  for (int q = 0; q < R; q++) {
    rank_arg *a = &args[q];
    memset(a, 0, sizeof *a);
    ck_assert_int_eq(golden_rows_make(p, q, R, &a->rows), MINEX_OK);
    a->cfg = cfg;
    a->opt = opt;
    if (q != 0)
      a->opt.log_fn = NULL;
    a->newp = malloc(sizeof *a->newp * ((size_t)a->rows.nlocal + 1));
    ck_assert_ptr_nonnull(a->newp);
    ptr[q] = a;
  }
  ck_assert_int_eq(dist_inproc_run(R, solve_rank, ptr, rcs), MINEX_OK);
  for (int q = 0; q < R; q++)
    ck_assert_msg(rcs[q] == MINEX_OK, "%s on %d in-process ranks: rank %d: %s",
                  id, R, q, args[q].err);
  /* the owners in global id order (-1: an id no rank's block holds) */
  int32_t n = minex_graph_nvtxs(p->graph);
  for (int32_t v = 0; v < n; v++)
    all[v] = -1;
  for (int q = 0; q < R; q++)
    if (args[q].rows.nlocal > 0)
      memcpy(all + args[q].rows.first, args[q].newp,
             sizeof *all * (size_t)args[q].rows.nlocal);
  golden_format(buf, len, id, all, n, &args[0].m);
  /* every rank returns the same metrics */
  static char other[GOLDEN_LINE_MAX], diff[8192];
  for (int q = 1; q < R; q++) {
    golden_format(other, sizeof other, id, all, n, &args[q].m);
    if (strcmp(buf, other) != 0) {
      golden_diff(buf, other, diff, sizeof diff);
      ck_abort_msg("%s on %d in-process ranks: rank %d's metrics differ "
                   "from rank 0's:\n%s",
                   id, R, q, diff);
    }
  }
  for (int q = 0; q < R; q++) {
    golden_rows_free(&args[q].rows);
    free(args[q].newp);
  }
  minex_config_destroy(cfg);
}

/* Every stage-2 case of input in on its rank counts against the file. */
static void check_input(golden_input in) {
  int quick = getenv("MINEX_GOLDEN_QUICK") != NULL, r[MAX_RANKS];
  if (case_ranks(in, 0, quick, r) == 0) {
    printf("golden_inproc %s: left out by MINEX_GOLDEN_QUICK\n",
           golden_input_name(in));
    return;
  }
  char err[512];
  golden_file gf;
  ck_assert_msg(golden_file_read(GOLDEN_MPI, &gf, err, sizeof err) == MINEX_OK,
                "%s", err);
  golden_problem p;
  ck_assert_msg(golden_load(in, MINEX_REPO_DATA, &p, err, sizeof err) ==
                    MINEX_OK,
                "%s", err);
  int32_t *all = malloc(sizeof *all * ((size_t)minex_graph_nvtxs(p.graph) + 1));
  ck_assert_ptr_nonnull(all);
  static char line[GOLDEN_LINE_MAX], diff[8192], first[256];
  int runs = 0, bad = 0, ncases = 0, per_rank[MAX_RANKS + 1] = {0};
  snprintf(first, sizeof first, "none");
  double t0 = now();
  for (int i = 0; i < golden_nmpi_cases; i++) {
    const golden_case *c = &golden_mpi_cases[i];
    if (c->input != in || !stage2(c))
      continue;
    char id[128];
    golden_case_id(c, id, sizeof id);
    const char *want = golden_file_find(&gf, id);
    ck_assert_msg(want != NULL,
                  "%s: no entry in %s: regenerate it (test_golden_mpi "
                  "--write)",
                  id, GOLDEN_MPI);
    int nr = case_ranks(in, ncases++, quick, r);
    for (int j = 0; j < nr; j++) {
      run_case(c, &p, r[j], all, line, sizeof line);
      runs++;
      per_rank[r[j]]++;
      if (strcmp(want, line) == 0)
        continue;
      int nd = golden_diff(want, line, diff, sizeof diff);
      if (bad++ == 0) {
        snprintf(first, sizeof first, "%s on %d ranks (%d fields)", id, r[j],
                 nd);
        fprintf(stderr,
                "golden_inproc: %s on %d in-process ranks differs from %s "
                "in %d fields:\n%s",
                id, r[j], GOLDEN_MPI, nd, diff);
      } else {
        fprintf(stderr,
                "golden_inproc: %s on %d in-process ranks differs too (%d "
                "fields)\n",
                id, r[j], nd);
      }
    }
  }
  printf("golden_inproc %s: %d stage-2 cases, %d runs in %.2f s, %d differ "
         "(runs on 1..%d ranks:",
         golden_input_name(in), ncases, runs, now() - t0, bad, MAX_RANKS);
  for (int q = 1; q <= MAX_RANKS; q++)
    printf(" %d", per_rank[q]);
  printf(")\n");
  fflush(stdout);
  free(all);
  golden_problem_free(&p);
  golden_file_free(&gf);
  ck_assert_int_gt(ncases, 0);
  ck_assert_msg(bad == 0,
                "%d of %d runs differ from the golden file (first: %s; "
                "details on stderr)",
                bad, runs, first);
}

START_TEST(input_gives_the_golden_results) {
  check_input((golden_input)_i);
}
END_TEST

/* The stage-2 cases: those the MPI layer solves on every rank, each with
 * an entry in the MPI file; the stage-1 cases (rounds_off, paper_exact)
 * are the MPI test's alone. */
START_TEST(stage2_cases_have_entries) {
  char err[512];
  golden_file gf;
  ck_assert_msg(golden_file_read(GOLDEN_MPI, &gf, err, sizeof err) == MINEX_OK,
                "%s", err);
  ck_assert_int_eq(gf.n, golden_nmpi_cases);
  int n2 = 0, n1 = 0;
  for (int i = 0; i < golden_nmpi_cases; i++) {
    const golden_case *c = &golden_mpi_cases[i];
    char id[128];
    golden_case_id(c, id, sizeof id);
    ck_assert_msg(golden_file_find(&gf, id) != NULL, "%s: no entry in %s", id,
                  GOLDEN_MPI);
    int s2 = stage2(c);
    ck_assert_int_eq(s2, c->optset != GOLDEN_ROUNDS_OFF &&
                             c->optset != GOLDEN_PAPER_EXACT);
    n2 += s2;
    n1 += !s2;
  }
  ck_assert_int_gt(n2, 0);
  ck_assert_int_gt(n1, 0);
  golden_file_free(&gf);
}
END_TEST

/* CI's valgrind stage: five of 4elt's cases, the defaults on 1 and 3
 * ranks, the others on 2, 5 or 8. */
static const struct {
  golden_case c;
  int ranks;
} quick_runs[] = {
    {{GOLDEN_4ELT, GOLDEN_HETERO, GOLDEN_K1}, 1},
    {{GOLDEN_4ELT, GOLDEN_HETERO, GOLDEN_K1}, 3},
    {{GOLDEN_4ELT, GOLDEN_HETERO, GOLDEN_TUNED}, 2},
    {{GOLDEN_4ELT, GOLDEN_HETERO_GONE, GOLDEN_K1}, 5},
    {{GOLDEN_4ELT, GOLDEN_HETERO, GOLDEN_THROTTLE_LIST}, 2},
    {{GOLDEN_4ELT, GOLDEN_HETERO, GOLDEN_CLUSTER_LEVELS_ON}, 8},
};

START_TEST(quick_cases_give_the_golden_results) {
  char err[512];
  golden_file gf;
  ck_assert_msg(golden_file_read(GOLDEN_MPI, &gf, err, sizeof err) == MINEX_OK,
                "%s", err);
  golden_problem p;
  ck_assert_msg(golden_load(GOLDEN_4ELT, MINEX_REPO_DATA, &p, err,
                            sizeof err) == MINEX_OK,
                "%s", err);
  int32_t *all = malloc(sizeof *all * ((size_t)minex_graph_nvtxs(p.graph) + 1));
  ck_assert_ptr_nonnull(all);
  static char line[GOLDEN_LINE_MAX], diff[8192];
  for (size_t i = 0; i < sizeof quick_runs / sizeof *quick_runs; i++) {
    const golden_case *c = &quick_runs[i].c;
    char id[128];
    golden_case_id(c, id, sizeof id);
    const char *want = golden_file_find(&gf, id);
    ck_assert_msg(want != NULL, "%s: no entry in %s", id, GOLDEN_MPI);
    ck_assert(stage2(c));
    run_case(c, &p, quick_runs[i].ranks, all, line, sizeof line);
    int nd = golden_diff(want, line, diff, sizeof diff);
    ck_assert_msg(nd == 0, "%s on %d in-process ranks differs from %s:\n%s", id,
                  quick_runs[i].ranks, GOLDEN_MPI, diff);
  }
  free(all);
  golden_problem_free(&p);
  golden_file_free(&gf);
}
END_TEST

int main(void) {
  Suite *s = suite_create("golden_inproc");
  TCase *tc = tcase_create("golden_inproc");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, stage2_cases_have_entries);
  tcase_add_test(tc, quick_cases_give_the_golden_results);
  suite_add_tcase(s, tc);
  TCase *heavy = test_heavy_tcase(s, 1200);
  tcase_add_loop_test(heavy, input_gives_the_golden_results, 0, GOLDEN_NINPUTS);
  return test_run_suite(s);
}
