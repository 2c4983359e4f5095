/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The move rule of SPEC §3 (paper §3.3): a vertex's candidates (its
 * neighbours' owners, plus the least-loaded processor when its owner is
 * above the mean), the ThroTTle gate on Gain and dMinVar, the choice of the
 * smallest Gain, and the forced move off an unavailable processor. */
#include "partition/partition.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int32_t partition_gather_owners_in(const partition_ctx *pc,
                                   partition_scratch *sc, int32_t x) {
  const contract_ws *ws = pc->ws;
  const int32_t *adj;
  const double *cw;
  int64_t len;
  contract_edges(ws, x, &adj, &cw, &len);
  partition_nbr_begin(sc, pc->ld->nprocs);
  int32_t nn = 0;
  for (int64_t j = 0; j < len; j++)
    nn = partition_nbr_add(sc, nn, contract_end_owner(ws, adj[j]), cw[j]);
  return nn;
}

int32_t partition_gather_owners(partition_ctx *pc, int32_t x, int clear) {
  if (clear) {
    const int32_t *adj;
    const double *cw;
    int64_t len;
    contract_edges(pc->ws, x, &adj, &cw, &len);
    for (int64_t j = 0; j < len; j++)
      pc->interior[contract_find(pc->ws, adj[j])] = 0;
  }
  return partition_gather_owners_in(pc, &pc->sc[0], x);
}

/* refine: no processor the move touches ends above SteadyMax or MaxRemap
   of the pass's start (the deltas of the move are still in ld's scratch) */
static int keeps_horizon_parts(const partition_ctx *pc,
                               const costmodel_scratch *mv) {
  const costmodel_loads *ld = pc->ld;
  for (int32_t i = 0; i < mv->ntouched; i++) {
    int32_t x = mv->touched[i];
    if (!pc->cfg->avail[x])
      continue;
    double r = ld->remap[x] + mv->dremap[x];
    double s = costmodel_qwgt_steady(ld, ld->wgt[x] + mv->dwgt[x],
                                     ld->comm[x] + mv->dcomm[x]);
    if (r > pc->remap_bound || s > pc->steady_bound)
      return 0;
  }
  return 1;
}

static int paper_admissible(const partition_ctx *pc,
                            const costmodel_scratch *mv,
                            const costmodel_move *m, double q_from) {
  (void)mv, (void)q_from;
  if (!(m->dmin_var < -pc->dmv_tol))
    return 0;
  /* SPEC §3: -Gain/dMinVar < ThroTTle in units of the mean load */
  return m->gain * pc->qbar < pc->throttle * -m->dmin_var;
}

static int balance_admissible(const partition_ctx *pc,
                              const costmodel_scratch *mv,
                              const costmodel_move *m, double q_from) {
  (void)mv;
  return m->max_after < q_from - pc->gain_tol;
}

static int refine_admissible(const partition_ctx *pc,
                             const costmodel_scratch *mv,
                             const costmodel_move *m, double q_from) {
  (void)q_from;
  return m->gain < -pc->gain_tol && m->max_after <= pc->max_bound &&
         keeps_horizon_parts(pc, mv);
}

/* name, admissible, global, recheck, bounds, below_sender, longer */
const partition_rule partition_rule_paper = {
    "paper", paper_admissible, 1, 0, 0, 0, 0};
const partition_rule partition_rule_balance = {
    "balance", balance_admissible, 1, 0, 0, 1, 1};
const partition_rule partition_rule_refine = {
    "refine", refine_admissible, 0, 1, 1, 0, 0};

int32_t partition_spread_count(const costmodel_loads *ld, double mean,
                               int32_t spread) {
  int32_t m = 0;
  while (m < ld->nlow && m < spread && ld->qwgt[ld->low[m]] < mean)
    m++;
  return m;
}

int32_t partition_spread(const costmodel_loads *ld, int64_t id, double mean,
                         int32_t spread) {
  return partition_spread_m(ld, id, partition_spread_count(ld, mean, spread));
}

int32_t partition_spread_m(const costmodel_loads *ld, int64_t id, int32_t m) {
  if (m < 2)
    return costmodel_argmin(ld, NULL);
  /* Fibonacci hashing: the high bits of id times 2^64 / golden ratio */
  uint64_t h = (uint64_t)id * UINT64_C(0x9E3779B97F4A7C15);
  return ld->low[(h >> 33) % (uint64_t)m];
}

static uint64_t bits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

/* The memo entry of an interior vertex with attributes a on p tested for
   q (its edges' total is sc->nbr[0].cwgt). */
