/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Synchronous rounds of moves (SPEC §3 "Parallel execution"): a
 * set of ids tested against the frozen owners and loads on the threads,
 * the moves found applied in a fixed order with re-validation, then the
 * neighbours of the moved ids. The expansion's rounds and the rounds
 * variant of the fine-level passes (balance, refinement) are built on it. */
#include "partition/partition.h"

#include <stdlib.h>
#include <string.h>

int partition_rounds_ws_create(partition_rounds_ws *rw, int32_t nids) {
  memset(rw, 0, sizeof *rw);
  size_t n = (size_t)nids + 1;
  rw->prop = core_malloc(sizeof *rw->prop * n);
  rw->mv = core_malloc(sizeof *rw->mv * n);
  rw->mark = core_calloc(n, sizeof(int32_t));
  rw->pos = core_calloc(n, sizeof(int32_t));
  if (!rw->prop || !rw->mv || !rw->mark || !rw->pos) {
    partition_rounds_ws_destroy(rw);
    return core_error(MINEX_ENOMEM, "rounds: out of memory for %ld vertex ids",
                      (long)nids);
  }
  rw->cap = nids;
  return MINEX_OK;
}

void partition_rounds_ws_destroy(partition_rounds_ws *rw) {
  core_free(rw->prop);
  core_free(rw->mv);
  core_free(rw->mark);
  core_free(rw->pos);
  core_free(rw->tmp);
  core_free(rw->gstart);
  core_free(rw->gnbr);
  memset(rw, 0, sizeof *rw);
}

void partition_rounds_reset(partition_rounds_ws *rw, int32_t nids) {
  memset(rw->mark, 0, sizeof(int32_t) * (size_t)nids);
  rw->stamp = 0;
  rw->glevel = NULL; /* the ghost lists are made again when needed */
}

/* Proposals of a round in the order they are applied: forced moves first,
 * then the smallest Gain, then the smallest id: a fixed order, whatever
 * the threads. */
