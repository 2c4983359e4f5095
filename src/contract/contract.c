/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One-pair-at-a-time contraction (SPEC §3 "Contraction", paper §3.5): the
 * workspace, the sampling cursor and the merge of a pair. */
#include "contract/contract.h"

#include <stdlib.h>
#include <string.h>

int contract_ws_create(contract_ws *ws, const minex_graph *g,
                       const int32_t *old) {
  memset(ws, 0, sizeof *ws);
  int32_t n = g->nvtxs;
  size_t n2 = 2 * (size_t)n + 1;
  ws->g = g;
  ws->n = n;
  ws->vtot = n;
  ws->nactive = n;
  ws->lvcap = 16;
  ws->lv = calloc((size_t)ws->lvcap, sizeof(contract_level));
  ws->nd = malloc(sizeof(contract_node) * n2);
  ws->elig = malloc(sizeof(int32_t) * n2);
  ws->epos = malloc(sizeof(int32_t) * n2);
  ws->eslot = malloc(sizeof(int32_t) * n2);
  ws->bpart = malloc(sizeof(int32_t) * n2);
  ws->bratio = malloc(sizeof(double) * n2);
  ws->map = malloc(sizeof(int32_t) * n2);
  ws->list = malloc(sizeof(int32_t) * n2);
  ws->lacc = malloc(sizeof(double) * n2);
  /* zeroed pages: stamps start at 0, and a small graph's gathers never
     touch most of the table */
  ws->slot_max = 4;
  while (((size_t)1 << ws->slot_max) < 2 * (size_t)n + 2)
    ws->slot_max++;
  ws->slot = calloc((size_t)1 << ws->slot_max, sizeof(contract_slot));
  if (!ws->lv || !ws->nd || !ws->elig || !ws->epos || !ws->eslot ||
      !ws->bpart || !ws->bratio || !ws->map || !ws->list || !ws->lacc ||
      !ws->slot) {
    contract_ws_destroy(ws);
    return core_error(MINEX_ENOMEM,
                      "contraction: out of memory for %d "
                      "vertices",
                      (int)n);
  }
  /* merged lists of the first sweep add up to about the fine adjacency
     on meshes; untouched capacity costs address space only */
  int rc = contract_level_alloc(&ws->lv[0], n, g->xadj[n]);
  if (rc != MINEX_OK) {
    contract_ws_destroy(ws);
    return rc;
  }
  ws->nlevels = 1;
  contract_level *L = &ws->lv[0];
  L->xadj = g->xadj;
  L->adj = g->adjncy;
  L->cwgt = g->cwgt;
  for (int32_t v = 0; v < n; v++) {
    double c = 0;
    int eligible = 0;
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
      c += g->cwgt[j];
      eligible |= old[g->adjncy[j]] == old[v];
    }
    L->at[v] = (contract_attr){g->pwgt[v], g->rwgt[v], c, old[v], 0};
    ws->nd[v] = (contract_node){v, old[v], g->rwgt[v]};
    ws->bpart[v] = -1;
    /* every vertex with a same-owner neighbour starts eligible */
    ws->epos[v] = eligible ? ws->nelig : -1;
    if (eligible) {
      ws->eslot[ws->nelig] = v;
      ws->elig[ws->nelig++] = v;
    }
  }
  ws->nvalid = ws->nelig;
  return MINEX_OK;
}

void contract_ws_destroy(contract_ws *ws) {
  int32_t nl = ws->nlevels > ws->nlevels_kept ? ws->nlevels : ws->nlevels_kept;
  for (int32_t s = 0; ws->lv && s < nl; s++)
    contract_level_free(&ws->lv[s]);
  free(ws->lv);
  free(ws->nd);
  free(ws->elig);
  free(ws->epos);
  free(ws->eslot);
  free(ws->bpart);
  free(ws->bratio);
  free(ws->parent);
  free(ws->owner);
  free(ws->interior);
  free(ws->map);
  free(ws->list);
  free(ws->lacc);
  free(ws->slot);
  memset(ws, 0, sizeof *ws);
}

/* The eligible list keeps the level's vertex order (a merged vertex takes
 * the slot of one of its children), so a window of it holds vertices that
 * are close in the mesh numbering and in memory. Removal leaves a hole
 * (-1); holes are squeezed out when they fill half the list. */
static void elig_remove(contract_ws *ws, int32_t x) {
  int32_t i = ws->epos[x];
  if (i < 0)
    return;
  ws->elig[i] = -1;
  ws->epos[x] = -1;
  ws->nvalid--;
}

