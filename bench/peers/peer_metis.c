/* SPDX-License-Identifier: GPL-3.0-or-later */
/* peer_metis: METIS 5 k-way partitions made from scratch and relabelled for
 * the largest overlap with the old partition, the way an application that
 * has only METIS repartitions (bench/peers/README.md, "Driver: METIS").
 * Methods: kway (flat, targets 1/Proc), kway2 (clusters first, then the
 * processors of each cluster), kwayvol (kway with the volume objective). */
#include "peers_common.h"

#include <metis.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: peer_metis GRAPH --old OLD.part --config CFG.xml --method M\n"
    "                  [--param UB] [--seed S] -o NEW.part\n"
    "Methods:\n"
    "  kway     METIS_PartGraphKway on the whole graph, part targets 1/Proc\n"
    "  kway2    clusters first (targets sum of 1/Proc), then each cluster's\n"
    "           subgraph into its processors (equal targets)\n"
    "  kwayvol  kway with METIS_OBJTYPE_VOL, vsize = Rwgt\n"
    "--param UB: METIS imbalance tolerance ubvec (> 1, default 1.03).\n"
    "Prints one JSON line; seconds = wall time of the METIS calls.\n";

/* Exact integer weights are kept when their sum is at most this (idx_t is
 * 32 bits and METIS sums weights in idx_t); otherwise weights are scaled so
 * that their sum is WEIGHT_SUM_SCALED and rounded. */
#define WEIGHT_SUM_MAX 1073741824.0   /* 2^30 */
#define WEIGHT_SUM_SCALED 268435456.0 /* 2^28 */

/* The graph as METIS takes it (0-based CSR, integer weights). */
typedef struct metis_graph {
  idx_t nvtxs;   /* vertices                                        */
  idx_t *xadj;   /* nvtxs + 1 offsets into adjncy and adjwgt         */
  idx_t *adjncy; /* neighbours, both directions of every edge        */
  idx_t *vwgt;   /* Pwgt as integers (to_idx), nvtxs entries         */
  idx_t *vsize;  /* Rwgt as integers, nvtxs entries (kwayvol only)   */
  idx_t *adjwgt; /* Cwgt as integers, parallel to adjncy             */
} metis_graph;

static const char *metis_strerror(int rc) {
  switch (rc) {
  case METIS_ERROR_INPUT:
    return "METIS_ERROR_INPUT (erroneous inputs or options)";
  case METIS_ERROR_MEMORY:
    return "METIS_ERROR_MEMORY (out of memory)";
  case METIS_ERROR:
    return "METIS_ERROR (other error)";
  default:
    return "unknown METIS return code";
  }
}

static void metis_graph_free(metis_graph *m) {
  free(m->xadj);
  free(m->adjncy);
  free(m->vwgt);
  free(m->vsize);
  free(m->adjwgt);
  memset(m, 0, sizeof *m);
}

/* Converts n weights >= 0 to idx_t. When every weight is an integer and the
 * sum is at most WEIGHT_SUM_MAX they are copied exactly; otherwise each is
 * multiplied by WEIGHT_SUM_SCALED / sum and rounded to nearest, a positive
 * weight never below 1 (so no vertex or edge vanishes). Zero stays zero,
 * except that an all-zero array becomes all ones when ones_if_zero (METIS
 * divides by the total vertex weight). */
static void to_idx(const double *w, size_t n, int ones_if_zero, idx_t *out) {
  double sum = 0.0;
  int integral = 1;
  for (size_t i = 0; i < n; i++) {
    sum += w[i];
    if (w[i] != floor(w[i]))
      integral = 0;
  }
  if (sum <= 0.0) {
    for (size_t i = 0; i < n; i++)
      out[i] = ones_if_zero ? 1 : 0;
    return;
  }
  if (integral && sum <= WEIGHT_SUM_MAX) {
    for (size_t i = 0; i < n; i++)
      out[i] = (idx_t)w[i];
    return;
  }
  double scale = WEIGHT_SUM_SCALED / sum;
  for (size_t i = 0; i < n; i++) {
    double x = nearbyint(w[i] * scale);
    out[i] = w[i] > 0.0 && x < 1.0 ? 1 : (idx_t)x;
  }
}

