/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/contract: contraction conserves weights and yields the
 * quotient graph on every level, merges only same-owner pairs, builds
 * compact clean levels, Find agrees with a naive walk of the merges, and
 * expansion restores the graph exactly, owners projected down. */
#include "contract/contract.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

/* Root of local id x on the current level by following the merges
 * (child arrays) only, no union/find shortcut. */
static int32_t naive_root(const contract_ws *ws, int32_t x) {
  const contract_level *L = contract_cur(ws);
  for (;;) {
    int32_t up = -1;
    for (int32_t k = 0; k < L->nmerge && up < 0; k++)
      if (L->child[2 * k] == x || L->child[2 * k + 1] == x)
        up = L->nbase + k;
    if (up < 0)
      return x;
    x = up;
  }
}

static void assert_find_is_naive(contract_ws *ws) {
  for (int32_t x = 0; x < contract_nids(ws); x++)
    ck_assert_int_eq(contract_find(ws, x), naive_root(ws, x));
}

/* Every level >= 1 is a simple symmetric graph on its base ids. */
static void assert_levels_are_clean(const contract_ws *ws) {
  for (int32_t s = 1; s < ws->nlevels; s++) {
    const contract_level *L = &ws->lv[s];
    for (int32_t k = 0; k < L->nbase; k++)
      for (int64_t j = L->xadj[k]; j < L->xadj[k + 1]; j++) {
        int32_t t = L->adj[j];
        ck_assert(t >= 0 && t < L->nbase && t != k);
        for (int64_t i = L->xadj[k]; i < j; i++)
          ck_assert_int_ne(L->adj[i], t);
        int found = 0;
        for (int64_t i = L->xadj[t]; i < L->xadj[t + 1]; i++)
          if (L->adj[i] == k) {
            found = 1;
            ck_assert(L->cwgt[i] == L->cwgt[j]);
          }
        ck_assert(found);
      }
  }
}

static minex_graph *graph_and_part(gsl_rng *rng, int trial, int32_t **old,
                                   int32_t *P) {
  int32_t n = 20 + (int32_t)gsl_rng_uniform_int(rng, 400);
  minex_graph *g = test_random_graph(rng, n, 3.0 + trial % 5, trial % 2);
  *P = 1 + (int32_t)gsl_rng_uniform_int(rng, 6);
  *old = malloc(sizeof(int32_t) * (size_t)n);
  /* blocks of ids plus noise: realistic same-owner neighbourhoods */
  for (int32_t v = 0; v < n; v++)
    (*old)[v] = gsl_rng_uniform(rng) < 0.8
                    ? (int32_t)((int64_t)v * *P / n)
                    : (int32_t)gsl_rng_uniform_int(rng, (unsigned long)*P);
  return g;
}

START_TEST(contraction_conserves_weights_and_builds_the_quotient_graph) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 11);
  for (int trial = 0; trial < 30; trial++) {
    int32_t *old, P;
    minex_graph *g = graph_and_part(rng, trial, &old, &P);
    int32_t n = minex_graph_nvtxs(g);
    contract_ws ws;
    ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
    ws.cluster_factor = trial % 2; /* odd trials: cluster levels */
    ck_assert_int_eq(contract_check(&ws), MINEX_OK);
    for (int32_t target = n - n / 4; target >= 1; target /= 2) {
      ck_assert_int_eq(contract_run(&ws, target, 1 + trial % 4,
                                    gsl_rng_get(rng), 1 + trial % 3),
                       MINEX_OK);
      ck_assert_int_eq(contract_check(&ws), MINEX_OK);
      assert_find_is_naive(&ws);
      ck_assert(ws.nactive >= target || ws.nvalid == 0);
    }
    /* the sweeps made compact levels on the way */
    ck_assert_int_ge(ws.nlevels, 2);
    assert_levels_are_clean(&ws);
    /* merges join same-owner vertices only; the owner is inherited */
    int32_t merges = 0;
    for (int32_t s = 0; s < ws.nlevels; s++) {
      const contract_level *L = &ws.lv[s];
      merges += L->nmerge;
      for (int32_t k = 0; k < L->nmerge; k++) {
        int32_t a = L->child[2 * k], b = L->child[2 * k + 1];
        ck_assert_int_eq(L->at[a].old, L->at[b].old);
        ck_assert_int_eq(L->at[L->nbase + k].old, L->at[a].old);
      }
    }
    ck_assert_int_eq(ws.vtot, n + merges);
    ck_assert_int_eq(ws.nactive, n - merges);
    /* the contracted graph: one level without merges, clean and exact */
    ck_assert_int_eq(contract_freeze(&ws), MINEX_OK);
    ck_assert_int_eq(contract_cur(&ws)->nmerge, 0);
    ck_assert_int_eq(contract_cur(&ws)->nbase, ws.nactive);
    ck_assert_int_eq(contract_check(&ws), MINEX_OK);
    assert_levels_are_clean(&ws);
    contract_ws_destroy(&ws);
    minex_graph_destroy(g);
    free(old);
  }
  gsl_rng_free(rng);
}
END_TEST

