/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One-pair-at-a-time contraction of one chunk (SPEC §3 "Contraction",
 * paper §3.5): the sampling cursor, the union/find of Fig. 2 and the merge
 * of a pair, on the chunk's local ids (chunk.h). */
#include "contract/chunk.h"

#include <stdlib.h>
#include <string.h>

void contract_worker_free(contract_worker *wk) {
  core_free(wk->par);
  core_free(wk->rwgt);
  core_free(wk->mark);
  core_free(wk->mpos);
  core_free(wk->elig);
  core_free(wk->eslot);
  core_free(wk->epos);
  core_free(wk->bpart);
  core_free(wk->bratio);
  contract_acc_free(&wk->acc);
  core_free(wk->madj);
  core_free(wk->mcwgt);
  core_free(wk->radj);
  core_free(wk->rcwgt);
  if (wk->rng)
    gsl_rng_free(wk->rng);
  memset(wk, 0, sizeof *wk);
}

int contract_worker_reserve(contract_worker *wk, int rows, int64_t more) {
  int32_t **adj = rows ? &wk->radj : &wk->madj;
  double **cw = rows ? &wk->rcwgt : &wk->mcwgt;
  int64_t *size = rows ? &wk->rsize : &wk->msize;
  int64_t *cap = rows ? &wk->rcap : &wk->mcap;
  if (*size + more <= *cap)
    return MINEX_OK;
  int64_t c = *cap + *cap / 2 + 1024;
  while (c < *size + more)
    c += c / 2;
  int32_t *a = core_realloc(*adj, sizeof(int32_t) * (size_t)c);
  if (a == NULL)
    return core_error(MINEX_ENOMEM,
                      "contraction: out of memory for %lld "
                      "edge ends",
                      (long long)c);
  *adj = a;
  double *w = core_realloc(*cw, sizeof(double) * (size_t)c);
  if (w == NULL)
    return core_error(MINEX_ENOMEM,
                      "contraction: out of memory for %lld "
                      "edge ends",
                      (long long)c);
  *cw = w;
  *cap = c;
  return MINEX_OK;
}

int contract_worker_ids(contract_worker *wk, int32_t cap) {
  if (wk->rng == NULL && (wk->rng = gsl_rng_alloc(gsl_rng_mt19937)) == NULL)
    return core_error(MINEX_ENOMEM, "contraction: out of memory");
  if (cap <= wk->cap)
    return MINEX_OK;
  size_t n = (size_t)cap;
  void *p[9] = {core_realloc(wk->par, sizeof(int32_t) * n)};
  if (p[0])
    wk->par = p[0];
  p[1] = core_realloc(wk->elig, sizeof(int32_t) * n);
  if (p[1])
    wk->elig = p[1];
  p[2] = core_realloc(wk->eslot, sizeof(int32_t) * n);
  if (p[2])
    wk->eslot = p[2];
  p[3] = core_realloc(wk->epos, sizeof(int32_t) * n);
  if (p[3])
    wk->epos = p[3];
  p[4] = core_realloc(wk->bpart, sizeof(int32_t) * n);
  if (p[4])
    wk->bpart = p[4];
  p[5] = core_realloc(wk->bratio, sizeof(double) * n);
  if (p[5])
    wk->bratio = p[5];
  p[6] = core_realloc(wk->rwgt, sizeof(double) * n);
  if (p[6])
    wk->rwgt = p[6];
  p[7] = core_realloc(wk->mark, sizeof(int32_t) * n);
  if (p[7]) {
    wk->mark = p[7];
    /* stamps restart: the new entries hold garbage */
    memset(wk->mark, 0, sizeof(int32_t) * n);
    wk->mstamp = 0;
  }
  p[8] = core_realloc(wk->mpos, sizeof(int32_t) * n);
  if (p[8])
    wk->mpos = p[8];
  for (int i = 0; i < 9; i++)
    if (p[i] == NULL)
      return core_error(MINEX_ENOMEM,
                        "contraction: out of memory for a chunk of %ld ids",
                        (long)cap);
  wk->cap = cap;
  return MINEX_OK;
}

/* Fig. 2's lookup as path halving: every id on the path is pointed at its
 * grandparent, so chains shrink as they are walked. Iterative, so long
 * merge chains cannot overflow the stack. */
static inline int32_t find(int32_t *par, int32_t x) {
  while (par[x] != x) {
    int32_t p = par[x];
    par[x] = par[p];
    x = p;
  }
  return x;
}

