/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Synchronous rounds of moves (SPEC §3 "Parallel execution"; issue 19): a
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
  memset(rw, 0, sizeof *rw);
}

void partition_rounds_reset(partition_rounds_ws *rw, int32_t nids) {
  memset(rw->mark, 0, sizeof(int32_t) * (size_t)nids);
  rw->stamp = 0;
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
static void sort_moves(partition_round_move *mv, size_t n,
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
  sort_moves(rw->mv, (size_t)k, &rw->tmp, &rw->tmpcap);
}

static int id_cmp(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* The next round's ids: those queued (mark = stamp) in ids[0..next), a
 * vertex that moved after it was queued left out (it waits, as the heap
 * passes lock a moved vertex), in id order; returns their number. */
static int32_t next_round(int32_t *ids, int32_t next, const int32_t *mark,
                          int32_t stamp) {
  int32_t k = 0;
  for (int32_t i = 0; i < next; i++)
    if (mark[ids[i]] == stamp)
      ids[k++] = ids[i];
  qsort(ids, (size_t)k, sizeof(int32_t), id_cmp);
  return k;
}

/* rounds = ON: decides the proposals rw->mv[0..nm) in the round's order,
 * each for its own destination against the round's loads plus the deltas
 * of every earlier proposal, accepted or not (so the loads a decision
 * sees are per processor a sum over the proposals before it, whatever was
 * decided for them: the replay-free rule of docs/algorithm.md), dMinVar
 * about the round's minimum; then an accepted proposal with an earlier
 * accepted neighbour waits for the next round (none in the last). The
 * loads are the round's again on return. */
static int round_decide(partition_ctx *pc, partition_rounds_ws *rw, int32_t nm,
                        int last, int defer) {
  contract_ws *ws = pc->ws;
  costmodel_loads *ld = pc->ld;
  partition_scratch *sc = &pc->sc[0];
  const contract_level *L = contract_cur(ws);
  costmodel_snapshot snap;
  int rc = costmodel_snapshot_take(ld, &snap);
  if (rc != MINEX_OK)
    return rc;
  double ref = rw->ref = ld->tree[1];
  for (int32_t i = 0; i < nm; i++) {
    partition_round_move *mv = &rw->mv[i];
    int32_t x = mv->id, p = ws->owner[x], nn = 1;
    /* an interior vertex's one neighbour weight is its Ctot (no gather),
       as the scan's; a gather that finds only p, or no neighbour, says the
       same, so that the decision does not depend on the flag (the replay,
       below, has none). At coarse levels Ctot may differ from the edges'
       sum in the last bits (another order of the sums) */
    if (!pc->interior[x])
      nn = partition_gather_owners_in(pc, sc, x);
    if (pc->interior[x] || nn == 0 || (nn == 1 && sc->nbr[0].owner == p)) {
      sc->nbr[0] = (costmodel_nbr){p, L->at[x].ctot};
      nn = 1;
    }
    partition_choice ch;
    mv->state = RS_NONE;
    if (partition_test_move(pc, sc, &ld->mv, &L->at[x], p, nn, mv->to, ref,
                            &ch))
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
  if (last)
    return MINEX_OK;
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
 * comes: in the refinement and balance passes, and in the last round when
 * a neighbour of x has moved in it (the last round has no waits), the move
 * is checked again against the loads and owners as the moves before it
 * left them (dMinVar about ref, the round's minimum), so that each
 * refinement or balance move keeps its pass's promise (no bound raised,
 * every touched processor below the sender) and no move is made on a
 * neighbourhood that changed under it. */
static int executable(partition_ctx *pc, const partition_rounds_ws *rw,
                      int32_t x, int32_t q, int last, int32_t stamp) {
  contract_ws *ws = pc->ws;
  int check = pc->refine != 0;
  if (!check && last) {
    int32_t cnt = contract_gather(ws, x);
    for (int32_t k = 0; k < cnt && !check; k++)
      check = rw->mark[ws->acc.list[k]] == -stamp;
  }
  if (!check)
    return 1;
  partition_scratch *sc = &pc->sc[0];
  int32_t nn = partition_gather_owners_in(pc, sc, x);
  partition_choice ch;
  return partition_test_move(pc, sc, &sc->mv, &contract_cur(ws)->at[x],
                             ws->owner[x], nn, q, rw->ref, &ch);
}

int partition_round_plan(partition_ctx *pc, partition_rounds_ws *rw,
                         const int32_t *ids, int32_t n, int last, int defer,
                         int32_t *nm) {
  partition_scan(pc, ids, n, rw->prop);
  int32_t k = 0;
  for (int32_t i = 0; i < n; i++)
    if (rw->prop[i].to >= 0)
      rw->mv[k++] = (partition_round_move){
          rw->prop[i].gain, ids[i], rw->prop[i].forced, rw->prop[i].to, 0};
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
                          int32_t q, int32_t *ids, int32_t *next, int32_t stamp,
                          int32_t *lock, int32_t lockstamp, int more) {
  contract_ws *ws = pc->ws;
  int32_t *mark = rw->mark;
  partition_execute(pc, x, q);
  mark[x] = -stamp;
  if (lock)
    lock[x] = lockstamp;
  if (!more)
    return;
  int32_t cnt = contract_gather(ws, x);
  for (int32_t k = 0; k < cnt; k++) {
    int32_t r = ws->acc.list[k];
    if (mark[r] != stamp && mark[r] != -stamp &&
        (lock == NULL || lock[r] != lockstamp)) {
      mark[r] = stamp;
      ids[(*next)++] = r;
    }
  }
}

int partition_rounds(partition_ctx *pc, partition_rounds_ws *rw, int32_t *ids,
                     int32_t n, int32_t budget, int32_t *lock,
                     int32_t lockstamp, int defer, int64_t *nmoves) {
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
    if (pc->rounds) {
      int32_t stamp = ++rw->stamp, next = 0, last = round == budget;
      for (int32_t i = 0; i < nm; i++) {
        int32_t x = rw->mv[i].id;
        if (rw->mv[i].state == RS_WAIT || rw->mv[i].state == RS_DEFER) {
          if (mark[x] != stamp) {
            mark[x] = stamp;
            ids[next++] = x;
          }
          continue;
        }
        if (rw->mv[i].state != RS_MOVE ||
            !executable(pc, rw, x, rw->mv[i].to, last, stamp))
          continue;
        execute_queue(pc, rw, x, rw->mv[i].to, ids, &next, stamp, lock,
                      lockstamp, !last);
        moves++;
      }
      n = next_round(ids, next, mark, stamp);
      continue;
    }
    /* applied in that order, each re-tested against the loads the moves
       before it left (re-validation); mark: stamp = queued for the next
       round, -stamp = moved in this one */
    int32_t stamp = ++rw->stamp, next = 0;
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
          ids[next++] = x;
        }
        continue;
      }
      execute_queue(pc, rw, x, ch.move.to, ids, &next, stamp, lock, lockstamp,
                    round < budget);
      moves++;
    }
    n = next_round(ids, next, mark, stamp);
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
  int rc = ids && lock ? partition_rounds_ws_create(&rw, nids)
                       : core_error(MINEX_ENOMEM, "rounds: out of memory");
  if (ws->comm != NULL) /* spread over ranks: every rank learns it */
    rc = ws->comm->agree(ws->comm->ctx, rc);
  if (rc != MINEX_OK) {
    core_free(ids);
    core_free(lock);
    return rc;
  }
  /* the balance passes: twice as many under a horizon above 1 */
  int64_t npasses =
      (int64_t)max_passes *
      (pc->refine == 2 && pc->ld->iters > 1 ? PARTITION_ROUNDS_PASS_FACTOR : 1);
  for (int32_t pass = 0; pass < npasses; pass++) {
    if (pc->refine == 1) {
      pc->max_bound = partition_loads_max(pc->ld);
      pc->steady_bound = partition_steady_max(pc->ld);
      pc->remap_bound = partition_remap_max(pc->ld);
    }
    int32_t n = 0;
    for (int32_t x = 0; x < nids; x++)
      if (ws->parent[x] == x)
        ids[n++] = x;
    /* a vertex moves at most once per pass, as in the heap passes */
    int64_t moves;
    if (ws->comm == NULL) {
      if ((rc = partition_rounds(pc, &rw, ids, n, budget, lock, pass + 1, 1,
                                 &moves)) != MINEX_OK)
        break;
    } else if ((rc = partition_rounds_dist(pc, &rw, ids, n, budget, lock,
                                           pass + 1, 1, &moves)) != MINEX_OK) {
      break; /* every rank's moves: the same count everywhere */
    }
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
  if (ws->comm != NULL)
    rc = ws->comm->agree(ws->comm->ctx, rc);
  if (rc == MINEX_OK) {
    n = 0;
    for (int32_t v = 0; v < nb; v++)
      if (!avail[ws->owner[v]])
        ids[n++] = v;
    int64_t moves;
    if (ws->comm == NULL)
      rc = partition_rounds(pc, &rw, ids, n, 0, NULL, 0, 0, &moves);
    else
      rc = partition_rounds_dist(pc, &rw, ids, n, 0, NULL, 0, 0, &moves);
  }
  partition_rounds_ws_destroy(&rw);
  core_free(ids);
  return rc;
}

/* A move found by a round's scan, as rank 0 receives it: the vertex's
 * global id and record, its owner, the scan's Gain and destination, and
 * its edges. */
typedef struct rec_head {
  int64_t gid;
  double gain, pwgt, rwgt, ctot;
  int32_t old, cur, forced, deg, to; /* to: the destination proposed */
  int32_t pad;
} rec_head;

/* An edge of it: the neighbour's global id, its owner at the scan, Cwgt. */
typedef struct rec_edge {
  int64_t gid;
  double cwgt;
  int32_t owner, pad;
} rec_edge;

static int rec_cmp(const void *a, const void *b) {
  const rec_head *x = *(const rec_head *const *)a;
  const rec_head *y = *(const rec_head *const *)b;
  if (x->forced != y->forced)
    return x->forced ? -1 : 1;
  if (x->gain != y->gain)
    return x->gain < y->gain ? -1 : 1;
  return (x->gid > y->gid) - (x->gid < y->gid);
}

/* Puts the records order[0..nrec) in rec_cmp's order. They arrive in
   rank order, each rank's in its scan's (local id) order, so mostly in
   increasing global id: then by the serial rounds' radix sort on their
   places (the places break ties as the global ids would), else by qsort.
   MINEX_ENOMEM with a message. */
static int order_records(const rec_head **order, int64_t nrec) {
  int sorted = nrec >= PARTITION_RADIX_MIN;
  for (int64_t i = 1; i < nrec && sorted; i++)
    sorted = order[i - 1]->gid < order[i]->gid;
  if (!sorted) {
    qsort(order, (size_t)nrec, sizeof *order, rec_cmp);
    return MINEX_OK;
  }
  size_t n = (size_t)nrec, cap = 0;
  partition_round_move *mv = core_malloc(sizeof *mv * n), *tmp = NULL;
  const rec_head **in = core_malloc(sizeof *in * n);
  if (mv == NULL || in == NULL) {
    core_free(mv);
    core_free(in);
    return core_error(MINEX_ENOMEM, "rounds: out of memory for %lld moves",
                      (long long)nrec);
  }
  for (size_t i = 0; i < n; i++) {
    in[i] = order[i];
    mv[i] = (partition_round_move){order[i]->gain, (int32_t)i, order[i]->forced,
                                   0, 0};
  }
  sort_moves(mv, n, &tmp, &cap);
  for (size_t i = 0; i < n; i++)
    order[i] = in[mv[i].id];
  core_free(tmp);
  core_free(mv);
  core_free(in);
  return MINEX_OK;
}

/* The owners that changed in a round, by global id (open addressing). */
typedef struct moved_tab {
  int64_t *key;
  int32_t *val;
  int64_t mask;
} moved_tab;

static int64_t tab_slot(const moved_tab *t, int64_t k) {
  uint64_t h = (uint64_t)k * 0x9E3779B97F4A7C15ull;
  int64_t i = (int64_t)(h >> 20) & t->mask;
  while (t->key[i] != -1 && t->key[i] != k)
    i = (i + 1) & t->mask;
  return i;
}

/* The owner of edge e now: its owner at the scan unless it moved since. */
static int32_t edge_owner(const moved_tab *t, const rec_edge *e, int *moved) {
  if (t == NULL) /* nothing moved yet in the round */
    return e->owner;
  int64_t i = tab_slot(t, e->gid);
  if (t->key[i] == e->gid) {
    *moved = 1;
    return t->val[i];
  }
  return e->owner;
}

/* x's neighbour owners from its edges (first seen first, Cwgt summed in
 * row order, as partition_gather_owners_in): sc->nbr; returns their
 * number; *changed: whether a neighbour moved in this round (t: the
 * round's moves, NULL before any). */
static int32_t rec_gather(partition_scratch *sc, int32_t nprocs,
                          const moved_tab *t, const rec_head *h,
                          const rec_edge *e, int *changed) {
  if (++sc->stamp == INT32_MAX) {
    memset(sc->nbr_stamp, 0, sizeof(int32_t) * (size_t)nprocs);
    sc->stamp = 1;
  }
  int32_t nn = 0;
  *changed = 0;
  for (int32_t j = 0; j < h->deg; j++) {
    int32_t o = edge_owner(t, &e[j], changed);
    if (sc->nbr_stamp[o] != sc->stamp) {
      sc->nbr_stamp[o] = sc->stamp;
      sc->nbr_at[o] = nn;
      sc->nbr[nn].owner = o;
      sc->nbr[nn++].cwgt = 0;
    }
    sc->nbr[sc->nbr_at[o]].cwgt += e[j].cwgt;
  }
  return nn;
}

/* The local id of global id g here: own (< nbase), a ghost (2 nbase + k),
 * or -1. */
static int32_t local_of(const contract_level *L, int64_t g) {
  if (g >= L->goff && g < L->goff + L->nbase)
    return (int32_t)(g - L->goff);
  int64_t lo = core_lower_i64(L->ghost_gid, L->nghost, g);
  return lo < L->nghost && L->ghost_gid[lo] == g ? 2 * L->nbase + (int32_t)lo
                                                 : -1;
}

/* What the replay (rank 0's, in the serial order) did with a record, as
 * sent to the ranks it concerns: the home rank of the vertex gets every
 * record of its vertices that waits or moved (id: the local id), every
 * other rank holding one of its neighbours gets its executed moves (id:
 * the global id; the vertex is a ghost there). */
enum {
  EV_DEFER = 4, /* waits for the next round                            */
  EV_EXEC = 8,  /* moved to q                                          */
  EV_GHOST = 16 /* not this rank's vertex: a ghost here, moved to q    */
};
typedef struct rec_event {
  int64_t id;
  int32_t q, flags;
} rec_event;

/* What every rank learns of a round's replay besides its events (rank 0
 * sends it once, with the loads' state after it): the records of every
 * rank, the moves executed, the partition's counters. */
typedef struct rec_state {
  int64_t nrec, executed, moves, forced_moves;
} rec_state;

/* The local vertices next to each ghost of level L (the rows' ghost ends
 * reversed): ghost g's in nbr[start[g] .. start[g+1]), in id order. */
static int ghost_nbrs(const contract_level *L, int64_t **start, int32_t **nbr) {
  int32_t nb = L->nbase, ng = L->nghost;
  int64_t *st = core_calloc((size_t)ng + 2, sizeof *st), cnt = 0;
  for (int32_t y = 0; st && y < nb; y++)
    for (int64_t j = L->xadj[y]; j < L->xadj[y + 1]; j++)
      if (L->adj[j] >= 2 * nb) {
        st[L->adj[j] - 2 * nb + 2]++;
        cnt++;
      }
  int32_t *a = core_malloc(sizeof *a * ((size_t)cnt + 1));
  if (st == NULL || a == NULL) {
    core_free(st), core_free(a);
    return core_error(MINEX_ENOMEM, "rounds: out of memory for %lld ghost ends",
                      (long long)cnt);
  }
  for (int32_t g = 0; g < ng; g++)
    st[g + 2] += st[g + 1];
  for (int32_t y = 0; y < nb; y++)
    for (int64_t j = L->xadj[y]; j < L->xadj[y + 1]; j++)
      if (L->adj[j] >= 2 * nb)
        a[st[L->adj[j] - 2 * nb + 1]++] = y;
  *start = st;
  *nbr = a;
  return MINEX_OK;
}

/* The rank whose level ids goff[r] .. goff[r+1]-1 hold global id g. */
static int rank_of(const int64_t *goff, int size, int64_t g) {
  return (int)core_lower_i64(goff + 1, size, g + 1);
}

/* Rank 0: the records of every rank (all, total bytes) decided in the
 * serial order (forced, Gain, global id) by partition_rounds' rule under
 * rounds = ON (round_decide: each tested for its own destination against
 * the running sums of every earlier record's deltas; deferral; an
 * accepted one with an earlier accepted neighbour waits), then the
 * accepted moves executed in that order as partition_execute would.
 * Every decision reads the loads of the processors its own move touches
 * and nothing decided before it, which is what would let the ranks decide
 * their own records once each processor's running sum is known
 * (docs/mpi.md "Next"). Writes each rank's events in the order (*out,
 * cnt[r] bytes for rank r, in rank order) and what every rank learns
 * (*state, *nstate bytes: a rec_state head, the loads' state). */
static int replay(partition_ctx *pc, const contract_comm *cm, const char *all,
                  int64_t total, const int64_t *goff, int32_t round,
                  int32_t budget, int defer, char **out, int64_t *cnt,
                  char **state, int64_t *nstate) {
  int size = cm->size;
  int32_t P = pc->ld->nprocs;
  partition_scratch *sc = &pc->sc[0];
  int64_t nrec = 0, executed = 0;
  for (int64_t o = 0; o < total; nrec++) {
    rec_head h;
    memcpy(&h, all + o, sizeof h);
    o += (int64_t)sizeof h + (int64_t)sizeof(rec_edge) * h.deg;
  }
  if (nrec >= INT32_MAX) /* places in the order are kept as int32 */
    return core_error(MINEX_EINVAL,
                      "rounds: %lld moves proposed in one round, at most %d",
                      (long long)nrec, INT32_MAX - 1);
  int64_t tsize = 16;
  while (tsize < 2 * nrec + 2)
    tsize *= 2;
  const rec_head **order = core_malloc(sizeof *order * ((size_t)nrec + 1));
  rec_event *ev = core_malloc(sizeof *ev * ((size_t)nrec + 1));
  int64_t *seen = core_malloc(sizeof *seen * ((size_t)size + 1));
  int64_t *nev = core_calloc((size_t)size + 1, sizeof *nev);
  int64_t *pos = core_calloc((size_t)size + 1, sizeof *pos);
  moved_tab tab = {core_malloc(sizeof(int64_t) * (size_t)tsize),
                   core_malloc(sizeof(int32_t) * (size_t)tsize), tsize - 1};
  int rc = MINEX_OK;
  if (!order || !ev || !seen || !nev || !pos || !tab.key || !tab.val) {
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %lld moves",
                    (long long)nrec);
    goto out;
  }
  for (int64_t i = 0; i < tsize; i++)
    tab.key[i] = -1;
  /* the records are 8-byte aligned: the exchange's buffer is malloc'd and
     every record's size is a multiple of 8 */
  nrec = 0;
  for (int64_t o = 0; o < total; nrec++) {
    const rec_head *h = (const rec_head *)(const void *)(all + o);
    order[nrec] = h;
    o += (int64_t)sizeof *h + (int64_t)sizeof(rec_edge) * h->deg;
  }
  if ((rc = order_records(order, nrec)) != MINEX_OK)
    goto out;
  /* the rule of partition_rounds under rounds = ON (round_decide), from
     the records: each decided against the running sums of every earlier
     record's deltas */
  int last = round >= budget;
  costmodel_snapshot snap;
  if ((rc = costmodel_snapshot_take(pc->ld, &snap)) != MINEX_OK)
    goto out;
  double ref = pc->ld->tree[1];
  for (int64_t i = 0; i < nrec; i++) {
    const rec_head *h = order[i];
    const rec_edge *e = (const rec_edge *)(const void *)(h + 1);
    int changed;
    int32_t nn = rec_gather(sc, P, NULL, h, e, &changed);
    if (nn == 0 || (nn == 1 && sc->nbr[0].owner == h->cur)) {
      sc->nbr[0] = (costmodel_nbr){h->cur, h->ctot}; /* as round_decide */
      nn = 1;
    }
    const contract_attr a = {h->pwgt, h->rwgt, h->ctot, h->old, 0};
    partition_choice ch;
    ev[i] = (rec_event){h->gid, RS_NONE, 0};
    if (partition_test_move(pc, sc, &pc->ld->mv, &a, h->cur, nn, h->to, ref,
                            &ch))
      ev[i].q =
          defer && !last && i + 1 < nrec && !ch.forced &&
                  (order[i + 1]->forced || ch.move.gain > order[i + 1]->gain)
              ? RS_DEFER
              : RS_MOVE;
    costmodel_apply_sums(pc->ld);
  }
  costmodel_snapshot_restore(pc->ld, &snap);
  costmodel_snapshot_free(&snap);
  /* an accepted record with an earlier accepted neighbour waits (tab:
     global id -> 1 + place in the order, then emptied for the moves) */
  for (int64_t i = 0; i < nrec && !last; i++)
    if (ev[i].q == RS_MOVE) {
      int64_t s = tab_slot(&tab, order[i]->gid);
      tab.key[s] = order[i]->gid;
      tab.val[s] = (int32_t)(i + 1);
    }
  for (int64_t i = 0; i < nrec && !last; i++) {
    const rec_head *h = order[i];
    const rec_edge *e = (const rec_edge *)(const void *)(h + 1);
    for (int32_t j = 0; j < h->deg && ev[i].q == RS_MOVE; j++) {
      int64_t s = tab_slot(&tab, e[j].gid);
      if (tab.key[s] == e[j].gid && tab.val[s] <= i)
        ev[i].q = RS_WAIT;
    }
  }
  for (int64_t i = 0; i < tsize; i++)
    tab.key[i] = -1;
  /* the accepted moves, executed in the order as partition_execute would */
  for (int64_t i = 0; i < nrec; i++) {
    const rec_head *h = order[i];
    const rec_edge *e = (const rec_edge *)(const void *)(h + 1);
    int state = ev[i].q;
    ev[i].q = -1;
    if (state == RS_WAIT || state == RS_DEFER)
      ev[i].flags |= EV_DEFER;
    if (state != RS_MOVE)
      continue;
    int32_t q = h->to, changed;
    int32_t nn = rec_gather(sc, P, &tab, h, e, &changed);
    const contract_attr a = {h->pwgt, h->rwgt, h->ctot, h->old, 0};
    partition_choice ch;
    if ((pc->refine || (last && changed)) &&
        !partition_test_move(pc, sc, &sc->mv, &a, h->cur, nn, q, ref, &ch))
      continue; /* executable */
    costmodel_vertex v = {h->pwgt, h->rwgt, h->old, h->cur, sc->nbr, nn};
    costmodel_move m;
    if (!pc->cfg->avail[h->cur])
      pc->forced_moves++;
    costmodel_eval_move(pc->ld, &v, q, &m);
    costmodel_apply(pc->ld);
    pc->moves++;
    executed++;
    int64_t s = tab_slot(&tab, h->gid);
    tab.key[s] = h->gid;
    tab.val[s] = q;
    ev[i].flags |= EV_EXEC;
    ev[i].q = q;
  }
  /* what every rank learns */
  size_t lsize = costmodel_state_size(pc->ld);
  if ((*state = core_malloc(sizeof(rec_state) + lsize)) == NULL) {
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %zu bytes", lsize);
    goto out;
  }
  rec_state hd = {nrec, executed, pc->moves, pc->forced_moves};
  memcpy(*state, &hd, sizeof hd);
  costmodel_state_put(pc->ld, *state + sizeof hd);
  *nstate = (int64_t)(sizeof hd + lsize);
  /* the events: counted (pass 0), then written (pass 1) */
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      size_t tot = 0;
      for (int r = 0; r < size; r++) {
        cnt[r] = (int64_t)(sizeof(rec_event) * (size_t)nev[r]);
        pos[r] = (int64_t)tot;
        tot += (size_t)cnt[r];
      }
      if ((*out = core_malloc(tot + 1)) == NULL) {
        rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %zu bytes",
                        tot);
        goto out;
      }
    }
    for (int r = 0; r < size; r++)
      seen[r] = -1;
    for (int64_t i = 0; i < nrec; i++) {
      if (ev[i].flags == 0)
        continue;
      const rec_head *h = order[i];
      const rec_edge *e = (const rec_edge *)(const void *)(h + 1);
      int home = rank_of(goff, size, h->gid);
      rec_event x = {h->gid - goff[home], ev[i].q, ev[i].flags};
      if (pass) {
        memcpy(*out + pos[home], &x, sizeof x);
        pos[home] += (int64_t)sizeof x;
      } else {
        nev[home]++;
      }
      if (!(ev[i].flags & EV_EXEC))
        continue;
      seen[home] = i;
      for (int32_t j = 0; j < h->deg; j++) {
        int r = rank_of(goff, size, e[j].gid);
        if (seen[r] == i)
          continue;
        seen[r] = i;
        rec_event y = {h->gid, ev[i].q, EV_EXEC | EV_GHOST};
        if (pass) {
          memcpy(*out + pos[r], &y, sizeof y);
          pos[r] += (int64_t)sizeof y;
        } else {
          nev[r]++;
        }
      }
    }
  }
