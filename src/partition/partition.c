/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Heap-driven partitioning of the contracted graph (SPEC §3 "Partition",
 * paper §3.3 and §3.6): the context, executing a move, and the passes that
 * pop the move heap. The rule that chooses a vertex's move is in
 * move_rule.c. */
#include "partition/partition.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int partition_ctx_create(partition_ctx *pc, contract_ws *ws,
                         costmodel_loads *ld, const minex_options *opt) {
  memset(pc, 0, sizeof *pc);
  int32_t P = ld->nprocs;
  pc->ws = ws;
  pc->ld = ld;
  pc->cfg = ld->cfg;
  pc->rule = &partition_rule_paper;
  pc->throttle = opt->throttle;
  pc->global = opt->global_candidates;
  pc->qbar = ld->navail > 0 ? ld->qwgt_tot / ld->navail : 0;
  if (!(pc->qbar > 0))
    pc->qbar = 1;
  /* rounding noise of dMinVar is ~1e-16 * P * qbar^2; a move must beat it
     clearly, or a pair of vertices could swap back and forth forever */
  pc->dmv_tol = 1e-11 * pc->qbar * pc->qbar;
  /* a refinement move must lower QwgtTot by more than rounding noise */
  pc->gain_tol = 1e-9 * pc->qbar;
  pc->interior = ws->interior;
  pc->nsc = opt->nthreads > 1 ? opt->nthreads : 1;
  /* the passes in rounds unless OFF (options resolved by run_init:
     paper_exact turns them off there) */
  pc->rounds = opt->rounds != MINEX_ROUNDS_OFF;
  pc->spread = opt->global_spread;
  pc->sc = core_calloc((size_t)pc->nsc, sizeof *pc->sc);
  pc->scan_global = core_malloc((size_t)P + 1);
  int rc = pc->sc && pc->interior && pc->scan_global
               ? MINEX_OK
               : core_error(MINEX_ENOMEM, "partition: out of memory");
  for (int32_t t = 0; t < pc->nsc && rc == MINEX_OK; t++) {
    partition_scratch *sc = &pc->sc[t];
    sc->nbr = core_malloc(sizeof(costmodel_nbr) * (size_t)P);
    sc->nbr_at = core_malloc(sizeof(int32_t) * (size_t)P);
    sc->nbr_stamp = core_calloc((size_t)P, sizeof(int32_t));
    sc->cand = core_malloc(sizeof(int32_t) * ((size_t)P + 1));
    sc->memo = core_calloc(PARTITION_MEMO_SIZE, sizeof *sc->memo);
    sc->spread_id = -1;
    if (!sc->nbr || !sc->nbr_at || !sc->nbr_stamp || !sc->cand || !sc->memo)
      rc = core_error(MINEX_ENOMEM, "partition: out of memory");
    else
      rc = costmodel_scratch_create(&sc->mv, P);
  }
  if (rc != MINEX_OK) {
    partition_ctx_destroy(pc);
    return rc;
  }
  return MINEX_OK;
}

void partition_ctx_destroy(partition_ctx *pc) {
  for (int32_t t = 0; pc->sc && t < pc->nsc; t++) {
    partition_scratch *sc = &pc->sc[t];
    core_free(sc->nbr);
    core_free(sc->nbr_at);
    core_free(sc->nbr_stamp);
    core_free(sc->cand);
    core_free(sc->dbuf);
    core_free(sc->memo);
    costmodel_scratch_destroy(&sc->mv);
  }
  core_free(pc->sc);
  core_free(pc->dblk);
  core_free(pc->scan_global);
  memset(pc, 0, sizeof *pc);
}

void partition_load_deltas(costmodel_scratch *s, const partition_delta *d,
                           int32_t nd) {
  for (int32_t j = 0; j < nd; j++) {
    int32_t y = d[j].proc;
    s->touched[j] = y;
    s->dwgt[y] = d[j].d.wgt;
    s->dcomm[y] = d[j].d.comm;
    s->dremap[y] = d[j].d.remap;
  }
  s->ntouched = nd;
}

