/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The from-scratch candidate (scratch.h): Scotch two levels, clusters then
 * processors, relabelled against the old partition. */
#include "scratch/scratch.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h> /* before scotch.h, which uses FILE */
#include <stdlib.h>
#include <string.h>

#include <scotch.h>

/* Weights become integers by one power-of-two factor that brings their sum
 * into [2^27, 2^28) (Scotch sums them in its 32-bit SCOTCH_Num), rounded,
 * a positive weight never below 1: exact multiples of the weights when
 * they are integers of a smaller sum, and the same integers for a graph
 * whose weights are all multiplied by a power of two, so the candidate,
 * like the rest of the call, gives the same owners at any such scale. */
#define SCALED_SUM_EXP 28
/* Target weights of the clusters (SCOTCH_archCmpltw): the largest share
 * becomes TARGET_MAX, none below 1 (a cluster slower than 1/TARGET_MAX of
 * the fastest share gets at most that share: the candidate is only kept
 * when it scores better, SPEC §2). */
#define TARGET_MAX 1048576.0 /* 2^20 */
/* Load imbalance Scotch may leave (METIS's k-way default, 1.03, before). */
#define SCRATCH_IMBALANCE 0.03

_Static_assert(sizeof(SCOTCH_Num) == sizeof(int32_t),
               "vertex and part ids are passed to Scotch as SCOTCH_Num");

/* Scotch's error reporting (libscotch leaves SCOTCH_errorPrint and
 * SCOTCH_errorPrintW to the program; Scotch's own libscotcherr prints on
 * stderr and libscotcherrexit exits). The library never prints: the last
 * message of the calling thread is kept and named in the error of a
 * failed call. */
static _Thread_local char scotch_msg[256];

/* Exported from the shared library (libscotch resolves them at load
 * time): the only names outside minex_ it defines (tests/core/
 * symbols_check.sh). */
#define SCOTCH_HOOK __attribute__((visibility("default")))

SCOTCH_HOOK void SCOTCH_errorPrint(const char *const fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(scotch_msg, sizeof scotch_msg, fmt, ap);
  va_end(ap);
}

SCOTCH_HOOK void SCOTCH_errorPrintW(const char *const fmt, ...) {
  (void)fmt; /* warnings change nothing of the result */
}

/* A graph in Scotch's form: 0-based CSR with integer weights. */
typedef struct kgraph {
  SCOTCH_Num n;       /* vertices                                */
  SCOTCH_Num *xadj;   /* n + 1 offsets                           */
  SCOTCH_Num *adjncy; /* neighbours                              */
  SCOTCH_Num *vwgt;   /* vertex weights (Pwgt)                   */
  SCOTCH_Num *adjwgt; /* edge weights (Cwgt), parallel to adjncy */
} kgraph;

static void kgraph_free(kgraph *k) {
  core_free(k->xadj);
  core_free(k->adjncy);
  core_free(k->vwgt);
  core_free(k->adjwgt);
  memset(k, 0, sizeof *k);
}

static int kgraph_alloc(kgraph *k, size_t n, size_t nadj) {
  k->n = (SCOTCH_Num)n;
  k->xadj = core_malloc(sizeof(SCOTCH_Num) * (n + 1));
  k->adjncy = core_malloc(sizeof(SCOTCH_Num) * (nadj + 1));
  k->vwgt = core_malloc(sizeof(SCOTCH_Num) * (n + 1));
  k->adjwgt = core_malloc(sizeof(SCOTCH_Num) * (nadj + 1));
  if (k->xadj && k->adjncy && k->vwgt && k->adjwgt)
    return MINEX_OK;
  kgraph_free(k);
  return core_error(MINEX_ENOMEM, "scratch candidate: out of memory");
}

/* Weights to SCOTCH_Num (see SCALED_SUM_EXP). Every step multiplies by a
 * power of two (ldexp) relative to the largest weight, so that neither a
 * sum below the smallest double (total Pwgt 1e-300) nor one above the
 * largest overflows: every result lies in [0, 2^28]. All zero stays all
 * zero. */
