/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Expansion with re-testing of restored vertices (paper §3.7). */
#include "expand/expand.h"

#include <stdlib.h>
#include <string.h>

int expand_run(partition_ctx *pc, int32_t budget) {
  contract_ws *ws = pc->ws;
  /* a small FIFO of ids to test; ids already queued are skipped */
  int32_t qcap = budget + 2;
  int32_t *queue = core_malloc(sizeof(int32_t) * (size_t)qcap);
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
        core_free(queue);
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
  core_free(queue);
  return MINEX_OK;
}

int expand_rounds(partition_ctx *pc, int32_t budget) {
  contract_ws *ws = pc->ws;
  int32_t n = ws->n;
  int32_t *ids = core_malloc(sizeof(int32_t) * ((size_t)n + 1));
  partition_rounds_ws rw;
  memset(&rw, 0, sizeof rw);
  int rc = ids ? partition_rounds_ws_create(&rw, 2 * n)
               : core_error(MINEX_ENOMEM, "expansion: out of memory");
  rc = dist_agree_or(ws->comm, rc); /* spread over ranks: every rank */
  if (rc != MINEX_OK) { /* this rank's buffers too when another failed */
    partition_rounds_ws_destroy(&rw);
    core_free(ids);
    return rc;
  }
  int32_t nt;
  while ((nt = contract_undo_level(ws, ids)) >= 0) {
    if ((rc = partition_checks(ws, pc->ld, pc, "during expansion")))
      break;
    /* the level's marks start afresh (local ids changed with the level);
       round 0 tests the restored vertices, round r > 0 the neighbours of
       round r - 1's moves (SPEC §3: "when one moves, its border
       neighbours are tested too") */
    partition_rounds_reset(&rw, contract_nids(ws));
    nt = partition_movable(pc, ids, nt);
    int64_t moves;
    partition_round_set set = {ids, nt, budget, NULL, 0, 0};
    if ((rc = partition_rounds(pc, &rw, &set, &moves)))
      break;
  }
  partition_rounds_ws_destroy(&rw);
  core_free(ids);
  return rc;
}