START_TEST(contraction_stops_when_no_same_owner_pair_remains) {
  /* a checkerboard owner pattern on a grid: no edge joins equal owners */
  minex_graph *g = test_grid_graph(6, 5, 4);
  int32_t n = minex_graph_nvtxs(g), *old = malloc(sizeof(int32_t) * 120);
  for (int32_t v = 0; v < n; v++) {
    int32_t x = v % 6, y = (v / 6) % 5, z = v / 30;
    old[v] = (x + y + z) % 2;
  }
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  contract_ws ws;
  ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
  ck_assert_int_eq(ws.nvalid, 0);
  ck_assert_int_eq(contract_run(&ws, 1, 4, 7, 1), MINEX_OK);
  ck_assert_int_eq(ws.nactive, n);
  /* one owner for all: contraction goes down to the target */
  contract_ws_destroy(&ws);
  memset(old, 0, sizeof(int32_t) * 120);
  ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
  ck_assert_int_eq(contract_run(&ws, 1, 4, 7, 1), MINEX_OK);
  ck_assert_int_eq(ws.nactive, 1);
  ck_assert_int_eq(contract_check(&ws), MINEX_OK);
  contract_ws_destroy(&ws);
  free(old);
  minex_graph_destroy(g);
  gsl_rng_free(rng);
}
END_TEST

START_TEST(expansion_restores_the_graph_exactly) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 23);
  for (int trial = 0; trial < 20; trial++) {
    int32_t *old, P;
    minex_graph *g = graph_and_part(rng, trial, &old, &P);
    int32_t n = minex_graph_nvtxs(g);
    contract_ws ws;
    ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
    /* odd trials: cluster levels, with every merge's list (contract_check
       gathers the restored merged ids from them) */
    ws.cluster_factor = trial % 2;
    ck_assert_int_eq(contract_run(&ws, 1 + n / 10, 3, gsl_rng_get(rng), 2),
                     MINEX_OK);
    ck_assert_int_eq(contract_freeze(&ws), MINEX_OK);
    /* give every active vertex an owner, as the partition phase would */
    int32_t top = contract_nids(&ws);
    int32_t *top_owner = malloc(sizeof(int32_t) * (size_t)top);
    int32_t *rep = malloc(sizeof(int32_t) * (size_t)n);
    for (int32_t x = 0; x < top; x++) {
      top_owner[x] = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P);
      contract_set_owner(&ws, x, top_owner[x]);
    }
    ck_assert_int_eq(contract_fine_reps(&ws, rep), MINEX_OK);
    int32_t steps = 0, v, w;
    while (contract_undo(&ws, &v, &w)) {
      int32_t own = ws.owner[v];
      ck_assert_int_eq(ws.owner[w], own);
      ck_assert_int_eq(ws.parent[v], v);
      ck_assert_int_eq(ws.parent[w], w);
      if (++steps % 7 == 0) {
        ck_assert_int_eq(contract_check(&ws), MINEX_OK);
        assert_find_is_naive(&ws);
      }
      /* now and then move a restored merged vertex: the ids merged into
         it must follow (contract_check compares every id's owner with
         its representative's) */
      if (steps % 5 == 0 && v >= contract_cur(&ws)->nbase) {
        contract_set_owner(&ws, v, (own + 1) % P);
        ck_assert_int_eq(contract_check(&ws), MINEX_OK);
        contract_set_owner(&ws, v, own);
      }
    }
    ck_assert_int_eq(ws.nlevels, 1);
    ck_assert_int_eq(ws.nactive, n);
    ck_assert_int_eq(ws.vtot, n);
    ck_assert_int_eq(contract_cur(&ws)->msize, 0);
    ck_assert_int_eq(contract_check(&ws), MINEX_OK);
    const int64_t *xadj = minex_graph_xadj(g);
    for (int32_t v = 0; v < n; v++) {
      /* each fine vertex ends on the owner of its contracted vertex */
      ck_assert_int_eq(ws.owner[v], top_owner[rep[v]]);
      ck_assert_int_eq(contract_find(&ws, v), v);
      int32_t cnt = contract_gather(&ws, v);
      ck_assert_int_eq(cnt, xadj[v + 1] - xadj[v]);
      for (int64_t j = xadj[v]; j < xadj[v + 1]; j++) {
        /* simple graph: one end per neighbour, in CSR order */
        ck_assert_int_eq(ws.acc.list[j - xadj[v]], minex_graph_adjncy(g)[j]);
        ck_assert(ws.acc.lacc[j - xadj[v]] == minex_graph_cwgt(g)[j]);
      }
    }
    free(top_owner);
    free(rep);
    contract_ws_destroy(&ws);
    minex_graph_destroy(g);
    free(old);
  }
  gsl_rng_free(rng);
}
END_TEST

