/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The flow candidate alone against minex_repartition on one case: the
 * quotient graph of the old partition, each processor's excess, the
 * least-squares flow and the moves along it (src/partition/flow.c), then
 * T_k of that partition and of minex_repartition's, and their times (best
 * of --repeat). It measures how far a repartition without coarsening gets
 * (SPEC §3 "Work that follows the change", the depth option's cheap
 * candidate); nothing here is the library's default.
 *
 *   bench_flow GRAPH OLD.part CONFIG.xml [--iters K] [--repeat N]
 */
#include "minex.h"
#include "partition/flow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The flow candidate from old into part; its moves in *moved. */
static int flow_candidate(const minex_graph *g, const minex_config *cfg,
                          const int32_t *old, int32_t *part, int64_t *moved) {
  int32_t P = minex_config_nprocs(cfg), n = minex_graph_nvtxs(g);
  memcpy(part, old, sizeof *part * (size_t)n);
  partition_qedge *e = NULL;
  int64_t ne = 0;
  double *ex = malloc(sizeof *ex * (size_t)P);
  double *flow = NULL;
  int rc = ex ? partition_quotient(g, old, P, &e, &ne) : MINEX_ENOMEM;
  if (rc == MINEX_OK)
    rc = partition_excess(g, cfg, old, ex);
  if (rc == MINEX_OK &&
      (flow = malloc(sizeof *flow * ((size_t)ne + 1))) == NULL)
    rc = MINEX_ENOMEM;
  if (rc == MINEX_OK)
    rc = partition_flow(P, e, ne, ex, flow, NULL);
  if (rc == MINEX_OK)
    rc = partition_flow_moves(g, P, part, e, ne, flow, moved);
  free(ex), free(flow);
  core_free(e);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: bench_flow GRAPH OLD.part CONFIG.xml [--iters K] "
                    "[--repeat N]\n");
    return 2;
  }
  int32_t iters = 1;
  int repeat = 3;
  for (int i = 4; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--iters") == 0)
      iters = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--repeat") == 0)
      repeat = atoi(argv[i + 1]);
  }
  minex_graph *g = NULL;
  minex_config *cfg = NULL;
  int32_t *old = NULL;
  if (minex_graph_read_metis(argv[1], &g) != MINEX_OK ||
      minex_config_load(argv[3], &cfg) != MINEX_OK ||
      minex_part_read(argv[2], minex_graph_nvtxs(g), minex_config_nprocs(cfg),
                      &old) != MINEX_OK) {
    fprintf(stderr, "bench_flow: %s\n", minex_last_error());
    return 1;
  }
  int32_t n = minex_graph_nvtxs(g);
  int32_t *fp = malloc(sizeof *fp * (size_t)n),
          *mp = malloc(sizeof *mp * (size_t)n);
  if (fp == NULL || mp == NULL) {
    fprintf(stderr, "bench_flow: out of memory\n");
    return 1;
  }
  minex_options opt;
  minex_options_init(&opt);
  opt.iterations = iters;
  opt.nthreads = 1;
  double tf = 1e300, tm = 1e300;
  int64_t moved = 0;
  minex_metrics mm, mf, mo;
  for (int r = 0; r < repeat; r++) {
    double t = wtime();
    if (flow_candidate(g, cfg, old, fp, &moved) != MINEX_OK) {
      fprintf(stderr, "bench_flow: flow: %s\n", minex_last_error());
      return 1;
    }
    t = wtime() - t;
    tf = t < tf ? t : tf;
    t = wtime();
    if (minex_repartition(g, cfg, old, &opt, mp, &mm) != MINEX_OK) {
      fprintf(stderr, "bench_flow: minex_repartition: %s\n",
              minex_last_error());
      return 1;
    }
    t = wtime() - t;
    tm = t < tm ? t : tm;
  }
  if (minex_evaluate(g, cfg, old, fp, &opt, &mf) != MINEX_OK ||
      minex_evaluate(g, cfg, old, old, &opt, &mo) != MINEX_OK ||
      minex_evaluate(g, cfg, old, mp, &opt, &mm) != MINEX_OK) {
    fprintf(stderr, "bench_flow: minex_evaluate: %s\n", minex_last_error());
    return 1;
  }
  printf("bench_flow: %s k=%d n=%d: old T_k %.6g; flow candidate %.4f s, "
         "T_k %.6g (%.4f of minex_repartition's), MaxQwgt %.6g, moved %lld; "
         "minex_repartition %.4f s, T_k %.6g, MaxQwgt %.6g, moved %lld; "
         "lower bound %.6g\n",
         argv[1], (int)iters, (int)n, mo.horizon_time, tf, mf.horizon_time,
         mf.horizon_time / mm.horizon_time, mf.max_qwgt, (long long)moved, tm,
         mm.horizon_time, mm.max_qwgt, (long long)mm.moved, mm.lower_bound);
  free(fp), free(mp), free(old);
  minex_config_destroy(cfg);
  minex_graph_destroy(g);
  return 0;
}
