/* SPDX-License-Identifier: GPL-3.0-or-later */
/* peer_zoltan: Zoltan's parallel hypergraph partitioner PHG in its
 * repartitioning mode (LB_APPROACH=REPARTITION), on one MPI rank, fed
 * through Zoltan's query callbacks (bench/peers/README.md, "Driver:
 * Zoltan"). Methods: graph (LB_METHOD=GRAPH, GRAPH_PACKAGE=PHG) and phg
 * (LB_METHOD=HYPERGRAPH with one hyperedge per vertex and its
 * neighbours). Zoltan is built against Open MPI: this file is the only one
 * of MinEX that includes Open MPI's mpi.h. */
#include "peers_common.h"

#include <mpi.h>
#include <zoltan.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: peer_zoltan GRAPH --old OLD.part --config CFG.xml --method M\n"
    "                   [--param MULT] [--seed S] -o NEW.part\n"
    "Methods:\n"
    "  graph  LB_METHOD=GRAPH, GRAPH_PACKAGE=PHG\n"
    "  phg    LB_METHOD=HYPERGRAPH (PHG), a hyperedge per vertex and its\n"
    "         neighbours, weight the mean Cwgt of the vertex's edges\n"
    "Both with LB_APPROACH=REPARTITION, part sizes 1/Proc, object weights\n"
    "Pwgt, edge weights Cwgt, object sizes Rwgt, IMBALANCE_TOL 1.03.\n"
    "--param MULT: PHG_REPART_MULTIPLIER (> 0; default Zoltan's, 100).\n"
    "Prints one JSON line; seconds = wall time of Zoltan_LB_Partition.\n";

/* What the query callbacks read (Zoltan's void *data). Global and local
 * ids are both the vertex ids (one local id entry: Zoltan's hyperedge
 * weight query fails with none, as it allocates an empty local id array
 * and takes the NULL for an allocation failure). */
typedef struct zoltan_data {
  int32_t nvtxs;         /* vertices                                      */
  const int64_t *xadj;   /* graph CSR offsets (MinEX), nvtxs + 1          */
  const int32_t *adjncy; /* neighbours, both directions of every edge     */
  const double *pwgt;    /* Pwgt: object weights                          */
  const double *cwgt;    /* Cwgt, parallel to adjncy: edge weights        */
  const int32_t *old;    /* old partition: each object's current part     */
  int *size;             /* Rwgt as integers: object sizes (to_int)       */
  float *hewgt;          /* phg: hyperedge v's weight, nvtxs entries      */
} zoltan_data;

static int num_obj(void *data, int *ierr) {
  *ierr = ZOLTAN_OK;
  return ((const zoltan_data *)data)->nvtxs;
}

static void obj_list(void *data, int ngid, int nlid, ZOLTAN_ID_PTR gids,
                     ZOLTAN_ID_PTR lids, int wdim, float *wgts, int *ierr) {
  const zoltan_data *d = data;
  (void)ngid;
  (void)nlid;
  for (int32_t v = 0; v < d->nvtxs; v++) {
    gids[v] = lids[v] = (ZOLTAN_ID_TYPE)v;
    if (wdim == 1)
      wgts[v] = (float)d->pwgt[v];
  }
  *ierr = ZOLTAN_OK;
}

static void part_multi(void *data, int ngid, int nlid, int n,
                       ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int *parts,
                       int *ierr) {
  const zoltan_data *d = data;
  (void)ngid;
  (void)nlid;
  (void)lids;
  for (int i = 0; i < n; i++)
    parts[i] = d->old[gids[i]];
  *ierr = ZOLTAN_OK;
}

static void obj_size_multi(void *data, int ngid, int nlid, int n,
                           ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int *bytes,
                           int *ierr) {
  const zoltan_data *d = data;
  (void)ngid;
  (void)nlid;
  (void)lids;
  for (int i = 0; i < n; i++)
    bytes[i] = d->size[gids[i]];
  *ierr = ZOLTAN_OK;
}

static void num_edges_multi(void *data, int ngid, int nlid, int n,
                            ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int *nedges,
                            int *ierr) {
  const zoltan_data *d = data;
  (void)ngid;
  (void)nlid;
  (void)lids;
  for (int i = 0; i < n; i++)
    nedges[i] = (int)(d->xadj[gids[i] + 1] - d->xadj[gids[i]]);
  *ierr = ZOLTAN_OK;
}