/* keep_deltas: the deltas of x's proposed move ch (found against sc's
   neighbour list of nn owners, or none when nn < 0) as its decision makes
   them -- with (owner, Ctot) as the one neighbour when x is interior
   (partition_decision_deltas) -- appended to sc->dbuf; returns how many,
   0 when they could not be kept (more than UINT16_MAX: the decision
   evaluates the move then; the buffer could not grow: sc->nomem, and the
   scan fails). */
static uint16_t keep_deltas(partition_ctx *pc, partition_scratch *sc, int32_t x,
                            int32_t nn, const partition_choice *ch) {
  const contract_ws *ws = pc->ws;
  const contract_attr *a = &contract_cur(ws)->at[x];
  int32_t p = ws->owner[x];
  costmodel_scratch *s = &sc->mv;
  /* the scratch still holds them when the move was the last evaluated
     with that list: an interior id's (nn < 0) or one with other owners
     among its neighbours; else made again */
  if (!ch->fresh || (pc->interior[x] && nn >= 0)) {
    costmodel_nbr one = {p, a->ctot};
    costmodel_vertex v = {a->pwgt, a->rwgt, a->old, p, sc->nbr, nn};
    if (pc->interior[x] || nn < 0) {
      v.nbr = &one;
      v.nnbr = 1;
    }
    costmodel_move_deltas(pc->ld, s, &v, ch->move.to);
  }
  int32_t k = s->ntouched;
  if (k > UINT16_MAX)
    return 0;
  if (sc->dlen + k > sc->dcap) {
    int64_t cap = 2 * sc->dcap + k + 1024;
    partition_delta *t = core_realloc(sc->dbuf, sizeof *t * (size_t)cap);
    if (t == NULL) {
      sc->nomem = 1;
      return 0;
    }
    sc->dbuf = t;
    sc->dcap = cap;
  }
  partition_delta *d = sc->dbuf + sc->dlen;
  for (int32_t j = 0; j < k; j++) {
    int32_t y = s->touched[j];
    d[j] = (partition_delta){{s->dwgt[y], s->dcomm[y], s->dremap[y]}, y, 0};
  }
  sc->dlen += k;
  return (uint16_t)k;
}

void partition_scan_globals(partition_ctx *pc) {
  /* the move rule's per-scan values (its own expressions) */
  const costmodel_loads *ld = pc->ld;
  double mean = ld->navail > 0 ? ld->qwgt_tot / ld->navail : 0;
  pc->scan_nspread = partition_spread_count(ld, mean, pc->spread);
  for (int32_t p = 0; p < ld->nprocs; p++)
    pc->scan_global[p] = !pc->cfg->avail[p] ||
                         (pc->global && pc->rule->global && ld->qwgt[p] > mean);
}

int32_t partition_movable(partition_ctx *pc, int32_t *ids, int32_t n) {
  partition_scan_globals(pc);
  const int32_t *owner = pc->ws->owner;
  const unsigned char *in = pc->interior, *gl = pc->scan_global;
  int32_t m = 0;
  for (int32_t i = 0; i < n; i++)
    if (!in[ids[i]] || gl[owner[ids[i]]])
      ids[m++] = ids[i];
  return m;
}