/* Fills m from the case (vsize only when with_vsize). Returns 0, or 1 with
 * a message on stderr. */
static int metis_graph_make(const peers_case *c, int with_vsize,
                            metis_graph *m) {
  const int64_t *xadj = minex_graph_xadj(c->g);
  const int32_t *adj = minex_graph_adjncy(c->g);
  size_t n = (size_t)c->nvtxs, nadj = (size_t)xadj[n];
  memset(m, 0, sizeof *m);
  if (xadj[n] > (int64_t)IDX_MAX) {
    fprintf(stderr,
            "peer_metis: %zu adjacency entries exceed METIS's 32-bit idx_t\n",
            nadj);
    return 1;
  }
  m->nvtxs = (idx_t)n;
  m->xadj = malloc(sizeof *m->xadj * (n + 1));
  m->adjncy = malloc(sizeof *m->adjncy * (nadj > 0 ? nadj : 1));
  m->vwgt = malloc(sizeof *m->vwgt * (n > 0 ? n : 1));
  m->adjwgt = malloc(sizeof *m->adjwgt * (nadj > 0 ? nadj : 1));
  if (with_vsize)
    m->vsize = malloc(sizeof *m->vsize * (n > 0 ? n : 1));
  if (!m->xadj || !m->adjncy || !m->vwgt || !m->adjwgt ||
      (with_vsize && !m->vsize)) {
    fprintf(stderr, "peer_metis: out of memory for the METIS graph\n");
    metis_graph_free(m);
    return 1;
  }
  for (size_t v = 0; v <= n; v++)
    m->xadj[v] = (idx_t)xadj[v];
  for (size_t e = 0; e < nadj; e++)
    m->adjncy[e] = (idx_t)adj[e];
  to_idx(minex_graph_pwgt(c->g), n, 1, m->vwgt);
  to_idx(minex_graph_cwgt(c->g), nadj, 0, m->adjwgt);
  if (with_vsize)
    to_idx(minex_graph_rwgt(c->g), n, 0, m->vsize);
  return 0;
}

/* METIS_PartGraphKway on m into nparts parts with targets tpwgts (NULL:
 * equal), tolerance ub; adds the call's wall time to *seconds. nparts 1 or
 * an empty graph need no call. Returns 0, or 1 with a message naming what. */
static int kway(const metis_graph *m, idx_t nparts, real_t *tpwgts, double ub,
                uint64_t seed, int objtype, const char *what, idx_t *part,
                double *seconds) {
  if (nparts <= 1 || m->nvtxs == 0) {
    for (idx_t v = 0; v < m->nvtxs; v++)
      part[v] = 0;
    return 0;
  }
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_OBJTYPE] = objtype;
  options[METIS_OPTION_NUMBERING] = 0;
  options[METIS_OPTION_SEED] = (idx_t)(seed % (uint64_t)IDX_MAX);
  idx_t nvtxs = m->nvtxs, ncon = 1, objval = 0;
  real_t ubvec[1] = {(real_t)ub};
  double t0 = peers_now();
  int rc = METIS_PartGraphKway(&nvtxs, &ncon, m->xadj, m->adjncy, m->vwgt,
                               m->vsize, m->adjwgt, &nparts, tpwgts, ubvec,
                               options, &objval, part);
  *seconds += peers_now() - t0;
  if (rc != METIS_OK) {
    fprintf(stderr, "peer_metis: METIS_PartGraphKway (%s, %d parts): %s\n",
            what, (int)nparts, metis_strerror(rc));
    return 1;
  }
  return 0;
}

/* Normalises w[0..n) (all > 0) into METIS targets summing to 1 in real_t:
 * the last one takes the rounding remainder so that METIS's sum check
 * holds. */