static partition_memo *memo_slot(partition_scratch *sc, const contract_attr *a,
                                 int32_t p, int32_t q) {
  uint64_t h = ((uint64_t)(uint32_t)p << 32 | (uint32_t)q) ^
               (uint64_t)(uint32_t)a->old * UINT64_C(0xC2B2AE3D27D4EB4F);
  h = (h ^ bits(a->pwgt)) * UINT64_C(0x9E3779B97F4A7C15);
  h = (h ^ bits(a->rwgt)) * UINT64_C(0x9E3779B97F4A7C15);
  h = (h ^ bits(sc->nbr[0].cwgt)) * UINT64_C(0x9E3779B97F4A7C15);
  return &sc->memo[(h >> 40) & (PARTITION_MEMO_SIZE - 1)];
}

/* The entry holds this scan's test of that vertex for q (bit for bit the
   same key: the test is a function of it against the frozen loads). */
static int memo_hit(const partition_memo *me, const partition_scratch *sc,
                    const contract_attr *a, int32_t p, int32_t q) {
  return me->gen == sc->memo_gen && me->p == p && me->q == q &&
         me->old == a->old && bits(me->pwgt) == bits(a->pwgt) &&
         bits(me->rwgt) == bits(a->rwgt) &&
         bits(me->cwgt) == bits(sc->nbr[0].cwgt);
}

int partition_best_move(partition_ctx *pc, int32_t x, partition_choice *ch) {
  return partition_best_move_in(pc, &pc->sc[0], x, ch);
}

int partition_best_move_in(partition_ctx *pc, partition_scratch *sc, int32_t x,
                           partition_choice *ch) {
  int32_t nn;
  return partition_best_move_nn(pc, sc, x, ch, &nn);
}

int partition_best_move_nn(partition_ctx *pc, partition_scratch *sc, int32_t x,
                           partition_choice *ch, int32_t *nn_out) {
  const contract_ws *ws = pc->ws;
  int32_t p = ws->owner[x], nn = -1;
  if (!pc->interior[x]) {
    nn = partition_gather_owners_in(pc, sc, x);
    pc->interior[x] = nn == 0 || (nn == 1 && sc->nbr[0].owner == p);
  }
  *nn_out = nn;
  return partition_move_rule(pc, sc, &contract_cur(ws)->at[x], p,
                             pc->interior[x], nn, ch);
}

/* partition_move_rule's candidates for a vertex (record a, owner p) into
 * sc->cand: its neighbours' available owners other than p and, where the
 * rule gives it, the global candidate; 0 when it has none. *nn becomes 1
 * for a vertex interior before the test (its one neighbour weight set). */
static int32_t rule_candidates(const partition_ctx *pc, partition_scratch *sc,
                               const contract_attr *a, int32_t p, int interior,
                               int32_t *nn) {
  const costmodel_loads *ld = pc->ld;
  const minex_config *cf = pc->cfg;
  int forced = !cf->avail[p];
  /* inside a scan the loads are frozen: which processors' vertices get
     the global candidate, and the spread's count, were found once for it
     (partition_scan, the same expressions) */
  int in_scan = sc->memo_gen != 0, global;
  double mean = 0;
  if (in_scan) {
    global = pc->scan_global[p];
  } else {
    mean = ld->navail > 0 ? ld->qwgt_tot / ld->navail : 0;
    global = forced || (pc->global && pc->rule->global && ld->qwgt[p] > mean);
  }
  if (*nn < 0) {
    /* interior before the test: all edges lead to p, the only candidate
       is the global one */
    if (!global)
      return 0;
    sc->nbr[0] = (costmodel_nbr){p, a->ctot};
    *nn = 1;
  } else if (interior && !global) {
    return 0;
  }
  int32_t nc = 0;
  for (int32_t i = 0; i < *nn; i++) {
    int32_t o = sc->nbr[i].owner;
    if (o != p && cf->avail[o])
      sc->cand[nc++] = o;
  }
  if (global) {
    /* the least-loaded processor (in the rounds' scans one of the least
       loaded, partition_spread), unless a neighbour already put it in
       the list (the owner stamps belong to the last gather, which for an
       interior vertex was another vertex's: scan the list instead) */
    int32_t q = sc->spread_id < 0 ? costmodel_argmin(ld, NULL)
                : in_scan
                    ? partition_spread_m(ld, sc->spread_id, pc->scan_nspread)
                    : partition_spread(ld, sc->spread_id, mean, pc->spread);
    int listed = 0;
    for (int32_t i = 0; i < nc && !listed; i++)
      listed = sc->cand[i] == q;
    if (q >= 0 && q != p && !listed)
      sc->cand[nc++] = q;
  }
  return nc;
}