/* The state of one sweep. */
typedef struct sweep {
  contract_worker *wk;
  const contract_level *L;
  contract_chunk *c;
  int32_t m;      /* base vertices                          */
  int32_t nelig;  /* slots used in elig (holes included)    */
  int32_t nvalid; /* slots holding an id                    */
  int32_t cursor; /* where the next sampling window starts  */
} sweep;

/* The edges of local id x: a base vertex's row of the level (level ids,
 * *global = 1) or a merged list (local ids, *global = 0). */
static inline void edges(const struct sweep *s, int32_t x, const int32_t **adj,
                         const double **cw, int64_t *len, int *global) {
  const contract_chunk *c = s->c;
  if (x < s->m) {
    int64_t b = s->L->xadj[c->cs + x];
    *adj = s->L->adj + b;
    *cw = s->L->cwgt + b;
    *len = s->L->xadj[c->cs + x + 1] - b;
    *global = 1;
  } else {
    int64_t b = c->mbase + c->mstart[x - s->m];
    *adj = s->wk->madj + b;
    *cw = s->wk->mcwgt + b;
    *len = c->mlen[x - s->m];
    *global = 0;
  }
}

static const contract_attr *attr(const sweep *s, int32_t x) {
  return x < s->m ? &s->L->at[s->c->cs + x] : &s->c->at[x - s->m];
}

/* 1 when base vertex i of chunk c has a neighbour in the chunk. */
static int base_eligible(const contract_level *L, const contract_chunk *c,
                         int32_t i) {
  int32_t m = c->ce - c->cs;
  for (int64_t j = L->xadj[c->cs + i]; j < L->xadj[c->cs + i + 1]; j++)
    if (contract_chunk_local(L->adj[j], c->cs, m) >= 0)
      return 1;
  return 0;
}

int32_t contract_chunk_eligible(const contract_level *L,
                                const contract_chunk *c) {
  int32_t k = 0;
  for (int32_t i = 0; i < c->ce - c->cs; i++)
    k += base_eligible(L, c, i);
  return k;
}

/* The eligible list keeps the level's vertex order (a merged vertex takes
 * the slot of one of its children), so a window of it holds vertices that
 * are close in the mesh numbering and in memory. Removal leaves a hole
 * (-1); holes are squeezed out when they fill half the list. */
static void elig_remove(sweep *s, int32_t x) {
  contract_worker *wk = s->wk;
  int32_t i = wk->epos[x];
  if (i < 0)
    return;
  wk->elig[i] = -1;
  wk->epos[x] = -1;
  s->nvalid--;
}

static void elig_compact(sweep *s) {
  contract_worker *wk = s->wk;
  int32_t k = 0;
  for (int32_t i = 0; i < s->nelig; i++) {
    int32_t x = wk->elig[i];
    if (x < 0)
      continue;
    if (i == s->cursor)
      s->cursor = k;
    wk->elig[k] = x;
    wk->eslot[k] = wk->eslot[i];
    wk->epos[x] = k++;
  }
  if (s->cursor >= k)
    s->cursor = 0;
  s->nelig = k;
}