int partition_scan(partition_ctx *pc, const int32_t *ids, int32_t n,
                   partition_prop *out) {
  /* each test reads the frozen state and writes its own result and its
     id's interior flag only: the results do not depend on the threads.
     The unit of work is a block of PARTITION_SCAN_BLOCK ids, timed for
     pc->par */
  int nt = pc->nsc;
  int32_t nb = (n + PARTITION_SCAN_BLOCK - 1) / PARTITION_SCAN_BLOCK;
  int keep = pc->keep_deltas, keep_id = pc->keep_deltas && pc->spread > 1;
  if (keep && nb > pc->dblk_cap) {
    partition_dblock *t = core_realloc(pc->dblk, sizeof *t * (size_t)nb);
    if (t == NULL)
      return core_error(MINEX_ENOMEM, "partition_scan: out of memory");
    pc->dblk = t;
    pc->dblk_cap = nb;
  }
  /* a new generation of the workers' memos: their entries hold tests
     against loads of earlier scans */
  if (++pc->memo_gen == 0) {
    for (int t = 0; t < nt; t++)
      memset(pc->sc[t].memo, 0, sizeof(partition_memo) * PARTITION_MEMO_SIZE);
    pc->memo_gen = 1;
  }
  partition_scan_globals(pc);
  const int32_t *owner = pc->ws->owner;
  for (int t = 0; t < nt; t++) {
    pc->sc[t].work = pc->sc[t].span = 0;
    pc->sc[t].dlen = 0;
    pc->sc[t].memo_gen = pc->memo_gen;
    pc->sc[t].memo_bad = -1;
    pc->sc[t].nomem = 0;
  }
  int64_t goff = contract_cur(pc->ws)->goff;
  pc->dkept = keep;
  double t0 = core_wtime();
#pragma omp parallel for schedule(dynamic, 1)                                  \
    num_threads(nt) if (nt > 1 && nb > 2)
  for (int32_t b = 0; b < nb; b++) {
    double tu = core_wtime();
    int w = core_thread_num() % nt;
    partition_scratch *sc = &pc->sc[w];
    if (keep)
      pc->dblk[b] = (partition_dblock){sc->dlen, w, 0};
    int32_t hi = b < nb - 1 ? (b + 1) * PARTITION_SCAN_BLOCK : n;
    for (int32_t i = b * PARTITION_SCAN_BLOCK; i < hi; i++) {
      partition_choice ch;
      int32_t nn;
      /* an interior id whose owner offers no global candidate has no
         candidate (what the move rule finds, without the call) */
      if (pc->interior[ids[i]] && !pc->scan_global[owner[ids[i]]]) {
        out[i] = (partition_prop){0, -1, 0, 0};
        continue;
      }
      /* the rounds (keep): the global candidate spread by the id */
      sc->spread_id = keep_id ? goff + ids[i] : -1;
      int ok = partition_best_move_nn(pc, sc, ids[i], &ch, &nn);
      sc->spread_id = -1;
      if (ok)
        out[i] = (partition_prop){
            ch.move.gain, ch.move.to, (uint16_t)(ch.forced != 0),
            keep ? keep_deltas(pc, sc, ids[i], nn, &ch) : 0};
      else
        out[i] = (partition_prop){0, -1, 0, 0};
    }
    tu = core_wtime() - tu;
    sc->work += tu;
    sc->span = tu > sc->span ? tu : sc->span;
  }
  double span = 0;
  for (int t = 0; t < nt; t++) {
    pc->sc[t].memo_gen = 0; /* the loads change after the scan */
    pc->par.work += pc->sc[t].work;
    span = pc->sc[t].span > span ? pc->sc[t].span : span;
  }
  pc->par.span += span;
  pc->par.wall += core_wtime() - t0;
  for (int t = 0; t < nt; t++)
    if (pc->sc[t].nomem)
      return core_error(MINEX_ENOMEM,
                        "partition_scan: out of memory (kept deltas)");
  for (int t = 0; t < nt; t++)
    if (pc->sc[t].memo_bad >= 0)
      return core_error(MINEX_EINTERNAL,
                        "partition_scan: the memo's test of an interior "
                        "vertex on processor %d differs from its own",
                        (int)pc->sc[t].memo_bad);
  return MINEX_OK;
}

