/* The Gain / MinVar / ThroTTle move rule and heap-driven partitioning of
 * the contracted graph (SPEC §3, paper §3.3 and §3.6). */
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
  pc->throttle = opt->throttle;
  pc->global = opt->global_candidates;
  pc->qbar = ld->navail > 0 ? ld->qwgt_tot / ld->navail : 0;
  if (!(pc->qbar > 0))
    pc->qbar = 1;
  /* rounding noise of dMinVar is ~1e-16 * P * qbar^2; a move must beat it
     clearly, or a pair of vertices could swap back and forth forever */
  pc->dmv_tol = 1e-11 * pc->qbar * pc->qbar;
  pc->nbr = malloc(sizeof(costmodel_nbr) * (size_t)P);
  pc->nbr_at = malloc(sizeof(int32_t) * (size_t)P);
  pc->nbr_stamp = calloc((size_t)P, sizeof(int32_t));
  pc->cand = malloc(sizeof(int32_t) * ((size_t)P + 1));
  pc->interior = ws->interior;
  if (!pc->nbr || !pc->nbr_at || !pc->nbr_stamp || !pc->cand ||
      !pc->interior) {
    partition_ctx_destroy(pc);
    return core_error(MINEX_ENOMEM, "partition: out of memory");
  }
  return MINEX_OK;
}

void partition_ctx_destroy(partition_ctx *pc) {
  free(pc->nbr);
  free(pc->nbr_at);
  free(pc->nbr_stamp);
  free(pc->cand);
  memset(pc, 0, sizeof *pc);
}

/* Aggregates x's edges by neighbour owner into pc->nbr in one pass over
 * its edge list; returns the number of distinct owners. With clear set,
 * the neighbours lose their interior flag (x is about to move). */
static int32_t gather_owners(partition_ctx *pc, int32_t x, int clear) {
  contract_ws *ws = pc->ws;
  const int32_t *adj;
  const double *cw;
  int64_t len;
  contract_edges(ws, x, &adj, &cw, &len);
  if (++pc->stamp == INT32_MAX) {
    memset(pc->nbr_stamp, 0, sizeof(int32_t) * (size_t)pc->ld->nprocs);
    pc->stamp = 1;
  }
  int32_t nn = 0;
  for (int64_t j = 0; j < len; j++) {
    int32_t o = contract_end_owner(ws, adj[j]);
    if (clear)
      pc->interior[contract_find(ws, adj[j])] = 0;
    if (pc->nbr_stamp[o] != pc->stamp) {
      pc->nbr_stamp[o] = pc->stamp;
      pc->nbr_at[o] = nn;
      pc->nbr[nn].owner = o;
      pc->nbr[nn++].cwgt = 0;
    }
    pc->nbr[pc->nbr_at[o]].cwgt += cw[j];
  }
  return nn;
}

static inline int admissible(const partition_ctx *pc,
                             const costmodel_move *m) {
  if (!(m->dmin_var < -pc->dmv_tol))
    return 0;
  /* SPEC §3: -Gain/dMinVar < ThroTTle in units of the mean load */
  return m->gain * pc->qbar < pc->throttle * -m->dmin_var;
}