static void targets(const double *w, idx_t n, real_t *tp) {
  double sum = 0.0;
  for (idx_t i = 0; i < n; i++)
    sum += w[i];
  real_t rest = 1.0f;
  for (idx_t i = 0; i + 1 < n; i++) {
    tp[i] = (real_t)(w[i] / sum);
    rest -= tp[i];
  }
  tp[n - 1] = rest;
}

/* Class of each processor for peers_relabel: processors of the same target
 * share (available and the same Proc) form one class, numbered by the
 * first cluster with that Proc; unavailable processors form class C. */
static void class_by_proc(const peers_case *c, int32_t *class_of) {
  int32_t C = minex_config_nclusters(c->cfg);
  for (int32_t p = 0; p < c->nprocs; p++) {
    int32_t k = minex_config_cluster_of(c->cfg, p);
    if (!minex_config_is_available(c->cfg, p)) {
      class_of[p] = C;
      continue;
    }
    double s = minex_config_proc_slowdown(c->cfg, k);
    int32_t first = k;
    for (int32_t d = 0; d < k; d++)
      if (minex_config_proc_slowdown(c->cfg, d) == s) {
        first = d;
        break;
      }
    class_of[p] = first;
  }
}

/* kway / kwayvol: one METIS call over the available processors (METIS
 * wants every target > 0), then relabelled within classes of equal
 * target. */
static int run_flat(const peers_case *c, double ub, int objtype, int32_t *out,
                    double *seconds) {
  int32_t P = c->nprocs;
  size_t n = (size_t)c->nvtxs;
  metis_graph m;
  if (metis_graph_make(c, objtype == METIS_OBJTYPE_VOL, &m))
    return 1;
  int32_t *avail = malloc(sizeof *avail * (size_t)P);
  double *share = malloc(sizeof *share * (size_t)P);
  real_t *tp = malloc(sizeof *tp * (size_t)P);
  idx_t *part = malloc(sizeof *part * (n > 0 ? n : 1));
  int32_t *class_of = malloc(sizeof *class_of * (size_t)P);
  int rc = 1;
  if (!avail || !share || !tp || !part || !class_of) {
    fprintf(stderr, "peer_metis: out of memory for the targets\n");
    goto out;
  }
  idx_t na = 0;
  for (int32_t p = 0; p < P; p++)
    if (minex_config_is_available(c->cfg, p)) {
      avail[na] = p;
      share[na++] = 1.0 / minex_config_proc_slowdown(
                              c->cfg, minex_config_cluster_of(c->cfg, p));
    }
  if (na == 0) {
    fprintf(stderr, "peer_metis: no available processor\n");
    goto out;
  }
  targets(share, na, tp);
  if (kway(&m, na, tp, ub, c->seed, objtype, "whole graph", part, seconds))
    goto out;
  for (size_t v = 0; v < n; v++)
    out[v] = avail[part[v]];
  class_by_proc(c, class_of);
  rc = peers_relabel(c, class_of, out);
out:
  metis_graph_free(&m);
  free(avail);
  free(share);
  free(tp);
  free(part);
  free(class_of);
  return rc;
}

/* The subgraph of m induced by the vertices v with sel[v] == s: local ids in
 * loc (loc[v] for selected v), global ids in glob. Returns 0 or 1 (out of
 * memory, message on stderr). */
