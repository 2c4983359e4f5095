/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Cluster levels (beyond the paper; options.cluster_levels,
 * docs/design/algorithm.md "Cluster levels"): one pass over a chunk in which
 * every base vertex still alone joins the neighbouring cluster of the same
 * chunk with the largest Cwgt(v, C) / (Rwgt_v + Rwgt_C), SPEC §3's merge
 * priority for the pair (v, C), among the clusters of fewer than
 * CONTRACT_CLUSTER_SIZE members. Each join is one merge of the pair (C's root,
 * v), so the level is a stack of pair merges like the sampled sweep's (sweep.c)
 * and the expansion undoes it the same way; what it saves is the sampling, the
 * union/find and a merged list per merge: each vertex is gathered once,
 * each cluster's list built once. */
#include "contract/chunk.h"

#include <stdlib.h>
#include <string.h>

/* Per chunk, in the worker's per-id arrays (local ids 0..m-1 unless
   said): lead[v] = the cluster of base vertex v, named by its first
   member; root[l] = the cluster's current local id (l, or its last
   merge); size[l], rw[l] = its members and Rwgt; mem/moff = the members
   by cluster; join[v] = v's place in its cluster (0 for the lead), kept
   in c->lnew until the order is made. */
typedef struct cl_state {
  int32_t *lead, *root, *size, *mem, *moff, *join;
  double *rw;
} cl_state;

/* The merged list of merge j (lists = 1: every merge's, its ends as base
 * local ids, which the expansion resolves with contract_find; lists = 0:
 * the cluster roots' only, their ends as the roots of the level, which
 * chunk_rows reads). Appended to the worker's list buffer. */
static int merge_list(contract_worker *wk, const contract_level *L,
                      contract_chunk *c, const cl_state *st, int32_t j,
                      int lists) {
  int32_t m = c->ce - c->cs, v = c->child[2 * j + 1], l = st->lead[v];
  int32_t upto = st->join[v], self = m + j;
  int64_t tot = 0;
  for (int32_t q = st->moff[l]; q < st->moff[l + 1]; q++)
    if (st->join[st->mem[q]] <= upto)
      tot += L->xadj[c->cs + st->mem[q] + 1] - L->xadj[c->cs + st->mem[q]];
  int rc = contract_worker_reserve(wk, 0, tot);
  if (rc == MINEX_OK)
    rc = contract_acc_reserve(&wk->acc, tot);
  if (rc != MINEX_OK)
    return rc;
  contract_acc *acc = &wk->acc;
  contract_gather_begin(wk, tot);
  int32_t cnt = 0;
  for (int32_t q = st->moff[l]; q < st->moff[l + 1]; q++) {
    int32_t x = st->mem[q];
    if (st->join[x] > upto)
      continue;
    for (int64_t e = L->xadj[c->cs + x]; e < L->xadj[c->cs + x + 1]; e++) {
      int32_t u = contract_chunk_local(L->adj[e], c->cs, m);
      if (u < 0) {
        contract_acc_add(acc, u, L->cwgt[e], &cnt);
        continue;
      }
      if (st->lead[u] == l && st->join[u] <= upto)
        continue; /* inside the merged vertex */
      int32_t key = lists ? u : st->root[st->lead[u]];
      if (key != self)
        contract_gather_local(wk, key, L->cwgt[e], &cnt);
    }
  }
  int64_t b = wk->msize;
  if (cnt > 0) {
    memcpy(wk->madj + b, acc->list, sizeof(int32_t) * (size_t)cnt);
    memcpy(wk->mcwgt + b, acc->lacc, sizeof(double) * (size_t)cnt);
  }
  c->mstart[j] = b - c->mbase;
  c->mlen[j] = cnt;
  wk->msize = b + cnt;
  return MINEX_OK;
}