START_TEST(contraction_is_deterministic_for_a_seed) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 5);
  int32_t *old, P;
  minex_graph *g = graph_and_part(rng, 3, &old, &P);
  int32_t n = minex_graph_nvtxs(g);
  contract_ws a, b;
  gsl_rng *ra = gsl_rng_alloc(gsl_rng_mt19937),
          *rb = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(ra, 42);
  gsl_rng_set(rb, 42);
  for (int32_t cf = 0; cf < 2; cf++) {
    contract_ws_create(&a, g, old);
    contract_ws_create(&b, g, old);
    a.cluster_factor = b.cluster_factor = cf;
    contract_run(&a, n / 8 + 1, 4, 42, 1);
    contract_run(&b, n / 8 + 1, 4, 42, 3);
    ck_assert_int_eq(a.vtot, b.vtot);
    ck_assert_int_eq(a.nlevels, b.nlevels);
    for (int32_t s = 0; s < a.nlevels; s++) {
      const contract_level *la = &a.lv[s], *lb = &b.lv[s];
      ck_assert_int_eq(la->nbase, lb->nbase);
      ck_assert_int_eq(la->nmerge, lb->nmerge);
      if (la->nmerge > 0)
        ck_assert_mem_eq(la->child, lb->child,
                         sizeof(int32_t) * 2 * (size_t)la->nmerge);
      if (s > 0)
        ck_assert_mem_eq(la->lower, lb->lower,
                         sizeof(int32_t) * (size_t)la->nbase);
    }
    contract_ws_destroy(&a);
    contract_ws_destroy(&b);
  }
  gsl_rng_free(ra);
  gsl_rng_free(rb);
  gsl_rng_free(rng);
  minex_graph_destroy(g);
  free(old);
}
END_TEST

/* Cluster levels (cluster.c): each merge joins a base vertex of the level
 * (its second child) to a base vertex or an earlier merge of the same
 * level, no merged vertex holds more than CONTRACT_CLUSTER_SIZE base
 * vertices of its level, and the contraction stops at the target. A
 * joining vertex takes the neighbouring cluster of the largest ratio: on
 * a path of unit weights whose edges weigh 1, 2, 3, ... a vertex joins a
 * lone left neighbour (ratio v / 2) only when its right one (ratio
 * (v + 1) / 2) is no longer alone. */
START_TEST(cluster_levels_join_base_vertices_into_small_clusters) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 31);
  for (int trial = 0; trial < 12; trial++) {
    int32_t *old, P;
    minex_graph *g = graph_and_part(rng, trial, &old, &P);
    int32_t n = minex_graph_nvtxs(g);
    contract_ws ws;
    ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
    ws.cluster_factor = 1;
    ck_assert_int_eq(contract_run(&ws, 1 + n / 20, 4, gsl_rng_get(rng), 1),
                     MINEX_OK);
    ck_assert_int_eq(contract_check(&ws), MINEX_OK);
    /* the first level is a cluster level (later ones may be the sweep's,
       after a level that merged less than an eighth) */
    for (int32_t s = 0; s < 1; s++) {
      const contract_level *L = &ws.lv[s];
      int32_t *size = malloc(sizeof(int32_t) * ((size_t)L->nbase + L->nmerge));
      for (int32_t x = 0; x < L->nbase; x++)
        size[x] = 1;
      for (int32_t k = 0; k < L->nmerge; k++) {
        int32_t a = L->child[2 * k], b = L->child[2 * k + 1];
        ck_assert_int_lt(b, L->nbase);
        ck_assert_int_lt(a, L->nbase + k);
        size[L->nbase + k] = size[a] + size[b];
        ck_assert_int_le(size[L->nbase + k], CONTRACT_CLUSTER_SIZE);
        /* the weights add */
        ck_assert(L->at[L->nbase + k].pwgt == L->at[a].pwgt + L->at[b].pwgt);
      }
      free(size);
    }
    ck_assert(ws.nactive >= 1 + n / 20 || ws.nvalid == 0);
    contract_ws_destroy(&ws);
    minex_graph_destroy(g);
    free(old);
  }
  /* a path 0-1-2-...-9, one owner, edge i-(i+1) of Cwgt i+1, from 10
     random starting points of the pass */
  int64_t xadj[11];
  int32_t adj[18];
  double cw[18];
  int64_t e = 0;
  for (int32_t v = 0; v < 10; v++) {
    xadj[v] = e;
    if (v > 0) {
      adj[e] = v - 1;
      cw[e++] = v;
    }
    if (v < 9) {
      adj[e] = v + 1;
      cw[e++] = v + 1;
    }
  }
  xadj[10] = e;
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(10, xadj, adj, NULL, NULL, cw, &g),
                   MINEX_OK);
  int32_t old[10] = {0};
  for (unsigned long seed = 1; seed <= 10; seed++) {
    contract_ws ws;
    ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
    ws.cluster_factor = 1;
    ck_assert_int_eq(contract_run(&ws, 1, 1, seed, 1), MINEX_OK);
    const contract_level *L = &ws.lv[0];
    for (int32_t k = 0; k < L->nmerge; k++) {
      int32_t b = L->child[2 * k];
      int32_t v = L->child[2 * k + 1];
      if (b >= L->nbase)
        continue; /* v joined a cluster of two */
      /* v joined lone v - 1: v + 1 was in a cluster by then */
      if (v < 9 && b == v - 1) {
        int32_t taken = 0;
        for (int32_t j = 0; j < k; j++)
          taken |= L->child[2 * j + 1] == v + 1 || L->child[2 * j] == v + 1;
        ck_assert_msg(taken, "seed %lu: %d joined %d over %d", seed, (int)v,
                      (int)b, (int)v + 1);
      }
    }
    ck_assert_int_eq(contract_check(&ws), MINEX_OK);
    contract_ws_destroy(&ws);
  }
  minex_graph_destroy(g);
  gsl_rng_free(rng);
}
END_TEST