/* Merges active v and w into local id m + nmerge (paper §3.5). */
static int merge_pair(sweep *s, int32_t v, int32_t w) {
  contract_worker *wk = s->wk;
  contract_chunk *c = s->c;
  int32_t *par = wk->par;
  const double *rwv = wk->rwgt;
  const int32_t *adj[2];
  const double *cw[2];
  int64_t len[2];
  int global[2];
  edges(s, v, &adj[0], &cw[0], &len[0], &global[0]);
  edges(s, w, &adj[1], &cw[1], &len[1], &global[1]);
  int rc = contract_worker_reserve(wk, 0, len[0] + len[1]);
  if (rc == MINEX_OK)
    rc = contract_acc_reserve(&wk->acc, len[0] + len[1]);
  if (rc != MINEX_OK)
    return rc;
  /* the reserve may have moved the merged lists */
  edges(s, v, &adj[0], &cw[0], &len[0], &global[0]);
  edges(s, w, &adj[1], &cw[1], &len[1], &global[1]);
  int32_t k = c->nmerge, M = s->m + k;
  contract_acc *acc = &wk->acc;
  /* gather both lists by representative, dropping the v-w edges; ends
     outside the chunk are summed by their level id */
  contract_gather_begin(wk, len[0] + len[1]);
  int32_t cnt = 0;
  double inner = 0; /* 2 * Cwgt(v,w): the v-w edges seen from both ends */
  for (int e = 0; e < 2; e++)
    for (int64_t j = 0; j < len[e]; j++) {
      int32_t r =
          global[e] ? contract_chunk_local(adj[e][j], c->cs, s->m) : adj[e][j];
      if (r >= 0) {
        r = find(par, r);
        if (r == v || r == w)
          inner += cw[e][j];
        else
          contract_gather_local(wk, r, cw[e][j], &cnt);
      } else {
        contract_acc_add(acc, r, cw[e][j], &cnt);
      }
    }
  /* M's list, and M's best partner while the weights are at hand */
  int64_t b = wk->msize;
  int32_t best_r = -1;
  double best = -1, rw = rwv[v] + rwv[w];
  if (cnt > 0) {
    memcpy(wk->madj + b, acc->list, sizeof(int32_t) * (size_t)cnt);
    memcpy(wk->mcwgt + b, acc->lacc, sizeof(double) * (size_t)cnt);
  }
  for (int32_t i = 0; i < cnt; i++) {
    int32_t r = acc->list[i];
    if (r < 0)
      continue;
    double ratio = contract_pair_ratio(acc->lacc[i], rw + rwv[r]);
    if (ratio > best) {
      best = ratio;
      best_r = r;
    }
  }
  c->mstart[k] = b - c->mbase;
  c->mlen[k] = cnt;
  wk->msize = b + cnt;
  c->msize = wk->msize - c->mbase;
  const contract_attr *av = attr(s, v), *aw = attr(s, w);
  c->at[k] = (contract_attr){av->pwgt + aw->pwgt, rw,
                             av->ctot + aw->ctot - inner, av->old, 0};
  c->child[2 * k] = v;
  c->child[2 * k + 1] = w;
  c->nmerge++;
  c->nactive--;
  par[M] = M;
  wk->rwgt[M] = rw;
  par[v] = par[w] = M;
  wk->bpart[M] = best_r;
  wk->bratio[M] = best;
  wk->epos[M] = -1;
  int32_t slot = wk->epos[v] >= 0 ? wk->epos[v] : wk->epos[w];
  elig_remove(s, v);
  elig_remove(s, w);
  if (best_r >= 0 && slot >= 0) {
    wk->elig[slot] = M;
    wk->epos[M] = slot;
    s->nvalid++;
  }
  return MINEX_OK;
}

/* Neighbour of active v in the chunk (same owner) with the largest
 * Cwgt/(Rwgt_v+Rwgt_w), or -1. Cached per vertex: the ratio of a cached
 * pair stays exact while both ends are active (Cwgt and Rwgt of a pair
 * change only when one of them merges), so a vertex seen by several
 * sampling windows is gathered once. */
static int best_partner(sweep *s, int32_t v, int32_t *out) {
  contract_worker *wk = s->wk;
  int32_t *par = wk->par;
  int32_t c = wk->bpart[v];
  if (c >= 0 && par[c] == c) {
    *out = c;
    return MINEX_OK;
  }
  const int32_t *adj;
  const double *cw;
  int64_t len;
  int global;
  edges(s, v, &adj, &cw, &len, &global);
  int rc = contract_acc_reserve(&wk->acc, len);
  if (rc != MINEX_OK)
    return rc;
  contract_acc *acc = &wk->acc;
  contract_gather_begin(wk, 0); /* local ids only: no table */
  int32_t cnt = 0;
  for (int64_t j = 0; j < len; j++) {
    int32_t r = global ? contract_chunk_local(adj[j], s->c->cs, s->m) : adj[j];
    if (r < 0)
      continue;
    r = find(par, r);
    if (r != v)
      contract_gather_local(wk, r, cw[j], &cnt);
  }
  int32_t best_r = -1;
  double best = -1, rw = wk->rwgt[v];
  for (int32_t k = 0; k < cnt; k++) {
    double ratio =
        contract_pair_ratio(acc->lacc[k], rw + wk->rwgt[acc->list[k]]);
    if (ratio > best) {
      best = ratio;
      best_r = acc->list[k];
    }
  }
  wk->bpart[v] = best_r;
  wk->bratio[v] = best;
  *out = best_r;
  return MINEX_OK;
}

