/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the synchronous rounds' rule under rounds = ON
 * (src/partition/rounds.c, partition_round_plan) on random graphs and
 * machines: the round's order, that every decision is the move rule's
 * verdict against the loads of the round plus the deltas of every earlier
 * proposal, accepted or not (loads made afresh and advanced here: what
 * makes the decisions computable from per-processor sums alone,
 * docs/design/algorithm.md "The replay-free rule"), and that an accepted
 * proposal waits exactly when an earlier neighbour's was accepted. */
#include "contract/contract.h"
#include "costmodel/costmodel.h"
#include "partition/partition.h"
#include "test_util.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* v's neighbour owners under part with their Cwgt, first seen first (the
 * order of partition_gather_owners_in, so the sums agree to the bit). */
static int32_t owners_of(const minex_graph *g, const int32_t *part, int32_t v,
                         costmodel_nbr *nbr) {
  const int64_t *xadj = minex_graph_xadj(g);
  const int32_t *adj = minex_graph_adjncy(g);
  const double *cw = minex_graph_cwgt(g);
  int32_t nn = 0;
  for (int64_t j = xadj[v]; j < xadj[v + 1]; j++) {
    int32_t o = part[adj[j]], k = 0;
    while (k < nn && nbr[k].owner != o)
      k++;
    if (k == nn)
      nbr[nn++] = (costmodel_nbr){o, 0};
    nbr[k].cwgt += cw[j];
  }
  return nn;
}

