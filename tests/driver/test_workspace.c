/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex_workspace: a call with options.workspace gives the same
 * partition and metrics, bit for bit, as one without; a second call on the
 * same graph and options makes no new block (every large buffer comes from
 * the workspace) and holds no more; trim gives everything back; a
 * workspace serves one call at a time; arguments are checked. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct variant {
  const char *name;
  int32_t iterations;
  double alpha;
  int paper_exact, throttle_auto, scratch, rounds, nthreads;
  int cluster_levels;
} variant;

#define CL_AUTO MINEX_CLUSTER_LEVELS_AUTO
static const variant variants[] = {
    {"defaults", 1, 0, 0, 0, MINEX_SCRATCH_AUTO, MINEX_ROUNDS_AUTO, 1, CL_AUTO},
    {"k = 100 (ladder, refinement, scratch)", 100, 0, 0, 0, MINEX_SCRATCH_AUTO,
     MINEX_ROUNDS_AUTO, 1, CL_AUTO},
    {"alpha = 1, k = 4", 4, 1, 0, 0, MINEX_SCRATCH_OFF, MINEX_ROUNDS_AUTO, 1,
     CL_AUTO},
    {"paper_exact", 1, 0.5, 1, 0, MINEX_SCRATCH_AUTO, MINEX_ROUNDS_AUTO, 1,
     CL_AUTO},
    {"throttle_auto, scratch on", 1, 0, 0, 1, MINEX_SCRATCH_ON,
     MINEX_ROUNDS_AUTO, 1, CL_AUTO},
    {"k = 10, rounds off", 10, 0, 0, 0, MINEX_SCRATCH_OFF, MINEX_ROUNDS_OFF, 1,
     CL_AUTO},
    {"rounds off", 1, 0, 0, 0, MINEX_SCRATCH_OFF, MINEX_ROUNDS_OFF, 1, CL_AUTO},
    {"k = 100 on 3 threads", 100, 0, 0, 0, MINEX_SCRATCH_AUTO,
     MINEX_ROUNDS_AUTO, 3, CL_AUTO},
    {"cluster levels on, rounds off", 1, 0, 0, 0, MINEX_SCRATCH_OFF,
     MINEX_ROUNDS_OFF, 1, MINEX_CLUSTER_LEVELS_ON},
};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

static void set_variant(minex_options *opt, const variant *vr) {
  minex_options_init(opt);
  opt->iterations = vr->iterations;
  opt->alpha = vr->alpha;
  opt->paper_exact = vr->paper_exact;
  opt->throttle_auto = vr->throttle_auto;
  opt->scratch = vr->scratch;
  opt->rounds = vr->rounds;
  opt->nthreads = vr->nthreads;
  opt->cluster_levels = vr->cluster_levels;
  opt->seed = 5;
}

/* The owners and every metric of two calls are identical. */
static void assert_same(const char *what, int32_t n, const int32_t *a,
                        const int32_t *b, const minex_metrics *ma,
                        const minex_metrics *mb) {
  int32_t diff = 0;
  for (int32_t v = 0; v < n; v++)
    diff += a[v] != b[v];
  ck_assert_msg(diff == 0, "%s: %d of %d owners differ", what, (int)diff,
                (int)n);
  ck_assert_msg(ma->max_qwgt == mb->max_qwgt &&
                    ma->horizon_time == mb->horizon_time &&
                    ma->qwgt_tot == mb->qwgt_tot && ma->moved == mb->moved &&
                    ma->coarse_nvtxs == mb->coarse_nvtxs &&
                    ma->candidates == mb->candidates &&
                    ma->expand_moves == mb->expand_moves,
                "%s: metrics differ (MaxQwgt %.17g against %.17g)", what,
                ma->max_qwgt, mb->max_qwgt);
}

static minex_workspace_stats stats_of(const minex_workspace *ws) {
  minex_workspace_stats st;
  ck_assert_int_eq(minex_workspace_get_stats(ws, &st), MINEX_OK);
  return st;
}

/* Every variant: without a workspace, then three calls with one (the
 * third after a trim); the results identical; the second call makes no
 * block with one thread; the holdings as documented. */
