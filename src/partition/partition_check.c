/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Self-checks of the partition context, and the phase-boundary checks of
 * debug builds (MINEX_CHECKS): every structure of a repartition
 * verified at once, a failure named by check and phase. */
#include "partition/partition.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int partition_ctx_check(const partition_ctx *pc) {
  const char *w = "partition_ctx_check";
  if (pc == NULL || pc->ws == NULL || pc->ld == NULL || pc->cfg == NULL)
    return core_error(MINEX_EINTERNAL, "%s: context not set up", w);
  const contract_ws *ws = pc->ws;
  int32_t P = pc->ld->nprocs;
  if (pc->cfg != pc->ld->cfg || P != pc->cfg->nprocs)
    return core_error(MINEX_EINTERNAL,
                      "%s: configuration of %d processors "
                      "differs from the loads' (%d)",
                      w, (int)pc->cfg->nprocs, (int)P);
  /* the P-sized scratch of partition_ctx_create, the flags of the ws */
  if (pc->sc == NULL || pc->nsc < 1)
    return core_error(MINEX_EINTERNAL, "%s: no worker scratch", w);
  for (int32_t t = 0; t < pc->nsc; t++)
    if (!pc->sc[t].nbr || !pc->sc[t].nbr_at || !pc->sc[t].nbr_stamp ||
        !pc->sc[t].cand || !pc->sc[t].mv.stamp)
      return core_error(MINEX_EINTERNAL,
                        "%s: a scratch buffer of worker %d is missing", w,
                        (int)t);
  if (pc->interior == NULL || pc->interior != ws->interior)
    return core_error(MINEX_EINTERNAL,
                      "%s: interior flags are not the "
                      "workspace's",
                      w);
  /* (the throttle is not checked: under throttle_auto the context starts
     with options.throttle, which is ignored and may be anything) */
  if (!(pc->qbar > 0) || !isfinite(pc->qbar) || !(pc->dmv_tol >= 0))
    return core_error(MINEX_EINTERNAL, "%s: qbar %g, dmv_tol %g out of range",
                      w, pc->qbar, pc->dmv_tol);
  if (pc->moves < 0 || pc->forced_moves < 0 || pc->forced_moves > pc->moves)
    return core_error(MINEX_EINTERNAL, "%s: %lld forced of %lld moves", w,
                      (long long)pc->forced_moves, (long long)pc->moves);
  /* stamps: gather_owners counts up from 0 and resets before INT32_MAX */
  for (int32_t t = 0; t < pc->nsc; t++) {
    const partition_scratch *sc = &pc->sc[t];
    if (sc->stamp < 0 || sc->stamp == INT32_MAX)
      return core_error(MINEX_EINTERNAL,
                        "%s: worker %d's stamp %d out of range", w, (int)t,
                        (int)sc->stamp);
    for (int32_t p = 0; p < P; p++)
      if (sc->nbr_stamp[p] < 0 || sc->nbr_stamp[p] > sc->stamp)
        return core_error(MINEX_EINTERNAL,
                          "%s: processor %d has stamp %d, "
                          "ahead of worker %d's current %d",
                          w, (int)p, (int)sc->nbr_stamp[p], (int)t,
                          (int)sc->stamp);
  }
  /* owners, and interior flags against the actual neighbour owners */
  int32_t nids = contract_nids(ws);
  for (int32_t x = 0; x < nids; x++) {
    if (ws->parent[x] != x)
      continue;
    int32_t o = ws->owner[x];
    if (o < 0 || o >= P)
      return core_error(MINEX_EINTERNAL,
                        "%s: active id %d has owner %d "
                        "outside [0, %d)",
                        w, (int)x, (int)o, (int)P);
    if (pc->interior[x] > 1)
      return core_error(MINEX_EINTERNAL, "%s: interior flag of %d is %d", w,
                        (int)x, (int)pc->interior[x]);
    if (!pc->interior[x])
      continue;
    const int32_t *adj;
    const double *cw;
    int64_t len;
    contract_edges(ws, x, &adj, &cw, &len);
    for (int64_t j = 0; j < len; j++)
      if (contract_end_owner(ws, adj[j]) != o)
        return core_error(MINEX_EINTERNAL,
                          "%s: id %d (owner %d) is marked "
                          "interior but its neighbour %d is on %d",
                          w, (int)x, (int)o, (int)adj[j],
                          (int)contract_end_owner(ws, adj[j]));
  }
  if (pc->heap.id != NULL)
    return partition_heap_check(&pc->heap);
  return MINEX_OK;
}

int partition_check_phase(contract_ws *ws, const costmodel_loads *ld,
                          const partition_ctx *pc, const char *phase) {
  const char *what = "contract_check";
  int rc = contract_check(ws);
  if (rc == MINEX_OK) {
    what = "costmodel_loads_check";
    rc = costmodel_loads_check(ld);
  }
  if (rc == MINEX_OK && pc != NULL) {
    what = "partition_ctx_check";
    rc = partition_ctx_check(pc);
  }
  if (rc == MINEX_OK || rc == MINEX_ENOMEM)
    return rc;
  char msg[512];
  snprintf(msg, sizeof msg, "%s", minex_last_error());
  return core_error(MINEX_EINTERNAL, "minex_repartition: %s failed %s: %s",
                    what, phase, msg);
}