START_TEST(rounds_on_decides_on_running_sums_of_the_earlier_proposals) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 7);
  int64_t decided = 0, moved = 0, waited = 0, deferred = 0, total_made = 0;
  for (int trial = 0; trial < 36; trial++) {
    int32_t n = 40 + (int32_t)gsl_rng_uniform_int(rng, 400);
    minex_graph *g = test_random_graph(rng, n, 5.0, 0);
    minex_config *cfg = test_random_config(rng, 3, 4);
    int32_t P = minex_config_nprocs(cfg);
    int32_t *old = malloc(sizeof *old * (size_t)n);
    int32_t *cur = malloc(sizeof *cur * (size_t)n);
    int32_t *ids = malloc(sizeof *ids * (size_t)n);
    int32_t *pos = calloc((size_t)n, sizeof *pos);
    test_random_part(rng, cfg, n, old);
    for (int32_t v = 0; v < n; v++)
      cur[v] = gsl_rng_uniform(rng) < 0.3
                   ? (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P)
                   : old[v];
    /* some trials with a processor gone: forced proposals first */
    if (P > 2 && trial % 4 == 3)
      ck_assert_int_eq(minex_config_set_available(cfg, cur[0], 0), MINEX_OK);
    minex_options opt;
    minex_options_init(&opt);
    opt.rounds = MINEX_ROUNDS_ON;
    opt.alpha = trial % 2 ? 1.0 : 0.0;
    costmodel_loads ld;
    contract_ws ws;
    partition_ctx pc;
    partition_rounds_ws rw;
    ck_assert_int_eq(costmodel_loads_create(&ld, g, cfg, old, cur, &opt),
                     MINEX_OK);
    ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
    ck_assert_int_eq(contract_freeze(&ws), MINEX_OK);
    for (int32_t v = 0; v < n; v++)
      if (cur[v] != old[v])
        contract_set_owner(&ws, v, cur[v]);
    ck_assert_int_eq(partition_ctx_create(&pc, &ws, &ld, &opt), MINEX_OK);
    /* the expansion's rule, the refinement's, the balance moves' */
    static const partition_rule *const rules[3] = {
        &partition_rule_paper, &partition_rule_refine, &partition_rule_balance};
    pc.rule = rules[trial % 3];
    pc.max_bound = costmodel_loads_max(&ld);
    pc.steady_bound = costmodel_steady_max(&ld);
    pc.remap_bound = costmodel_remap_max(&ld);
    ck_assert_int_eq(partition_rounds_ws_create(&rw, n), MINEX_OK);
    for (int32_t v = 0; v < n; v++)
      ids[v] = v;
    costmodel_snapshot before, after;
    ck_assert_int_eq(costmodel_snapshot_take(&ld, &before), MINEX_OK);
    double ref = ld.tree[1];
    int32_t nm;
    ck_assert_int_eq(partition_round_plan(&pc, &rw, ids, n, 0, 1, &nm),
                     MINEX_OK);
    /* the loads as they were */
    ck_assert_int_eq(costmodel_snapshot_take(&ld, &after), MINEX_OK);
    ck_assert(memcmp(before.buf, after.buf, costmodel_state_size(&ld)) == 0);
    costmodel_snapshot_free(&before);
    costmodel_snapshot_free(&after);
    /* the order: forced first, then Gain, then id */
    for (int32_t i = 1; i < nm; i++) {
      const partition_round_move *a = &rw.mv[i - 1], *b = &rw.mv[i];
      ck_assert(a->forced > b->forced ||
                (a->forced == b->forced &&
                 (a->gain < b->gain || (a->gain == b->gain && a->id < b->id))));
    }
    /* every decision: the rule's verdict against fresh loads of the round's
       partition plus the deltas of every earlier proposal, accepted or
       not, each evaluated in the round's neighbourhood */
    const int64_t *xadj = minex_graph_xadj(g);
    const int32_t *adj = minex_graph_adjncy(g);
    int *want = malloc(sizeof *want * ((size_t)nm + 1));
    costmodel_scratch ms;
    ck_assert_int_eq(costmodel_scratch_create(&ms, P), MINEX_OK);
    costmodel_loads l2;
    ck_assert_int_eq(costmodel_loads_create(&l2, g, cfg, old, cur, &opt),
                     MINEX_OK);
    for (int32_t i = 0; i < nm; i++) {
      const partition_round_move *m = &rw.mv[i];
      int32_t nn = owners_of(g, cur, m->id, pc.sc[0].nbr);
      costmodel_loads *keep = pc.ld;
      pc.ld = &l2;
      partition_choice ch;
      const contract_attr *a = &contract_cur(&ws)->at[m->id];
      costmodel_vertex v = {a->pwgt,    a->rwgt,      a->old,
                            cur[m->id], pc.sc[0].nbr, nn};
      int ok = partition_test_move(&pc, &ms, &v, m->to, ref, &ch);
      pc.ld = keep;
      want[i] =
          !ok ? RS_NONE
          : i + 1 < nm && !ch.forced &&
                  (rw.mv[i + 1].forced || ch.move.gain > rw.mv[i + 1].gain)
              ? RS_DEFER
              : RS_MOVE;
      costmodel_vertex cv = {minex_graph_pwgt(g)[m->id],
                             minex_graph_rwgt(g)[m->id],
                             old[m->id],
                             cur[m->id],
                             pc.sc[0].nbr,
                             nn};
      costmodel_move mm;
      costmodel_eval_move(&l2, &cv, m->to, &mm);
      costmodel_apply(&l2);
    }
    costmodel_loads_destroy(&l2);
    /* then an accepted one with an earlier accepted neighbour waits */
    for (int32_t i = 0; i < nm; i++)
      pos[rw.mv[i].id] = i + 1;
    for (int32_t i = 0; i < nm; i++) {
      const partition_round_move *m = &rw.mv[i];
      int expect = want[i];
      for (int64_t j = xadj[m->id]; j < xadj[m->id + 1] && expect == RS_MOVE;
           j++) {
        int32_t at = pos[adj[j]];
        if (at != 0 && at <= i && want[at - 1] == RS_MOVE)
          expect = RS_WAIT;
      }
      ck_assert_msg(m->state == expect,
                    "trial %d, proposal %d (vertex %d to %d): state %d, %d "
                    "from scratch",
                    trial, (int)i, (int)m->id, (int)m->to, m->state, expect);
      decided++;
      moved += expect == RS_MOVE;
      waited += expect == RS_WAIT;
      deferred += expect == RS_DEFER;
    }
    free(want);
    /* the last round: no waits, no deferral */
    ck_assert_int_eq(partition_round_plan(&pc, &rw, ids, n, 1, 1, &nm),
                     MINEX_OK);
    for (int32_t i = 0; i < nm; i++)
      ck_assert(rw.mv[i].state != RS_WAIT && rw.mv[i].state != RS_DEFER);
    /* whole rounds: the loads kept are those of the owners they leave
       (loads made afresh), every vertex still on an available processor
       or moved off an unavailable one only */
    int64_t made;
    for (int32_t v = 0; v < n; v++)
      ids[v] = v;
    partition_round_set set = {ids, n, 3, NULL, 0, 1};
    ck_assert_int_eq(partition_rounds(&pc, &rw, &set, &made), MINEX_OK);
    ck_assert_int_eq(costmodel_loads_check(&ld), MINEX_OK);
    costmodel_loads fresh;
    ck_assert_int_eq(
        costmodel_loads_create(&fresh, g, cfg, old, ws.owner, &opt), MINEX_OK);
    for (int32_t p = 0; p < P; p++)
      ck_assert_msg(fabs(fresh.qwgt[p] - ld.qwgt[p]) <=
                        1e-9 * (1 + fabs(fresh.qwgt[p])),
                    "trial %d: processor %d's Qwgt %.17g kept, %.17g afresh",
                    trial, (int)p, ld.qwgt[p], fresh.qwgt[p]);
    costmodel_loads_destroy(&fresh);
    total_made += made;
    costmodel_scratch_destroy(&ms);
    partition_rounds_ws_destroy(&rw);
    partition_ctx_destroy(&pc);
    contract_ws_destroy(&ws);
    costmodel_loads_destroy(&ld);
    free(old), free(cur), free(ids), free(pos);
    minex_graph_destroy(g);
    minex_config_destroy(cfg);
  }
  /* the trials exercise the outcomes (a deferral needs a Gain that grew
     with the running loads: alpha > 0 and a near tie, none here) */
  ck_assert_int_gt(total_made, 0);
  ck_assert_msg(moved > 0 && waited > 0 && decided > moved + waited + deferred,
                "decided %lld, moved %lld, waited %lld, deferred %lld",
                (long long)decided, (long long)moved, (long long)waited,
                (long long)deferred);
  gsl_rng_free(rng);
}
END_TEST