static void check_graph(const char *graph, const minex_graph *g,
                        const minex_config *cf, const int32_t *old) {
  int32_t n = minex_graph_nvtxs(g);
  int32_t *ref = malloc(sizeof(int32_t) * (size_t)n);
  int32_t *got = malloc(sizeof(int32_t) * (size_t)n);
  ck_assert_ptr_nonnull(ref);
  ck_assert_ptr_nonnull(got);
  for (int i = 0; i < NVARIANTS; i++) {
    const variant *vr = &variants[i];
    char what[160];
    minex_options opt;
    set_variant(&opt, vr);
    minex_metrics m0, m;
    ck_assert_int_eq(minex_repartition(g, cf, old, &opt, ref, &m0), MINEX_OK);
    minex_workspace *ws = NULL;
    ck_assert_int_eq(minex_workspace_create(&ws), MINEX_OK);
    opt.workspace = ws;
    minex_workspace_stats s1, s2, s3;
    memset(&s1, 0, sizeof s1);
    s2 = s3 = s1;
    for (int call = 1; call <= 3; call++) {
      if (call == 3) {
        ck_assert_int_eq(minex_workspace_trim(ws), MINEX_OK);
        minex_workspace_stats t = stats_of(ws);
        ck_assert_int_eq(t.bytes_held, 0);
        ck_assert_int_eq(t.blocks_held, 0);
      }
      memset(got, 0xff, sizeof(int32_t) * (size_t)n);
      ck_assert_int_eq(minex_repartition(g, cf, old, &opt, got, &m), MINEX_OK);
      snprintf(what, sizeof what, "%s, %s, call %d with a workspace", graph,
               vr->name, call);
      assert_same(what, n, ref, got, &m0, &m);
      minex_workspace_stats s = stats_of(ws);
      ck_assert_int_eq(s.calls, call);
      if (call == 1)
        s1 = s;
      else if (call == 2)
        s2 = s;
      else
        s3 = s;
    }
    /* the first call made blocks (the graph has arrays of 64 KiB and
       more), and every block is held between calls */
    ck_assert_msg(s1.blocks_new > 0,
                  "%s, %s: no large buffer went through "
                  "the workspace",
                  graph, vr->name);
    ck_assert_int_eq(s1.blocks_held, s1.blocks_new);
    ck_assert_int_ge(s1.bytes_held, s1.bytes_peak);
    if (vr->nthreads == 1) {
      /* the same requests in the same order: all served by kept blocks */
      ck_assert_msg(s2.blocks_new == 0 && s2.bytes_new == 0,
                    "%s, %s: the second call made %lld new blocks (%lld "
                    "bytes)",
                    graph, vr->name, (long long)s2.blocks_new,
                    (long long)s2.bytes_new);
      ck_assert_int_eq(s2.blocks_reused, s1.blocks_new + s1.blocks_reused);
      ck_assert_int_eq(s2.bytes_held, s1.bytes_held);
      ck_assert_int_eq(s2.bytes_peak, s1.bytes_peak);
      /* after the trim the third call is a first call again */
      ck_assert_int_eq(s3.blocks_new, s1.blocks_new);
      ck_assert_int_eq(s3.bytes_held, s1.bytes_held);
    } else {
      ck_assert_int_le(s2.blocks_new, s1.blocks_new);
    }
    printf("workspace: %s, %s: first call %lld blocks (%.1f MiB, peak in use "
           "%.1f MiB), second call %lld new, %lld reused\n",
           graph, vr->name, (long long)s1.blocks_new, s1.bytes_held / 1048576.0,
           s1.bytes_peak / 1048576.0, (long long)s2.blocks_new,
           (long long)s2.blocks_reused);
    minex_workspace_destroy(ws);
  }
  free(ref);
  free(got);
}

START_TEST(a_workspace_changes_nothing_and_is_reused) {
  minex_graph *g = test_grid_graph(40, 30, 20); /* 24,000 vertices */
  int32_t n = minex_graph_nvtxs(g);
  int32_t np[2] = {3, 3};
  double proc[2] = {1, 2}, conn[4] = {1, 10, 10, 1};
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create(2, np, proc, conn, &cf), MINEX_OK);
  int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
  for (int32_t v = 0; v < n; v++)
    old[v] = v < n / 3 ? 0 : (int32_t)(1 + (int64_t)v * 5 / n);
  check_graph("grid 40x30x20", g, cf, old);
  free(old);
  minex_config_destroy(cf);
  minex_graph_destroy(g);
}
END_TEST

/* One workspace through graphs of changing sizes (an adaptive loop):
 * every result equals the call without it. */
START_TEST(a_workspace_serves_graphs_of_other_sizes) {
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create_uniform(8, &cf), MINEX_OK);
  minex_workspace *ws = NULL;
  ck_assert_int_eq(minex_workspace_create(&ws), MINEX_OK);
  const int32_t nz[] = {20, 24, 12, 24, 30};
  for (size_t i = 0; i < sizeof nz / sizeof *nz; i++) {
    minex_graph *g = test_grid_graph(30, 30, nz[i]);
    int32_t n = minex_graph_nvtxs(g);
    int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *a = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *b = malloc(sizeof(int32_t) * (size_t)n);
    for (int32_t v = 0; v < n; v++)
      old[v] = v < n / 2 ? (int32_t)(v % 3) : (int32_t)(3 + v % 5);
    minex_options opt;
    minex_options_init(&opt);
    opt.iterations = 10;
    minex_metrics ma, mb;
    ck_assert_int_eq(minex_repartition(g, cf, old, &opt, a, &ma), MINEX_OK);
    opt.workspace = ws;
    ck_assert_int_eq(minex_repartition(g, cf, old, &opt, b, &mb), MINEX_OK);
    char what[64];
    snprintf(what, sizeof what, "grid 30x30x%d", (int)nz[i]);
    assert_same(what, n, a, b, &ma, &mb);
    minex_workspace_stats s = stats_of(ws);
    if (i == 3) /* the size of the second graph again: nothing new */
      ck_assert_int_eq(s.blocks_new, 0);
    free(old);
    free(a);
    free(b);
    minex_graph_destroy(g);
  }
  minex_workspace_destroy(ws);
  minex_config_destroy(cf);
}
END_TEST