static void weights_to_num(const double *w, size_t n, SCOTCH_Num *out) {
  double mx = 0;
  for (size_t i = 0; i < n; i++)
    mx = w[i] > mx ? w[i] : mx;
  if (mx == 0) {
    memset(out, 0, sizeof *out * n);
    return;
  }
  int emx, es;
  frexp(mx, &emx);
  double rsum = 0; /* the sum of w / 2^emx: each in [0, 1) */
  for (size_t i = 0; i < n; i++)
    rsum += ldexp(w[i], -emx);
  frexp(rsum, &es);
  for (size_t i = 0; i < n; i++) {
    double x = floor(ldexp(w[i], SCALED_SUM_EXP - es - emx) + 0.5);
    out[i] = (SCOTCH_Num)(w[i] > 0 && x < 1 ? 1 : x);
  }
}

/* The arrays of one scratch_partition call, allocated together. */
typedef struct scratch_work {
  const minex_graph *g; /* the graph partitioned                         */
  SCOTCH_Num *vw;       /* n Pwgt as integers (weights_to_num)            */
  SCOTCH_Num *ew;       /* nadj Cwgt as integers                          */
  SCOTCH_Num *loc;      /* n local id of a vertex of the subgraph k       */
  SCOTCH_Num *kp;       /* n part Scotch gave each vertex of k            */
  int32_t *glob;        /* n graph id of a vertex of k; between the two
                           levels, the index in act of a vertex's old
                           cluster (-1: none)                            */
  int32_t *cpart;       /* n cluster of each vertex after level 1         */
  int32_t *act;         /* C the clusters with available processors      */
  int32_t *nav;         /* C available processors of each cluster        */
  int32_t *cls;         /* max(P, C) relabel classes                     */
  int32_t *map;         /* max(P, C) relabel map: part -> slot            */
  int32_t *procs;       /* P available processors of one cluster          */
  double *share;        /* C target shares of act, then mean Conn         */
  SCOTCH_Num *tp;       /* C integer targets of act                       */
  int32_t *pidx;        /* max(P, C) index of a cluster in act, of a
                           processor in procs                            */
  int32_t *oslot;       /* n old slot of a vertex of k (-1: none)         */
  double *wv;           /* n relabel weight of a vertex                   */
  SCOTCH_Num na;        /* clusters in act                                */
  kgraph k;             /* the subgraph being mapped                      */
} scratch_work;

/* The subgraph w->k induced by the vertices v with sel[v] == s (every
 * vertex when sel is NULL); w->glob[i] is the graph id of local vertex i,
 * w->loc[v] the local id of a selected v. Edges of weight 0 are left out:
 * they cost nothing when cut. */
static int kgraph_induced(scratch_work *w, const int32_t *sel, int32_t s) {
  const minex_graph *g = w->g;
  const SCOTCH_Num *vw = w->vw, *ew = w->ew;
  SCOTCH_Num *loc = w->loc;
  int32_t *glob = w->glob;
  kgraph *k = &w->k;
  size_t cnt = 0, nadj = 0;
  for (int32_t v = 0; v < g->nvtxs; v++)
    if (sel == NULL || sel[v] == s) {
      loc[v] = (SCOTCH_Num)cnt;
      glob[cnt++] = v;
      for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++)
        nadj += ew[j] > 0 && (sel == NULL || sel[g->adjncy[j]] == s);
    }
  int rc = kgraph_alloc(k, cnt, nadj);
  if (rc != MINEX_OK)
    return rc;
  SCOTCH_Num e = 0;
  k->xadj[0] = 0;
  for (size_t i = 0; i < cnt; i++) {
    int32_t v = glob[i];
    k->vwgt[i] = vw[v];
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
      int32_t u = g->adjncy[j];
      if (ew[j] > 0 && (sel == NULL || sel[u] == s)) {
        k->adjncy[e] = loc[u];
        k->adjwgt[e++] = ew[j];
      }
    }
    k->xadj[i + 1] = e;
  }
  return MINEX_OK;
}

/* Maps k onto nparts parts with target weights tw (NULL: equal) by
 * SCOTCH_graphMap in a context of its own: one thread (no thread is
 * started and no affinity set), Scotch's deterministic mode and a private
 * clone of its random generator seeded with seed, so that the result
 * depends on the inputs and the seed only, whatever else runs in the
 * process. One part, an empty graph or one with no more vertices than
 * parts need no call (a vertex per part, in order). A graph whose vertex
 * weights are all 0 is given weights 1. */