void partition_execute(partition_ctx *pc, int32_t x, int32_t q) {
  contract_ws *ws = pc->ws;
  const contract_level *L = contract_cur(ws);
  int32_t nn = partition_gather_owners(pc, x, 1);
  const contract_attr *a = &L->at[x];
  costmodel_vertex v = {a->pwgt,      a->rwgt,       a->old,
                        ws->owner[x], pc->sc[0].nbr, nn};
  pc->interior[x] = 0;
  costmodel_move m;
  if (!pc->cfg->avail[ws->owner[x]])
    pc->forced_moves++;
  costmodel_eval_move(pc->ld, &v, q, &m);
  if (pc->trace)
    pc->trace(pc->trace_ctx, x, v.cur, q, m.gain);
  costmodel_apply(pc->ld);
  contract_set_owner(ws, x, q);
  pc->moves++;
}

/* Re-tests id x and files, refreshes or drops its heap entry. */
static void refresh(partition_ctx *pc, int32_t x) {
  partition_choice ch;
  if (partition_best_move(pc, x, &ch))
    partition_heap_set(&pc->heap, x, ch.move.gain, ch.forced);
  else
    partition_heap_remove(&pc->heap, x);
}

int partition_run(partition_ctx *pc, int32_t max_passes) {
  contract_ws *ws = pc->ws;
  partition_heap *h = &pc->heap;
  /* the active ids of this level do not change while partitioning */
  int32_t *act = core_malloc(sizeof(int32_t) * ((size_t)ws->nactive + 1));
  if (act == NULL)
    return core_error(MINEX_ENOMEM, "partition: out of memory");
  int32_t na = 0, nids = contract_nids(ws);
  for (int32_t x = 0; x < nids; x++)
    if (ws->parent[x] == x)
      act[na++] = x;
  /* a vertex has at most na - 1 distinct neighbours */
  pc->nb_ids = core_malloc(sizeof(int32_t) * ((size_t)na + 1));
  /* pass + 1 for the vertices moved in a pass */
  int32_t *moved = core_calloc((size_t)nids + 1, sizeof(int32_t));
  partition_prop *prop = core_malloc(sizeof *prop * ((size_t)na + 1));
  int rc = pc->nb_ids && moved && prop
               ? partition_heap_create(h, nids, na)
               : core_error(MINEX_ENOMEM, "partition: out of memory");
  if (rc != MINEX_OK) {
    core_free(act);
    core_free(moved);
    core_free(prop);
    core_free(pc->nb_ids);
    pc->nb_ids = NULL;
    return rc;
  }
  for (int32_t pass = 0; pass < max_passes; pass++) {
    if (pc->rule->bounds) {
      pc->max_bound = costmodel_loads_max(pc->ld);
      pc->steady_bound = costmodel_steady_max(pc->ld);
      pc->remap_bound = costmodel_remap_max(pc->ld);
    }
    /* every active id tested against the pass's start on the threads,
       then filed in id order: the heap refresh(act[0..na-1]) builds */
    if ((rc = partition_scan(pc, act, na, prop)) != MINEX_OK)
      break;
    for (int32_t i = 0; i < na; i++)
      if (prop[i].to >= 0)
        partition_heap_set(h, act[i], prop[i].gain, prop[i].forced);
      else
        partition_heap_remove(h, act[i]);
    int64_t moves = 0;
    while (h->size > 0) {
      int32_t x = partition_heap_pop(h);
      partition_choice ch;
      if (!partition_best_move(pc, x, &ch))
        continue;
      /* loads changed since x was filed: if its move is now worse than
         the next entry's key, file it again (SPEC §3 "re-evaluated") */
      if (!partition_heap_precedes_top(h, ch.move.gain, ch.forced)) {
        partition_heap_set(h, x, ch.move.gain, ch.forced);
        continue;
      }
      partition_execute(pc, x, ch.move.to);
      moves++;
      int32_t nnb = contract_gather(ws, x);
      memcpy(pc->nb_ids, ws->acc.list, sizeof(int32_t) * (size_t)nnb);
      /* a vertex moves at most once per pass (as in FM passes): without
         the lock, heavy coarse vertices trade places thousands of times
         for ever smaller MinVar improvements */
      moved[x] = pass + 1;
      partition_heap_remove(h, x);
      for (int32_t i = 0; i < nnb; i++)
        if (moved[pc->nb_ids[i]] != pass + 1)
          refresh(pc, pc->nb_ids[i]);
    }
    while (h->size > 0)
      partition_heap_pop(h);
    if (moves == 0)
      break;
  }
  core_free(act);
  core_free(moved);
  core_free(prop);
  core_free(pc->nb_ids);
  pc->nb_ids = NULL;
  partition_heap_destroy(h);
  return rc; /* a failed scan's error (MINEX_CHECKS: the memo) */
}