/* A call made from inside another one's log callback with the same
 * workspace is refused; so is a trim; the outer call is unaffected. What
 * the callback allocates through the library (a graph with arrays above
 * 64 KiB) is its own, not the workspace's: it outlives the call. */
typedef struct nest_ctx {
  const minex_graph *g;
  const minex_config *cf;
  const int32_t *old;
  minex_workspace *ws;
  int tried, nested_rc, trim_rc;
  char msg[256];
  minex_graph *kept;
} nest_ctx;

static void nest_log(const char *line, void *ctx) {
  (void)line;
  nest_ctx *c = ctx;
  if (c->tried)
    return;
  c->tried = 1;
  minex_options opt;
  minex_options_init(&opt);
  opt.workspace = c->ws;
  int32_t out[64];
  c->nested_rc = minex_repartition(c->g, c->cf, c->old, &opt, out, NULL);
  snprintf(c->msg, sizeof c->msg, "%s", minex_last_error());
  c->trim_rc = minex_workspace_trim(c->ws);
  c->kept = test_grid_graph(20, 20, 20);
}

START_TEST(a_workspace_serves_one_call_at_a_time) {
  minex_graph *g = test_grid_graph(4, 4, 4);
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create_uniform(4, &cf), MINEX_OK);
  int32_t old[64], a[64], b[64];
  for (int v = 0; v < 64; v++)
    old[v] = v < 40 ? 0 : v % 4;
  minex_workspace *ws = NULL;
  ck_assert_int_eq(minex_workspace_create(&ws), MINEX_OK);
  nest_ctx c = {g, cf, old, ws, 0, 0, 0, "", NULL};
  minex_options opt;
  minex_options_init(&opt);
  minex_metrics ma, mb;
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, a, &ma), MINEX_OK);
  opt.workspace = ws;
  opt.log_fn = nest_log;
  opt.log_ctx = &c;
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, b, &mb), MINEX_OK);
  ck_assert_int_eq(c.tried, 1);
  ck_assert_int_eq(c.nested_rc, MINEX_EINVAL);
  ck_assert_msg(strstr(c.msg, "minex_repartition") &&
                    strstr(c.msg, "workspace is in use"),
                "message: %s", c.msg);
  ck_assert_int_eq(c.trim_rc, MINEX_EINVAL);
  assert_same("grid 4x4x4 with a nested call", 64, a, b, &ma, &mb);
  ck_assert_ptr_nonnull(c.kept);
  ck_assert_int_eq(minex_graph_nvtxs(c.kept), 8000);
  minex_graph_destroy(c.kept);
  /* a failed call leaves the workspace free for the next */
  old[3] = 99;
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, b, NULL), MINEX_EPART);
  old[3] = 0;
  opt.log_fn = NULL;
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, b, &mb), MINEX_OK);
  assert_same("grid 4x4x4 after a failed call", 64, a, b, &ma, &mb);
  minex_workspace_destroy(ws);
  minex_config_destroy(cf);
  minex_graph_destroy(g);
}
END_TEST

START_TEST(arguments_are_checked) {
  minex_workspace_stats st;
  ck_assert_int_eq(minex_workspace_create(NULL), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "minex_workspace_create"));
  ck_assert_int_eq(minex_workspace_trim(NULL), MINEX_EINVAL);
  ck_assert_int_eq(minex_workspace_get_stats(NULL, &st), MINEX_EINVAL);
  minex_workspace *ws = NULL;
  ck_assert_int_eq(minex_workspace_create(&ws), MINEX_OK);
  ck_assert_int_eq(minex_workspace_get_stats(ws, NULL), MINEX_EINVAL);
  ck_assert_int_eq(minex_workspace_get_stats(ws, &st), MINEX_OK);
  ck_assert_int_eq(st.bytes_held, 0);
  ck_assert_int_eq(st.calls, 0);
  ck_assert_int_eq(minex_workspace_trim(ws), MINEX_OK);
  minex_workspace_destroy(ws);
  minex_workspace_destroy(NULL);
  minex_options opt;
  minex_options_init(&opt);
  ck_assert_ptr_null(opt.workspace);
}
END_TEST

int main(void) {
  Suite *s = suite_create("workspace");
  TCase *tc = tcase_create("workspace");
  tcase_set_timeout(tc, 900);
  tcase_add_test(tc, a_workspace_serves_one_call_at_a_time);
  tcase_add_test(tc, arguments_are_checked);
  suite_add_tcase(s, tc);
  TCase *heavy = test_heavy_tcase(s, 900);
  tcase_add_test(heavy, a_workspace_serves_graphs_of_other_sizes);
  tcase_add_test(heavy, a_workspace_changes_nothing_and_is_reused);
  return test_run_suite(s);
}
