/* SPDX-License-Identifier: GPL-3.0-or-later */
/* peer_zoltan_mpi: Zoltan's PHG repartitioning (LB_METHOD=GRAPH,
 * GRAPH_PACKAGE=PHG, LB_APPROACH=REPARTITION) on R MPI ranks, on the case
 * bench_mpi gives minex_mpi_repartition (bench/bench_mpi.c: refined-ball
 * tet box, P = 64 in 4 clusters, old partition from RCB, every rank
 * holding whole old parts), with peer_zoltan's settings (part sizes
 * 1/Proc, object weights Pwgt, edge weights Cwgt, object sizes Rwgt,
 * IMBALANCE_TOL 1.03). Prints the best and worst wall time of
 * Zoltan_LB_Partition over --repeat calls (the slowest rank) and the
 * result's MaxQwgt and T_k (SPEC §2, scored by minex_evaluate on rank 0)
 * for k = 1 and --iters. Debian's Zoltan is built with Open MPI: run with
 * mpiexec.openmpi (docs/guide/mpi.md, "Against Zoltan on the same ranks").
 *   mpiexec.openmpi -n R peer_zoltan_mpi [--elements N] [--repeat K]
 *                   [--iters K] [--mult M] */
#include "dist_case.h"
#include "minex.h"

#include <mpi.h>
#include <zoltan.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_P DIST_P

static int rank, size;

/* This rank's rows (global ids numbered part by part), and Rwgt as the
 * integer object sizes Zoltan takes. */
typedef struct zdata {
  const dist_case *c;
  int *bytes;
} zdata;