/* Hubs whose neighbours are leaves: a cluster level merges two leaves per
 * hub (a leaf joins only its hub's cluster, of at most 3), so cluster
 * levels alone would crawl until the level cap; a level that merges less
 * than an eighth of its vertices hands the rest of the contraction to the
 * sampled sweep, which reaches the target in a few levels. A factor of 2
 * switches from cluster levels to the sweep on the way too; either way
 * the levels are sound and the contracted graph exact. */
START_TEST(cluster_levels_hand_over_to_the_sweep) {
  enum { HUBS = 20, LEAVES = 500, N = HUBS * (LEAVES + 1) };
  int64_t *xadj = malloc(sizeof(int64_t) * (N + 1));
  int32_t *adj = malloc(sizeof(int32_t) * 2 * HUBS * LEAVES);
  int64_t e = 0;
  for (int32_t h = 0; h < HUBS; h++) {
    int32_t hub = h * (LEAVES + 1);
    xadj[hub] = e;
    for (int32_t l = 1; l <= LEAVES; l++)
      adj[e++] = hub + l;
    for (int32_t l = 1; l <= LEAVES; l++) {
      xadj[hub + l] = e;
      adj[e++] = hub;
    }
  }
  xadj[N] = e;
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(N, xadj, adj, NULL, NULL, NULL, &g),
                   MINEX_OK);
  int32_t *old = malloc(sizeof(int32_t) * N);
  for (int32_t v = 0; v < N; v++)
    old[v] = v / (LEAVES + 1) % 4; /* each hub and its leaves on one */
  for (int32_t factor = 1; factor <= 2; factor++) {
    contract_ws ws;
    ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
    ws.cluster_factor = factor;
    ck_assert_int_eq(contract_run(&ws, 64, 4, 3, 2), MINEX_OK);
    ck_assert_int_le(ws.nactive, 64);
    ck_assert_int_lt(ws.nlevels, 40);
    /* the first level is a cluster level: a merge's second child is
       a base vertex, and nothing holds more than 3 of them */
    const contract_level *L = &ws.lv[0];
    ck_assert_int_gt(L->nmerge, 0);
    for (int32_t k = 0; k < L->nmerge; k++)
      ck_assert_int_lt(L->child[2 * k + 1], L->nbase);
    ck_assert_int_eq(contract_check(&ws), MINEX_OK);
    ck_assert_int_eq(contract_freeze(&ws), MINEX_OK);
    ck_assert_int_eq(contract_check(&ws), MINEX_OK);
    assert_levels_are_clean(&ws);
    contract_ws_destroy(&ws);
  }
  /* contract_check catches a merged vertex's wrong total Cwgt */
  contract_ws ws;
  ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
  ws.cluster_factor = 1;
  ck_assert_int_eq(contract_run(&ws, N / 2, 4, 3, 1), MINEX_OK);
  contract_level *L = &ws.lv[ws.nlevels - 1];
  ck_assert_int_eq(contract_check(&ws), MINEX_OK);
  L->at[0].ctot += 1;
  ck_assert_int_eq(contract_check(&ws), MINEX_EINTERNAL);
  L->at[0].ctot -= 1;
  ck_assert_int_eq(contract_check(&ws), MINEX_OK);
  contract_ws_destroy(&ws);
  minex_graph_destroy(g);
  free(old);
  free(xadj);
  free(adj);
}
END_TEST