int partition_passes_under(partition_ctx *pc, const partition_rule *rule,
                           int32_t max_passes) {
  pc->rule = rule;
  int rc = pc->rounds ? partition_passes_rounds(pc, max_passes,
                                                PARTITION_ROUNDS_BUDGET)
                      : partition_run(pc, max_passes);
  pc->rule = &partition_rule_paper;
  return rc;
}

int partition_balance(partition_ctx *pc, int32_t max_passes) {
  return partition_passes_under(pc, &partition_rule_balance, max_passes);
}

int partition_refine(partition_ctx *pc, int32_t max_passes) {
  return partition_passes_under(pc, &partition_rule_refine, max_passes);
}

int partition_checkpoint_take(partition_ctx *pc, partition_checkpoint *cp) {
  contract_ws *ws = pc->ws;
  memset(cp, 0, sizeof *cp);
  int32_t nids = contract_nids(ws);
  cp->act = core_malloc(sizeof(int32_t) * ((size_t)ws->nactive + 1));
  cp->own = core_malloc(sizeof(int32_t) * ((size_t)ws->nactive + 1));
  int rc = cp->act && cp->own
               ? costmodel_snapshot_take(pc->ld, &cp->snap)
               : core_error(MINEX_ENOMEM, "partition: out of memory for a "
                                          "checkpoint");
  if (rc != MINEX_OK) {
    partition_checkpoint_free(cp);
    return rc;
  }
  for (int32_t x = 0; x < nids; x++)
    if (ws->parent[x] == x) {
      cp->act[cp->na] = x;
      cp->own[cp->na++] = ws->owner[x];
    }
  const contract_level *L = contract_cur(ws);
  if (L->nghost > 0) {
    cp->gown = core_malloc(sizeof(int32_t) * (size_t)L->nghost);
    if (cp->gown == NULL) {
      partition_checkpoint_free(cp);
      return core_error(MINEX_ENOMEM,
                        "partition: out of memory for a checkpoint");
    }
    cp->ng = L->nghost;
    memcpy(cp->gown, ws->owner + 2 * (size_t)L->nbase,
           sizeof(int32_t) * (size_t)L->nghost);
  }
  return MINEX_OK;
}

void partition_checkpoint_restore(partition_ctx *pc,
                                  const partition_checkpoint *cp) {
  contract_ws *ws = pc->ws;
  for (int32_t k = 0; k < cp->na; k++)
    if (ws->owner[cp->act[k]] != cp->own[k])
      contract_set_owner(ws, cp->act[k], cp->own[k]);
  if (cp->ng > 0) /* the ghosts' owners (their ids are past the merges) */
    memcpy(ws->owner + 2 * (size_t)contract_cur(ws)->nbase, cp->gown,
           sizeof(int32_t) * (size_t)cp->ng);
  costmodel_snapshot_restore(pc->ld, &cp->snap);
  memset(pc->interior, 0, (size_t)contract_nids(ws));
  pc->moves = pc->forced_moves = 0;
}

void partition_checkpoint_free(partition_checkpoint *cp) {
  costmodel_snapshot_free(&cp->snap);
  core_free(cp->act);
  core_free(cp->own);
  core_free(cp->gown);
  memset(cp, 0, sizeof *cp);
}