static int rank_of(const int64_t *vd, int64_t g) {
  int lo = 0, hi = size;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (vd[mid] <= g)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static int num_obj(void *data, int *ierr) {
  *ierr = ZOLTAN_OK;
  return (int)((const zdata *)data)->c->nloc;
}

static void obj_list(void *data, int ngid, int nlid, ZOLTAN_ID_PTR gids,
                     ZOLTAN_ID_PTR lids, int wdim, float *wgts, int *ierr) {
  const dist_case *c = ((const zdata *)data)->c;
  (void)ngid;
  (void)nlid;
  for (int64_t i = 0; i < c->nloc; i++) {
    gids[i] = (ZOLTAN_ID_TYPE)(c->first + i);
    lids[i] = (ZOLTAN_ID_TYPE)i;
    if (wdim == 1)
      wgts[i] = (float)c->pw[i];
  }
  *ierr = ZOLTAN_OK;
}

static void part_multi(void *data, int ngid, int nlid, int n,
                       ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int *parts,
                       int *ierr) {
  const dist_case *c = ((const zdata *)data)->c;
  (void)ngid;
  (void)nlid;
  (void)gids;
  for (int i = 0; i < n; i++)
    parts[i] = c->old[lids[i]];
  *ierr = ZOLTAN_OK;
}

static void obj_size_multi(void *data, int ngid, int nlid, int n,
                           ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int *bytes,
                           int *ierr) {
  const zdata *d = data;
  (void)ngid;
  (void)nlid;
  (void)gids;
  for (int i = 0; i < n; i++)
    bytes[i] = d->bytes[lids[i]];
  *ierr = ZOLTAN_OK;
}

static void num_edges_multi(void *data, int ngid, int nlid, int n,
                            ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int *nedges,
                            int *ierr) {
  const dist_case *c = ((const zdata *)data)->c;
  (void)ngid;
  (void)nlid;
  (void)gids;
  for (int i = 0; i < n; i++)
    nedges[i] = (int)(c->xadj[lids[i] + 1] - c->xadj[lids[i]]);
  *ierr = ZOLTAN_OK;
}

static void edge_list_multi(void *data, int ngid, int nlid, int n,
                            ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int *nedges,
                            ZOLTAN_ID_PTR nbor, int *nbor_procs, int wdim,
                            float *ewgts, int *ierr) {
  const dist_case *c = ((const zdata *)data)->c;
  (void)ngid;
  (void)nlid;
  (void)gids;
  (void)nedges;
  size_t k = 0;
  for (int i = 0; i < n; i++)
    for (int64_t j = c->xadj[lids[i]]; j < c->xadj[lids[i] + 1]; j++, k++) {
      nbor[k] = (ZOLTAN_ID_TYPE)c->adj[j];
      nbor_procs[k] = rank_of(c->vd, c->adj[j]);
      if (wdim == 1)
        ewgts[k] = (float)c->cw[j];
    }
  *ierr = ZOLTAN_OK;
}

static void die(const char *what) {
  fprintf(stderr, "peer_zoltan_mpi: rank %d: %s\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int64_t elements = 1000000;
  int repeat = 3, iters = 100;
  double mult = 100;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--elements") == 0 && i + 1 < argc)
      elements = strtoll(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
      repeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc)
      iters = atoi(argv[++i]);
    else if (strcmp(argv[i], "--mult") == 0 && i + 1 < argc)
      mult = atof(argv[++i]);
    else
      die("usage: peer_zoltan_mpi [--elements N] [--repeat K] [--iters K] "
          "[--mult M]");
  }
  if (elements < 6 || repeat < 1 || iters < 1 || !(mult > 0) || size > BENCH_P)
    die("bad arguments");
  float version;
  if (Zoltan_Initialize(argc, argv, &version) != ZOLTAN_OK)
    die("Zoltan_Initialize failed");
  /* the case (bench/dist_case.h, bench_mpi's) */
  dist_case dc;
  if (dist_case_make(elements, rank, size, &dc) != MINEX_OK)
    die(minex_last_error());
  const int64_t *vd = dc.vd;
  int32_t n = minex_graph_nvtxs(dc.g);
  zdata d = {&dc, malloc(sizeof(int) * (size_t)(dc.nloc + 1))};
  if (d.bytes == NULL)
    die("out of memory");
  for (int64_t i = 0; i < dc.nloc; i++)
    d.bytes[i] = (int)dc.rw[i]; /* 1 or 9: integers */
  minex_config *cfg = NULL;
  if (dist_case_config(&cfg) != MINEX_OK)
    die(minex_last_error());
  int ids[BENCH_P], widx[BENCH_P];
  float sizes[BENCH_P];
  for (int p = 0; p < BENCH_P; p++) {
    ids[p] = p;
    widx[p] = 0;
    sizes[p] = (float)(1.0 / dist_proc[p / (BENCH_P / DIST_CLUSTERS)]);
  }
  int32_t *newl = malloc(sizeof *newl * (size_t)(dc.nloc + 1));
  double best = HUGE_VAL, worst = 0;
  char buf[64];
  for (int it = 0; it < repeat; it++) {
    struct Zoltan_Struct *zz = Zoltan_Create(MPI_COMM_WORLD);
    snprintf(buf, sizeof buf, "%g", mult);
    if (zz == NULL || Zoltan_Set_Param(zz, "DEBUG_LEVEL", "0") ||
        Zoltan_Set_Param(zz, "NUM_GID_ENTRIES", "1") ||
        Zoltan_Set_Param(zz, "NUM_LID_ENTRIES", "1") ||
        Zoltan_Set_Param(zz, "NUM_GLOBAL_PARTS", "64") ||
        Zoltan_Set_Param(zz, "LB_APPROACH", "REPARTITION") ||
        Zoltan_Set_Param(zz, "LB_METHOD", "GRAPH") ||
        Zoltan_Set_Param(zz, "GRAPH_PACKAGE", "PHG") ||
        Zoltan_Set_Param(zz, "OBJ_WEIGHT_DIM", "1") ||
        Zoltan_Set_Param(zz, "EDGE_WEIGHT_DIM", "1") ||
        Zoltan_Set_Param(zz, "IMBALANCE_TOL", "1.03") ||
        Zoltan_Set_Param(zz, "RETURN_LISTS", "PARTS") ||
        Zoltan_Set_Param(zz, "SEED", "1") ||
        Zoltan_Set_Param(zz, "CHECK_GRAPH", "0") ||
        Zoltan_Set_Param(zz, "PHG_REPART_MULTIPLIER", buf))
      die("Zoltan parameters");
    Zoltan_Set_Num_Obj_Fn(zz, num_obj, &d);
    Zoltan_Set_Obj_List_Fn(zz, obj_list, &d);
    Zoltan_Set_Part_Multi_Fn(zz, part_multi, &d);
    Zoltan_Set_Obj_Size_Multi_Fn(zz, obj_size_multi, &d);
    Zoltan_Set_Num_Edges_Multi_Fn(zz, num_edges_multi, &d);
    Zoltan_Set_Edge_List_Multi_Fn(zz, edge_list_multi, &d);
    if (Zoltan_LB_Set_Part_Sizes(zz, 1, BENCH_P, ids, widx, sizes) != ZOLTAN_OK)
      die("Zoltan_LB_Set_Part_Sizes");
    ZOLTAN_ID_PTR igid = NULL, ilid = NULL, egid = NULL, elid = NULL;
    int *iproc = NULL, *ipart = NULL, *eproc = NULL, *epart = NULL;
    int changes, ngid, nlid, nimp, nexp;
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    int zrc = Zoltan_LB_Partition(zz, &changes, &ngid, &nlid, &nimp, &igid,
                                  &ilid, &iproc, &ipart, &nexp, &egid, &elid,
                                  &eproc, &epart);
    double dt = MPI_Wtime() - t, dtmax;
    if (zrc != ZOLTAN_OK && zrc != ZOLTAN_WARN)
      die("Zoltan_LB_Partition failed");
    MPI_Allreduce(&dt, &dtmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    best = fmin(best, dtmax);
    worst = fmax(worst, dtmax);
    for (int64_t i = 0; i < dc.nloc; i++)
      newl[i] = dc.old[i];
    for (int i = 0; i < nexp; i++) {
      int64_t l = (int64_t)egid[i] - dc.first;
      if (l < 0 || l >= dc.nloc || epart[i] < 0 || epart[i] >= BENCH_P)
        die("Zoltan exported an object that is not here");
      newl[l] = epart[i];
    }
    Zoltan_LB_Free_Part(&igid, &ilid, &iproc, &ipart);
    Zoltan_LB_Free_Part(&egid, &elid, &eproc, &epart);
    Zoltan_Destroy(&zz);
  }
  /* the new partition on rank 0, in the graph's ids, scored */
  int *counts = malloc(sizeof *counts * (size_t)size);
  int *displs = malloc(sizeof *displs * (size_t)size);
  for (int r = 0; r < size; r++) {
    counts[r] = (int)(vd[r + 1] - vd[r]);
    displs[r] = (int)vd[r];
  }
  int32_t *all = rank == 0 ? malloc(sizeof *all * (size_t)n) : NULL;
  MPI_Gatherv(newl, (int)dc.nloc, MPI_INT32_T, all, counts, displs, MPI_INT32_T,
              0, MPI_COMM_WORLD);
  if (rank == 0) {
    int32_t *newg = malloc(sizeof *newg * (size_t)n);
    for (int32_t v = 0; v < n; v++)
      newg[v] = all[dc.newid[v]];
    minex_options o;
    minex_options_init(&o);
    minex_metrics m1, mk;
    o.iterations = 1;
    if (minex_evaluate(dc.g, cfg, dc.old_all, newg, &o, &m1) != MINEX_OK)
      die(minex_last_error());
    o.iterations = iters;
    if (minex_evaluate(dc.g, cfg, dc.old_all, newg, &o, &mk) != MINEX_OK)
      die(minex_last_error());
    printf("peer_zoltan_mpi: %d ranks, %d vertices, Zoltan %.2f PHG "
           "repartition (multiplier %g): best of %d %.3f s, worst %.3f s; "
           "MaxQwgt %.1f, T_1 %.1f, T_%d %.1f, moved %lld\n",
           size, (int)n, (double)version, mult, repeat, best, worst,
           m1.max_qwgt, m1.horizon_time, iters, mk.horizon_time,
           (long long)m1.moved);
    free(newg);
  }
  free(all);
  free(counts);
  free(displs);
  free(newl);
  free(d.bytes);
  dist_case_free(&dc);
  minex_config_destroy(cfg);
  MPI_Finalize();
  return 0;
}