/* The order of the next level: an eligible vertex at the base vertex
 * whose slot it holds (where the sweep met it), any other at its first
 * base vertex. Neighbours in the level stay neighbours in memory, and the
 * next sweep meets the vertices in the order this one left them (by first
 * base vertex instead, MaxQwgt of cube_ball_p16 was 2% higher over seeds
 * 1-8). Both sequences ascend: merge them. */
static void next_order(sweep *s) {
  contract_worker *wk = s->wk;
  contract_chunk *c = s->c;
  int32_t m = s->m, nid = m + c->nmerge, k = 0, p = 0;
  int32_t *lnew = c->lnew;
  for (int32_t x = 0; x < nid; x++)
    lnew[x] = -1;
  for (int32_t i = 0; i <= m; i++) {
    for (; p < s->nelig && (i == m || wk->eslot[p] <= i); p++) {
      int32_t x = wk->elig[p];
      if (x >= 0 && lnew[x] < 0) {
        lnew[x] = k;
        c->order[k++] = x;
      }
    }
    if (i == m)
      break;
    int32_t r = find(wk->par, i);
    if (lnew[r] < 0 && wk->epos[r] < 0) {
      lnew[r] = k;
      c->order[k++] = r;
    }
  }
  for (int32_t x = 0; x < nid; x++)
    lnew[x] = lnew[find(wk->par, x)];
}

int contract_chunk_sweep(contract_worker *wk, const contract_level *L,
                         contract_chunk *c, int32_t sample_size,
                         unsigned long seed) {
  int32_t m = c->ce - c->cs;
  int rc = contract_worker_ids(wk, 2 * m + 1);
  if (rc != MINEX_OK)
    return rc;
  c->mbase = wk->msize;
  gsl_rng_set(wk->rng, seed);
  sweep s = {wk, L, c, m, 0, 0, 0};
  c->nmerge = 0;
  c->nactive = m;
  c->msize = 0;
  for (int32_t i = 0; i < m; i++) {
    int eligible = base_eligible(L, c, i);
    wk->par[i] = i;
    wk->rwgt[i] = L->at[c->cs + i].rwgt;
    wk->bpart[i] = -1;
    wk->epos[i] = eligible ? s.nelig : -1;
    if (eligible) {
      wk->eslot[s.nelig] = i;
      wk->elig[s.nelig++] = i;
    }
  }
  s.nvalid = s.nelig;
  /* SPEC §3: each step samples a few same-owner pairs and merges the one
     with the largest Cwgt/(Rwgt_v + Rwgt_w). The sample is drawn from a
     window of the eligible list at a cursor that sweeps it: every region
     of the chunk is contracted at the same pace (a sweep roughly halves
     it, as a matching level would) and consecutive steps touch nearby
     memory. */
  int32_t window = 2 * sample_size;
  while (c->nactive > c->target && s.nvalid > 0) {
    if (2 * s.nvalid < s.nelig)
      elig_compact(&s);
    int32_t bv = -1, bw = -1;
    double best = -1;
    int32_t seen = 0, taken = 0, i = s.cursor, advanced = -1;
    int wrapped = 0;
    /* one draw gives the coin flips of the whole window */
    unsigned long coins = gsl_rng_get(wk->rng);
    while (taken < sample_size && seen < window && s.nvalid > 0) {
      if (i >= s.nelig) {
        i = 0;
        wrapped = 1;
      }
      int32_t v = wk->elig[i++];
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
      int32_t r;
      if ((rc = best_partner(&s, v, &r)) != MINEX_OK)
        return rc;
      if (r >= 0 && wk->bratio[v] > best) {
        best = wk->bratio[v];
        bv = v;
        bw = r;
      }
      /* owners do not change while contracting, so a vertex without a
         partner in the chunk never gets one: drop it for good */
      if (r < 0)
        elig_remove(&s, v);
      else
        taken++;
    }
    s.cursor = advanced >= 0 ? advanced : i;
    if (s.cursor >= s.nelig) {
      s.cursor = 0;
      wrapped = 1;
    }
    if (bv >= 0 && (rc = merge_pair(&s, bv, bw)) != MINEX_OK)
      return rc;
    /* the sweep is over once it has merged an eighth of the chunk: the
       active vertices then make the next compact level, so that the next
       sweep reads short clean lists of nearby ids instead of merge
       chains */
    if (wrapped && (int64_t)CONTRACT_LEVEL_FRACTION * c->nmerge >= m)
      break;
  }
  next_order(&s);
  return MINEX_OK;
}