static void edge_list_multi(void *data, int ngid, int nlid, int n,
                            ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int *nedges,
                            ZOLTAN_ID_PTR nbor, int *nbor_procs, int wdim,
                            float *ewgts, int *ierr) {
  const zoltan_data *d = data;
  (void)ngid;
  (void)nlid;
  (void)lids;
  (void)nedges;
  size_t k = 0;
  for (int i = 0; i < n; i++)
    for (int64_t j = d->xadj[gids[i]]; j < d->xadj[gids[i] + 1]; j++, k++) {
      nbor[k] = (ZOLTAN_ID_TYPE)d->adjncy[j];
      nbor_procs[k] = 0; /* one rank owns every object */
      if (wdim == 1)
        ewgts[k] = (float)d->cwgt[j];
    }
  *ierr = ZOLTAN_OK;
}

/* Hypergraph in compressed-edge form: hyperedge v = {v} + N(v). */
static void hg_size_cs(void *data, int *nlists, int *npins, int *format,
                       int *ierr) {
  const zoltan_data *d = data;
  *nlists = d->nvtxs;
  *npins = d->nvtxs + (int)d->xadj[d->nvtxs];
  *format = ZOLTAN_COMPRESSED_EDGE;
  *ierr = ZOLTAN_OK;
}

static void hg_cs(void *data, int ngid, int nlists, int npins, int format,
                  ZOLTAN_ID_PTR edge_gids, int *ptr, ZOLTAN_ID_PTR pins,
                  int *ierr) {
  const zoltan_data *d = data;
  (void)ngid;
  if (nlists != d->nvtxs || format != ZOLTAN_COMPRESSED_EDGE ||
      npins != d->nvtxs + (int)d->xadj[d->nvtxs]) {
    *ierr = ZOLTAN_FATAL;
    return;
  }
  int k = 0;
  for (int32_t v = 0; v < d->nvtxs; v++) {
    edge_gids[v] = (ZOLTAN_ID_TYPE)v;
    ptr[v] = k;
    pins[k++] = (ZOLTAN_ID_TYPE)v;
    for (int64_t j = d->xadj[v]; j < d->xadj[v + 1]; j++)
      pins[k++] = (ZOLTAN_ID_TYPE)d->adjncy[j];
  }
  *ierr = ZOLTAN_OK;
}

static void hg_size_edge_wts(void *data, int *nedges, int *ierr) {
  *nedges = ((const zoltan_data *)data)->nvtxs;
  *ierr = ZOLTAN_OK;
}

static void hg_edge_wts(void *data, int ngid, int nlid, int nedges, int wdim,
                        ZOLTAN_ID_PTR edge_gids, ZOLTAN_ID_PTR edge_lids,
                        float *wgts, int *ierr) {
  const zoltan_data *d = data;
  (void)ngid;
  (void)nlid;
  if (nedges != d->nvtxs || wdim != 1) {
    *ierr = ZOLTAN_FATAL;
    return;
  }
  for (int32_t v = 0; v < d->nvtxs; v++) {
    edge_gids[v] = edge_lids[v] = (ZOLTAN_ID_TYPE)v;
    wgts[v] = d->hewgt[v];
  }
  *ierr = ZOLTAN_OK;
}

/* Object sizes are ints: Rwgt is copied when every value is an integer and
 * the sum fits in an int; otherwise scaled so that the sum is 2^28 and
 * rounded, a positive value never below 1. */
static void to_int(const double *w, size_t n, int *out) {
  double sum = 0.0;
  int integral = 1;
  for (size_t i = 0; i < n; i++) {
    sum += w[i];
    if (w[i] != floor(w[i]))
      integral = 0;
  }
  double scale = integral && sum <= (double)INT_MAX ? 1.0 : 268435456.0 / sum;
  for (size_t i = 0; i < n; i++) {
    double x = nearbyint(w[i] * scale);
    out[i] = w[i] > 0.0 && x < 1.0 ? 1 : (int)x;
  }
}

static int set(struct Zoltan_Struct *zz, const char *name, const char *val) {
  if (Zoltan_Set_Param(zz, name, val) != ZOLTAN_OK) {
    fprintf(stderr, "peer_zoltan: Zoltan_Set_Param(%s, %s) failed\n", name,
            val);
    return 1;
  }
  return 0;
}

/* Sets up Zoltan for the case and method, runs Zoltan_LB_Partition and
 * writes the new part of every vertex in out. Returns 0, or 1 with a
 * message on stderr. */