static int move_cmp(const void *a, const void *b) {
  const partition_round_move *x = a, *y = b;
  if (x->forced != y->forced)
    return x->forced ? -1 : 1;
  if (x->gain != y->gain)
    return x->gain < y->gain ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

/* A move's Gain as an unsigned key in the doubles' order (-0 as +0, as
   move_cmp compares them; Gains are finite). */
static inline uint64_t gain_key(double g) {
  uint64_t u;
  if (g == 0)
    g = 0; /* -0.0 */
  memcpy(&u, &g, sizeof u);
  return u >> 63 ? ~u : u | (UINT64_C(1) << 63);
}

/* Sorts mv[0..k) stably by Gain (LSD radix, 11-bit digits, a pass
   skipped when every key has the same digit), through tmp. */
#define RADIX_BITS 11
#define RADIX_PASSES 6 /* ceil(64 / RADIX_BITS) */
static void radix_gain(partition_round_move *mv, partition_round_move *tmp,
                       size_t k) {
  enum { B = 1 << RADIX_BITS };
  _Static_assert(RADIX_BITS * RADIX_PASSES >= 64, "the digits cover a key");
  uint32_t cnt[RADIX_PASSES][B]; /* k < 2^31 */
  memset(cnt, 0, sizeof cnt);
  for (size_t i = 0; i < k; i++) {
    uint64_t key = gain_key(mv[i].gain);
    for (int d = 0; d < RADIX_PASSES; d++)
      cnt[d][(key >> (d * RADIX_BITS)) & (B - 1)]++;
  }
  partition_round_move *src = mv, *dst = tmp;
  for (int d = 0; d < RADIX_PASSES; d++) {
    uint32_t sum = 0, *c = cnt[d];
    int skip = 0;
    for (size_t b = 0; b < B && !skip; b++)
      skip = c[b] == k;
    if (skip)
      continue;
    for (size_t b = 0; b < B; b++) {
      uint32_t t = c[b];
      c[b] = sum;
      sum += t;
    }
    for (size_t i = 0; i < k; i++)
      dst[c[(gain_key(src[i].gain) >> (d * RADIX_BITS)) & (B - 1)]++] = src[i];
    partition_round_move *t = src;
    src = dst;
    dst = t;
  }
  if (src != mv)
    memcpy(mv, src, sizeof *mv * k);
}

/* partition_round_sort on mv[0..n), the radix's scratch *tmp (*cap
   entries, grown here; left as it was when it cannot grow). */
void partition_sort_moves(partition_round_move *mv, size_t n,
                          partition_round_move **tmp, size_t *cap) {
  int sorted = 1; /* ids in increasing order: the callers' */
  for (size_t i = 1; i < n && sorted; i++)
    sorted = mv[i - 1].id < mv[i].id;
  if (n < PARTITION_RADIX_MIN || !sorted) {
    qsort(mv, n, sizeof *mv, move_cmp);
    return;
  }
  if (*cap < n) {
    partition_round_move *t = core_malloc(sizeof *t * n);
    if (t == NULL) {
      qsort(mv, n, sizeof *mv, move_cmp);
      return;
    }
    core_free(*tmp);
    *tmp = t;
    *cap = n;
  }
  partition_round_move *t = *tmp;
  /* the forced moves first, both groups in id order */
  size_t nf = 0;
  for (size_t i = 0; i < n; i++)
    if (mv[i].forced)
      t[nf++] = mv[i];
  if (nf > 0) {
    size_t j = nf;
    for (size_t i = 0; i < n; i++)
      if (!mv[i].forced)
        t[j++] = mv[i];
    memcpy(mv, t, sizeof *mv * n);
  }
  radix_gain(mv, t, nf);
  radix_gain(mv + nf, t, n - nf);
}

void partition_round_sort(partition_rounds_ws *rw, int32_t k) {
  partition_sort_moves(rw->mv, (size_t)k, &rw->tmp, &rw->tmpcap);
}

static int id_cmp(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* The next round's ids: those queued (mark = stamp) in ids[0..next), a
 * vertex that moved after it was queued left out (it waits, as the heap
 * passes lock a moved vertex), in id order; returns their number. */
int32_t partition_next_round(int32_t *ids, int32_t next, const int32_t *mark,
                             int32_t stamp) {
  int32_t k = 0;
  for (int32_t i = 0; i < next; i++)
    if (mark[ids[i]] == stamp)
      ids[k++] = ids[i];
  qsort(ids, (size_t)k, sizeof(int32_t), id_cmp);
  return k;
}

void partition_decision_deltas(partition_ctx *pc, partition_scratch *sc,
                               costmodel_scratch *s, int32_t x, int32_t q) {
  const contract_ws *ws = pc->ws;
  const contract_attr *a = &contract_cur(ws)->at[x];
  int32_t p = ws->owner[x], nn = 1;
  if (!pc->interior[x])
    nn = partition_gather_owners_in(pc, sc, x);
  if (pc->interior[x] || nn == 0 || (nn == 1 && sc->nbr[0].owner == p)) {
    sc->nbr[0] = (costmodel_nbr){p, a->ctot};
    nn = 1;
  }
  costmodel_vertex v = {a->pwgt, a->rwgt, a->old, p, sc->nbr, nn};
  costmodel_move_deltas(pc->ld, s, &v, q);
}

#ifdef MINEX_CHECKS
/* MINEX_CHECKS builds: the deltas the scan kept (b) are the ones the
   decision makes (a), bit for bit and in the same order. */
static int same_deltas(const costmodel_scratch *a, const costmodel_scratch *b,
                       int32_t x) {
  int same = a->ntouched == b->ntouched;
  for (int32_t j = 0; j < a->ntouched && same; j++) {
    int32_t y = a->touched[j];
    same = b->touched[j] == y && a->dwgt[y] == b->dwgt[y] &&
           a->dcomm[y] == b->dcomm[y] && a->dremap[y] == b->dremap[y];
  }
  return same ? MINEX_OK
              : core_error(MINEX_EINTERNAL,
                           "rounds: the deltas kept by the scan for id %ld "
                           "differ from its decision's",
                           (long)x);
}
#endif

/* rounds = ON: decides the proposals rw->mv[0..nm) in the round's order,
 * each for its own destination against the round's loads plus the deltas
 * of every earlier proposal, accepted or not (so the loads a decision
 * sees are per processor a sum over the proposals before it, whatever was
 * decided for them: the replay-free rule of docs/design/algorithm.md), dMinVar
 * about the round's minimum; then an accepted proposal with an earlier
 * accepted neighbour waits for the next round (none in the last). The
 * loads are the round's again on return. */
static int round_decide(partition_ctx *pc, partition_rounds_ws *rw, int32_t nm,
                        int last, int defer) {
  contract_ws *ws = pc->ws;
  costmodel_loads *ld = pc->ld;
  partition_scratch *sc = &pc->sc[0];
  costmodel_snapshot snap;
  int rc = costmodel_snapshot_take(ld, &snap);
  if (rc != MINEX_OK)
    return rc;
  double ref = rw->ref = ld->tree[1];
  for (int32_t i = 0; i < nm; i++) {
    partition_round_move *mv = &rw->mv[i];
    int32_t x = mv->id, p = ws->owner[x];
    if (mv->nd > 0) { /* the scan's deltas: the same doubles */
      partition_load_deltas(&ld->mv, mv->d, mv->nd);
#ifdef MINEX_CHECKS
      partition_decision_deltas(pc, sc, &sc->mv, x, mv->to);
      if ((rc = same_deltas(&sc->mv, &ld->mv, x)) != MINEX_OK)
        break;
#endif
    } else {
      partition_decision_deltas(pc, sc, &ld->mv, x, mv->to);
    }
    partition_choice ch;
    int ok = partition_test_deltas(pc, &ld->mv, p, mv->to, ref, &ch);
    mv->state = RS_NONE;
    if (ok)
      mv->state =
          defer && !last && i + 1 < nm && !ch.forced &&
                  (rw->mv[i + 1].forced || ch.move.gain > rw->mv[i + 1].gain)
              ? RS_DEFER
              : RS_MOVE;
    /* the proposal's deltas, whatever was decided (the sums only: the
       decisions read nothing else, and the snapshot restores the rest) */
    costmodel_apply_sums(ld);
  }
  costmodel_snapshot_restore(ld, &snap);
  costmodel_snapshot_free(&snap);
  if (last || rc != MINEX_OK)
    return rc;
  for (int32_t i = 0; i < nm; i++)
    if (rw->mv[i].state == RS_MOVE)
      rw->pos[rw->mv[i].id] = i + 1;
  for (int32_t i = 0; i < nm; i++) {
    if (rw->mv[i].state != RS_MOVE)
      continue;
    int32_t cnt = contract_gather(ws, rw->mv[i].id);
    for (int32_t k = 0; k < cnt; k++) {
      int32_t at = rw->pos[ws->acc.list[k]];
      if (at != 0 && at <= i)
        rw->mv[i].state = RS_WAIT;
    }
  }
  for (int32_t i = 0; i < nm; i++)
    rw->pos[rw->mv[i].id] = 0;
  return MINEX_OK;
}

/* rounds = ON: whether x's accepted move to q is still made when its turn
 * comes: in the refinement passes, and in the last round when a neighbour
 * of x has moved in it (the last round has no waits), the move is checked
 * again against the loads and owners as the moves before it left them
 * (dMinVar about ref, the round's minimum), so that each refinement move
 * keeps its pass's promise (no bound raised) and no move is made on a
 * neighbourhood that changed under it. The balance passes' moves are not
 * checked again (docs/design/algorithm.md "The execution check"): so a round
 * of the expansion or the balance passes, but its last, executes every
 * accepted move that does not wait, which the MPI layer's ranks do
 * without rank 0. */
static int executable(partition_ctx *pc, const partition_rounds_ws *rw,
                      int32_t x, int32_t q, int last, int32_t stamp) {
  contract_ws *ws = pc->ws;
  int check = pc->rule->recheck;
  if (!check && last) {
    int32_t cnt = contract_gather(ws, x);
    for (int32_t k = 0; k < cnt && !check; k++)
      check = rw->mark[ws->acc.list[k]] == -stamp;
  }
  if (!check)
    return 1;
  partition_scratch *sc = &pc->sc[0];
  int32_t nn = partition_gather_owners_in(pc, sc, x);
  const contract_attr *a = &contract_cur(ws)->at[x];
  costmodel_vertex v = {a->pwgt, a->rwgt, a->old, ws->owner[x], sc->nbr, nn};
  partition_choice ch;
  return partition_test_move(pc, &sc->mv, &v, q, rw->ref, &ch);
}

int partition_round_plan(partition_ctx *pc, partition_rounds_ws *rw,
                         const int32_t *ids, int32_t n, int last, int defer,
                         int32_t *nm) {
  /* rounds = ON: the scan keeps each proposal's deltas for the
     decisions */
  pc->keep_deltas = pc->rounds;
  int rc = partition_scan(pc, ids, n, rw->prop);
  if (rc != MINEX_OK) {
    pc->keep_deltas = 0;
    return rc;
  }
  int32_t k = 0;
  const partition_delta *d = NULL;
  for (int32_t i = 0; i < n; i++) {
    if (i % PARTITION_SCAN_BLOCK == 0)
      d = partition_scan_deltas(pc, i / PARTITION_SCAN_BLOCK);
    const partition_prop *pr = &rw->prop[i];
    if (pr->to < 0)
      continue;
    rw->mv[k++] = (partition_round_move){
        pr->gain, ids[i], (int16_t)pr->forced, pr->to, 0, pr->nd, d};
    if (d != NULL)
      d += pr->nd;
  }
  pc->keep_deltas = 0;
  partition_round_sort(rw, k);
  *nm = k;
  if (!pc->rounds)
    return MINEX_OK;
  return round_decide(pc, rw, k, last, defer);
}

/* Executes x's move to q in a round (mark -stamp, the lock) and, when
 * more rounds follow, queues its neighbours not moved nor locked for the
 * next (mark stamp, ids[*next]). */
static void execute_queue(partition_ctx *pc, partition_rounds_ws *rw, int32_t x,
                          int32_t q, partition_queue *qu) {
  contract_ws *ws = pc->ws;
  int32_t *mark = rw->mark;
  partition_execute(pc, x, q);
  mark[x] = -qu->stamp;
  if (qu->lock)
    qu->lock[x] = qu->lockstamp;
  if (!qu->more)
    return;
  int32_t cnt = contract_gather(ws, x);
  for (int32_t k = 0; k < cnt; k++)
    partition_queue_add(qu, mark, ws->acc.list[k]);
}

int partition_rounds(partition_ctx *pc, partition_rounds_ws *rw,
                     const partition_round_set *set, int64_t *nmoves) {
  return pc->ws->layout->rounds(pc, rw, set, nmoves);
}

/* partition_rounds in one process. */
static int rounds_local(partition_ctx *pc, partition_rounds_ws *rw,
                        const partition_round_set *set, int64_t *nmoves) {
  int32_t *ids = set->ids, n = set->n, budget = set->budget;
  int defer = set->defer;
  int32_t *mark = rw->mark;
  int64_t moves = 0;
  *nmoves = 0;
  for (int32_t round = 0; round <= budget && n > 0; round++) {
    int32_t nm;
    int rc = partition_round_plan(pc, rw, ids, n, round == budget, defer, &nm);
    if (rc != MINEX_OK) {
      *nmoves = moves;
      return rc;
    }
    /* mark: stamp = queued for the next round, -stamp = moved in this one */
    partition_queue qu = {
        ids, 0, ++rw->stamp, set->lock, set->lockstamp, round < budget};
    int32_t stamp = qu.stamp;
    if (pc->rounds) {
      int last = round == budget;
      for (int32_t i = 0; i < nm; i++) {
        int32_t x = rw->mv[i].id;
        if (rw->mv[i].state == RS_WAIT || rw->mv[i].state == RS_DEFER) {
          if (mark[x] != stamp) {
            mark[x] = stamp;
            ids[qu.next++] = x;
          }
          continue;
        }
        if (rw->mv[i].state != RS_MOVE ||
            !executable(pc, rw, x, rw->mv[i].to, last, stamp))
          continue;
        execute_queue(pc, rw, x, rw->mv[i].to, &qu);
        moves++;
      }
      /* the round's loads are their processors' sums alone */
      if (nm > 0)
        costmodel_resync(pc->ld);
      n = partition_next_round(ids, qu.next, mark, stamp);
      continue;
    }
    /* applied in that order, each re-tested against the loads the moves
       before it left (re-validation) */
    for (int32_t i = 0; i < nm; i++) {
      int32_t x = rw->mv[i].id;
      partition_choice ch;
      if (!partition_best_move(pc, x, &ch))
        continue;
      /* defer: a move that got worse than the next one waits for the
         next round (as the heap passes file it again) */
      if (defer && round < budget && i + 1 < nm && !ch.forced &&
          (rw->mv[i + 1].forced || ch.move.gain > rw->mv[i + 1].gain)) {
        if (mark[x] != stamp) {
          mark[x] = stamp;
          ids[qu.next++] = x;
        }
        continue;
      }
      execute_queue(pc, rw, x, ch.move.to, &qu);
      moves++;
    }
    n = partition_next_round(ids, qu.next, mark, stamp);
  }
  *nmoves = moves;
  return MINEX_OK;
}

int partition_passes_rounds(partition_ctx *pc, int32_t max_passes,
                            int32_t budget) {
  contract_ws *ws = pc->ws;
  int32_t nids = contract_nids(ws);
  int32_t *ids = core_malloc(sizeof(int32_t) * ((size_t)nids + 1));
  int32_t *lock = core_calloc((size_t)nids + 1, sizeof(int32_t));
  partition_rounds_ws rw;
  memset(&rw, 0, sizeof rw);
  int rc = ids && lock ? partition_rounds_ws_create(&rw, nids)
                       : core_error(MINEX_ENOMEM, "rounds: out of memory");
  rc = dist_agree_or(ws->comm, rc); /* spread over ranks: every rank */
  if (rc != MINEX_OK) { /* this rank's buffers too when another failed */
    partition_rounds_ws_destroy(&rw);
    core_free(ids);
    core_free(lock);
    return rc;
  }
  /* the balance passes: twice as many under a horizon above 1 */
  int64_t npasses = (int64_t)max_passes * (pc->rule->longer && pc->ld->iters > 1
                                               ? PARTITION_ROUNDS_PASS_FACTOR
                                               : 1);
  for (int32_t pass = 0; pass < npasses; pass++) {
    if (pc->rule->bounds) {
      pc->max_bound = costmodel_loads_max(pc->ld);
      pc->steady_bound = costmodel_steady_max(pc->ld);
      pc->remap_bound = costmodel_remap_max(pc->ld);
    }
    int32_t n = 0;
    for (int32_t x = 0; x < nids; x++)
      if (ws->parent[x] == x)
        ids[n++] = x;
    n = partition_movable(pc, ids, n);
    /* a vertex moves at most once per pass, as in the heap passes */
    int64_t moves;
    /* spread over ranks: every rank's moves, the same count everywhere */
    partition_round_set set = {ids, n, budget, lock, pass + 1, 1};
    if ((rc = partition_rounds(pc, &rw, &set, &moves)) != MINEX_OK)
      break;
    if (moves == 0)
      break;
  }
  partition_rounds_ws_destroy(&rw);
  core_free(ids);
  core_free(lock);
  return rc;
}

int partition_force_off(partition_ctx *pc) {
  contract_ws *ws = pc->ws;
  const unsigned char *avail = pc->cfg->avail;
  int32_t nb = contract_cur(ws)->nbase;
  if (!pc->rounds) { /* the heap passes' rule: one vertex after another */
    for (int32_t v = 0; v < nb; v++) {
      partition_choice ch;
      if (!avail[ws->owner[v]] && partition_best_move(pc, v, &ch))
        partition_execute(pc, v, ch.move.to);
    }
    return MINEX_OK;
  }
  int32_t n = 0;
  for (int32_t v = 0; v < nb; v++)
    n += !avail[ws->owner[v]];
  int32_t *ids = core_malloc(sizeof(int32_t) * ((size_t)n + 1));
  partition_rounds_ws rw;
  memset(&rw, 0, sizeof rw);
  int rc = ids ? partition_rounds_ws_create(&rw, contract_nids(ws))
               : core_error(MINEX_ENOMEM, "rounds: out of memory");
  rc = dist_agree_or(ws->comm, rc);
  if (rc == MINEX_OK) {
    n = 0;
    for (int32_t v = 0; v < nb; v++)
      if (!avail[ws->owner[v]])
        ids[n++] = v;
    int64_t moves;
    partition_round_set set = {ids, n, 0, NULL, 0, 0};
    rc = partition_rounds(pc, &rw, &set, &moves);
  }
  partition_rounds_ws_destroy(&rw);
  core_free(ids);
  return rc;
}

const contract_layout contract_layout_local = {rounds_local,
                                               partition_check_phase};