/* The global candidates of the rounds' scans (partition_spread): among the
   up to options.global_spread least-loaded processors below the mean, chosen by
   the id and spread over them; the least-loaded processor when fewer than
   two are below the mean; and a round's proposals under ON go to a
   neighbour's owner or to the id's spread candidate, where the heap
   passes' scan (no kept deltas) offers the least-loaded processor. */
START_TEST(rounds_spread_the_global_moves_over_the_lightest) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 11);
  int64_t spread_seen = 0, global_seen = 0;
  for (int trial = 0; trial < 24; trial++) {
    int32_t n = 200 + (int32_t)gsl_rng_uniform_int(rng, 400);
    minex_graph *g = test_random_graph(rng, n, 5.0, 0);
    minex_config *cfg = test_random_config(rng, 4, 5);
    int32_t P = minex_config_nprocs(cfg);
    int32_t *old = malloc(sizeof *old * (size_t)n);
    int32_t *ids = malloc(sizeof *ids * (size_t)n);
    costmodel_nbr *nbr = malloc(sizeof *nbr * (size_t)P);
    test_random_part(rng, cfg, n, old);
    minex_options opt;
    minex_options_init(&opt);
    opt.rounds = MINEX_ROUNDS_ON;
    costmodel_loads ld;
    contract_ws ws;
    partition_ctx pc;
    partition_rounds_ws rw;
    ck_assert_int_eq(costmodel_loads_create(&ld, g, cfg, old, old, &opt),
                     MINEX_OK);
    ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
    ck_assert_int_eq(contract_freeze(&ws), MINEX_OK);
    ck_assert_int_eq(partition_ctx_create(&pc, &ws, &ld, &opt), MINEX_OK);
    double mean = ld.qwgt_tot / ld.navail;
    int32_t m = 0;
    while (m < ld.nlow && m < MINEX_GLOBAL_SPREAD_MAX &&
           ld.qwgt[ld.low[m]] < mean)
      m++;
    int32_t argmin = costmodel_argmin(&ld, NULL);
    int32_t hits[MINEX_GLOBAL_SPREAD_MAX] = {0}, S = opt.global_spread;
    ck_assert_int_eq(S, MINEX_GLOBAL_SPREAD_MAX);
    for (int64_t id = 0; id < 8000; id++) {
      int32_t q = partition_spread(&ld, id, mean, S);
      ck_assert_int_eq(q, partition_spread(&ld, id, mean, S));
      /* spread 1: the lightest, as SPEC §3 */
      ck_assert_int_eq(partition_spread(&ld, id, mean, 1), argmin);
      if (m < 2) {
        ck_assert_int_eq(q, argmin);
        continue;
      }
      int32_t k = 0;
      while (k < m && ld.low[k] != q)
        k++;
      ck_assert_msg(k < m, "spread candidate %d not among the %d lightest",
                    (int)q, (int)m);
      ck_assert(ld.qwgt[q] < mean && cfg->avail[q]);
      hits[k]++;
    }
    for (int32_t k = 0; k < m && m >= 2; k++) /* about 8000 / m each */
      ck_assert_msg(hits[k] > 4000 / m && hits[k] < 12000 / m,
                    "processor %d of %d: %d of 8000 ids", (int)k, (int)m,
                    (int)hits[k]);
    /* below every load, or above the lightest only: the lightest */
    ck_assert_int_eq(partition_spread(&ld, 5, -1.0, S), argmin);
    ck_assert_int_eq(partition_spread(&ld, 5, ld.qwgt[argmin], S), argmin);
    /* a round's proposals (kept deltas: the rounds' scan) and the heap
       passes' scan */
    ck_assert_int_eq(partition_rounds_ws_create(&rw, n), MINEX_OK);
    for (int32_t v = 0; v < n; v++)
      ids[v] = v;
    for (int keep = 0; keep < 2; keep++) {
      memset(pc.interior, 0, (size_t)n);
      pc.keep_deltas = keep;
      ck_assert_int_eq(partition_scan(&pc, ids, n, rw.prop), MINEX_OK);
      pc.keep_deltas = 0;
      for (int32_t v = 0; v < n; v++) {
        int32_t q = rw.prop[v].to;
        if (q < 0)
          continue;
        int32_t nn = owners_of(g, old, v, nbr), near = 0;
        for (int32_t k = 0; k < nn && !near; k++)
          near = nbr[k].owner == q;
        if (near)
          continue;
        int32_t want = keep ? partition_spread(&ld, v, mean, S) : argmin;
        ck_assert_int_eq(q, want);
        global_seen++;
        spread_seen += q != argmin;
      }
    }
    partition_rounds_ws_destroy(&rw);
    partition_ctx_destroy(&pc);
    contract_ws_destroy(&ws);
    costmodel_loads_destroy(&ld);
    free(old);
    free(ids);
    free(nbr);
    minex_config_destroy(cfg);
    minex_graph_destroy(g);
  }
  /* the test saw both kinds */
  ck_assert_msg(global_seen > 0 && spread_seen > 0,
                "global proposals %lld, to another than the lightest %lld",
                (long long)global_seen, (long long)spread_seen);
  gsl_rng_free(rng);
}
END_TEST