/* The accumulator sums by key in first-seen order, the same whether it
 * scans (short lists) or hashes (long ones). */
START_TEST(accumulator_scan_and_table_agree) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 9);
  minex_graph *g = test_grid_graph(8, 8, 8);
  int32_t n = minex_graph_nvtxs(g), *old = calloc((size_t)n, sizeof(int32_t));
  contract_ws ws;
  ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
  int32_t keys[200], want[200], cnt_want;
  double cw[200], sum[200];
  for (int trial = 0; trial < 200; trial++) {
    int32_t len = 1 + (int32_t)gsl_rng_uniform_int(rng, 200);
    int32_t range = 1 + (int32_t)gsl_rng_uniform_int(rng, 2 * (unsigned)len);
    cnt_want = 0;
    for (int32_t j = 0; j < len; j++) {
      keys[j] = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)range);
      cw[j] = (double)(1 + gsl_rng_uniform_int(rng, 9));
      int32_t i = 0;
      while (i < cnt_want && want[i] != keys[j])
        i++;
      if (i == cnt_want) {
        want[cnt_want] = keys[j];
        sum[cnt_want++] = 0;
      }
      sum[i] += cw[j];
    }
    /* announce fewer or more ends than there are: both modes are exact
       as long as the table is large enough for the real count */
    int64_t announced[2] = {len, len <= CONTRACT_ACC_SCAN ? 100 : len};
    for (int mode = 0; mode < 2; mode++) {
      int32_t cnt = 0;
      contract_acc_begin(&ws.acc, announced[mode]);
      for (int32_t j = 0; j < len; j++)
        contract_acc_add(&ws.acc, keys[j], cw[j], &cnt);
      ck_assert_int_eq(cnt, cnt_want);
      for (int32_t i = 0; i < cnt; i++) {
        ck_assert_int_eq(ws.acc.list[i], want[i]);
        ck_assert(ws.acc.lacc[i] == sum[i]);
      }
    }
  }
  contract_ws_destroy(&ws);
  minex_graph_destroy(g);
  free(old);
  gsl_rng_free(rng);
}
END_TEST

/* contract_check compares sums of weights relative to their magnitude:
 * a merged vertex whose Pwgt is one part in 10^6 off the
 * sum of its children's is caught on a graph whose weights are 1e-200 (an
 * absolute floor of 1 would let any error below 1e-9 through). */
START_TEST(check_catches_weight_errors_at_any_scale) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 18);
  minex_graph *g0 = test_random_graph(rng, 200, 4.0, 0);
  int32_t n = minex_graph_nvtxs(g0);
  int64_t ne = minex_graph_xadj(g0)[n];
  double *pw = malloc(sizeof(double) * (size_t)n);
  double *cw = malloc(sizeof(double) * (size_t)ne);
  for (int32_t v = 0; v < n; v++)
    pw[v] = 1e-200 * minex_graph_pwgt(g0)[v];
  for (int64_t j = 0; j < ne; j++)
    cw[j] = 1e-200 * minex_graph_cwgt(g0)[j];
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(n, minex_graph_xadj(g0),
                                      minex_graph_adjncy(g0), pw, NULL, cw, &g),
                   MINEX_OK);
  int32_t *old = calloc((size_t)n, sizeof(int32_t));
  contract_ws ws;
  ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
  ck_assert_int_eq(contract_run(&ws, n / 2, 4, 5, 1), MINEX_OK);
  ck_assert_int_eq(contract_check(&ws), MINEX_OK);
  /* contraction ends on a level without merges: the one below has them */
  ck_assert_int_ge(ws.nlevels, 2);
  contract_level *L = &ws.lv[ws.nlevels - 2];
  ck_assert_int_gt(L->nmerge, 0);
  L->at[L->nbase].pwgt *= 1 + 1e-6;
  ck_assert_int_eq(contract_check(&ws), MINEX_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "weights"));
  contract_ws_destroy(&ws);
  free(old);
  free(pw);
  free(cw);
  minex_graph_destroy(g);
  minex_graph_destroy(g0);
  gsl_rng_free(rng);
}
END_TEST

/* A random graph of graph_and_part contracted to about n/div vertices on
 * nthreads threads and frozen into ws. */
static minex_graph *frozen_case(gsl_rng *rng, int trial, int32_t div,
                                int nthreads, contract_ws *ws, int32_t **old,
                                int32_t *P) {
  minex_graph *g = graph_and_part(rng, trial, old, P);
  int32_t n = minex_graph_nvtxs(g);
  ck_assert_int_eq(contract_ws_create(ws, g, *old), MINEX_OK);
  ck_assert_int_eq(contract_run(ws, 1 + n / div, 4, gsl_rng_get(rng), nthreads),
                   MINEX_OK);
  ck_assert_int_eq(contract_freeze(ws), MINEX_OK);
  return g;
}

