/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The from-scratch candidate (scratch.h): METIS two levels, clusters then
 * processors, relabelled against the old partition. */
#include "scratch/scratch.h"

#include <metis.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Integer weights are passed exactly when their sum fits in this (METIS
 * sums them in 32-bit idx_t); otherwise they are scaled to sum to
 * SCALED_SUM and rounded, a positive weight never below 1. */
#define EXACT_SUM_MAX 1073741824.0 /* 2^30 */
#define SCALED_SUM 268435456.0     /* 2^28 */

/* A graph in METIS's form: 0-based CSR with integer weights. */
typedef struct kgraph {
  idx_t n;       /* vertices                                   */
  idx_t *xadj;   /* n + 1 offsets                              */
  idx_t *adjncy; /* neighbours                                 */
  idx_t *vwgt;   /* vertex weights (Pwgt)                      */
  idx_t *adjwgt; /* edge weights (Cwgt), parallel to adjncy    */
} kgraph;

static void kgraph_free(kgraph *k) {
  free(k->xadj);
  free(k->adjncy);
  free(k->vwgt);
  free(k->adjwgt);
  memset(k, 0, sizeof *k);
}

static int kgraph_alloc(kgraph *k, size_t n, size_t nadj) {
  k->n = (idx_t)n;
  k->xadj = malloc(sizeof(idx_t) * (n + 1));
  k->adjncy = malloc(sizeof(idx_t) * (nadj + 1));
  k->vwgt = malloc(sizeof(idx_t) * (n + 1));
  k->adjwgt = malloc(sizeof(idx_t) * (nadj + 1));
  if (k->xadj && k->adjncy && k->vwgt && k->adjwgt)
    return MINEX_OK;
  kgraph_free(k);
  return core_error(MINEX_ENOMEM, "scratch candidate: out of memory");
}

/* Weights to idx_t (see EXACT_SUM_MAX); an all-zero array becomes ones
 * when ones (METIS divides by the total vertex weight). */
static void weights_to_idx(const double *w, size_t n, int ones, idx_t *out) {
  double sum = 0;
  int integral = 1;
  for (size_t i = 0; i < n; i++) {
    sum += w[i];
    integral &= w[i] == floor(w[i]);
  }
  double f = integral && sum <= EXACT_SUM_MAX ? 1.0 : SCALED_SUM / sum;
  for (size_t i = 0; i < n; i++) {
    double x = sum > 0 ? floor(w[i] * f + 0.5) : (ones ? 1 : 0);
    out[i] = (idx_t)(w[i] > 0 && x < 1 ? 1 : x);
  }
}

/* The subgraph induced by the vertices v with sel[v] == s (every vertex
 * when sel is NULL); glob[i] is the graph id of local vertex i, loc[v] the
 * local id of a selected v. Edges of weight 0 are left out: they cost
 * nothing when cut, and METIS 5.1 reads out of bounds on them (found by
 * the API fuzzer). */
static int kgraph_induced(const minex_graph *g, const idx_t *vw,
                          const idx_t *ew, const int32_t *sel, int32_t s,
                          idx_t *loc, int32_t *glob, kgraph *k) {
  size_t cnt = 0, nadj = 0;
  for (int32_t v = 0; v < g->nvtxs; v++)
    if (sel == NULL || sel[v] == s) {
      loc[v] = (idx_t)cnt;
      glob[cnt++] = v;
      for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++)
        nadj += ew[j] > 0 && (sel == NULL || sel[g->adjncy[j]] == s);
    }
  int rc = kgraph_alloc(k, cnt, nadj);
  if (rc != MINEX_OK)
    return rc;
  idx_t e = 0;
  k->xadj[0] = 0;
  for (size_t i = 0; i < cnt; i++) {
    int32_t v = glob[i];
    k->vwgt[i] = vw[v];
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
      int32_t w = g->adjncy[j];
      if (ew[j] > 0 && (sel == NULL || sel[w] == s)) {
        k->adjncy[e] = loc[w];
        k->adjwgt[e++] = ew[j];
      }
    }
    k->xadj[i + 1] = e;
  }
  return MINEX_OK;
}

/* METIS_PartGraphKway of k into nparts with targets tp (NULL: equal);
 * one part, an empty graph or one with no more vertices than parts need
 * no call (a vertex per part, in order). A graph whose vertex weights are
 * all 0 is given weights 1 (METIS divides by their total). */
