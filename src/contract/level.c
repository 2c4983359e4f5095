/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Levels of the contraction: their allocation, building a compact level at
 * the end of a sweep, freezing the contracted graph, mapping fine vertices
 * to their representatives, and walking back down the merge stack during
 * expansion (paper §3.7). */
#include "contract/contract.h"

#include <stdlib.h>
#include <string.h>

int contract_level_alloc(contract_level *L, int32_t nbase) {
  memset(L, 0, sizeof *L);
  L->nbase = nbase;
  L->cap = nbase;
  L->at = core_malloc(sizeof(contract_attr) * ((size_t)nbase + 1));
  if (L->at == NULL)
    return core_error(MINEX_ENOMEM,
                      "contraction: out of memory for a "
                      "level of %d vertices",
                      (int)nbase);
  return MINEX_OK;
}

void contract_level_free(contract_level *L) {
  core_free(L->own_xadj);
  core_free(L->own_adj);
  core_free(L->own_cwgt);
  core_free(L->lower);
  core_free(L->child);
  core_free(L->mstart);
  core_free(L->mlen);
  core_free(L->madj);
  core_free(L->mcwgt);
  core_free(L->at);
  core_free(L->ghost_gid);
  core_free(L->ghost_rank);
  core_free(L->ghost_up);
  core_free(L->rank_goff);
  memset(L, 0, sizeof *L);
}

/* Root of every id of a finished level (its merges all in effect):
 * root[x], through its merges from the last one down. */
static void level_roots(const contract_level *L, int32_t *root) {
  int32_t nid = L->nbase + L->nmerge;
  for (int32_t x = 0; x < nid; x++)
    root[x] = x;
  for (int32_t j = L->nmerge - 1; j >= 0; j--) {
    int32_t M = L->nbase + j;
    root[L->child[2 * j]] = root[M];
    root[L->child[2 * j + 1]] = root[M];
  }
}

int contract_level_reps(contract_ws *ws, int32_t s, int32_t *rep) {
  int32_t n = ws->n;
  int32_t *root = core_malloc(sizeof(int32_t) * (2 * (size_t)n + 1));
  int32_t *inv = core_malloc(sizeof(int32_t) * (2 * (size_t)n + 1));
  if (!root || !inv) {
    core_free(root), core_free(inv);
    return core_error(MINEX_ENOMEM, "contract_level_reps: out of memory");
  }
  for (int32_t v = 0; v < n; v++)
    rep[v] = v;
  for (int32_t t = 0; t < s; t++) {
    const contract_level *L = &ws->lv[t], *U = &ws->lv[t + 1];
    level_roots(L, root);
    for (int32_t k = 0; k < U->nbase; k++)
      inv[U->lower[k]] = k;
    for (int32_t v = 0; v < n; v++)
      rep[v] = inv[root[rep[v]]];
  }
  core_free(root), core_free(inv);
  return MINEX_OK;
}

/* The level's Cwgt into cw, made exactly symmetric: the two directions of
 * an edge sum the same fine Cwgt in different orders and may differ in the
 * last bit (found by the API fuzzer: minex_graph_create refused "Cwgt
 * 54.18 one way and 54.18 the other"); both take the larger. The entries
 * u -> w with u < w are bucketed by w, so that row w finds each reverse
 * entry in O(1): O(V + E). */
static int symmetric_cwgt(int32_t m, const int64_t *xadj, const int32_t *adj,
                          const double *cwgt, double *cw) {
  int64_t ne = xadj[m];
  memcpy(cw, cwgt, sizeof(double) * (size_t)ne);
  int64_t *start = core_calloc((size_t)m + 2, sizeof(int64_t));
  int64_t *where = core_malloc(sizeof(int64_t) * ((size_t)m + 1));
  int64_t *bj = core_malloc(sizeof(int64_t) * ((size_t)ne / 2 + 1));
  int32_t *bu = core_malloc(sizeof(int32_t) * ((size_t)ne / 2 + 1));
  if (!start || !where || !bj || !bu) {
    core_free(start), core_free(where), core_free(bj), core_free(bu);
    return core_error(MINEX_ENOMEM, "contract_level_graph: out of memory");
  }
  for (int32_t u = 0; u < m; u++)
    where[u] = -1;
  int64_t half = 0;
  for (int32_t u = 0; u < m; u++)
    for (int64_t j = xadj[u]; j < xadj[u + 1]; j++)
      if (u < adj[j] && half < ne / 2 + 1) {
        start[adj[j] + 2]++;
        half++;
      }
  for (int32_t w = 0; w < m; w++)
    start[w + 2] += start[w + 1];
  for (int32_t u = 0; u < m; u++)
    for (int64_t j = xadj[u]; j < xadj[u + 1]; j++)
      if (u < adj[j] && start[adj[j] + 1] < half) {
        int64_t p = start[adj[j] + 1]++;
        bu[p] = u;
        bj[p] = j;
      }
  /* start[w] .. start[w + 1] now holds bucket w */
  for (int32_t w = 0; w < m; w++) {
    for (int64_t p = start[w]; p < start[w + 1]; p++)
      where[bu[p]] = bj[p];
    for (int64_t j = xadj[w]; j < xadj[w + 1]; j++) {
      int32_t u = adj[j];
      int64_t r = u < w ? where[u] : -1;
      if (r >= 0) { /* (always, on a symmetric level) */
        double x = cw[r] > cw[j] ? cw[r] : cw[j];
        cw[r] = cw[j] = x;
      }
    }
  }
  core_free(start), core_free(where), core_free(bj), core_free(bu);
  return MINEX_OK;
}

