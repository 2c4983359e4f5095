/* One-pair-at-a-time contraction (SPEC §3 "Contraction", paper §3.5) and
 * its undo for expansion (§3.7). */
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
  ws->pwgt = malloc(sizeof(double) * n2);
  ws->nd = malloc(sizeof(contract_node) * n2);
  ws->look = malloc(sizeof(int32_t) * n2);
  ws->old = malloc(sizeof(int32_t) * n2);
  ws->child = malloc(sizeof(int32_t) * n2);
  ws->epos = malloc(sizeof(int32_t) * n2);
  ws->elig = malloc(sizeof(int32_t) * n2);
  ws->list = malloc(sizeof(int32_t) * n2);
  ws->lacc = malloc(sizeof(double) * n2);
  /* zeroed pages: stamps start at 0, and a small graph's gathers never
     touch most of the table */
  ws->slot_max = 4;
  while (((size_t)1 << ws->slot_max) < 2 * (size_t)n + 2)
    ws->slot_max++;
  ws->slot = calloc((size_t)1 << ws->slot_max, sizeof(contract_slot));
  ws->bpart = malloc(sizeof(int32_t) * n2);
  ws->bratio = malloc(sizeof(double) * n2);
  ws->ctot = malloc(sizeof(double) * n2);
  ws->mstart = malloc(sizeof(int64_t) * ((size_t)n + 1));
  ws->mlen = malloc(sizeof(int32_t) * ((size_t)n + 1));
  /* merged lists add up to about twice the fine adjacency on meshes;
     untouched capacity costs address space only */
  ws->mcap = 3 * g->xadj[n] > 1024 ? 3 * g->xadj[n] : 1024;
  ws->madj = malloc(sizeof(int32_t) * (size_t)ws->mcap);
  ws->mcwgt = malloc(sizeof(double) * (size_t)ws->mcap);
  if (!ws->pwgt || !ws->nd || !ws->look || !ws->old || !ws->child || !ws->epos ||
      !ws->elig || !ws->list || !ws->lacc || !ws->slot || !ws->bpart || !ws->bratio || !ws->ctot || !ws->mstart || !ws->mlen || !ws->madj ||
      !ws->mcwgt) {
    contract_ws_destroy(ws);
    return core_error(MINEX_ENOMEM, "contraction: out of memory for %d "
                      "vertices", (int)n);
  }
  memcpy(ws->pwgt, g->pwgt, sizeof(double) * (size_t)n);
  for (int32_t v = 0; v < n; v++) {
    double c = 0;
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++)
      c += g->cwgt[j];
    ws->ctot[v] = c;
  }
  memcpy(ws->old, old, sizeof(int32_t) * (size_t)n);
  for (size_t x = 0; x < n2; x++) {
    ws->nd[x] = (contract_node){-1, -1, 0};
    ws->look[x] = (int32_t)x;
    ws->epos[x] = ws->bpart[x] = -1;
  }
  for (int32_t v = 0; v < n; v++) {
    ws->nd[v].owner = old[v];
    ws->nd[v].rwgt = g->rwgt[v];
  }
  /* every vertex with a same-owner neighbour starts eligible */
  for (int32_t v = 0; v < n; v++)
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++)
      if (old[g->adjncy[j]] == old[v]) {
        ws->epos[v] = ws->nelig;
        ws->elig[ws->nelig++] = v;
        ws->nvalid++;
        break;
      }
  return MINEX_OK;
}

void contract_ws_destroy(contract_ws *ws) {
  free(ws->pwgt);
  free(ws->nd);
  free(ws->look);
  free(ws->old);
  free(ws->child);
  free(ws->epos);
  free(ws->elig);
  free(ws->list);
  free(ws->lacc);
  free(ws->slot);
  free(ws->bpart);
  free(ws->bratio);
  free(ws->ctot);
  free(ws->rep);
  free(ws->pos);
  free(ws->ord);
  free(ws->lo);
  free(ws->hi);
  free(ws->fowner);
  free(ws->mstart);
  free(ws->mlen);
  free(ws->madj);
  free(ws->mcwgt);
  memset(ws, 0, sizeof *ws);
}

/* The eligible list keeps the graph's vertex order (a merged vertex takes
 * the slot of one of its children), so a window of it holds vertices that
 * are close in the mesh numbering and in memory. Removal leaves a hole
 * (-1); holes are squeezed out when they fill half the list. */
static void elig_remove(contract_ws *ws, int32_t x) {
  if (ws->epos == NULL)
    return;
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
    ws->epos[x] = k++;
  }
  if (ws->cursor >= k)
    ws->cursor = 0;
  ws->nelig = k;
}

/* SPEC §3 merge priority Cwgt_vw / (Rwgt_v + Rwgt_w): heavy
 * communication, light remapping first. Pairs without remapping weight
 * come first; pairs without either come last. */
