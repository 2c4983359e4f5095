/* Union/Find with merge and lookup (paper Fig. 2), neighbour gathering over
 * stale edge ends, and the workspace self-check. */
#include "contract/contract.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Fig. 2: follow lookup while it is current (< vtot), else merge; then
 * point every id on the path straight at the representative. Iterative so
 * long merge chains cannot overflow the stack. */
int32_t contract_find_slow(contract_ws *ws, int32_t x) {
  const contract_node *nd = ws->nd;
  int32_t *look = ws->look;
  if (nd[x].merge == -1)
    return x;
  /* look of a merged id is an ancestor: current while below vtot */
  int32_t r = x;
  while (nd[r].merge != -1) {
    int32_t l = look[r];
    r = (l != r && l < ws->vtot) ? l : nd[r].merge;
  }
  while (nd[x].merge != -1) {
    int32_t l = look[x];
    int32_t next = (l != x && l < ws->vtot) ? l : nd[x].merge;
    look[x] = r;
    x = next;
  }
  return r;
}

void contract_acc_begin(contract_ws *ws, int64_t ends) {
  int32_t bits = 4;
  /* at most n distinct keys: the full table is never more than half
     full */
  while (((int64_t)1 << bits) < 2 * ends && bits < ws->slot_max)
    bits++;
  ws->slot_bits = bits;
  if (bits > ws->slot_used)
    ws->slot_used = bits;
  if (++ws->stamp == INT32_MAX) {
    for (int64_t i = 0; i < ((int64_t)1 << ws->slot_used); i++)
      ws->slot[i].stamp = 0;
    ws->stamp = 1;
  }
}

int32_t contract_gather(contract_ws *ws, int32_t x) {
  const int32_t *adj;
  const double *cw;
  int64_t len;
  int32_t cnt = 0;
  contract_edges(ws, x, &adj, &cw, &len);
  contract_acc_begin(ws, len);
  for (int64_t j = 0; j < len; j++) {
    int32_t r = contract_find(ws, adj[j]);
    if (r != x)
      contract_acc_add(ws, r, cw[j], &cnt);
  }
  return cnt;
}