static uint64_t dbits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

/* The workers' memo of interior vertices' tests (partition_memo) and the
   values a scan computes once for its frozen loads (the mean, which
   processors' vertices get the global candidate, the spread's count;
   interior ids without one skipped): partition_scan's results are those
   of partition_best_move (no memo nor scan values outside a scan) one id
   after another, bit for bit, under the expansion's rule, the
   refinement's and the balance moves', with and without the rounds'
   spread, on 1 and 2 threads, while the memo serves many interior ids of
   the processors above the mean: a grid whose interior vertices share a
   few weights and old owners (half of each slab came from the one before). */
START_TEST(scan_memo_gives_the_tests_one_after_another) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 23);
  minex_graph *grid = test_grid_graph(6, 6, 160);
  int32_t n = minex_graph_nvtxs(grid);
  const int64_t *xadj = minex_graph_xadj(grid);
  double *pw = malloc(sizeof *pw * (size_t)n);
  double *rw = malloc(sizeof *rw * (size_t)n);
  for (int32_t v = 0; v < n; v++) {
    pw[v] = v % 7 == 0 ? 3.0 : 1.0;
    rw[v] = v % 5 == 0 ? 2.0 : 1.0;
  }
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(n, xadj, minex_graph_adjncy(grid), pw, rw,
                                      minex_graph_cwgt(grid), &g),
                   MINEX_OK);
  int64_t served = 0, interior_global = 0, compared = 0, moves = 0;
  int64_t skipped = 0;
  for (int trial = 0; trial < 6; trial++) {
    minex_config *cfg = test_random_config(rng, 3, 4);
    int32_t P = minex_config_nprocs(cfg);
    int32_t *old = malloc(sizeof *old * (size_t)n);
    int32_t *cur = malloc(sizeof *cur * (size_t)n);
    int32_t *ids = malloc(sizeof *ids * (size_t)n);
    partition_prop *prop = malloc(sizeof *prop * (size_t)n);
    for (int32_t v = 0; v < n; v++) /* slabs in id order */
      old[v] = (int32_t)((int64_t)v * P / n);
    /* the first half of each slab but the last moved to the next: an
       island of layers whose inner ones are interior, old owner not p */
    for (int32_t v = 0, run = 0; v < n; v++) {
      run = v > 0 && old[v - 1] == old[v] ? run + 1 : 0;
      cur[v] = old[v] + 1 < P && run < n / P / 2 ? old[v] + 1 : old[v];
    }
    for (int32_t v = 0; v < n; v++)
      ids[v] = v;
    for (int nt = 1; nt <= 2; nt++)
      for (int mode = 0; mode < 6; mode++) {
        minex_options opt;
        minex_options_init(&opt);
        opt.rounds = MINEX_ROUNDS_ON;
        opt.nthreads = nt;
        opt.alpha = trial % 2 ? 1.0 : 0.0;
        costmodel_loads ld;
        contract_ws ws;
        partition_ctx pc;
        ck_assert_int_eq(costmodel_loads_create(&ld, g, cfg, old, cur, &opt),
                         MINEX_OK);
        ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
        ck_assert_int_eq(contract_freeze(&ws), MINEX_OK);
        for (int32_t v = 0; v < n; v++)
          if (cur[v] != old[v])
            contract_set_owner(&ws, v, cur[v]);
        ck_assert_int_eq(partition_ctx_create(&pc, &ws, &ld, &opt), MINEX_OK);
        /* the expansion's rule, the refinement's (the bounds of a pass's
           start) or the balance moves'; the heap passes' scan or the
           rounds' (the spread candidates) */
        static const partition_rule *const rules[3] = {&partition_rule_paper,
                                                       &partition_rule_refine,
                                                       &partition_rule_balance};
        pc.rule = rules[mode / 2];
        pc.max_bound = costmodel_loads_max(&ld);
        pc.steady_bound = costmodel_steady_max(&ld);
        pc.remap_bound = costmodel_remap_max(&ld);
        pc.keep_deltas = mode % 2;
        /* twice: the first scan's gathers set the interior flags that
           the second's reads (an interior id of a processor without a
           global candidate is skipped) */
        ck_assert_int_eq(partition_scan(&pc, ids, n, prop), MINEX_OK);
        for (int32_t v = 0; v < n; v++)
          skipped +=
              pc.interior[v] && ld.qwgt[cur[v]] <= ld.qwgt_tot / ld.navail;
        for (int32_t t = 0; t < pc.nsc; t++)
          served -= pc.sc[t].memo_hits; /* the second scan's hits count */
        ck_assert_int_eq(partition_scan(&pc, ids, n, prop), MINEX_OK);
        pc.keep_deltas = 0;
        int32_t here = 0;
        for (int32_t t = 0; t < pc.nsc; t++)
          served += pc.sc[t].memo_hits;
        double mean = ld.qwgt_tot / ld.navail;
        int64_t goff = contract_cur(&ws)->goff;
        for (int32_t v = 0; v < n; v++) {
          here += pc.interior[v] && ld.qwgt[cur[v]] > mean;
          partition_choice ch;
          pc.sc[0].spread_id = mode % 2 && pc.spread > 1 ? goff + v : -1;
          ck_assert_int_eq(pc.sc[0].memo_gen, 0); /* a fresh test */
          int ok = partition_best_move_in(&pc, &pc.sc[0], v, &ch);
          pc.sc[0].spread_id = -1;
          ck_assert_msg(ok == (prop[v].to >= 0),
                        "trial %d mode %d: id %d proposed %d, tested %d", trial,
                        mode, (int)v, (int)prop[v].to, ok);
          if (ok) {
            ck_assert_int_eq(ch.move.to, prop[v].to);
            ck_assert(dbits(ch.move.gain) == dbits(prop[v].gain));
            ck_assert_int_eq(ch.forced != 0, prop[v].forced != 0);
            moves++;
          }
          compared++;
        }
        if (pc.rule->global) /* the refinement offers no global move */
          interior_global += here;
        partition_ctx_destroy(&pc);
        contract_ws_destroy(&ws);
        costmodel_loads_destroy(&ld);
      }
    free(old);
    free(cur);
    free(ids);
    free(prop);
    minex_config_destroy(cfg);
  }
  /* the memo served a good share of the interior tests (here a processor
     has few interior ids per key: weights, old owner, spread
     candidate), and moves were proposed */
  ck_assert_msg(served * 4 > interior_global && moves > 0 && skipped > 0,
                "memo served %lld of %lld interior tests; %lld moves; "
                "%lld interior ids skipped",
                (long long)served, (long long)interior_global, (long long)moves,
                (long long)skipped);
  fprintf(stderr,
          "scan memo: %lld ids compared, %lld moves; the memo served "
          "%lld of %lld interior tests; %lld interior ids skipped\n",
          (long long)compared, (long long)moves, (long long)served,
          (long long)interior_global, (long long)skipped);
  free(pw);
  free(rw);
  minex_graph_destroy(g);
  minex_graph_destroy(grid);
  gsl_rng_free(rng);
}
END_TEST