static inline double pair_ratio(double cwgt, double rwgt) {
  return rwgt > 0 ? cwgt / rwgt : (cwgt > 0 ? 1e300 : 0);
}

/* Merges active v and w (same owner) into id vtot (paper §3.5). */
static int merge_pair(contract_ws *ws, int32_t v, int32_t w) {
  const int32_t *adj;
  const double *cw;
  int64_t lv, lw;
  contract_edges(ws, v, &adj, &cw, &lv);
  contract_edges(ws, w, &adj, &cw, &lw);
  if (ws->msize + lv + lw > ws->mcap) {
    int64_t cap = ws->mcap * 2;
    while (cap < ws->msize + lv + lw)
      cap *= 2;
    int32_t *a = realloc(ws->madj, sizeof(int32_t) * (size_t)cap);
    if (a == NULL)
      return core_error(MINEX_ENOMEM, "contraction: out of memory");
    ws->madj = a;
    double *c = realloc(ws->mcwgt, sizeof(double) * (size_t)cap);
    if (c == NULL)
      return core_error(MINEX_ENOMEM, "contraction: out of memory");
    ws->mcwgt = c;
    ws->mcap = cap;
  }
  int32_t k = ws->vtot - ws->n, M = ws->vtot;
  /* gather both lists by representative, dropping the v-w edges */
  contract_acc_begin(ws, lv + lw);
  int32_t cnt = 0;
  int32_t ends[2] = {v, w};
  double inner = 0; /* 2 * Cwgt(v,w): the v-w edges seen from both ends */
  for (int e = 0; e < 2; e++) {
    int64_t len;
    contract_edges(ws, ends[e], &adj, &cw, &len);
    for (int64_t j = 0; j < len; j++) {
      int32_t r = contract_find(ws, adj[j]);
      if (r == v || r == w)
        inner += cw[j];
      else
        contract_acc_add(ws, r, cw[j], &cnt);
    }
  }
  /* M's list, and M's best partner while the weights are at hand */
  int64_t b = ws->msize;
  int32_t best_r = -1;
  double best = -1, rw = ws->nd[v].rwgt + ws->nd[w].rwgt;
  memcpy(ws->madj + b, ws->list, sizeof(int32_t) * (size_t)cnt);
  memcpy(ws->mcwgt + b, ws->lacc, sizeof(double) * (size_t)cnt);
  for (int32_t i = 0; i < cnt; i++) {
    int32_t r = ws->list[i];
    if (ws->nd[r].owner == ws->nd[v].owner) {
      double ratio = pair_ratio(ws->lacc[i], rw + ws->nd[r].rwgt);
      if (ratio > best) {
        best = ratio;
        best_r = r;
      }
    }
  }
  int eligible = best_r >= 0;
  ws->mstart[k] = b;
  ws->mlen[k] = cnt;
  ws->msize = b + cnt;
  ws->pwgt[M] = ws->pwgt[v] + ws->pwgt[w];
  ws->nd[M].rwgt = ws->nd[v].rwgt + ws->nd[w].rwgt;
  ws->ctot[M] = ws->ctot[v] + ws->ctot[w] - inner;
  ws->old[M] = ws->old[v];
  ws->nd[M].owner = ws->nd[v].owner;
  ws->nd[M].merge = -1;
  ws->look[M] = M;
  ws->bpart[M] = best_r;
  ws->bratio[M] = best;
  ws->nd[v].merge = ws->nd[w].merge = M;
  ws->look[v] = ws->look[w] = M;
  ws->child[2 * k] = v;
  ws->child[2 * k + 1] = w;
  ws->vtot++;
  ws->nactive--;
  int32_t slot = ws->epos[v] >= 0 ? ws->epos[v] : ws->epos[w];
  elig_remove(ws, v);
  elig_remove(ws, w);
  if (eligible && slot >= 0) {
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
  if (c >= 0 && ws->nd[c].merge == -1)
    return c;
  int32_t cnt = contract_gather(ws, v), best_r = -1;
  double best = -1;
  for (int32_t k = 0; k < cnt; k++) {
    int32_t r = ws->list[k];
    if (ws->nd[r].owner != ws->nd[v].owner)
      continue;
    double ratio = pair_ratio(ws->lacc[k], ws->nd[v].rwgt + ws->nd[r].rwgt);
    if (ratio > best) {
      best = ratio;
      best_r = r;
    }
  }
  ws->bpart[v] = best_r;
  ws->bratio[v] = best;
  return best_r;
}

int contract_run(contract_ws *ws, int32_t target, int32_t sample_size,
                 gsl_rng *rng) {
  /* SPEC §3: each step samples a few same-owner pairs and merges the one
     with the largest Cwgt/(Rwgt_v + Rwgt_w). The sample is drawn from a
     window of the eligible list at a cursor that sweeps it: every region
     of the graph is contracted at the same pace (a sweep roughly halves
     it, as a matching level would) and consecutive steps touch nearby
     memory, which is what makes one-pair-at-a-time contraction fast. */
  int32_t window = 2 * sample_size;
  while (ws->nactive > target && ws->nvalid > 0) {
    if (2 * ws->nvalid < ws->nelig)
      elig_compact(ws);
    int32_t bv = -1, bw = -1;
    double best = -1;
    int32_t seen = 0, taken = 0, i = ws->cursor, advanced = -1;
    /* one draw gives the coin flips of the whole window */
    unsigned long coins = gsl_rng_get(rng);
    while (taken < sample_size && seen < window && ws->nvalid > 0) {
      if (i >= ws->nelig)
        i = 0;
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
    if (ws->cursor >= ws->nelig)
      ws->cursor = 0;
    if (bv < 0)
      continue;
    int rc = merge_pair(ws, bv, bw);
    if (rc != MINEX_OK)
      return rc;
  }
  return MINEX_OK;
}

void contract_undo(contract_ws *ws, int32_t *v, int32_t *w) {
  int32_t k = ws->vtot - ws->n - 1, M = ws->vtot - 1;
  int32_t a = ws->child[2 * k], b = ws->child[2 * k + 1];
  ws->nd[a].owner = ws->nd[b].owner = ws->nd[M].owner;
  ws->nd[a].merge = ws->nd[b].merge = -1;
  ws->look[a] = a;
  ws->look[b] = b;
  ws->msize = ws->mstart[k];
  elig_remove(ws, M);
  if (ws->rep) {
    for (int32_t i = ws->lo[a]; i < ws->hi[a]; i++)
      ws->rep[i] = a;
    for (int32_t i = ws->lo[b]; i < ws->hi[b]; i++)
      ws->rep[i] = b;
  }
  ws->vtot--;
  ws->nactive++;
  *v = a;
  *w = b;
}

int contract_freeze(contract_ws *ws) {
  int32_t n = ws->n;
  /* the sampling state is of no further use */
  free(ws->elig), free(ws->epos), free(ws->bpart), free(ws->bratio);
  ws->elig = ws->epos = ws->bpart = NULL;
  ws->bratio = NULL;
  ws->nelig = ws->nvalid = ws->cursor = 0;
  size_t n1 = (size_t)n + 1, n2 = 2 * (size_t)n + 1;
  ws->rep = malloc(sizeof(int32_t) * n1);
  ws->pos = malloc(sizeof(int32_t) * n1);
  ws->ord = malloc(sizeof(int32_t) * n1);
  ws->lo = malloc(sizeof(int32_t) * n2);
  ws->hi = malloc(sizeof(int32_t) * n2);
  ws->fowner = malloc(sizeof(int32_t) * n1);
  if (!ws->rep || !ws->pos || !ws->ord || !ws->lo || !ws->hi ||
      !ws->fowner) {
    free(ws->rep), free(ws->pos), free(ws->ord), free(ws->lo), free(ws->hi);
    free(ws->fowner);
    ws->rep = ws->pos = ws->ord = ws->lo = ws->hi = ws->fowner = NULL;
    return core_error(MINEX_ENOMEM, "contraction: out of memory");
  }
  /* depth-first walk of each merge tree; list doubles as the stack (a
     tree of m fine vertices has 2m-1 ids, so it never exceeds 2n) */
  int32_t pos = 0;
  int32_t *stack = ws->list;
  for (int32_t r = 0; r < ws->vtot; r++) {
    if (ws->nd[r].merge != -1)
      continue;
    int32_t top = 0;
    stack[top++] = r;
    while (top > 0) {
      int32_t x = stack[--top];
      if (x < 0) { /* post-order marker: x's range is complete */
        ws->hi[-x - 1] = pos;
        continue;
      }
      ws->lo[x] = pos;
      if (x < n) {
        ws->pos[x] = pos;
        ws->rep[pos] = r;
        ws->fowner[x] = ws->nd[r].owner;
        ws->ord[pos++] = x;
        ws->hi[x] = pos;
        continue;
      }
      int32_t k = x - n;
      stack[top++] = -x - 1;
      stack[top++] = ws->child[2 * k + 1];
      stack[top++] = ws->child[2 * k];
    }
  }
  return MINEX_OK;
}

void contract_set_owner(contract_ws *ws, int32_t x, int32_t q) {
  ws->nd[x].owner = q;
  if (ws->fowner)
    for (int32_t i = ws->lo[x]; i < ws->hi[x]; i++)
      ws->fowner[ws->ord[i]] = q;
}
