/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The from-scratch candidate of minex_repartition (SPEC §3 "Beyond the
 * paper"): Scotch (src/scratch) on a level of the diffusive contraction,
 * then the diffusive run from a finer level. */
#include "driver/driver.h"
#include "scratch/scratch.h"

#include <stdlib.h>
#include <string.h>

/* The from-scratch candidate (src/scratch) on the diffusive contraction
 * ws: Scotch partitions the first level of ws with at most
 * min(n / SCRATCH_PASS_RATIO, SCRATCH_PART_MAX) vertices, but never one
 * coarser than needed for n / SCRATCH_PART_RATIO (the last level when
 * none is that small; the graph itself when the contraction made no
 * level), relabelled against old; ws descends to the first level with at
 * most n / SCRATCH_PASS_RATIO vertices, whose vertices take the Scotch
 * part of their fine vertices, and the candidate runs from there -- the
 * paper's rule on that level's graph, expansion, refinement -- under the
 * horizon k. A level's vertices lie each inside one old part, as the
 * contracted graph's do, so their remapping stays exact. Scotch gets a
 * graph small enough to be cheap (about 3 us per vertex and level of its
 * recursion here) and fine enough for a good cut; the rule gets pieces
 * small enough to balance precisely; and the candidate needs no
 * contraction of its own (algorithm.md §7). The fine start partition goes
 * to start, the result to out. */
#define SCRATCH_PART_MAX 32768
#define SCRATCH_PART_RATIO 32
#define SCRATCH_PASS_RATIO 2
void driver_scratch_levels(const contract_ws *ws, int64_t n, int32_t *s_out,
                           int32_t *s2_out) {
  int64_t cap = n / SCRATCH_PASS_RATIO;
  cap = cap < SCRATCH_PART_MAX ? cap : SCRATCH_PART_MAX;
  cap = cap > n / SCRATCH_PART_RATIO ? cap : n / SCRATCH_PART_RATIO;
  int32_t s = 0, s2 = 0;
  /* every level's vertex count: spread over ranks, the whole level's */
  while (s + 1 < ws->nlevels && ws->lv[s].gnbase > cap)
    s++;
  while (s2 < s && ws->lv[s2].gnbase > n / SCRATCH_PASS_RATIO)
    s2++;
  *s_out = s;
  *s2_out = s2;
}

int driver_run_scratch(const run_ctx *run, driver_serial *sp, contract_ws *ws,
                       int32_t *start, candidate *cd, int *skipped) {
  const minex_graph *g = sp->g;
  const minex_options *opt = &run->opt;
  int32_t n = g->nvtxs, s, s2;
  double ts = core_wtime();
  contract_rewind(ws);
  driver_scratch_levels(ws, n, &s, &s2);
  minex_graph *gs = NULL;
  int32_t *old_s = NULL, *part_s = NULL, *rep2 = NULL;
  int32_t ns = ws->lv[s].nbase, ns2 = ws->lv[s2].nbase;
  int rc = MINEX_OK;
  if (s > 0)
    rc = contract_level_graph(ws, s, &gs, &old_s, start);
  if (rc == MINEX_OK) {
    part_s = core_malloc(sizeof(int32_t) * ((size_t)ns + 1));
    rep2 = core_malloc(sizeof(int32_t) * ((size_t)n + 1));
    rc = part_s == NULL || rep2 == NULL
             ? core_error(MINEX_ENOMEM, "minex_repartition: out of memory")
             : scratch_partition(s > 0 ? gs : g, sp->cfg,
                                 s > 0 ? old_s : sp->old, opt->seed, part_s);
    /* the candidate is optional: when its partitioner fails (Scotch
       refused the input, or memory ran out), the call goes on without it */
    if (rc != MINEX_OK) {
      driver_log(opt, "scratch: skipped: %s", minex_last_error());
      *skipped = 1;
      rc = MINEX_OK;
      goto out;
    }
  }
  if (rc == MINEX_OK)
    rc = contract_level_reps(ws, s2, rep2);
  if (rc == MINEX_OK) {
    for (int32_t v = 0; v < n; v++)
      start[v] = part_s[s > 0 ? start[v] : v];
    contract_descend(ws, s2);
    /* a level-s2 vertex lies inside one level-s vertex: its fine vertices
       share their Scotch part */
    for (int32_t v = 0; v < n; v++)
      ws->owner[rep2[v]] = start[v];
    memset(ws->interior, 0, (size_t)ns2);
    driver_log(
        opt,
        "scratch: Scotch on level %d of the contraction (%d vertices) in "
        "%.3f s, the rule from level %d (%d vertices)",
        (int)s, (int)ns, core_wtime() - ts, (int)s2, (int)ns2);
    cand_layout lay;
    driver_serial_layout(sp, &lay);
    cand_args a = {ws, ws, start, ws->nactive, run->k};
    rc = candidate_run(run, &lay, &a, cd);
  }
out:
  core_free(rep2);
  core_free(part_s);
  core_free(old_s);
  minex_graph_destroy(gs);
  return rc;
}