/* Frees what frozen_case made. */
static void frozen_case_free(contract_ws *ws, minex_graph *g, int32_t *old) {
  contract_ws_destroy(ws);
  minex_graph_destroy(g);
  free(old);
}

/* Random owners for the contracted graph's vertices (top level). */
static void random_top_owners(contract_ws *ws, gsl_rng *rng, int32_t P,
                              int32_t *top) {
  for (int32_t x = 0; x < contract_nids(ws); x++) {
    top[x] = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P);
    contract_set_owner(ws, x, top[x]);
  }
}

/* Undoes every merge, as expansion does without moves. */
static void expand_all(contract_ws *ws) {
  int32_t v, w;
  while (contract_undo(ws, &v, &w))
    ;
}

/* contract_rewind brings back the state of the freeze after a
 * partial or a full expansion (the candidates share one contraction), and
 * an expansion after it ends where an expansion of a fresh freeze does. */
START_TEST(rewind_restores_the_frozen_state) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 31);
  for (int trial = 0; trial < 10; trial++) {
    int32_t *old, P;
    contract_ws ws;
    minex_graph *g = frozen_case(rng, trial, 10, 1, &ws, &old, &P);
    int32_t n = minex_graph_nvtxs(g);
    int32_t nl = ws.nlevels, vtot = ws.vtot, nact = ws.nactive;
    int32_t nmerge[64];
    ck_assert_int_le(nl, 64);
    for (int32_t s = 0; s < nl; s++)
      nmerge[s] = ws.lv[s].nmerge;
    int32_t *top = malloc(sizeof(int32_t) * (size_t)contract_nids(&ws));
    int32_t *first = malloc(sizeof(int32_t) * (size_t)n);
    random_top_owners(&ws, rng, P, top);
    expand_all(&ws);
    memcpy(first, ws.owner, sizeof(int32_t) * (size_t)n);
    for (int round = 0; round < 3; round++) {
      contract_rewind(&ws);
      ck_assert_int_eq(ws.nlevels, nl);
      ck_assert_int_eq(ws.vtot, vtot);
      ck_assert_int_eq(ws.nactive, nact);
      for (int32_t s = 0; s < nl; s++)
        ck_assert_int_eq(ws.lv[s].nmerge, nmerge[s]);
      const contract_level *T = contract_cur(&ws);
      for (int32_t x = 0; x < T->nbase; x++) {
        ck_assert_int_eq(ws.parent[x], x);
        ck_assert_int_eq(ws.owner[x], T->at[x].old); /* the freeze's */
        ck_assert_int_eq(ws.interior[x], 0);
      }
      ck_assert_int_eq(contract_check(&ws), MINEX_OK);
      for (int32_t x = 0; x < T->nbase; x++)
        contract_set_owner(&ws, x, top[x]);
      /* part of the way down, then all of it after a second rewind */
      int32_t v, w, steps = round == 0 ? (vtot - n) / 2 : vtot;
      while (steps-- > 0 && contract_undo(&ws, &v, &w))
        ;
      if (round == 2)
        ck_assert_mem_eq(ws.owner, first, sizeof(int32_t) * (size_t)n);
    }
    free(top);
    free(first);
    frozen_case_free(&ws, g, old);
  }
  gsl_rng_free(rng);
}
END_TEST

/* contract_undo_level leaves, level after level, the state that
 * contract_undo one merge at a time leaves (parents, owners, interior
 * flags, counts), and names exactly the base vertices that were merged
 * away, in id order. Interior flags and owners are set at random on the
 * top level so that what the children inherit is checked. */