out:
  core_free(order), core_free(ev), core_free(seen), core_free(nev),
      core_free(pos);
  core_free(tab.key), core_free(tab.val);
  return rc;
}

/* Queues local vertex y for the next round, as partition_rounds does with
 * the neighbours of a moved vertex. */
static void queue_nbr(partition_ctx *pc, partition_rounds_ws *rw, int32_t y,
                      int32_t *ids, int32_t *next, int32_t stamp, int32_t *lock,
                      int32_t lockstamp, int more) {
  int32_t *mark = rw->mark;
  pc->interior[y] = 0;
  if (more && mark[y] != stamp && mark[y] != -stamp &&
      (lock == NULL || lock[y] != lockstamp)) {
    mark[y] = stamp;
    ids[(*next)++] = y;
  }
}

int partition_rounds_dist(partition_ctx *pc, partition_rounds_ws *rw,
                          int32_t *ids, int32_t n, int32_t budget,
                          int32_t *lock, int32_t lockstamp, int defer,
                          int64_t *moves) {
  contract_ws *ws = pc->ws;
  const contract_comm *cm = ws->comm;
  const contract_level *L = contract_cur(ws);
  int32_t nb = L->nbase, *mark = rw->mark;
  int size = cm->size;
  int64_t *cnt = core_calloc((size_t)size + 1, sizeof *cnt);
  int64_t *rcnt = core_calloc((size_t)size + 1, sizeof *rcnt);
  int64_t *goff = core_malloc(sizeof *goff * ((size_t)size + 1)), *gall = NULL;
  int64_t *gstart = NULL;
  int32_t *gnbr = NULL;
  char *mine = NULL, *all = NULL, *msg = NULL, *in = NULL, *st = NULL;
  char *stall = NULL;
  int rc = cnt && rcnt && goff
               ? MINEX_OK
               : core_error(MINEX_ENOMEM, "rounds: out of memory");
  *moves = 0;
  /* every rank's first level id: the ranks hold consecutive ids, in rank
     order */
  int64_t nbase = nb;
  if ((rc = cm->agree(cm->ctx, rc)) != MINEX_OK ||
      (rc = cm->allgather(cm->ctx, &nbase, sizeof nbase, (void **)&gall,
                          cnt)) != MINEX_OK)
    goto done;
  goff[0] = 0;
  for (int r = 0; r < size; r++)
    goff[r + 1] = goff[r] + gall[r];
  if (goff[cm->rank] != L->goff && nb > 0)
    rc = core_error(MINEX_EINTERNAL,
                    "rounds: rank %d: level ids from %lld, %lld expected",
                    cm->rank, (long long)L->goff, (long long)goff[cm->rank]);
  if ((rc = cm->agree(cm->ctx, rc)) != MINEX_OK)
    goto done;
  for (int32_t round = 0; round <= budget; round++) {
    /* the scan, then this rank's moves with their edges, to rank 0 */
    partition_scan(pc, ids, n, rw->prop);
    size_t bytes = 0;
    for (int32_t i = 0; i < n; i++)
      if (rw->prop[i].to >= 0) {
        const int32_t *adj;
        const double *cw;
        int64_t len;
        contract_edges(ws, ids[i], &adj, &cw, &len);
        bytes += sizeof(rec_head) + sizeof(rec_edge) * (size_t)len;
      }
    core_free(mine);
    if ((mine = core_malloc(bytes + 1)) == NULL)
      rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %zu bytes",
                      bytes);
    char *p = mine;
    for (int32_t i = 0; rc == MINEX_OK && i < n; i++) {
      if (rw->prop[i].to < 0)
        continue;
      int32_t x = ids[i];
      const int32_t *adj;
      const double *cw;
      int64_t len;
      contract_edges(ws, x, &adj, &cw, &len);
      const contract_attr *a = &L->at[x];
      rec_head h = {L->goff + x,
                    rw->prop[i].gain,
                    a->pwgt,
                    a->rwgt,
                    a->ctot,
                    a->old,
                    ws->owner[x],
                    rw->prop[i].forced,
                    (int32_t)len,
                    rw->prop[i].to,
                    0};
      memcpy(p, &h, sizeof h);
      p += sizeof h;
      for (int64_t j = 0; j < len; j++) {
        int32_t y = adj[j];
        rec_edge e = {y < nb ? L->goff + y : L->ghost_gid[y - 2 * nb], cw[j],
                      ws->owner[y], 0};
        memcpy(p, &e, sizeof e);
        p += sizeof e;
      }
    }
    for (int r = 0; r < size; r++)
      cnt[r] = r == 0 ? (int64_t)bytes : 0;
    core_free(all), core_free(msg), core_free(in), core_free(st),
        core_free(stall);
    all = msg = in = st = stall = NULL;
    if ((rc = cm->agree(cm->ctx, rc)) != MINEX_OK ||
        (rc = cm->exchange(cm->ctx, mine, cnt, (void **)&all, rcnt)) !=
            MINEX_OK)
      break;
    /* rank 0 replays every rank's moves in the serial order and tells
       each rank what concerns it; the loads after the round go to every
       rank once (an allgather to which rank 0 alone gives bytes) */
    for (int r = 0; r < size; r++)
      cnt[r] = 0;
    int64_t nst = 0;
    if (cm->rank == 0) {
      int64_t total = 0;
      for (int r = 0; r < size; r++)
        total += rcnt[r];
      rc = replay(pc, cm, all, total, goff, round, budget, defer, &msg, cnt,
                  &st, &nst);
    }
    if ((rc = cm->agree(cm->ctx, rc)) != MINEX_OK ||
        (rc = cm->exchange(cm->ctx, msg, cnt, (void **)&in, rcnt)) !=
            MINEX_OK ||
        (rc = cm->allgather(cm->ctx, st, nst, (void **)&stall, cnt)) !=
            MINEX_OK)
      break;
    int64_t nev = rcnt[0] / (int64_t)sizeof(rec_event);
    rec_state hd;
    memcpy(&hd, stall, sizeof hd);
    const char *evs = in;
    if (cm->rank != 0)
      costmodel_state_get(pc->ld, stall + sizeof hd);
    pc->moves = hd.moves;
    pc->forced_moves = hd.forced_moves;
    *moves += hd.executed;
    if (hd.nrec == 0)
      break;
    /* the events in the replay's order, as partition_rounds applies its
       moves */
    int32_t stamp = ++rw->stamp, next = 0;
    int more = round < budget;
    for (int64_t k = 0; k < nev; k++) {
      rec_event x;
      memcpy(&x, evs + sizeof x * (size_t)k, sizeof x);
      if (x.flags & EV_GHOST) { /* a neighbour's move: x is a ghost here.
                                   Its neighbours that are ghosts here too
                                   keep their interior flag: a ghost's is
                                   never set (nor read) */
        int32_t xl = local_of(L, x.id), g = xl - 2 * nb;
        /* the ghosts' neighbours here, when the first one moves */
        if (gstart == NULL && (rc = ghost_nbrs(L, &gstart, &gnbr)) != MINEX_OK)
          break;
        if (g < 0) {
          rc = core_error(MINEX_EINTERNAL,
                          "rounds: rank %d: vertex %lld moved next to this "
                          "rank's vertices is no ghost here",
                          cm->rank, (long long)x.id);
          break;
        }
        ws->owner[xl] = x.q;
        pc->interior[xl] = 0;
        for (int64_t j = gstart[g]; j < gstart[g + 1]; j++)
          queue_nbr(pc, rw, gnbr[j], ids, &next, stamp, lock, lockstamp, more);
        continue;
      }
      int32_t xl = (int32_t)x.id;
      if ((x.flags & EV_DEFER) && mark[xl] != stamp) {
        mark[xl] = stamp;
        ids[next++] = xl;
      }
      if (!(x.flags & EV_EXEC))
        continue;
      ws->owner[xl] = x.q;
      pc->interior[xl] = 0;
      mark[xl] = -stamp;
      if (lock)
        lock[xl] = lockstamp;
      /* its neighbours here: no longer interior; queued for the next
         round */
      const int32_t *adj;
      const double *cw;
      int64_t len;
      contract_edges(ws, xl, &adj, &cw, &len);
      for (int64_t j = 0; j < len; j++) {
        if (adj[j] < nb)
          queue_nbr(pc, rw, adj[j], ids, &next, stamp, lock, lockstamp, more);
        else
          pc->interior[adj[j]] = 0;
      }
    }
    if (rc != MINEX_OK)
      continue; /* agreed at the top of the next round */
    n = next_round(ids, next, mark, stamp);
  }
done:
  core_free(cnt), core_free(rcnt), core_free(goff), core_free(gall),
      core_free(gstart), core_free(gnbr);
  core_free(mine), core_free(all), core_free(msg), core_free(in), core_free(st),
      core_free(stall);
  return cm->agree(cm->ctx, rc);
}