/* The reference order of a round (the test's own comparison): forced
   first, then the smaller Gain (-0 == +0), then the smaller id. */
static int ref_cmp(const void *a, const void *b) {
  const partition_round_move *x = a, *y = b;
  if ((x->forced != 0) != (y->forced != 0))
    return x->forced ? -1 : 1;
  if (x->gain < y->gain)
    return -1;
  if (x->gain > y->gain)
    return 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

START_TEST(round_sort_gives_the_reference_order) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 17);
  /* below and above the radix threshold; ties, signs, zeros of both
     signs, wide exponents, forced moves; ids increasing (the radix path)
     or not (qsort) */
  const int32_t sizes[] = {
      1, 100, PARTITION_RADIX_MIN - 1, PARTITION_RADIX_MIN, 20000, 150000};
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
    for (int kind = 0; kind < 7; kind++) {
      int32_t k = sizes[si];
      partition_rounds_ws rw;
      ck_assert_int_eq(partition_rounds_ws_create(&rw, k), MINEX_OK);
      partition_round_move *ref = malloc(sizeof *ref * (size_t)k);
      ck_assert_ptr_nonnull(ref);
      int32_t id = 0;
      for (int32_t i = 0; i < k; i++) {
        double g;
        switch (kind) {
        case 0: /* few distinct values: long ties broken by id */
          g = (double)((int)gsl_rng_uniform_int(rng, 7) - 3);
          break;
        case 1: /* zeros of both signs among small values */
          g = gsl_rng_uniform(rng) < 0.5
                  ? (gsl_rng_uniform(rng) < 0.5 ? -0.0 : 0.0)
                  : gsl_rng_uniform(rng) - 0.5;
          break;
        case 2: /* wide exponents, both signs */
          g = ldexp(gsl_rng_uniform(rng) + 0.5,
                    (int)gsl_rng_uniform_int(rng, 400) - 200) *
              (gsl_rng_uniform(rng) < 0.5 ? -1 : 1);
          break;
        case 5: /* one sign, a narrow range: digits every key shares
                   (skipped passes); no forced move */
        case 6: /* the same, every move forced */
          g = -(1000.0 + gsl_rng_uniform_int(rng, 3000) / 8.0);
          break;
        default: /* loads-like values */
          g = (gsl_rng_uniform(rng) - 0.7) * 1e6;
          break;
        }
        id += 1 + (int32_t)gsl_rng_uniform_int(rng, 3);
        int forced = kind == 5   ? 0
                     : kind == 6 ? 1
                                 : gsl_rng_uniform(rng) < 0.02;
        rw.mv[i] = (partition_round_move){
            .gain = g, .id = id, .forced = (int16_t)forced, .to = i % 5};
      }
      if (kind == 4 && k > 1) /* ids not increasing: the qsort path */
        for (int32_t i = 0; i < k; i++) {
          int32_t j = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)k);
          partition_round_move t = rw.mv[i];
          rw.mv[i] = rw.mv[j];
          rw.mv[j] = t;
        }
      memcpy(ref, rw.mv, sizeof *ref * (size_t)k);
      qsort(ref, (size_t)k, sizeof *ref, ref_cmp);
      partition_round_sort(&rw, k);
      for (int32_t i = 0; i < k; i++)
        ck_assert_msg(rw.mv[i].id == ref[i].id && rw.mv[i].to == ref[i].to,
                      "k %d kind %d: place %d has id %d, the reference %d",
                      (int)k, kind, (int)i, (int)rw.mv[i].id, (int)ref[i].id);
      free(ref);
      partition_rounds_ws_destroy(&rw);
    }
  gsl_rng_free(rng);
}
END_TEST

int main(void) {
  Suite *s = suite_create("rounds");
  TCase *tc = tcase_create("rounds");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc,
                 rounds_on_decides_on_running_sums_of_the_earlier_proposals);
  suite_add_tcase(s, tc);
  TCase *heavy = test_heavy_tcase(s, 120);
  tcase_add_test(heavy, round_sort_gives_the_reference_order);
  tcase_add_test(heavy, scan_memo_gives_the_tests_one_after_another);
  tcase_add_test(heavy, rounds_spread_the_global_moves_over_the_lightest);
  return test_run_suite(s);
}