static int close_enough(double a, double b) {
  return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

int contract_check(contract_ws *ws) {
  int32_t n = ws->n, active = 0;
  if (ws->vtot < n || ws->vtot > 2 * n)
    return core_error(MINEX_EINTERNAL, "contract: vtot %d outside [%d, %d]",
                      (int)ws->vtot, (int)n, (int)(2 * n));
  for (int32_t k = 0; k < ws->vtot - n; k++) {
    int32_t M = n + k, v = ws->child[2 * k], w = ws->child[2 * k + 1];
    if (v < 0 || w < 0 || v >= M || w >= M || v == w)
      return core_error(MINEX_EINTERNAL, "contract: merge %d has children "
                        "%d, %d", (int)M, (int)v, (int)w);
    if (ws->nd[v].merge != M || ws->nd[w].merge != M)
      return core_error(MINEX_EINTERNAL, "contract: children of %d do not "
                        "point at it", (int)M);
    if (!close_enough(ws->pwgt[M], ws->pwgt[v] + ws->pwgt[w]) ||
        !close_enough(ws->nd[M].rwgt, ws->nd[v].rwgt + ws->nd[w].rwgt))
      return core_error(MINEX_EINTERNAL, "contract: weights of %d are not "
                        "the sum of its children's", (int)M);
    if (ws->old[M] != ws->old[v] || ws->old[M] != ws->old[w])
      return core_error(MINEX_EINTERNAL, "contract: merge %d joins old "
                        "owners %d and %d", (int)M, (int)ws->old[v],
                        (int)ws->old[w]);
  }
  double pw = 0, rw = 0, fpw = 0, frw = 0;
  for (int32_t x = 0; x < ws->vtot; x++) {
    if (ws->nd[x].merge != -1) {
      if (ws->nd[x].merge <= x || ws->nd[x].merge >= ws->vtot)
        return core_error(MINEX_EINTERNAL, "contract: merge[%d] = %d",
                          (int)x, (int)ws->nd[x].merge);
      continue;
    }
    active++;
    pw += ws->pwgt[x];
    rw += ws->nd[x].rwgt;
  }
  for (int32_t v = 0; v < n; v++) {
    fpw += ws->g->pwgt[v];
    frw += ws->g->rwgt[v];
  }
  if (active != ws->nactive)
    return core_error(MINEX_EINTERNAL, "contract: %d active ids, nactive "
                      "says %d", (int)active, (int)ws->nactive);
  if (!close_enough(pw, fpw) || !close_enough(rw, frw))
    return core_error(MINEX_EINTERNAL, "contract: active weights %g/%g, "
                      "fine %g/%g", pw, rw, fpw, frw);
  int32_t valid = 0;
  for (int32_t i = 0; i < ws->nelig; i++) {
    int32_t x = ws->elig[i];
    if (x < 0)
      continue;
    valid++;
    if (ws->epos[x] != i || x >= ws->vtot || ws->nd[x].merge != -1)
      return core_error(MINEX_EINTERNAL, "contract: eligible entry %d (id "
                        "%d) is stale", (int)i, (int)x);
  }
  for (int32_t v = 0; ws->rep && v < n; v++) {
    int32_t r = v;
    while (ws->nd[r].merge != -1)
      r = ws->nd[r].merge;
    int32_t at = ws->pos[v];
    if (ws->ord[at] != v)
      return core_error(MINEX_EINTERNAL, "contract: ord and pos disagree "
                        "at fine vertex %d", (int)v);
    if (ws->rep[at] != r)
      return core_error(MINEX_EINTERNAL, "contract: fine vertex %d has "
                        "representative %d, root is %d", (int)v,
                        (int)ws->rep[at], (int)r);
    if (ws->fowner[v] != ws->nd[r].owner)
      return core_error(MINEX_EINTERNAL, "contract: fine vertex %d has "
                        "owner copy %d, its representative %d is on %d",
                        (int)v, (int)ws->fowner[v], (int)r,
                        (int)ws->nd[r].owner);
  }
  if (valid != ws->nvalid)
    return core_error(MINEX_EINTERNAL, "contract: %d eligible ids, nvalid "
                      "says %d", (int)valid, (int)ws->nvalid);
  /* The contracted graph must be the quotient of the fine graph: for every
     active x, gathered Cwgt to each representative r equals the sum of fine
     Cwgt between the fine vertices of x and of r. */
  int32_t *rep = malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
  double *fine = calloc(2 * (size_t)n + 1, sizeof(double));
  int32_t *seen = malloc(sizeof(int32_t) * (2 * (size_t)n + 1));
  int32_t *members = malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
  int64_t *mstart = calloc(2 * (size_t)n + 2, sizeof(int64_t));
  if (!rep || !fine || !seen || !members || !mstart) {
    free(rep), free(fine), free(seen), free(members), free(mstart);
    return core_error(MINEX_ENOMEM, "contract_check: out of memory");
  }
  for (int32_t v = 0; v < n; v++) {
    rep[v] = contract_find(ws, v);
    mstart[rep[v] + 1]++;
  }
  for (int32_t x = 0; x < 2 * n; x++)
    mstart[x + 1] += mstart[x];
  for (int32_t v = 0; v < n; v++)
    members[mstart[rep[v]]++] = v;
  for (int32_t x = 2 * n; x > 0; x--)
    mstart[x] = mstart[x - 1];
  mstart[0] = 0;
  for (int32_t x = 0; x < 2 * n; x++)
    seen[x] = -1;
  int rc = MINEX_OK;
  const minex_graph *g = ws->g;
  for (int32_t x = 0; x < ws->vtot && rc == MINEX_OK; x++) {
    if (ws->nd[x].merge != -1)
      continue;
    int32_t nfine = 0;
    for (int64_t i = mstart[x]; i < mstart[x + 1]; i++) {
      int32_t v = members[i];
      for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
        int32_t r = rep[g->adjncy[j]];
        if (r == x)
          continue;
        if (seen[r] != x) {
          seen[r] = x;
          fine[r] = 0;
          nfine++;
        }
        fine[r] += g->cwgt[j];
      }
    }
    int32_t cnt = contract_gather(ws, x);
    for (int32_t i = 0; i < cnt && rc == MINEX_OK; i++) {
      int32_t r = ws->list[i];
      if (seen[r] != x || !close_enough(fine[r], ws->lacc[i]))
        rc = core_error(MINEX_EINTERNAL, "contract: edge %d-%d has Cwgt %g, "
                        "fine graph says %g", (int)x, (int)r, ws->lacc[i],
                        seen[r] == x ? fine[r] : 0.0);
    }
    if (rc == MINEX_OK && nfine != cnt)
      rc = core_error(MINEX_EINTERNAL, "contract: vertex %d has %d "
                      "neighbours, fine graph says %d", (int)x, (int)cnt,
                      (int)nfine);
  }
  free(rep), free(fine), free(seen), free(members), free(mstart);
  return rc;
}