static void elig_compact(contract_ws *ws) {
  int32_t k = 0;
  for (int32_t i = 0; i < ws->nelig; i++) {
    int32_t x = ws->elig[i];
    if (x < 0)
      continue;
    if (i == ws->cursor)
      ws->cursor = k;
    ws->elig[k] = x;
    ws->eslot[k] = ws->eslot[i];
    ws->epos[x] = k++;
  }
  if (ws->cursor >= k)
    ws->cursor = 0;
  ws->nelig = k;
}

/* Makes room for `more` entries in L's merged lists. */
static int mlist_reserve(contract_level *L, int64_t more) {
  if (L->msize + more <= L->mcap)
    return MINEX_OK;
  int64_t cap = L->mcap + L->mcap / 2;
  while (cap < L->msize + more)
    cap += cap / 2;
  int32_t *a = realloc(L->madj, sizeof(int32_t) * (size_t)cap);
  if (a == NULL)
    return core_error(MINEX_ENOMEM, "contraction: out of memory");
  L->madj = a;
  double *c = realloc(L->mcwgt, sizeof(double) * (size_t)cap);
  if (c == NULL)
    return core_error(MINEX_ENOMEM, "contraction: out of memory");
  L->mcwgt = c;
  L->mcap = cap;
  return MINEX_OK;
}

/* Merges active v and w (same owner) into local id nbase + nmerge
 * (paper §3.5). */
static int merge_pair(contract_ws *ws, int32_t v, int32_t w) {
  contract_level *L = contract_cur(ws);
  const int32_t *adj[2];
  const double *cw[2];
  int64_t len[2];
  contract_edges(ws, v, &adj[0], &cw[0], &len[0]);
  contract_edges(ws, w, &adj[1], &cw[1], &len[1]);
  int rc = mlist_reserve(L, len[0] + len[1]);
  if (rc != MINEX_OK)
    return rc;
  /* the reserve may have moved the merged lists */
  contract_edges(ws, v, &adj[0], &cw[0], &len[0]);
  contract_edges(ws, w, &adj[1], &cw[1], &len[1]);
  int32_t k = L->nmerge, M = L->nbase + k;
  /* gather both lists by representative, dropping the v-w edges */
  contract_acc_begin(ws, len[0] + len[1]);
  int32_t cnt = 0;
  double inner = 0; /* 2 * Cwgt(v,w): the v-w edges seen from both ends */
  for (int e = 0; e < 2; e++)
    for (int64_t j = 0; j < len[e]; j++) {
      int32_t r = contract_find_uf(ws, adj[e][j]);
      if (r == v || r == w)
        inner += cw[e][j];
      else
        contract_acc_add(ws, r, cw[e][j], &cnt);
    }
  /* M's list, and M's best partner while the weights are at hand */
  int64_t b = L->msize;
  int32_t best_r = -1, own = ws->nd[v].owner;
  double best = -1, rw = ws->nd[v].rwgt + ws->nd[w].rwgt;
  memcpy(L->madj + b, ws->list, sizeof(int32_t) * (size_t)cnt);
  memcpy(L->mcwgt + b, ws->lacc, sizeof(double) * (size_t)cnt);
  for (int32_t i = 0; i < cnt; i++) {
    const contract_node *r = &ws->nd[ws->list[i]];
    if (r->owner == own) {
      double ratio = contract_pair_ratio(ws->lacc[i], rw + r->rwgt);
      if (ratio > best) {
        best = ratio;
        best_r = ws->list[i];
      }
    }
  }
  L->mstart[k] = b;
  L->mlen[k] = cnt;
  L->msize = b + cnt;
  const contract_attr *av = &L->at[v], *aw = &L->at[w];
  L->at[M] = (contract_attr){av->pwgt + aw->pwgt, rw,
                             av->ctot + aw->ctot - inner, av->old, 0};
  L->child[2 * k] = v;
  L->child[2 * k + 1] = w;
  L->nmerge++;
  ws->nd[M] = (contract_node){M, own, rw};
  ws->nd[v].par = ws->nd[w].par = M;
  ws->bpart[M] = best_r;
  ws->bratio[M] = best;
  ws->epos[M] = -1;
  ws->vtot++;
  ws->nactive--;
  int32_t slot = ws->epos[v] >= 0 ? ws->epos[v] : ws->epos[w];
  elig_remove(ws, v);
  elig_remove(ws, w);
  if (best_r >= 0 && slot >= 0) {
    ws->elig[slot] = M;
    ws->epos[M] = slot;
    ws->nvalid++;
  }
  return MINEX_OK;
}

/* Same-owner neighbour of active v with the largest Cwgt/(Rwgt_v+Rwgt_w),
 * or -1. Cached per vertex: the ratio of a cached pair stays exact while
 * both ends are active (Cwgt and Rwgt of a pair change only when one of
 * them merges), so a vertex seen by several sampling windows is gathered
 * once. */