static int kway(kgraph *k, SCOTCH_Num nparts, const SCOTCH_Num *tw,
                uint64_t seed, const char *what, SCOTCH_Num *part) {
  if (nparts <= 1 || k->n <= nparts) {
    for (SCOTCH_Num v = 0; v < k->n; v++)
      part[v] = nparts > 1 ? v : 0;
    return MINEX_OK;
  }
  SCOTCH_Num wsum = 0;
  for (SCOTCH_Num v = 0; v < k->n && wsum == 0; v++)
    wsum += k->vwgt[v];
  if (wsum == 0)
    for (SCOTCH_Num v = 0; v < k->n; v++)
      k->vwgt[v] = 1;
  SCOTCH_Graph graph, bound;
  SCOTCH_Context ctx;
  SCOTCH_Arch arch;
  SCOTCH_Strat strat;
  int have_graph = 0, have_ctx = 0, have_bound = 0, have_arch = 0;
  int have_strat = 0;
  const char *step = "";
  scotch_msg[0] = '\0';
  int r = (step = "SCOTCH_graphInit", SCOTCH_graphInit(&graph));
  have_graph = r == 0;
  if (r == 0)
    r = (step = "SCOTCH_graphBuild",
         SCOTCH_graphBuild(&graph, 0, k->n, k->xadj, NULL, k->vwgt, NULL,
                           k->xadj[k->n], k->adjncy, k->adjwgt));
  if (r == 0) {
    r = (step = "SCOTCH_contextInit", SCOTCH_contextInit(&ctx));
    have_ctx = r == 0;
  }
  if (r == 0)
    r = (step = "SCOTCH_contextThreadSpawn",
         SCOTCH_contextThreadSpawn(&ctx, 1, NULL));
  if (r == 0)
    r = (step = "SCOTCH_contextOptionSetNum",
         SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMDETERMINISTIC, 1) ||
             SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMRANDOMFIXEDSEED,
                                        1));
  if (r == 0)
    r = (step = "SCOTCH_contextRandomClone", SCOTCH_contextRandomClone(&ctx));
  if (r == 0) {
    SCOTCH_contextRandomSeed(&ctx, (SCOTCH_Num)(seed % 2147483647u));
    r = (step = "SCOTCH_contextBindGraph",
         SCOTCH_contextBindGraph(&ctx, &graph, &bound));
    have_bound = r == 0;
  }
  if (r == 0) {
    r = (step = "SCOTCH_archInit", SCOTCH_archInit(&arch));
    have_arch = r == 0;
  }
  if (r == 0)
    r = tw ? (step = "SCOTCH_archCmpltw", SCOTCH_archCmpltw(&arch, nparts, tw))
           : (step = "SCOTCH_archCmplt", SCOTCH_archCmplt(&arch, nparts));
  if (r == 0) {
    r = (step = "SCOTCH_stratInit", SCOTCH_stratInit(&strat));
    have_strat = r == 0;
  }
  if (r == 0)
    r = (step = "SCOTCH_stratGraphMapBuild",
         SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATDEFAULT, nparts,
                                   SCRATCH_IMBALANCE));
  if (r == 0)
    r = (step = "SCOTCH_graphMap",
         SCOTCH_graphMap(&bound, &arch, &strat, part));
  if (have_strat)
    SCOTCH_stratExit(&strat);
  if (have_arch)
    SCOTCH_archExit(&arch);
  if (have_bound)
    SCOTCH_graphExit(&bound);
  if (have_ctx)
    SCOTCH_contextExit(&ctx);
  if (have_graph)
    SCOTCH_graphExit(&graph);
  if (r != 0)
    return core_error(MINEX_EINTERNAL,
                      "scratch candidate: %s (%s, %d parts) failed%s%s", step,
                      what, (int)nparts, scotch_msg[0] ? ": " : "", scotch_msg);
  for (SCOTCH_Num v = 0; v < k->n; v++)
    if (part[v] < 0 || part[v] >= nparts)
      return core_error(MINEX_EINTERNAL,
                        "scratch candidate: %s (%s) returned part %d of %d",
                        step, what, (int)part[v], (int)nparts);
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
static int relabel(int32_t n, size_t nitems, const SCOTCH_Num *lab,
                   const int32_t *slot, const double *w, const int32_t *cls,
                   int32_t *map) {
  overlap *ov = core_malloc(sizeof(overlap) * (nitems + 1));
  char *used = core_calloc((size_t)n + 1, 1);
  if (!ov || !used) {
    core_free(ov);
    core_free(used);
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
  core_free(ov);
  core_free(used);
  return MINEX_OK;
}

/* Integer target weights from positive shares (SCOTCH_archCmpltw): the
 * largest becomes TARGET_MAX, none below 1. Relative to the largest, so
 * that shares of any magnitude give finite factors. */
static void targets(const double *w, SCOTCH_Num n, SCOTCH_Num *tw) {
  double mx = 0;
  for (SCOTCH_Num i = 0; i < n; i++)
    mx = w[i] > mx ? w[i] : mx;
  for (SCOTCH_Num i = 0; i < n; i++) {
    double x = floor(w[i] / mx * TARGET_MAX + 0.5);
    tw[i] = (SCOTCH_Num)(x < 1 ? 1 : x);
  }
}

static void scratch_work_free(scratch_work *w) {
  kgraph_free(&w->k);
  core_free(w->vw);
  core_free(w->ew);
  core_free(w->loc);
  core_free(w->kp);
  core_free(w->glob);
  core_free(w->cpart);
  core_free(w->act);
  core_free(w->nav);
  core_free(w->cls);
  core_free(w->map);
  core_free(w->procs);
  core_free(w->share);
  core_free(w->tp);
  core_free(w->pidx);
  core_free(w->oslot);
  core_free(w->wv);
}

static int scratch_work_alloc(scratch_work *w, const minex_graph *g,
                              const minex_config *cfg) {
  int32_t n = g->nvtxs, C = cfg->nclusters, P = cfg->nprocs;
  size_t nadj = (size_t)g->xadj[n], pc = (size_t)(P > C ? P : C) + 1;
  w->g = g;
  w->vw = core_malloc(sizeof(SCOTCH_Num) * ((size_t)n + 1));
  w->ew = core_malloc(sizeof(SCOTCH_Num) * (nadj + 1));
  w->loc = core_malloc(sizeof(SCOTCH_Num) * ((size_t)n + 1));
  w->kp = core_malloc(sizeof(SCOTCH_Num) * ((size_t)n + 1));
  w->glob = core_malloc(sizeof(int32_t) * ((size_t)n + 1));
  w->cpart = core_malloc(sizeof(int32_t) * ((size_t)n + 1));
  w->act = core_malloc(sizeof(int32_t) * (size_t)C);
  w->nav = core_calloc((size_t)C, sizeof(int32_t));
  w->cls = core_malloc(sizeof(int32_t) * pc);
  w->map = core_malloc(sizeof(int32_t) * pc);
  w->procs = core_malloc(sizeof(int32_t) * ((size_t)P + 1));
  w->share = core_malloc(sizeof(double) * ((size_t)C + 1));
  w->tp = core_malloc(sizeof(SCOTCH_Num) * ((size_t)C + 1));
  w->pidx = core_malloc(sizeof(int32_t) * pc);
  /* zeroed: GCC's -O1 analysis cannot see that relabel reads only the
     entries written just before it (-Werror=maybe-uninitialized) */
  w->oslot = core_calloc((size_t)n + 1, sizeof(int32_t));
  w->wv = core_calloc((size_t)n + 1, sizeof(double));
  if (!w->vw || !w->ew || !w->loc || !w->kp || !w->glob || !w->cpart ||
      !w->act || !w->nav || !w->cls || !w->map || !w->procs || !w->share ||
      !w->tp || !w->pidx || !w->oslot || !w->wv)
    return core_error(MINEX_ENOMEM, "scratch candidate: out of memory");
  return MINEX_OK;
}

/* Level 1: the clusters with available processors (w->act, w->na),
 * targets their count / Proc (their share of the machine's speed); the
 * parts in w->kp. */
static int cluster_level(scratch_work *w, const minex_config *cfg,
                         uint64_t seed) {
  int32_t C = cfg->nclusters;
  for (int32_t p = 0; p < cfg->nprocs; p++)
    w->nav[cfg->cluster[p]] += cfg->avail[p];
  w->na = 0;
  for (int32_t c = 0; c < C; c++)
    if (w->nav[c] > 0) {
      w->act[w->na] = c;
      w->share[w->na++] = w->nav[c] / cfg->proc[c];
    }
  targets(w->share, w->na, w->tp);
  int rc;
  if ((rc = kgraph_induced(w, NULL, 0)) ||
      (rc = kway(&w->k, w->na, w->tp, seed, "clusters", w->kp)))
    return rc;
  kgraph_free(&w->k);
  return MINEX_OK;
}

/* Relabels the cluster parts into w->cpart: part a (made with the target
 * of cluster act[a]) may go to any cluster of the same count and Proc; a
 * vertex kept in its old cluster saves its remapping out of it (Rwgt
 * times the mean Conn to the other clusters). */
static int cluster_relabel(scratch_work *w, const minex_config *cfg,
                           const int32_t *old) {
  const minex_graph *g = w->g;
  int32_t n = g->nvtxs, C = cfg->nclusters, *act = w->act, *nav = w->nav;
  SCOTCH_Num na = w->na;
  for (SCOTCH_Num a = 0; a < na; a++) {
    w->cls[a] = (int32_t)a;
    for (SCOTCH_Num b = 0; b < a; b++)
      if (nav[act[a]] == nav[act[b]] &&
          cfg->proc[act[a]] == cfg->proc[act[b]]) {
        w->cls[a] = w->cls[b];
        break;
      }
  }
  for (int32_t c = 0; c < C; c++)
    w->pidx[c] = -1;
  for (SCOTCH_Num b = 0; b < na; b++) {
    w->pidx[act[b]] = (int32_t)b;
    double s = 0;
    for (SCOTCH_Num d = 0; d < na; d++)
      s += d != b ? cfg->conn[(size_t)act[b] * (size_t)C + (size_t)act[d]] : 0;
    w->share[b] = na > 1 ? s / (double)(na - 1) : 1;
  }
  for (int32_t v = 0; v < n; v++) {
    w->glob[v] = w->pidx[cfg->cluster[old[v]]];
    w->wv[v] = w->glob[v] >= 0 ? g->rwgt[v] * w->share[w->glob[v]] : 0;
  }
  int rc =
      relabel((int32_t)na, (size_t)n, w->kp, w->glob, w->wv, w->cls, w->map);
  if (rc != MINEX_OK)
    return rc;
  for (int32_t v = 0; v < n; v++)
    w->cpart[v] = act[w->map[w->kp[v]]];
  return MINEX_OK;
}

/* Level 2 for cluster c: its subgraph into its available processors,
 * relabelled for the Rwgt that stays on its old owner, into part. */
static int proc_level(scratch_work *w, const minex_config *cfg,
                      const int32_t *old, uint64_t seed, int32_t c,
                      int32_t *part) {
  int32_t np = 0, *procs = w->procs;
  for (int32_t p = cfg->cfirst[c]; p < cfg->cfirst[c + 1]; p++)
    if (cfg->avail[p])
      procs[np++] = p;
  int rc;
  if ((rc = kgraph_induced(w, w->cpart, c)) ||
      (rc = kway(&w->k, np, NULL, seed, "a cluster's processors", w->kp)))
    return rc;
  for (int32_t b = 0; b < np; b++)
    w->pidx[procs[b]] = b;
  for (SCOTCH_Num i = 0; i < w->k.n; i++) {
    int32_t o = old[w->glob[i]];
    w->oslot[i] = cfg->cluster[o] == c && cfg->avail[o] ? w->pidx[o] : -1;
    w->wv[i] = w->g->rwgt[w->glob[i]];
  }
  for (int32_t a = 0; a < np; a++)
    w->cls[a] = 0;
  if ((rc =
           relabel(np, (size_t)w->k.n, w->kp, w->oslot, w->wv, w->cls, w->map)))
    return rc;
  for (SCOTCH_Num i = 0; i < w->k.n; i++)
    part[w->glob[i]] = procs[w->map[w->kp[i]]];
  kgraph_free(&w->k);
  return MINEX_OK;
}

int scratch_partition(const minex_graph *g, const minex_config *cfg,
                      const int32_t *old, uint64_t seed, int32_t *part) {
  int32_t n = g->nvtxs;
  size_t nadj = (size_t)g->xadj[n];
  if (g->xadj[n] > (int64_t)2147483647)
    return core_error(MINEX_EUNSUP,
                      "scratch candidate: %zu adjacency entries "
                      "exceed Scotch's 32-bit indices",
                      nadj);
  scratch_work w = {0};
  int rc = scratch_work_alloc(&w, g, cfg);
  if (rc == MINEX_OK) {
    weights_to_num(g->pwgt, (size_t)n, w.vw);
    weights_to_num(g->cwgt, nadj, w.ew);
    rc = cluster_level(&w, cfg, seed);
  }
  if (rc == MINEX_OK)
    rc = cluster_relabel(&w, cfg, old);
  for (int32_t c = 0; rc == MINEX_OK && c < cfg->nclusters; c++)
    if (w.nav[c] > 0)
      rc = proc_level(&w, cfg, old, seed, c, part);
  scratch_work_free(&w);
  return rc;
}