static int kway(kgraph *k, idx_t nparts, real_t *tp, uint64_t seed,
                const char *what, idx_t *part) {
  if (nparts <= 1 || k->n <= nparts) {
    for (idx_t v = 0; v < k->n; v++)
      part[v] = nparts > 1 ? v : 0;
    return MINEX_OK;
  }
  idx_t wsum = 0;
  for (idx_t v = 0; v < k->n && wsum == 0; v++)
    wsum += k->vwgt[v];
  if (wsum == 0)
    for (idx_t v = 0; v < k->n; v++)
      k->vwgt[v] = 1;
  idx_t opts[METIS_NOPTIONS];
  METIS_SetDefaultOptions(opts);
  opts[METIS_OPTION_NUMBERING] = 0;
  opts[METIS_OPTION_SEED] = (idx_t)(seed % 2147483647u);
  idx_t ncon = 1, objval = 0;
  real_t ub = 1.03f; /* METIS's default tolerance for k-way */
  int r = METIS_PartGraphKway(&k->n, &ncon, k->xadj, k->adjncy, k->vwgt, NULL,
                              k->adjwgt, &nparts, tp, &ub, opts, &objval, part);
  if (r != METIS_OK)
    return core_error(r == METIS_ERROR_MEMORY ? MINEX_ENOMEM : MINEX_EINTERNAL,
                      "scratch candidate: METIS_PartGraphKway (%s, %d parts) "
                      "returned %d",
                      what, (int)nparts, r);
  return MINEX_OK;
}

/* One (label, slot) overlap: the weight of the items with both. */
typedef struct overlap {
  int64_t key; /* label * nslots + slot */
  double w;    /* summed weight         */
} overlap;

static int by_key(const void *x, const void *y) {
  const overlap *p = x, *q = y;
  return (p->key > q->key) - (p->key < q->key);
}

static int by_weight(const void *x, const void *y) {
  const overlap *p = x, *q = y;
  if (p->w != q->w)
    return p->w > q->w ? -1 : 1;
  return by_key(x, y);
}

/* Relabelling for the largest overlap, greedily as ParMETIS's remapping
 * does: item i has label lab[i] in [0, n), old slot slot[i] (in [0, n), or
 * -1 for none) and weight w[i]; heaviest (label, slot) pair first, taken
 * when both are free and cls[label] == cls[slot]; labels left over take
 * the free slots of their class in order. map[label] = slot. */
static int relabel(int32_t n, size_t nitems, const idx_t *lab,
                   const int32_t *slot, const double *w, const int32_t *cls,
                   int32_t *map) {
  overlap *ov = malloc(sizeof(overlap) * (nitems + 1));
  char *used = calloc((size_t)n + 1, 1);
  if (!ov || !used) {
    free(ov);
    free(used);
    return core_error(MINEX_ENOMEM, "scratch candidate: out of memory");
  }
  size_t m = 0;
  for (size_t i = 0; i < nitems; i++)
    if (slot[i] >= 0 && cls[lab[i]] == cls[slot[i]])
      ov[m++] = (overlap){(int64_t)lab[i] * n + slot[i], w[i]};
  qsort(ov, m, sizeof *ov, by_key);
  size_t k = 0;
  for (size_t i = 0; i < m; k++) {
    overlap t = ov[i++];
    for (; i < m && ov[i].key == t.key; i++)
      t.w += ov[i].w;
    ov[k] = t;
  }
  qsort(ov, k, sizeof *ov, by_weight);
  for (int32_t a = 0; a < n; a++)
    map[a] = -1;
  for (size_t i = 0; i < k; i++) {
    int32_t a = (int32_t)(ov[i].key / n), b = (int32_t)(ov[i].key % n);
    if (map[a] < 0 && !used[b]) {
      map[a] = b;
      used[b] = 1;
    }
  }
  for (int32_t a = 0, b = 0; a < n; a++)
    for (b = 0; map[a] < 0 && b < n; b++)
      if (!used[b] && cls[a] == cls[b]) {
        map[a] = b;
        used[b] = 1;
      }
  free(ov);
  free(used);
  return MINEX_OK;
}

/* Normalised METIS targets from positive weights (the last takes the
 * rounding remainder, so they sum to 1 in real_t). */
static void targets(const double *w, idx_t n, real_t *tp) {
  double sum = 0;
  for (idx_t i = 0; i < n; i++)
    sum += w[i];
  real_t rest = 1.0f;
  for (idx_t i = 0; i + 1 < n; i++)
    rest -= (tp[i] = (real_t)(w[i] / sum));
  tp[n - 1] = rest;
}