int partition_move_rule(const partition_ctx *pc, partition_scratch *sc,
                        const contract_attr *a, int32_t p, int interior,
                        int32_t nn, partition_choice *ch) {
  const costmodel_loads *ld = pc->ld;
  int forced = !pc->cfg->avail[p];
  int32_t nc = rule_candidates(pc, sc, a, p, interior, &nn);
  if (nc == 0)
    return 0;
  partition_memo *me = NULL;
#ifdef MINEX_CHECKS
  partition_memo hit = {0};
#endif
  if (sc->memo_gen != 0 && !forced && nc == 1 && nn == 1 &&
      sc->nbr[0].owner == p) {
    /* an interior vertex inside a scan: the test of its one candidate is
       the memo's when the key matches */
    me = memo_slot(sc, a, p, sc->cand[0]);
    if (memo_hit(me, sc, a, p, sc->cand[0])) {
      sc->memo_hits++;
#ifdef MINEX_CHECKS
      /* MINEX_CHECKS builds test once more and compare (below) */
      hit = *me;
#else
      if (!me->ok)
        return 0;
      ch->move = me->m;
      ch->forced = 0;
      ch->fresh = 0; /* the scratch holds another move's deltas */
      return 1;
#endif
    }
  }
  costmodel_vertex v = {a->pwgt, a->rwgt, a->old, p, sc->nbr, nn};
  costmodel_move m, best = {0}, fallback = {0};
  int have = 0, have_fb = 0, fresh = 0, fresh_fb = 0;
  /* balance: a move whose receiver ends at or above the sender's load
     before it is not admissible (max_after is at least the receiver's
     load), and the receiver's load alone needs no scratch; most of the
     balance passes' tests end here, with the value eval_move_in would
     compute */
  double bal_bound =
      pc->rule->below_sender && !forced ? ld->qwgt[p] - pc->gain_tol : INFINITY;
  for (int32_t i = 0; i < nc; i++) {
    if (bal_bound < INFINITY &&
        costmodel_receiver_qwgt(ld, &v, sc->cand[i]) >= bal_bound)
      continue;
    costmodel_eval_move_in(ld, &sc->mv, &v, sc->cand[i], &m);
    fresh = fresh_fb = 0; /* the scratch holds m's deltas now */
    if (pc->rule->admissible(pc, &sc->mv, &m, ld->qwgt[p])) {
      if (!have || m.gain < best.gain ||
          (m.gain == best.gain && m.dmin_var < best.dmin_var)) {
        best = m;
        have = fresh = 1;
      }
    } else if (forced && (!have_fb || m.dmin_var < fallback.dmin_var)) {
      /* nothing passes the gate: the move that unbalances least */
      fallback = m;
      have_fb = fresh_fb = 1;
    }
  }
#ifdef MINEX_CHECKS
  if (hit.gen != 0 && sc->memo_bad < 0 &&
      (hit.ok != have ||
       (have && (hit.m.to != best.to || bits(hit.m.gain) != bits(best.gain) ||
                 bits(hit.m.dmin_var) != bits(best.dmin_var) ||
                 bits(hit.m.max_to) != bits(best.max_to) ||
                 bits(hit.m.max_after) != bits(best.max_after)))))
    sc->memo_bad = p; /* partition_scan reports it */
#endif
  if (me != NULL)
    *me = (partition_memo){a->pwgt,     a->rwgt, sc->nbr[0].cwgt, p,
                           sc->cand[0], a->old,  sc->memo_gen,    best,
                           have};
  if (!have && !have_fb)
    return 0;
  ch->move = have ? best : fallback;
  ch->forced = forced;
  ch->fresh = have ? fresh : fresh_fb;
  return 1;
}

/* partition_test_move's gate on the evaluated move m of a vertex owned by
   p (its deltas in mv) */
static int gate(const partition_ctx *pc, const costmodel_scratch *mv,
                const costmodel_move *m, int32_t p, partition_choice *ch) {
  int forced = !pc->cfg->avail[p];
  if (!forced && !pc->rule->admissible(pc, mv, m, pc->ld->qwgt[p]))
    return 0;
  ch->move = *m;
  ch->forced = forced;
  ch->fresh = 1;
  return 1;
}

int partition_test_move(const partition_ctx *pc, costmodel_scratch *mv,
                        const costmodel_vertex *v, int32_t q, double ref,
                        partition_choice *ch) {
  costmodel_move m;
  costmodel_eval_move_ref(pc->ld, mv, v, q, ref, &m);
  return gate(pc, mv, &m, v->cur, ch);
}

int partition_test_deltas(const partition_ctx *pc, costmodel_scratch *mv,
                          int32_t p, int32_t q, double ref,
                          partition_choice *ch) {
  costmodel_move m;
  costmodel_finish_move_ref(pc->ld, mv, q, ref, &m);
  return gate(pc, mv, &m, p, ch);
}
