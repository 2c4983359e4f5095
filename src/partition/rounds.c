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
  rw->prop = malloc(sizeof *rw->prop * n);
  rw->mv = malloc(sizeof *rw->mv * n);
  rw->mark = calloc(n, sizeof(int32_t));
  if (!rw->prop || !rw->mv || !rw->mark) {
    partition_rounds_ws_destroy(rw);
    return core_error(MINEX_ENOMEM, "rounds: out of memory for %ld vertex ids",
                      (long)nids);
  }
  rw->cap = nids;
  return MINEX_OK;
}

void partition_rounds_ws_destroy(partition_rounds_ws *rw) {
  free(rw->prop);
  free(rw->mv);
  free(rw->mark);
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

static int id_cmp(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

int64_t partition_rounds(partition_ctx *pc, partition_rounds_ws *rw,
                         int32_t *ids, int32_t n, int32_t budget, int32_t *lock,
                         int32_t lockstamp, int defer) {
  contract_ws *ws = pc->ws;
  int32_t *mark = rw->mark;
  int64_t moves = 0;
  for (int32_t round = 0; round <= budget && n > 0; round++) {
    partition_scan(pc, ids, n, rw->prop);
    int32_t nm = 0;
    for (int32_t i = 0; i < n; i++)
      if (rw->prop[i].to >= 0)
        rw->mv[nm++] = (partition_round_move){rw->prop[i].gain, ids[i],
                                              rw->prop[i].forced};
    qsort(rw->mv, (size_t)nm, sizeof *rw->mv, move_cmp);
    /* applied in that order, each re-tested against the loads the moves
       before it left (re-validation); mark: stamp = queued for the next
       round, -stamp = moved in this one */
    int32_t stamp = ++rw->stamp, next = 0;
    for (int32_t i = 0; i < nm; i++) {
      int32_t x = rw->mv[i].id;
      partition_choice ch;
      /* options.rounds ON (the distributed kernel's rule, docs/mpi.md): a
         move is re-tested against the loads only, never against a
         neighbourhood changed in this round: a vertex a neighbour of
         which moved earlier in the round (so queued already) waits for
         the next one */
      if (pc->rounds && mark[x] == stamp && round < budget)
        continue;
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
      partition_execute(pc, x, ch.move.to);
      moves++;
      mark[x] = -stamp;
      if (lock)
        lock[x] = lockstamp;
      if (round == budget)
        continue;
      int32_t cnt = contract_gather(ws, x);
      for (int32_t k = 0; k < cnt; k++) {
        int32_t r = ws->acc.list[k];
        if (mark[r] != stamp && mark[r] != -stamp &&
            (lock == NULL || lock[r] != lockstamp)) {
          mark[r] = stamp;
          ids[next++] = r;
        }
      }
    }
    /* a vertex that moved after it was queued waits (as the heap passes
       lock a moved vertex) */
    int32_t k = 0;
    for (int32_t i = 0; i < next; i++)
      if (mark[ids[i]] == stamp)
        ids[k++] = ids[i];
    qsort(ids, (size_t)k, sizeof(int32_t), id_cmp);
    n = k;
  }
  return moves;
}

int partition_passes_rounds(partition_ctx *pc, int32_t max_passes,
                            int32_t budget) {
  contract_ws *ws = pc->ws;
  int32_t nids = contract_nids(ws);
  int32_t *ids = malloc(sizeof(int32_t) * ((size_t)nids + 1));
  int32_t *lock = calloc((size_t)nids + 1, sizeof(int32_t));
  partition_rounds_ws rw;
  int rc = ids && lock ? partition_rounds_ws_create(&rw, nids)
                       : core_error(MINEX_ENOMEM, "rounds: out of memory");
  if (rc != MINEX_OK) {
    free(ids);
    free(lock);
    return rc;
  }
  for (int32_t pass = 0; pass < max_passes; pass++) {
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
    if (partition_rounds(pc, &rw, ids, n, budget, lock, pass + 1, 1) == 0)
      break;
  }
  partition_rounds_ws_destroy(&rw);
  free(ids);
  free(lock);
  return MINEX_OK;
}