static int induced(const metis_graph *m, const idx_t *sel, idx_t s, idx_t *loc,
                   idx_t *glob, metis_graph *sub) {
  memset(sub, 0, sizeof *sub);
  idx_t k = 0, e = 0;
  for (idx_t v = 0; v < m->nvtxs; v++)
    if (sel[v] == s) {
      loc[v] = k;
      glob[k++] = v;
      for (idx_t j = m->xadj[v]; j < m->xadj[v + 1]; j++)
        e += sel[m->adjncy[j]] == s;
    }
  sub->nvtxs = k;
  sub->xadj = malloc(sizeof *sub->xadj * ((size_t)k + 1));
  sub->adjncy = malloc(sizeof *sub->adjncy * (e > 0 ? (size_t)e : 1));
  sub->adjwgt = malloc(sizeof *sub->adjwgt * (e > 0 ? (size_t)e : 1));
  sub->vwgt = malloc(sizeof *sub->vwgt * (k > 0 ? (size_t)k : 1));
  if (!sub->xadj || !sub->adjncy || !sub->adjwgt || !sub->vwgt) {
    fprintf(stderr, "peer_metis: out of memory for a cluster's subgraph\n");
    metis_graph_free(sub);
    return 1;
  }
  e = 0;
  sub->xadj[0] = 0;
  for (idx_t i = 0; i < k; i++) {
    idx_t v = glob[i];
    sub->vwgt[i] = m->vwgt[v];
    for (idx_t j = m->xadj[v]; j < m->xadj[v + 1]; j++)
      if (sel[m->adjncy[j]] == s) {
        sub->adjncy[e] = loc[m->adjncy[j]];
        sub->adjwgt[e++] = m->adjwgt[j];
      }
    sub->xadj[i + 1] = e;
  }
  return 0;
}

/* kway2: METIS into the clusters that have available processors (targets
 * their sum of 1/Proc), clusters relabelled for the largest overlap with
 * the old partition's clusters among clusters of the same available count
 * and Proc; then each cluster's induced subgraph into its available
 * processors (equal targets), relabelled inside the cluster. The tolerance
 * ub applies to each level. */