static int run(const peers_case *c, int hyper, int32_t *out, double *seconds) {
  int32_t P = c->nprocs, n = c->nvtxs;
  const int64_t *xadj = minex_graph_xadj(c->g);
  zoltan_data d = {n,
                   xadj,
                   minex_graph_adjncy(c->g),
                   minex_graph_pwgt(c->g),
                   minex_graph_cwgt(c->g),
                   c->old,
                   NULL,
                   NULL};
  struct Zoltan_Struct *zz = NULL;
  int *ids = malloc(sizeof *ids * (size_t)P);
  int *widx = calloc((size_t)P, sizeof *widx);
  float *sizes = malloc(sizeof *sizes * (size_t)P);
  ZOLTAN_ID_PTR igid = NULL, ilid = NULL, egid = NULL, elid = NULL;
  int *iproc = NULL, *ipart = NULL, *eproc = NULL, *epart = NULL;
  int rc = 1;
  d.size = malloc(sizeof *d.size * (n > 0 ? (size_t)n : 1));
  if (hyper)
    d.hewgt = malloc(sizeof *d.hewgt * (n > 0 ? (size_t)n : 1));
  if (!ids || !widx || !sizes || !d.size || (hyper && !d.hewgt)) {
    fprintf(stderr, "peer_zoltan: out of memory for the callbacks' data\n");
    goto out;
  }
  if (xadj[n] + n > INT_MAX) {
    fprintf(stderr, "peer_zoltan: the graph has more pins than an int holds\n");
    goto out;
  }
  to_int(minex_graph_rwgt(c->g), (size_t)n, d.size);
  for (int32_t v = 0; hyper && v < n; v++) {
    double s = 0.0;
    for (int64_t j = xadj[v]; j < xadj[v + 1]; j++)
      s += d.cwgt[j];
    d.hewgt[v] =
        xadj[v + 1] > xadj[v] ? (float)(s / (xadj[v + 1] - xadj[v])) : 0.0f;
  }
  /* part sizes: 1/Proc, 0 for an unavailable processor */
  int navail = 0;
  for (int32_t p = 0; p < P; p++) {
    ids[p] = p;
    int a = minex_config_is_available(c->cfg, p);
    navail += a;
    sizes[p] =
        a ? (float)(1.0 / minex_config_proc_slowdown(
                              c->cfg, minex_config_cluster_of(c->cfg, p)))
          : 0.0f;
  }
  if (navail == 0) {
    fprintf(stderr, "peer_zoltan: no available processor\n");
    goto out;
  }

  zz = Zoltan_Create(MPI_COMM_WORLD);
  if (!zz) {
    fprintf(stderr, "peer_zoltan: Zoltan_Create failed\n");
    goto out;
  }
  char buf[64];
  snprintf(buf, sizeof buf, "%d", (int)P);
  unsigned seed = (unsigned)(c->seed % 2147483647u);
  char sbuf[32];
  snprintf(sbuf, sizeof sbuf, "%u", seed > 0 ? seed : 1u);
  if (set(zz, "DEBUG_LEVEL", "0") || set(zz, "NUM_GID_ENTRIES", "1") ||
      set(zz, "NUM_LID_ENTRIES", "1") || set(zz, "NUM_GLOBAL_PARTS", buf) ||
      set(zz, "LB_APPROACH", "REPARTITION") ||
      set(zz, "LB_METHOD", hyper ? "HYPERGRAPH" : "GRAPH") ||
      set(zz, hyper ? "HYPERGRAPH_PACKAGE" : "GRAPH_PACKAGE", "PHG") ||
      set(zz, "OBJ_WEIGHT_DIM", "1") || set(zz, "EDGE_WEIGHT_DIM", "1") ||
      set(zz, "IMBALANCE_TOL", "1.03") || set(zz, "RETURN_LISTS", "PARTS") ||
      set(zz, "SEED", sbuf) || set(zz, "CHECK_GRAPH", "0") ||
      set(zz, "CHECK_HYPERGRAPH", "0"))
    goto out;
  if (!isnan(c->param)) {
    snprintf(buf, sizeof buf, "%.9g", c->param);
    if (set(zz, "PHG_REPART_MULTIPLIER", buf))
      goto out;
  }
  int e = Zoltan_Set_Num_Obj_Fn(zz, num_obj, &d) |
          Zoltan_Set_Obj_List_Fn(zz, obj_list, &d) |
          Zoltan_Set_Part_Multi_Fn(zz, part_multi, &d) |
          Zoltan_Set_Obj_Size_Multi_Fn(zz, obj_size_multi, &d);
  if (hyper)
    e |= Zoltan_Set_HG_Size_CS_Fn(zz, hg_size_cs, &d) |
         Zoltan_Set_HG_CS_Fn(zz, hg_cs, &d) |
         Zoltan_Set_HG_Size_Edge_Wts_Fn(zz, hg_size_edge_wts, &d) |
         Zoltan_Set_HG_Edge_Wts_Fn(zz, hg_edge_wts, &d);
  else
    e |= Zoltan_Set_Num_Edges_Multi_Fn(zz, num_edges_multi, &d) |
         Zoltan_Set_Edge_List_Multi_Fn(zz, edge_list_multi, &d);
  if (e != ZOLTAN_OK) {
    fprintf(stderr, "peer_zoltan: setting a query callback failed\n");
    goto out;
  }
  if (Zoltan_LB_Set_Part_Sizes(zz, 1, P, ids, widx, sizes) != ZOLTAN_OK) {
    fprintf(stderr, "peer_zoltan: Zoltan_LB_Set_Part_Sizes failed\n");
    goto out;
  }

  int changes = 0, ngid = 0, nlid = 0, nimp = 0, nexp = 0;
  double t0 = peers_now();
  int zrc =
      Zoltan_LB_Partition(zz, &changes, &ngid, &nlid, &nimp, &igid, &ilid,
                          &iproc, &ipart, &nexp, &egid, &elid, &eproc, &epart);
  *seconds = peers_now() - t0;
  if (zrc != ZOLTAN_OK && zrc != ZOLTAN_WARN) {
    fprintf(stderr, "peer_zoltan: Zoltan_LB_Partition failed (%s)\n",
            zrc == ZOLTAN_MEMERR ? "ZOLTAN_MEMERR" : "ZOLTAN_FATAL");
    goto out;
  }
  /* RETURN_LISTS=PARTS lists every object with its new part; starting
   * from the old partition also covers a list of the changes only */
  memcpy(out, c->old, sizeof *out * (size_t)n);
  for (int i = 0; i < nexp; i++) {
    if (egid[i] >= (ZOLTAN_ID_TYPE)n || epart[i] < 0 || epart[i] >= P) {
      fprintf(stderr,
              "peer_zoltan: Zoltan returned object %u to part %d, "
              "outside the case\n",
              (unsigned)egid[i], epart[i]);
      goto out;
    }
    out[egid[i]] = epart[i];
  }
  for (int32_t v = 0; v < n; v++)
    if (!minex_config_is_available(c->cfg, out[v])) {
      fprintf(stderr,
              "peer_zoltan: Zoltan left vertex %d on unavailable "
              "processor %d\n",
              (int)v, (int)out[v]);
      goto out;
    }
  rc = 0;
out:
  Zoltan_LB_Free_Part(&igid, &ilid, &iproc, &ipart);
  Zoltan_LB_Free_Part(&egid, &elid, &eproc, &epart);
  Zoltan_Destroy(&zz);
  free(ids);
  free(widx);
  free(sizes);
  free(d.size);
  free(d.hewgt);
  return rc;
}