int contract_chunk_cluster(contract_worker *wk, const contract_level *L,
                           contract_chunk *c, unsigned long seed, int lists) {
  int32_t m = c->ce - c->cs;
  int rc = contract_worker_ids(wk, 2 * m + 1);
  if (rc != MINEX_OK)
    return rc;
  cl_state st = {wk->par,  wk->bpart, wk->eslot, wk->elig,
                 wk->epos, c->lnew,   wk->bratio};
  c->mbase = wk->msize;
  c->nmerge = 0;
  c->nactive = m;
  c->msize = 0;
  for (int32_t i = 0; i < m; i++) {
    st.lead[i] = st.root[i] = i;
    st.size[i] = 1;
    st.join[i] = 0;
    st.rw[i] = L->at[c->cs + i].rwgt;
  }
  /* the pass starts at a random base vertex and wraps, in level order
     (neighbours in the mesh numbering are near in memory) */
  gsl_rng_set(wk->rng, seed);
  int32_t start =
      m > 1 ? (int32_t)gsl_rng_uniform_int(wk->rng, (unsigned long)m) : 0;
  contract_acc *acc = &wk->acc;
  for (int32_t t = 0; t < m && c->nactive > c->target; t++) {
    int32_t v = start + t < m ? start + t : start + t - m;
    if (st.lead[v] != v || st.size[v] > 1)
      continue; /* in a cluster already */
    int64_t b = L->xadj[c->cs + v], e = L->xadj[c->cs + v + 1];
    if ((rc = contract_acc_reserve(acc, e - b)) != MINEX_OK)
      return rc;
    contract_gather_begin(wk, 0); /* local ids only: no table */
    int32_t cnt = 0;
    for (int64_t j = b; j < e; j++) {
      int32_t u = contract_chunk_local(L->adj[j], c->cs, m);
      if (u < 0)
        continue;
      int32_t l = st.lead[u];
      if (st.size[l] < CONTRACT_CLUSTER_SIZE)
        contract_gather_local(wk, l, L->cwgt[j], &cnt);
    }
    int32_t best_l = -1;
    double best = -1, rv = st.rw[v], cb = 0;
    for (int32_t k = 0; k < cnt; k++) {
      int32_t l = acc->list[k];
      double r = contract_pair_ratio(acc->lacc[k], rv + st.rw[l]);
      if (r > best) {
        best = r;
        best_l = l;
        cb = acc->lacc[k];
      }
    }
    if (best_l < 0)
      continue;
    /* merge (root of best_l, v): the pair's weights add, its inner edges
       (Cwgt(v, C) seen from both ends) leave the total */
    int32_t k = c->nmerge, R = st.root[best_l];
    const contract_attr *ar = R < m ? &L->at[c->cs + R] : &c->at[R - m];
    const contract_attr *av = &L->at[c->cs + v];
    c->at[k] = (contract_attr){ar->pwgt + av->pwgt, ar->rwgt + av->rwgt,
                               ar->ctot + av->ctot - 2 * cb, av->old, 0};
    c->child[2 * k] = R;
    c->child[2 * k + 1] = v;
    c->nmerge++;
    c->nactive--;
    st.lead[v] = best_l;
    st.join[v] = st.size[best_l]++;
    st.root[best_l] = m + k;
    st.rw[best_l] += rv;
  }
  /* the members by cluster, in level order (a counting sort by lead) */
  for (int32_t i = 0; i <= m; i++)
    st.moff[i] = 0;
  for (int32_t i = 0; i < m; i++)
    st.moff[st.lead[i] + 1]++;
  for (int32_t i = 0; i < m; i++)
    st.moff[i + 1] += st.moff[i];
  for (int32_t i = 0; i < m; i++)
    st.mem[st.moff[st.lead[i]]++] = i;
  for (int32_t i = m; i > 0; i--)
    st.moff[i] = st.moff[i - 1];
  st.moff[0] = 0;
  /* the lists in merge order (an undo gives back the tail of the buffer) */
  for (int32_t j = 0; j < c->nmerge; j++) {
    int32_t l = st.lead[c->child[2 * j + 1]];
    if (lists || st.root[l] == m + j) {
      if ((rc = merge_list(wk, L, c, &st, j, lists)) != MINEX_OK)
        return rc;
    } else {
      c->mstart[j] = wk->msize - c->mbase;
      c->mlen[j] = 0;
    }
  }
  c->msize = wk->msize - c->mbase;
  /* the next level's order: a cluster where its first member is */
  int32_t *lnew = c->lnew, nid = m + c->nmerge, k = 0;
  for (int32_t x = 0; x < nid; x++)
    lnew[x] = -1;
  for (int32_t i = 0; i < m; i++) {
    int32_t r = st.root[st.lead[i]];
    if (lnew[r] < 0) {
      lnew[r] = k;
      c->order[k++] = r;
    }
  }
  for (int32_t i = 0; i < m; i++)
    lnew[i] = lnew[st.root[st.lead[i]]];
  for (int32_t j = 0; j < c->nmerge; j++)
    lnew[m + j] = lnew[st.root[st.lead[c->child[2 * j + 1]]]];
  return MINEX_OK;
}