START_TEST(undo_level_equals_the_merges_undone_one_by_one) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 41);
  for (int trial = 0; trial < 10; trial++) {
    int32_t *old, P;
    contract_ws a, b;
    minex_graph *g = frozen_case(rng, trial, 10, 1, &a, &old, &P);
    int32_t n = minex_graph_nvtxs(g);
    ck_assert_int_eq(contract_view_create(&b, &a), MINEX_OK);
    int32_t *top = malloc(sizeof(int32_t) * (size_t)contract_nids(&a));
    random_top_owners(&a, rng, P, top);
    for (int32_t x = 0; x < contract_nids(&a); x++) {
      contract_set_owner(&b, x, top[x]);
      a.interior[x] = b.interior[x] = (unsigned char)(gsl_rng_get(rng) & 1);
    }
    int32_t *ids = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *want = malloc(sizeof(int32_t) * (size_t)n);
    int32_t levels = 0, cnt;
    while ((cnt = contract_undo_level(&a, ids)) >= 0) {
      levels++;
      /* the base vertices merged away: children of the level's merges */
      const contract_level *L = contract_cur(&a);
      memset(want, 0, sizeof(int32_t) * (size_t)n);
      for (int32_t j = 0; j < L->frozen_nmerge; j++)
        for (int c = 0; c < 2; c++)
          if (L->child[2 * j + c] < L->nbase)
            want[L->child[2 * j + c]] = 1;
      int32_t k = 0;
      for (int32_t x = 0; x < L->nbase; x++)
        if (want[x])
          want[k++] = x;
      ck_assert_int_eq(cnt, k);
      ck_assert_mem_eq(ids, want, sizeof(int32_t) * (size_t)k);
      /* b: as many merges undone one at a time */
      int32_t v, w;
      while (b.nactive < a.nactive)
        ck_assert(contract_undo(&b, &v, &w));
      ck_assert_int_eq(a.nlevels, b.nlevels);
      ck_assert_int_eq(a.nactive, b.nactive);
      ck_assert_int_eq(a.vtot, b.vtot);
      int32_t nb = contract_cur(&a)->nbase;
      ck_assert_int_eq(contract_cur(&a)->nmerge, 0);
      ck_assert_mem_eq(a.parent, b.parent, sizeof(int32_t) * (size_t)nb);
      ck_assert_mem_eq(a.owner, b.owner, sizeof(int32_t) * (size_t)nb);
      ck_assert_mem_eq(a.interior, b.interior, (size_t)nb);
      ck_assert_int_eq(contract_check(&a), MINEX_OK);
    }
    ck_assert_int_ge(levels, 1);
    ck_assert_int_eq(a.nactive, n);
    ck_assert_int_eq(a.nlevels, 1);
    free(ids);
    free(want);
    free(top);
    contract_ws_destroy(&b);
    frozen_case_free(&a, g, old);
  }
  gsl_rng_free(rng);
}
END_TEST

/* contract_descend stops on level s with its base vertices active, each
 * on the owner of its contracted vertex; contract_level_reps names the
 * level-s vertex of every fine vertex. */
START_TEST(descend_stops_on_each_level_with_the_top_owners) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 37);
  for (int trial = 0; trial < 10; trial++) {
    int32_t *old, P;
    contract_ws ws;
    minex_graph *g = frozen_case(rng, trial, 12, 2, &ws, &old, &P);
    int32_t n = minex_graph_nvtxs(g);
    int32_t nl = ws.nlevels;
    int32_t *top = malloc(sizeof(int32_t) * (size_t)contract_nids(&ws));
    int32_t *trep = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *rep = malloc(sizeof(int32_t) * (size_t)n);
    ck_assert_int_eq(contract_fine_reps(&ws, trep), MINEX_OK);
    random_top_owners(&ws, rng, P, top);
    for (int32_t s = nl - 1; s >= 0; s--) {
      contract_rewind(&ws);
      for (int32_t x = 0; x < contract_cur(&ws)->nbase; x++)
        contract_set_owner(&ws, x, top[x]);
      ck_assert_int_eq(contract_level_reps(&ws, s, rep), MINEX_OK);
      contract_descend(&ws, s);
      ck_assert_int_eq(ws.nlevels - 1, s);
      ck_assert_int_eq(contract_cur(&ws)->nmerge, 0);
      ck_assert_int_eq(ws.nactive, ws.lv[s].nbase);
      for (int32_t v = 0; v < n; v++) {
        ck_assert_int_ge(rep[v], 0);
        ck_assert_int_lt(rep[v], ws.lv[s].nbase);
        ck_assert_int_eq(contract_find(&ws, rep[v]), rep[v]);
        ck_assert_int_eq(ws.owner[rep[v]], top[trep[v]]);
        /* a level's vertex lies inside one old part */
        ck_assert_int_eq(ws.lv[s].at[rep[v]].old, old[v]);
      }
      ck_assert_int_eq(contract_check(&ws), MINEX_OK);
    }
    free(top);
    free(trep);
    free(rep);
    frozen_case_free(&ws, g, old);
  }
  gsl_rng_free(rng);
}
END_TEST

/* contract_level_graph: level s as a graph whose weights and edges are
 * the sums of its fine vertices' (the from-scratch candidate partitions
 * it), with each vertex's old owner. */