int partition_best_move(partition_ctx *pc, int32_t x, partition_choice *ch) {
  contract_ws *ws = pc->ws;
  const contract_level *L = contract_cur(ws);
  costmodel_loads *ld = pc->ld;
  const minex_config *cf = pc->cfg;
  int32_t p = ws->owner[x];
  int forced = !cf->avail[p];
  double mean = ld->navail > 0 ? ld->qwgt_tot / ld->navail : 0;
  int global = forced || (pc->global && ld->qwgt[p] > mean);
  int32_t nn;
  if (pc->interior[x]) {
    /* all edges lead to p: the only candidate is the global one */
    if (!global)
      return 0;
    pc->nbr[0] = (costmodel_nbr){p, L->at[x].ctot};
    nn = 1;
  } else {
    nn = gather_owners(pc, x, 0);
    pc->interior[x] = nn == 0 || (nn == 1 && pc->nbr[0].owner == p);
    if (pc->interior[x] && !global)
      return 0;
  }
  int32_t nc = 0;
  for (int32_t i = 0; i < nn; i++) {
    int32_t o = pc->nbr[i].owner;
    if (o != p && cf->avail[o])
      pc->cand[nc++] = o;
  }
  if (global) {
    /* the least-loaded processor, unless a neighbour already put it in
       the list (the owner stamps belong to the last gather, which for an
       interior vertex was another vertex's: scan the list instead) */
    int32_t q = costmodel_argmin(ld, NULL);
    int listed = 0;
    for (int32_t i = 0; i < nc && !listed; i++)
      listed = pc->cand[i] == q;
    if (q >= 0 && q != p && !listed)
      pc->cand[nc++] = q;
  }
  if (nc == 0)
    return 0;
  const contract_attr *a = &L->at[x];
  costmodel_vertex v = {a->pwgt, a->rwgt, a->old, p, pc->nbr, nn};
  costmodel_move m, best = {0}, fallback = {0};
  int have = 0, have_fb = 0;
  for (int32_t i = 0; i < nc; i++) {
    costmodel_eval_move(ld, &v, pc->cand[i], &m);
    if (admissible(pc, &m)) {
      if (!have || m.gain < best.gain ||
          (m.gain == best.gain && m.dmin_var < best.dmin_var)) {
        best = m;
        have = 1;
      }
    } else if (forced && (!have_fb || m.dmin_var < fallback.dmin_var)) {
      /* nothing passes the gate: the move that unbalances least */
      fallback = m;
      have_fb = 1;
    }
  }
  if (!have && !have_fb)
    return 0;
  ch->move = have ? best : fallback;
  ch->forced = forced;
  return 1;
}

void partition_execute(partition_ctx *pc, int32_t x, int32_t q) {
  contract_ws *ws = pc->ws;
  const contract_level *L = contract_cur(ws);
  int32_t nn = gather_owners(pc, x, 1);
  const contract_attr *a = &L->at[x];
  costmodel_vertex v = {a->pwgt, a->rwgt, a->old, ws->owner[x], pc->nbr, nn};
  pc->interior[x] = 0;
  costmodel_move m;
  if (!pc->cfg->avail[ws->owner[x]])
    pc->forced_moves++;
  costmodel_eval_move(pc->ld, &v, q, &m);
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
  int32_t *act = malloc(sizeof(int32_t) * ((size_t)ws->nactive + 1));
  if (act == NULL)
    return core_error(MINEX_ENOMEM, "partition: out of memory");
  int32_t na = 0, nids = contract_nids(ws);
  for (int32_t x = 0; x < nids; x++)
    if (ws->parent[x] == x)
      act[na++] = x;
  /* a vertex has at most na - 1 distinct neighbours */
  pc->nb_ids = malloc(sizeof(int32_t) * ((size_t)na + 1));
  /* pass + 1 for the vertices moved in a pass */
  int32_t *moved = calloc((size_t)nids + 1, sizeof(int32_t));
  int rc = pc->nb_ids && moved ? partition_heap_create(h, nids, na)
                      : core_error(MINEX_ENOMEM, "partition: out of memory");
  if (rc != MINEX_OK) {
    free(act);
    free(moved);
    free(pc->nb_ids);
    pc->nb_ids = NULL;
    return rc;
  }
  for (int32_t pass = 0; pass < max_passes; pass++) {
    for (int32_t i = 0; i < na; i++)
      refresh(pc, act[i]);
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
      memcpy(pc->nb_ids, ws->list, sizeof(int32_t) * (size_t)nnb);
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
  free(act);
  free(moved);
  free(pc->nb_ids);
  pc->nb_ids = NULL;
  partition_heap_destroy(h);
  return MINEX_OK;
}