static int32_t best_partner(contract_ws *ws, int32_t v) {
  int32_t c = ws->bpart[v];
  if (c >= 0 && ws->nd[c].par == c)
    return c;
  int32_t cnt = contract_gather(ws, v), best_r = -1;
  double best = -1;
  int32_t own = ws->nd[v].owner;
  double rw = ws->nd[v].rwgt;
  for (int32_t k = 0; k < cnt; k++) {
    const contract_node *r = &ws->nd[ws->list[k]];
    if (r->owner != own)
      continue;
    double ratio = contract_pair_ratio(ws->lacc[k], rw + r->rwgt);
    if (ratio > best) {
      best = ratio;
      best_r = ws->list[k];
    }
  }
  ws->bpart[v] = best_r;
  ws->bratio[v] = best;
  return best_r;
}

/* Asks for what sampling x will read: its cached partner, its record and
 * the records of its edge ends. Issued when x is CONTRACT_PREFETCH
 * entries beyond the window, it lets the memory system fetch them while
 * the steps in between run (a hint: no effect on the result; in paired
 * runs on the 10^6 benchmark the contraction was faster in 12 of 18,
 * by about 5% on average). */
#define CONTRACT_PREFETCH 12
static inline void prefetch_vertex(const contract_ws *ws, int32_t x) {
  const int32_t *adj;
  const double *cw;
  int64_t len;
  __builtin_prefetch(&ws->bpart[x]);
  __builtin_prefetch(&contract_cur(ws)->at[x]);
  contract_edges(ws, x, &adj, &cw, &len);
  for (int64_t j = 0; j < len; j++)
    __builtin_prefetch(&ws->nd[adj[j]]);
}

int contract_run(contract_ws *ws, int32_t target, int32_t sample_size,
                 gsl_rng *rng) {
  /* SPEC §3: each step samples a few same-owner pairs and merges the one
     with the largest Cwgt/(Rwgt_v + Rwgt_w). The sample is drawn from a
     window of the eligible list at a cursor that sweeps it: every region
     of the graph is contracted at the same pace (a sweep roughly halves
     it, as a matching level would) and consecutive steps touch nearby
     memory, which is what makes one-pair-at-a-time contraction fast. */
  if (sample_size < 1 || sample_size > MINEX_SAMPLE_SIZE_MAX)
    return core_error(MINEX_EINVAL,
                      "contraction: sample size %ld outside "
                      "[1, %d]",
                      (long)sample_size, MINEX_SAMPLE_SIZE_MAX);
  int32_t window = 2 * sample_size;
  while (ws->nactive > target && ws->nvalid > 0) {
    if (2 * ws->nvalid < ws->nelig)
      elig_compact(ws);
    int32_t bv = -1, bw = -1;
    double best = -1;
    int32_t seen = 0, taken = 0, i = ws->cursor, advanced = -1;
    int wrapped = 0;
    /* one draw gives the coin flips of the whole window */
    unsigned long coins = gsl_rng_get(rng);
    int32_t ahead = ws->cursor + window + CONTRACT_PREFETCH;
    if (ahead < ws->nelig && ws->elig[ahead] >= 0)
      prefetch_vertex(ws, ws->elig[ahead]);
    while (taken < sample_size && seen < window && ws->nvalid > 0) {
      if (i >= ws->nelig) {
        i = 0;
        wrapped = 1;
      }
      int32_t v = ws->elig[i++];
      if (v < 0)
        continue;
      seen++;
      if (advanced < 0 && seen == 2)
        advanced = i;
      /* each entry of the window is sampled with probability 1/2 */
      int heads = (int)(coins & 1);
      coins = coins >> 1 | (coins & 1) << 31;
      if (seen < window && !heads)
        continue;
      int32_t r = best_partner(ws, v);
      int found = r >= 0;
      if (found && ws->bratio[v] > best) {
        best = ws->bratio[v];
        bv = v;
        bw = r;
      }
      /* owners do not change while contracting, so a vertex without a
         same-owner neighbour never gets one: drop it for good */
      if (!found)
        elig_remove(ws, v);
      else
        taken++;
    }
    ws->cursor = advanced >= 0 ? advanced : i;
    if (ws->cursor >= ws->nelig) {
      ws->cursor = 0;
      wrapped = 1;
    }
    if (bv >= 0) {
      int rc = merge_pair(ws, bv, bw);
      if (rc != MINEX_OK)
        return rc;
    }
    /* a sweep is over: once it has merged an eighth of the level, its
       active vertices make a compact level, so that the next sweep reads
       short clean lists of nearby ids instead of merge chains */
    const contract_level *L = contract_cur(ws);
    if (wrapped && ws->nactive > target && (int64_t)8 * L->nmerge >= L->nbase) {
      int rc = contract_level_next(ws);
      if (rc != MINEX_OK)
        return rc;
    }
  }
  return MINEX_OK;
}