static int run_two_level(const peers_case *c, double ub, int32_t *out,
                         double *seconds) {
  int32_t P = c->nprocs, C = minex_config_nclusters(c->cfg);
  size_t n = (size_t)c->nvtxs;
  metis_graph m, sub;
  memset(&sub, 0, sizeof sub);
  if (metis_graph_make(c, 0, &m))
    return 1;
  int32_t *nav = calloc((size_t)C, sizeof *nav);
  int32_t *act = malloc(sizeof *act * (size_t)C);
  double *share = malloc(sizeof *share * (size_t)C);
  real_t *tp = malloc(sizeof *tp * (size_t)C);
  int32_t *cclass = malloc(sizeof *cclass * (size_t)C);
  int32_t *pclass = malloc(sizeof *pclass * (size_t)P);
  int32_t *first = malloc(sizeof *first * (size_t)C);
  idx_t *cpart = malloc(sizeof *cpart * (n > 0 ? n : 1));
  idx_t *loc = malloc(sizeof *loc * (n > 0 ? n : 1));
  idx_t *glob = malloc(sizeof *glob * (n > 0 ? n : 1));
  idx_t *spart = malloc(sizeof *spart * (n > 0 ? n : 1));
  int32_t *cold = malloc(sizeof *cold * (n > 0 ? n : 1));
  int32_t *cnew = malloc(sizeof *cnew * (n > 0 ? n : 1));
  int32_t *procs = malloc(sizeof *procs * (size_t)P);
  int rc = 1;
  if (!nav || !act || !share || !tp || !cclass || !pclass || !first || !cpart ||
      !loc || !glob || !spart || !cold || !cnew || !procs) {
    fprintf(stderr, "peer_metis: out of memory for the two levels\n");
    goto out;
  }
  /* available processors of each cluster, in id order: procs[first[k]..] */
  for (int32_t p = 0; p < P; p++)
    if (minex_config_is_available(c->cfg, p))
      nav[minex_config_cluster_of(c->cfg, p)]++;
  idx_t na = 0;
  for (int32_t k = 0, f = 0; k < C; k++) {
    first[k] = f;
    f += nav[k];
    if (nav[k] > 0) {
      act[na] = k;
      share[na++] = nav[k] / minex_config_proc_slowdown(c->cfg, k);
    }
  }
  for (int32_t p = 0, f = 0; p < P; p++)
    if (minex_config_is_available(c->cfg, p))
      procs[f++] = p;
  if (na == 0) {
    fprintf(stderr, "peer_metis: no available processor\n");
    goto out;
  }
  targets(share, na, tp);
  if (kway(&m, na, tp, ub, c->seed, METIS_OBJTYPE_CUT, "clusters", cpart,
           seconds))
    goto out;

  /* level 1 relabelled: the clusters as the parts of a case with C parts */
  for (int32_t k = 0; k < C; k++) {
    cclass[k] = k;
    for (int32_t d = 0; d < k; d++)
      if (nav[d] == nav[k] && minex_config_proc_slowdown(c->cfg, d) ==
                                  minex_config_proc_slowdown(c->cfg, k)) {
        cclass[k] = cclass[d];
        break;
      }
  }
  for (size_t v = 0; v < n; v++) {
    cnew[v] = act[cpart[v]];
    cold[v] = minex_config_cluster_of(c->cfg, c->old[v]);
  }
  peers_case cc = *c;
  cc.nprocs = C;
  cc.old = cold;
  if (peers_relabel(&cc, cclass, cnew))
    goto out;

  /* level 2: each cluster's subgraph into its available processors */
  for (size_t v = 0; v < n; v++)
    cpart[v] = (idx_t)cnew[v];
  for (int32_t k = 0; k < C; k++) {
    if (nav[k] == 0)
      continue;
    char what[64];
    snprintf(what, sizeof what, "cluster %d", (int)k);
    if (induced(&m, cpart, (idx_t)k, loc, glob, &sub) ||
        kway(&sub, nav[k], NULL, ub, c->seed, METIS_OBJTYPE_CUT, what, spart,
             seconds))
      goto out;
    for (idx_t i = 0; i < sub.nvtxs; i++)
      out[glob[i]] = procs[first[k] + spart[i]];
    metis_graph_free(&sub);
  }
  /* processors relabelled inside their cluster; unavailable ones apart */
  for (int32_t p = 0; p < P; p++)
    pclass[p] = minex_config_is_available(c->cfg, p)
                    ? minex_config_cluster_of(c->cfg, p)
                    : C;
  rc = peers_relabel(c, pclass, out);
out:
  metis_graph_free(&m);
  metis_graph_free(&sub);
  free(nav);
  free(act);
  free(share);
  free(tp);
  free(cclass);
  free(pclass);
  free(first);
  free(cpart);
  free(loc);
  free(glob);
  free(spart);
  free(cold);
  free(cnew);
  free(procs);
  return rc;
}

int main(int argc, char **argv) {
  peers_case c;
  int rc = peers_case_load(&c, "metis", usage, argc, argv);
  if (rc)
    return rc < 0 ? 0 : rc;
  double ub = isnan(c.param) ? 1.03 : c.param;
  int method = !strcmp(c.method, "kway")      ? 0
               : !strcmp(c.method, "kway2")   ? 1
               : !strcmp(c.method, "kwayvol") ? 2
                                              : -1;
  if (method < 0 || !(ub > 1.0)) {
    fprintf(stderr, "peer_metis: %s\nTry 'peer_metis --help'.\n",
            method < 0 ? "--method: not kway, kway2 or kwayvol"
                       : "--param: the tolerance must be > 1");
    peers_case_free(&c);
    return 2;
  }
  int32_t *part = malloc(sizeof *part * (c.nvtxs > 0 ? (size_t)c.nvtxs : 1));
  double seconds = 0.0;
  if (!part) {
    fprintf(stderr, "peer_metis: out of memory for the partition\n");
    rc = 1;
  } else if (method == 1)
    rc = run_two_level(&c, ub, part, &seconds);
  else
    rc = run_flat(&c, ub, method == 2 ? METIS_OBJTYPE_VOL : METIS_OBJTYPE_CUT,
                  part, &seconds);
  if (rc == 0)
    rc = peers_finish(&c, part, seconds);
  free(part);
  peers_case_free(&c);
  return rc;
}