int contract_csr_graph(int32_t m, const int64_t *xadj, const int32_t *adj,
                       const double *cwgt, const contract_attr *at,
                       minex_graph **out, int32_t **old_s) {
  *out = NULL;
  *old_s = NULL;
  double *pw = core_malloc(sizeof(double) * ((size_t)m + 1));
  double *rw = core_malloc(sizeof(double) * ((size_t)m + 1));
  double *cw = core_malloc(sizeof(double) * ((size_t)xadj[m] + 1));
  int32_t *ow = core_malloc(sizeof(int32_t) * ((size_t)m + 1));
  int rc = MINEX_OK;
  if (!pw || !rw || !cw || !ow) {
    rc = core_error(MINEX_ENOMEM, "contract_level_graph: out of memory");
    goto out;
  }
  if ((rc = symmetric_cwgt(m, xadj, adj, cwgt, cw)) != MINEX_OK)
    goto out;
  for (int32_t k = 0; k < m; k++) {
    pw[k] = at[k].pwgt;
    rw[k] = at[k].rwgt;
    ow[k] = at[k].old;
  }
  rc = minex_graph_create(m, xadj, adj, pw, rw, cw, out);
out:
  core_free(pw), core_free(rw), core_free(cw);
  if (rc == MINEX_OK)
    *old_s = ow;
  else
    core_free(ow);
  return rc;
}

int contract_level_graph(contract_ws *ws, int32_t s, minex_graph **out,
                         int32_t **old_s, int32_t *rep) {
  *out = NULL;
  *old_s = NULL;
  const contract_level *S = &ws->lv[s];
  int rc = contract_level_reps(ws, s, rep);
  if (rc == MINEX_OK)
    rc = contract_csr_graph(S->nbase, S->xadj, S->adj, S->cwgt, S->at, out,
                            old_s);
  return rc;
}

int32_t contract_ghost_up(const contract_ws *ws, int32_t from, int32_t to,
                          int32_t g) {
  for (int32_t t = from; t < to; t++)
    g = ws->lv[t].ghost_up[g];
  return g;
}

int contract_fine_reps(contract_ws *ws, int32_t *rep) {
  int rc = contract_level_reps(ws, ws->nlevels - 1, rep);
  if (rc == MINEX_OK)
    for (int32_t v = 0; v < ws->n; v++)
      rep[v] = contract_find(ws, rep[v]);
  return rc;
}

/* The contracted graph's vertices (the last level, no merges) as the
 * freeze leaves them: each its own parent, on its old owner. */
static void top_owners(contract_ws *ws) {
  const contract_level *L = contract_cur(ws);
  for (int32_t k = 0; k < L->nbase; k++) {
    ws->parent[k] = k;
    ws->owner[k] = L->at[k].old;
  }
}

int contract_freeze(contract_ws *ws) {
  if (contract_cur(ws)->nmerge > 0)
    return core_error(MINEX_EINTERNAL,
                      "contract_freeze: the current level has merges");
  for (int32_t s = 0; s < ws->nlevels; s++) {
    ws->lv[s].frozen_nmerge = ws->lv[s].nmerge;
    ws->lv[s].frozen_msize = ws->lv[s].msize;
  }
  ws->frozen_nlevels = ws->nlevels;
  ws->frozen_vtot = ws->vtot;
  ws->frozen_nactive = ws->nactive;
  top_owners(ws);
  return MINEX_OK;
}

void contract_rewind(contract_ws *ws) {
  ws->nlevels = ws->frozen_nlevels;
  for (int32_t s = 0; s < ws->nlevels; s++) {
    ws->lv[s].nmerge = ws->lv[s].frozen_nmerge;
    ws->lv[s].msize = ws->lv[s].frozen_msize;
  }
  ws->vtot = ws->frozen_vtot;
  ws->nactive = ws->frozen_nactive;
  memset(ws->interior, 0, (size_t)contract_cur(ws)->nbase);
  top_owners(ws);
}

/* The current level has no merges left: its vertices are the active
 * vertices of the level below, which becomes current. Owners go to every
 * id there (a merged id takes its parent's), interior flags to the
 * active ones. */