int main(int argc, char **argv) {
  peers_case c;
  int rc = peers_case_load(&c, "zoltan", usage, argc, argv);
  if (rc)
    return rc < 0 ? 0 : rc;
  int hyper = !strcmp(c.method, "phg")     ? 1
              : !strcmp(c.method, "graph") ? 0
                                           : -1;
  if (hyper < 0 || (!isnan(c.param) && !(c.param > 0.0))) {
    fprintf(stderr, "peer_zoltan: %s\nTry 'peer_zoltan --help'.\n",
            hyper < 0 ? "--method: not graph or phg"
                      : "--param: the multiplier must be > 0");
    peers_case_free(&c);
    return 2;
  }
  int32_t *part = malloc(sizeof *part * (c.nvtxs > 0 ? (size_t)c.nvtxs : 1));
  if (!part) {
    fprintf(stderr, "peer_zoltan: out of memory for the partition\n");
    peers_case_free(&c);
    return 1;
  }
  /* A singleton MPI process (no mpiexec) that talks to nobody: Open MPI
   * need not start its daemon (orted) nor probe the network, which takes
   * 0.3 s and may print warnings. The user's environment wins. */
  setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
  setenv("OMPI_MCA_btl", "self", 0);
  setenv("OMPI_MCA_pml", "ob1", 0);
  float version = 0.0f;
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
    fprintf(stderr, "peer_zoltan: MPI_Init failed\n");
    rc = 1;
  } else {
    if (Zoltan_Initialize(argc, argv, &version) != ZOLTAN_OK) {
      fprintf(stderr, "peer_zoltan: Zoltan_Initialize failed\n");
      rc = 1;
    } else {
      double seconds = 0.0;
      rc = run(&c, hyper, part, &seconds);
      if (rc == 0)
        rc = peers_finish(&c, part, seconds);
    }
    MPI_Finalize();
  }
  free(part);
  peers_case_free(&c);
  return rc;
}
