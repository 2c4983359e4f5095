/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Expansion with re-testing of restored vertices (paper §3.7). */
#include "expand/expand.h"

#include <stdlib.h>
#include <string.h>

int expand_run(partition_ctx *pc, int32_t budget) {
  contract_ws *ws = pc->ws;
  /* a small FIFO of ids to test; ids already queued are skipped */
  int32_t qcap = budget + 2;
  int32_t *queue = malloc(sizeof(int32_t) * (size_t)qcap);
  if (queue == NULL)
    return core_error(MINEX_ENOMEM, "expansion: out of memory");
  int32_t v, w;
#ifdef MINEX_CHECKS
  /* debug builds: the structures are checked each time a level is left */
  int32_t nlevels = ws->nlevels;
#endif
  /* contract_undo passes the merged vertex's interior flag to both
     children: children of an interior vertex are interior */
  while (contract_undo(ws, &v, &w)) {
#ifdef MINEX_CHECKS
    if (ws->nlevels != nlevels) {
      nlevels = ws->nlevels;
      int rc = partition_check_phase(ws, pc->ld, pc, "during expansion");
      if (rc != MINEX_OK) {
        free(queue);
        return rc;
      }
    }
#endif
    int32_t qn = 0, head = 0;
    queue[qn++] = v;
    queue[qn++] = w;
    while (head < qn) {
      int32_t x = queue[head++];
      partition_choice ch;
      if (!partition_best_move(pc, x, &ch))
        continue;
      partition_execute(pc, x, ch.move.to);
      /* the neighbours of a moved vertex are border vertices now */
      int32_t cnt = contract_gather(ws, x);
      for (int32_t i = 0; i < cnt && qn < qcap; i++) {
        int32_t r = ws->acc.list[i], seen = 0;
        for (int32_t k = 0; k < qn && !seen; k++)
          seen = queue[k] == r;
        if (!seen)
          queue[qn++] = r;
      }
    }
  }
  free(queue);
  return MINEX_OK;
}

/* Proposals of a round in the order they are applied: forced moves
 * first, then the smallest Gain, then the smallest id (SPEC §3 "Parallel
 * execution": a fixed order, whatever the threads). */
typedef struct round_move {
  double gain;
  int32_t id;
  int32_t forced;
} round_move;

static int round_cmp(const void *a, const void *b) {
  const round_move *x = a, *y = b;
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

int expand_rounds(partition_ctx *pc, int32_t budget) {
  contract_ws *ws = pc->ws;
  int32_t n = ws->n;
  /* ids to test, their proposals, the moves of a round in order, a
     mark per id (round + 1: queued for the next round or moved) */
  int32_t *ids = malloc(sizeof(int32_t) * ((size_t)n + 1));
  partition_prop *prop = malloc(sizeof *prop * ((size_t)n + 1));
  round_move *mv = malloc(sizeof *mv * ((size_t)n + 1));
  int32_t *mark = calloc((size_t)2 * n + 1, sizeof(int32_t));
  if (!ids || !prop || !mv || !mark) {
    free(ids);
    free(prop);
    free(mv);
    free(mark);
    return core_error(MINEX_ENOMEM, "expansion: out of memory");
  }
  int rc = MINEX_OK;
  int32_t stamp = 0, nt;
  while ((nt = contract_undo_level(ws, ids)) >= 0) {
#ifdef MINEX_CHECKS
    if ((rc = partition_check_phase(ws, pc->ld, pc, "during expansion")))
      break;
#endif
    /* the level's marks start afresh (local ids changed with the level) */
    memset(mark, 0, sizeof(int32_t) * (size_t)contract_nids(ws));
    stamp = 0;
    /* round 0 tests the restored vertices; round r > 0 the neighbours of
       round r - 1's moves (SPEC §3: "when one moves, its border
       neighbours are tested too"), at most budget rounds */
    for (int32_t round = 0; round <= budget && nt > 0; round++) {
      partition_scan(pc, ids, nt, prop);
      int32_t nm = 0;
      for (int32_t i = 0; i < nt; i++)
        if (prop[i].to >= 0)
          mv[nm++] = (round_move){prop[i].gain, ids[i], prop[i].forced};
      qsort(mv, (size_t)nm, sizeof *mv, round_cmp);
      /* applied in that order, each re-tested against the loads the
         moves before it left (re-validation); mark: stamp = queued for
         the next round, -stamp = moved in this one */
      stamp++;
      int32_t next = 0;
      for (int32_t i = 0; i < nm; i++) {
        int32_t x = mv[i].id;
        partition_choice ch;
        if (!partition_best_move(pc, x, &ch))
          continue;
        partition_execute(pc, x, ch.move.to);
        mark[x] = -stamp;
        if (round == budget)
          continue;
        int32_t cnt = contract_gather(ws, x);
        for (int32_t k = 0; k < cnt; k++) {
          int32_t r = ws->acc.list[k];
          if (mark[r] != stamp && mark[r] != -stamp) {
            mark[r] = stamp;
            ids[next++] = r;
          }
        }
      }
      /* a vertex that moved after it was queued waits for the next level
         (as the heap passes lock a moved vertex) */
      int32_t k = 0;
      for (int32_t i = 0; i < next; i++)
        if (mark[ids[i]] == stamp)
          ids[k++] = ids[i];
      next = k;
      qsort(ids, (size_t)next, sizeof(int32_t), id_cmp);
      nt = next;
    }
  }
  free(ids);
  free(prop);
  free(mv);
  free(mark);
  return rc;
}