START_TEST(level_graph_is_the_quotient_of_the_fine_graph) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 41);
  for (int trial = 0; trial < 8; trial++) {
    int32_t *old, P;
    contract_ws ws;
    minex_graph *g = frozen_case(rng, trial, 10, 1, &ws, &old, &P);
    int32_t n = minex_graph_nvtxs(g);
    int32_t *rep = malloc(sizeof(int32_t) * (size_t)n);
    for (int32_t s = 1; s < ws.nlevels; s++) {
      minex_graph *gs = NULL;
      int32_t *olds = NULL;
      ck_assert_int_eq(contract_level_graph(&ws, s, &gs, &olds, rep), MINEX_OK);
      int32_t m = minex_graph_nvtxs(gs);
      ck_assert_int_eq(m, ws.lv[s].nbase);
      double *pw = calloc((size_t)m, sizeof(double));
      double *cw = calloc((size_t)m * (size_t)m, sizeof(double));
      const int64_t *xadj = minex_graph_xadj(g);
      for (int32_t v = 0; v < n; v++) {
        pw[rep[v]] += minex_graph_pwgt(g)[v];
        ck_assert_int_eq(olds[rep[v]], old[v]);
        for (int64_t j = xadj[v]; j < xadj[v + 1]; j++) {
          int32_t a = rep[v], b = rep[minex_graph_adjncy(g)[j]];
          if (a != b)
            cw[(size_t)a * (size_t)m + (size_t)b] += minex_graph_cwgt(g)[j];
        }
      }
      const int64_t *sx = minex_graph_xadj(gs);
      double seen = 0, want = 0;
      for (int32_t k = 0; k < m; k++) {
        ck_assert(test_close(minex_graph_pwgt(gs)[k], pw[k], 1e-9));
        for (int64_t j = sx[k]; j < sx[k + 1]; j++) {
          int32_t t = minex_graph_adjncy(gs)[j];
          ck_assert(test_close(minex_graph_cwgt(gs)[j],
                               cw[(size_t)k * (size_t)m + (size_t)t], 1e-9));
          seen += minex_graph_cwgt(gs)[j];
        }
      }
      for (size_t i = 0; i < (size_t)m * (size_t)m; i++)
        want += cw[i];
      ck_assert(test_close(seen, want, 1e-9)); /* no edge missing */
      free(pw);
      free(cw);
      free(olds);
      minex_graph_destroy(gs);
    }
    free(rep);
    frozen_case_free(&ws, g, old);
  }
  gsl_rng_free(rng);
}
END_TEST

/* A view of a frozen workspace expands as the workspace does,
 * and expanding it leaves the workspace frozen (the candidates on other
 * threads each expand their own view). */
START_TEST(a_view_expands_like_its_workspace_and_leaves_it_alone) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 43);
  for (int trial = 0; trial < 8; trial++) {
    int32_t *old, P;
    contract_ws ws, view;
    minex_graph *g = frozen_case(rng, trial, 10, 1, &ws, &old, &P);
    int32_t n = minex_graph_nvtxs(g);
    ck_assert_int_eq(contract_view_create(&view, &ws), MINEX_OK);
    int32_t nl = ws.nlevels, top_n = contract_nids(&ws);
    int32_t *top = malloc(sizeof(int32_t) * (size_t)top_n);
    random_top_owners(&view, rng, P, top);
    expand_all(&view);
    ck_assert_int_eq(view.nlevels, 1);
    ck_assert_int_eq(contract_check(&view), MINEX_OK);
    /* the workspace is still the frozen contracted graph */
    ck_assert_int_eq(ws.nlevels, nl);
    ck_assert_int_eq(contract_nids(&ws), top_n);
    ck_assert_int_eq(contract_check(&ws), MINEX_OK);
    for (int32_t x = 0; x < top_n; x++)
      contract_set_owner(&ws, x, top[x]);
    expand_all(&ws);
    ck_assert_mem_eq(ws.owner, view.owner, sizeof(int32_t) * (size_t)n);
    contract_ws_destroy(&view);
    free(top);
    frozen_case_free(&ws, g, old);
  }
  gsl_rng_free(rng);
}
END_TEST

int main(void) {
  Suite *s = suite_create("contract");
  TCase *tc = tcase_create("contract");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, contraction_stops_when_no_same_owner_pair_remains);
  tcase_add_test(tc, rewind_restores_the_frozen_state);
  tcase_add_test(tc, undo_level_equals_the_merges_undone_one_by_one);
  tcase_add_test(tc, level_graph_is_the_quotient_of_the_fine_graph);
  tcase_add_test(tc, a_view_expands_like_its_workspace_and_leaves_it_alone);
  tcase_add_test(tc, expansion_restores_the_graph_exactly);
  tcase_add_test(tc, contraction_is_deterministic_for_a_seed);
  tcase_add_test(tc, accumulator_scan_and_table_agree);
  tcase_add_test(tc, cluster_levels_join_base_vertices_into_small_clusters);
  tcase_add_test(tc, check_catches_weight_errors_at_any_scale);
  suite_add_tcase(s, tc);
  TCase *heavy = test_heavy_tcase(s, 300);
  tcase_add_test(heavy, cluster_levels_hand_over_to_the_sweep);
  tcase_add_test(heavy,
                 contraction_conserves_weights_and_builds_the_quotient_graph);
  tcase_add_test(heavy, descend_stops_on_each_level_with_the_top_owners);
  return test_run_suite(s);
}