int scratch_partition(const minex_graph *g, const minex_config *cfg,
                      const int32_t *old, uint64_t seed, int32_t *part) {
  int32_t n = g->nvtxs, C = cfg->nclusters, P = cfg->nprocs;
  size_t nadj = (size_t)g->xadj[n];
  if (g->xadj[n] > (int64_t)2147483647)
    return core_error(MINEX_EUNSUP,
                      "scratch candidate: %zu adjacency entries "
                      "exceed METIS's 32-bit indices",
                      nadj);
  idx_t *vw = malloc(sizeof(idx_t) * ((size_t)n + 1));
  idx_t *ew = malloc(sizeof(idx_t) * (nadj + 1));
  idx_t *loc = malloc(sizeof(idx_t) * ((size_t)n + 1));
  idx_t *kp = malloc(sizeof(idx_t) * ((size_t)n + 1));
  int32_t *glob = malloc(sizeof(int32_t) * ((size_t)n + 1));
  int32_t *cpart = malloc(sizeof(int32_t) * ((size_t)n + 1));
  int32_t *act = malloc(sizeof(int32_t) * (size_t)C);
  int32_t *nav = calloc((size_t)C, sizeof(int32_t));
  int32_t *cls = malloc(sizeof(int32_t) * ((size_t)(P > C ? P : C) + 1));
  int32_t *map = malloc(sizeof(int32_t) * ((size_t)(P > C ? P : C) + 1));
  int32_t *procs = malloc(sizeof(int32_t) * ((size_t)P + 1));
  double *share = malloc(sizeof(double) * ((size_t)C + 1));
  real_t *tp = malloc(sizeof(real_t) * ((size_t)C + 1));
  int32_t *pidx = malloc(sizeof(int32_t) * ((size_t)(P > C ? P : C) + 1));
  /* zeroed: GCC's -O1 analysis cannot see that relabel reads only the
     entries written just before it (-Werror=maybe-uninitialized) */
  int32_t *oslot = calloc((size_t)n + 1, sizeof(int32_t));
  double *wv = calloc((size_t)n + 1, sizeof(double));
  kgraph k = {0};
  int rc = MINEX_OK;
  if (!vw || !ew || !loc || !kp || !glob || !cpart || !act || !nav || !cls ||
      !map || !procs || !share || !tp || !pidx || !oslot || !wv) {
    rc = core_error(MINEX_ENOMEM, "scratch candidate: out of memory");
    goto out;
  }
  weights_to_idx(g->pwgt, (size_t)n, 1, vw);
  weights_to_idx(g->cwgt, nadj, 0, ew);
  /* level 1: the clusters with available processors, targets their
     count / Proc (their share of the machine's speed) */
  for (int32_t p = 0; p < P; p++)
    nav[cfg->cluster[p]] += cfg->avail[p];
  idx_t na = 0;
  for (int32_t c = 0; c < C; c++)
    if (nav[c] > 0) {
      act[na] = c;
      share[na++] = nav[c] / cfg->proc[c];
    }
  targets(share, na, tp);
  if ((rc = kgraph_induced(g, vw, ew, NULL, 0, loc, glob, &k)) ||
      (rc = kway(&k, na, tp, seed, "clusters", kp)))
    goto out;
  kgraph_free(&k);
  /* relabel the cluster parts: part a (made with the target of cluster
     act[a]) may go to any cluster of the same count and Proc; a vertex kept
     in its old cluster saves its remapping out of it (Rwgt times the mean
     Conn to the other clusters) */
  for (idx_t a = 0; a < na; a++) {
    cls[a] = (int32_t)a;
    for (idx_t b = 0; b < a; b++)
      if (nav[act[a]] == nav[act[b]] &&
          cfg->proc[act[a]] == cfg->proc[act[b]]) {
        cls[a] = cls[b];
        break;
      }
  }
  for (int32_t c = 0; c < C; c++)
    pidx[c] = -1;
  for (idx_t b = 0; b < na; b++) {
    pidx[act[b]] = (int32_t)b;
    double s = 0;
    for (idx_t d = 0; d < na; d++)
      s += d != b ? cfg->conn[(size_t)act[b] * (size_t)C + (size_t)act[d]] : 0;
    share[b] = na > 1 ? s / (double)(na - 1) : 1;
  }
  for (int32_t v = 0; v < n; v++) {
    glob[v] = pidx[cfg->cluster[old[v]]];
    wv[v] = glob[v] >= 0 ? g->rwgt[v] * share[glob[v]] : 0;
  }
  if ((rc = relabel((int32_t)na, (size_t)n, kp, glob, wv, cls, map)))
    goto out;
  for (int32_t v = 0; v < n; v++)
    cpart[v] = act[map[kp[v]]];
  /* level 2: each cluster's subgraph into its available processors */
  for (int32_t c = 0; c < C; c++) {
    if (nav[c] == 0)
      continue;
    int32_t np = 0;
    for (int32_t p = cfg->cfirst[c]; p < cfg->cfirst[c + 1]; p++)
      if (cfg->avail[p])
        procs[np++] = p;
    if ((rc = kgraph_induced(g, vw, ew, cpart, c, loc, glob, &k)) ||
        (rc = kway(&k, np, NULL, seed, "a cluster's processors", kp)))
      goto out;
    /* relabel inside the cluster: the Rwgt that stays on its old owner */
    for (int32_t b = 0; b < np; b++)
      pidx[procs[b]] = b;
    for (idx_t i = 0; i < k.n; i++) {
      int32_t o = old[glob[i]];
      oslot[i] = cfg->cluster[o] == c && cfg->avail[o] ? pidx[o] : -1;
      wv[i] = g->rwgt[glob[i]];
    }
    for (int32_t a = 0; a < np; a++)
      cls[a] = 0;
    if ((rc = relabel(np, (size_t)k.n, kp, oslot, wv, cls, map)))
      goto out;
    for (idx_t i = 0; i < k.n; i++)
      part[glob[i]] = procs[map[kp[i]]];
    kgraph_free(&k);
  }
out:
  kgraph_free(&k);
  free(vw);
  free(ew);
  free(loc);
  free(kp);
  free(glob);
  free(cpart);
  free(act);
  free(nav);
  free(cls);
  free(map);
  free(procs);
  free(share);
  free(tp);
  free(pidx);
  free(oslot);
  free(wv);
  return rc;
}