static void level_down(contract_ws *ws) {
  contract_level *U = contract_cur(ws), *D = U - 1;
  int32_t m = U->nbase;
  /* both levels share the per-id arrays: keep the upper values apart */
  int32_t *own = ws->map;
  unsigned char *flag = (unsigned char *)ws->acc.lacc;
  memcpy(own, ws->owner, sizeof(int32_t) * (size_t)m);
  memcpy(flag, ws->interior, (size_t)m);
  /* spread over ranks: the ghosts' owners too (U's after its vertices) */
  if (U->nghost > 0)
    memcpy(own + m, ws->owner + 2 * (size_t)m,
           sizeof(int32_t) * (size_t)U->nghost);
  for (int32_t k = 0; k < m; k++) {
    int32_t x = U->lower[k];
    ws->parent[x] = x;
    ws->owner[x] = own[k];
    ws->interior[x] = flag[k];
  }
  for (int32_t g = 0; g < D->nghost; g++) {
    int32_t x = 2 * D->nbase + g;
    ws->parent[x] = x;
    ws->owner[x] = own[m + D->ghost_up[g]];
    ws->interior[x] = 0;
  }
  for (int32_t j = D->nmerge - 1; j >= 0; j--) {
    int32_t M = D->nbase + j;
    for (int c = 0; c < 2; c++) {
      int32_t x = D->child[2 * j + c];
      ws->parent[x] = M;
      ws->owner[x] = ws->owner[M];
    }
  }
  /* U stays allocated (contract_rewind climbs back to it; freed by
     contract_ws_destroy) */
  ws->nlevels--;
}

void contract_descend(contract_ws *ws, int32_t s) {
  int32_t a, b;
  for (;;) {
    if (contract_cur(ws)->nmerge > 0)
      contract_undo(ws, &a, &b);
    else if (ws->nlevels - 1 > s)
      level_down(ws);
    else
      break;
  }
}

int contract_undo(contract_ws *ws, int32_t *v, int32_t *w) {
  contract_level *L = contract_cur(ws);
  while (L->nmerge == 0) {
    if (ws->nlevels == 1)
      return 0;
    level_down(ws);
    L = contract_cur(ws);
  }
  int32_t k = --L->nmerge, M = L->nbase + k;
  int32_t a = L->child[2 * k], b = L->child[2 * k + 1];
  ws->parent[a] = a;
  ws->parent[b] = b;
  ws->owner[a] = ws->owner[b] = ws->owner[M];
  /* children of an interior vertex are interior: their neighbours are
     the merged vertex's neighbours and each other */
  ws->interior[a] = ws->interior[b] = ws->interior[M];
  ws->interior[M] = 0;
  L->msize = L->mstart[k];
  ws->vtot--;
  ws->nactive++;
  *v = a;
  *w = b;
  return 1;
}

int32_t contract_undo_level(contract_ws *ws, int32_t *ids) {
  contract_level *L = contract_cur(ws);
  /* one level down: below the current one every level has merges (one
     process: contract_run builds a level only from merges), or, spread
     over ranks, merges on some rank, so every rank steps alike */
  if (L->nmerge == 0) {
    if (ws->nlevels == 1)
      return -1;
    level_down(ws);
    L = contract_cur(ws);
  }
  /* the restored base vertices: those merged away, in id order */
  int32_t n = 0;
  for (int32_t x = 0; x < L->nbase; x++)
    if (ws->parent[x] != x)
      ids[n++] = x;
  /* in reverse merge order, as contract_undo would */
  for (int32_t k = L->nmerge - 1; k >= 0; k--) {
    int32_t M = L->nbase + k;
    int32_t a = L->child[2 * k], b = L->child[2 * k + 1];
    ws->parent[a] = a;
    ws->parent[b] = b;
    ws->owner[a] = ws->owner[b] = ws->owner[M];
    ws->interior[a] = ws->interior[b] = ws->interior[M];
    ws->interior[M] = 0;
  }
  ws->vtot -= L->nmerge;
  ws->nactive += L->nmerge;
  L->msize = L->nmerge > 0 ? L->mstart[0] : L->msize;
  L->nmerge = 0;
  return n;
}

void contract_set_owner(contract_ws *ws, int32_t x, int32_t q) {
  const contract_level *L = contract_cur(ws);
  ws->owner[x] = q;
  if (x < L->nbase)
    return;
  /* the ids merged into x: edge ends name them */
  int32_t *stack = ws->map, top = 0;
  stack[top++] = x;
  while (top > 0) {
    int32_t y = stack[--top];
    ws->owner[y] = q;
    if (y >= L->nbase) {
      int32_t j = y - L->nbase;
      stack[top++] = L->child[2 * j];
      stack[top++] = L->child[2 * j + 1];
    }
  }
}
