/* SPDX-License-Identifier: GPL-3.0-or-later */
/* contract_check: the self-check of the multilevel workspace (STYLE: each
 * structure can check itself) — every level's quotient graph, weights and
 * same-owner merges against the fine graph, the parents and the merge
 * stack. */
#include "contract/contract.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Two sums of the same non-negative weights in different orders: they
 * agree to a rounding relative to their magnitude (the sum of the terms),
 * whatever the scale of the weights (no absolute floor, which would make
 * the check blind to weights of 1e-200). */
static int close_enough(double a, double b) {
  return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* Merges, weights and old owners of one level. */
static int check_level(const contract_ws *ws, int32_t s) {
  const contract_level *L = &ws->lv[s];
  int32_t nid = L->nbase + L->nmerge;
  if (nid > L->cap)
    return core_error(MINEX_EINTERNAL,
                      "contract: level %d has %d ids in "
                      "room for %d",
                      (int)s, (int)nid, (int)L->cap);
  if (s > 0) {
    const contract_level *D = &ws->lv[s - 1];
    int32_t dn = D->nbase + D->nmerge;
    for (int32_t k = 0; k < L->nbase; k++) {
      int32_t x = L->lower[k];
      if (x < 0 || x >= dn || (k > 0 && x == L->lower[k - 1]))
        return core_error(MINEX_EINTERNAL,
                          "contract: level %d vertex %d "
                          "maps to %d below",
                          (int)s, (int)k, (int)x);
      if (!close_enough(L->at[k].pwgt, D->at[x].pwgt) ||
          !close_enough(L->at[k].rwgt, D->at[x].rwgt) ||
          L->at[k].old != D->at[x].old)
        return core_error(MINEX_EINTERNAL,
                          "contract: level %d vertex %d "
                          "differs from %d below",
                          (int)s, (int)k, (int)x);
    }
  }
  for (int32_t k = 0; k < L->nmerge; k++) {
    int32_t M = L->nbase + k, v = L->child[2 * k], w = L->child[2 * k + 1];
    if (v < 0 || w < 0 || v >= M || w >= M || v == w)
      return core_error(MINEX_EINTERNAL,
                        "contract: merge %d of level %d "
                        "has children %d, %d",
                        (int)M, (int)s, (int)v, (int)w);
    if (!close_enough(L->at[M].pwgt, L->at[v].pwgt + L->at[w].pwgt) ||
        !close_enough(L->at[M].rwgt, L->at[v].rwgt + L->at[w].rwgt))
      return core_error(MINEX_EINTERNAL,
                        "contract: weights of %d are not "
                        "the sum of its children's",
                        (int)M);
    if (L->at[M].old != L->at[v].old || L->at[M].old != L->at[w].old)
      return core_error(MINEX_EINTERNAL,
                        "contract: merge %d joins old "
                        "owners %d and %d",
                        (int)M, (int)L->at[v].old, (int)L->at[w].old);
  }
  return MINEX_OK;
}

/* Parents, owners and the active count of the current level. */
static int check_current(contract_ws *ws) {
  const contract_level *L = contract_cur(ws);
  int32_t nid = L->nbase + L->nmerge, active = 0;
  /* every id's parent is the merge that took it, or itself if active */
  int32_t *want = ws->map;
  for (int32_t x = 0; x < nid; x++)
    want[x] = x;
  for (int32_t k = 0; k < L->nmerge; k++) {
    want[L->child[2 * k]] = L->nbase + k;
    want[L->child[2 * k + 1]] = L->nbase + k;
  }
  for (int32_t x = 0; x < nid; x++) {
    active += want[x] == x;
    if (ws->parent[x] != want[x])
      return core_error(MINEX_EINTERNAL,
                        "contract: id %d has parent %d, "
                        "its merge is %d",
                        (int)x, (int)ws->parent[x], (int)want[x]);
  }
  if (active != ws->nactive)
    return core_error(MINEX_EINTERNAL,
                      "contract: %d active ids, nactive "
                      "says %d",
                      (int)active, (int)ws->nactive);
  double pw = 0, rw = 0, fpw = 0, frw = 0;
  for (int32_t x = 0; x < nid; x++)
    if (contract_find(ws, x) == x) {
      pw += L->at[x].pwgt;
      rw += L->at[x].rwgt;
    }
  for (int32_t v = 0; v < ws->n; v++) {
    fpw += ws->g->pwgt[v];
    frw += ws->g->rwgt[v];
  }
  if (!close_enough(pw, fpw) || !close_enough(rw, frw))
    return core_error(MINEX_EINTERNAL,
                      "contract: active weights %g/%g, "
                      "fine %g/%g",
                      pw, rw, fpw, frw);
  for (int32_t x = 0; x < nid; x++)
    if (ws->owner[x] != ws->owner[contract_find(ws, x)])
      return core_error(MINEX_EINTERNAL,
                        "contract: id %d has owner %d, "
                        "its representative %d",
                        (int)x, (int)ws->owner[x],
                        (int)ws->owner[contract_find(ws, x)]);
  return MINEX_OK;
}

int contract_check(contract_ws *ws) {
  int32_t n = ws->n;
  int rc = MINEX_OK;
  for (int32_t s = 0; s < ws->nlevels && rc == MINEX_OK; s++)
    rc = check_level(ws, s);
  if (rc == MINEX_OK)
    rc = check_current(ws);
  if (rc != MINEX_OK)
    return rc;
  int32_t merges = 0;
  for (int32_t s = 0; s < ws->nlevels; s++)
    merges += ws->lv[s].nmerge;
  if (ws->vtot != n + merges)
    return core_error(MINEX_EINTERNAL,
                      "contract: vtot %d, levels hold %d "
                      "merges",
                      (int)ws->vtot, (int)merges);
  /* The current graph must be the quotient of the fine graph: for every
     active x, gathered Cwgt to each representative r equals the sum of fine
     Cwgt between the fine vertices of x and of r. */
  int32_t nid = contract_nids(ws);
  int32_t *rep = core_malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
  double *fine = core_calloc((size_t)nid + 1, sizeof(double));
  int32_t *seen = core_malloc(sizeof(int32_t) * ((size_t)nid + 1));
  int32_t *members = core_malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
  int64_t *mstart = core_calloc((size_t)nid + 2, sizeof(int64_t));
  if (!rep || !fine || !seen || !members || !mstart) {
    core_free(rep), core_free(fine), core_free(seen), core_free(members),
        core_free(mstart);
    return core_error(MINEX_ENOMEM, "contract_check: out of memory");
  }
  rc = contract_fine_reps(ws, rep);
  for (int32_t v = 0; v < n && rc == MINEX_OK; v++)
    mstart[rep[v] + 1]++;
  for (int32_t x = 0; x < nid; x++)
    mstart[x + 1] += mstart[x];
  for (int32_t v = 0; v < n && rc == MINEX_OK; v++)
    members[mstart[rep[v]]++] = v;
  for (int32_t x = nid; x > 0; x--)
    mstart[x] = mstart[x - 1];
  mstart[0] = 0;
  for (int32_t x = 0; x < nid; x++)
    seen[x] = -1;
  const minex_graph *g = ws->g;
  for (int32_t x = 0; x < nid && rc == MINEX_OK; x++) {
    if (contract_find(ws, x) != x)
      continue;
    if (mstart[x] == mstart[x + 1]) {
      rc = core_error(MINEX_EINTERNAL,
                      "contract: active id %d holds no "
                      "fine vertex",
                      (int)x);
      break;
    }
    int32_t nfine = 0;
    double ext = 0, all = 0; /* Cwgt of the members' edges: leaving x, all */
    for (int64_t i = mstart[x]; i < mstart[x + 1]; i++) {
      int32_t v = members[i];
      for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
        int32_t r = rep[g->adjncy[j]];
        all += g->cwgt[j];
        if (r == x)
          continue;
        ext += g->cwgt[j];
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
      int32_t r = ws->acc.list[i];
      if (seen[r] != x || !close_enough(fine[r], ws->acc.lacc[i]))
        rc = core_error(MINEX_EINTERNAL,
                        "contract: edge %d-%d has Cwgt %g, "
                        "fine graph says %g",
                        (int)x, (int)r, ws->acc.lacc[i],
                        seen[r] == x ? fine[r] : 0.0);
    }
    /* the record's total Cwgt is what leaves x (up to the rounding of
       the sums and differences that made it) */
    double ctot = contract_cur(ws)->at[x].ctot;
    if (rc == MINEX_OK && !(fabs(ctot - ext) <= 1e-9 * all))
      rc = core_error(MINEX_EINTERNAL,
                      "contract: vertex %d has total Cwgt %g, fine graph "
                      "says %g",
                      (int)x, ctot, ext);
    if (rc == MINEX_OK && nfine != cnt)
      rc = core_error(MINEX_EINTERNAL,
                      "contract: vertex %d has %d "
                      "neighbours, fine graph says %d",
                      (int)x, (int)cnt, (int)nfine);
  }
  core_free(rep), core_free(fine), core_free(seen), core_free(members),
      core_free(mstart);
  return rc;
}
