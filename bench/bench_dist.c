/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The distributed kernel of stage 2 (docs/design/distributed.md), phase by
 * phase, on bench_mpi's case (dist_case.h: the gen case, P = 64 in 4
 * clusters, rank r holding parts [r P / size, (r+1) P / size)), under
 * options.rounds ON: the graph to its home ranks in layout ids, the unit
 * and old loads, the contraction spread over the ranks, the contracted
 * graph on every rank and its partition there, the expansion in rounds,
 * the balance and refinement passes in rounds. Prints per phase the
 * slowest rank's wall time, the bytes and messages sent (sum over ranks),
 * the peak resident memory per rank during the kernel (VmHWM, reset before
 * it; the case's whole graph, built on every rank to number it, is freed
 * first), and MaxQwgt / T_k from the loads every rank keeps.
 *
 *   mpiexec.mpich -n R build/bench/bench_dist [--elements N] [--iters K]
 *                 [--threads T]
 *
 * Links the library's internals (a static build): the kernel is not yet
 * behind minex_mpi_repartition (docs/guide/mpi.md). */
#include "contract/contract.h"
#include "dist/dist.h"
#include "driver/run.h"
#include "expand/expand.h"
#include "mpi/mpi_comm.h"
#include "partition/partition.h"

#include "dist_case.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void die(const char *what) {
  fprintf(stderr, "bench_dist: rank %d: %s: %s\n", rank, what,
          minex_last_error());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

enum { LAYOUT, LOADS, CONTRACT, COARSE, EXPAND, PASSES, NPHASE };
static const char *const phase_name[NPHASE] = {
    "graph to home ranks",      "unit and old loads", "contraction",
    "coarse graph + partition", "expansion (rounds)", "balance + refinement"};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int64_t elements = 1000000;
  int iters = 10, threads = 1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--elements") && i + 1 < argc)
      elements = strtoll(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
      iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = atoi(argv[++i]);
    else {
      if (rank == 0)
        fprintf(stderr, "usage: bench_dist [--elements N] [--iters K] "
                        "[--threads T]\n");
      MPI_Finalize();
      return 2;
    }
  }
  dist_case dc;
  minex_config *cfg = NULL;
  if (dist_case_make(elements, rank, size, &dc) != MINEX_OK ||
      dist_case_config(&cfg) != MINEX_OK)
    die("case");
  int64_t n = dc.vd[size] - dc.vd[0];
  dist_case_drop_whole(&dc);
  minex_options opt;
  minex_options_init(&opt);
  opt.iterations = iters;
  opt.rounds = MINEX_ROUNDS_ON;
  opt.nthreads = threads;
  malloc_trim(0);
  long base = dist_status_kb("VmRSS:");
  int can_reset = dist_reset_peak() == 0;
  double t[NPHASE] = {0};
  int64_t bytes[NPHASE] = {0}, msgs[NPHASE] = {0};
  mx_comm mc;
  mx_open(&mc, "bench_dist");
  if (mx_start(&mc, MPI_COMM_WORLD) != MINEX_OK)
    die("mx_start");
  dist_comm cc;
  mx_dist_comm(&mc, &cc);
  dist_ctx c;
  dist_ctx_init(&c, &cc);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime(), tp = t0;
  int64_t b0 = 0, m0 = 0;
#define PHASE_END(ph)                                                          \
  do {                                                                         \
    double tn = MPI_Wtime();                                                   \
    t[ph] = tn - tp;                                                           \
    tp = tn;                                                                   \
    bytes[ph] = mc.bytes - b0;                                                 \
    msgs[ph] = mc.messages - m0;                                               \
    b0 = mc.bytes;                                                             \
    m0 = mc.messages;                                                          \
  } while (0)
  dist_part d;
  dist_input in = {dc.vd, dc.xadj, dc.adj, dc.pw, dc.rw, dc.cw, dc.old};
  if (dist_part_create(&c, &in, DIST_P, &d) != MINEX_OK)
    die("dist_part_create");
  PHASE_END(LAYOUT);
  double unit;
  costmodel_loads ld;
  if (dist_unit(&c, &d, cfg, &opt, &unit) != MINEX_OK ||
      dist_loads_old(&c, &d, &(dist_model){cfg, &opt, unit}, iters, &ld) !=
          MINEX_OK)
    die("loads");
  double start_max = costmodel_loads_max(&ld) * ld.inv_unit;
  PHASE_END(LOADS);
  contract_ws w;
  run_ctx run; /* as stage 2 resolves the options (src/dist/solve.c) */
  run_init(&run, &opt, cfg, n, 1);
  if (contract_ws_create_dist(&w, &d, &cc) != MINEX_OK)
    die("contraction");
  /* as stage 2 sets them (src/dist/solve.c) */
  w.drop_lists = 1;
  w.cluster_factor = run.cluster_factor;
  if (contract_run(&w, (int32_t)run.coarse_target, opt.sample_size,
                   (unsigned long)opt.seed, threads) != MINEX_OK)
    die("contraction");
  int nlevels = w.nlevels;
  PHASE_END(CONTRACT);
  dist_coarse co;
  partition_ctx pcc, pw;
  if (dist_gather_coarse(&c, &w, &co) != MINEX_OK ||
      contract_freeze(&w) != MINEX_OK ||
      partition_ctx_create(&pcc, &co.ws, &ld, &opt) != MINEX_OK ||
      partition_run(&pcc, opt.max_passes > 0 ? opt.max_passes : 1) != MINEX_OK)
    die("coarse partition");
  int32_t ncoarse = co.g.nvtxs;
  int64_t coarse_moves = pcc.moves;
  PHASE_END(COARSE);
  if (partition_ctx_create(&pw, &w, &ld, &opt) != MINEX_OK)
    die("partition context");
  dist_from_coarse(&w, &co);
  if (expand_rounds(&pw, 16) != MINEX_OK)
    die("expansion");
  int64_t expand_moves = pw.moves;
  PHASE_END(EXPAND);
  if (partition_balance(&pw, MINEX_BALANCE_PASSES) != MINEX_OK ||
      partition_refine(&pw, opt.refine_passes > 0 ? opt.refine_passes : 1) !=
          MINEX_OK)
    die("passes");
  PHASE_END(PASSES);
  double total = MPI_Wtime() - t0;
  long peak = dist_status_kb("VmHWM:") - base;
  double tmax[NPHASE], totmax;
  int64_t bsum[NPHASE], msum[NPHASE];
  long pkmax, pkmin;
  MPI_Reduce(t, tmax, NPHASE, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&total, &totmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(bytes, bsum, NPHASE, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(msgs, msum, NPHASE, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&peak, &pkmax, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&peak, &pkmin, 1, MPI_LONG, MPI_MIN, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("bench_dist: %lld vertices, P = %d, %d ranks, k = %d, %d "
           "thread(s), options.rounds ON\n",
           (long long)n, DIST_P, size, iters, threads);
    for (int ph = 0; ph < NPHASE; ph++)
      printf("  %-26s %8.3f s  %12lld bytes  %8lld messages\n", phase_name[ph],
             tmax[ph], (long long)bsum[ph], (long long)msum[ph]);
    printf("  %-26s %8.3f s\n", "total", totmax);
    printf("  levels %d, coarse vertices %d, moves: coarse %lld, expansion "
           "%lld, passes %lld\n",
           nlevels, (int)ncoarse, (long long)coarse_moves,
           (long long)expand_moves, (long long)(pw.moves - expand_moves));
    printf("  MaxQwgt old %.6g -> new %.6g, T_k %.6g\n", start_max,
           costmodel_loads_max(&ld) * ld.inv_unit,
           (costmodel_remap_max(&ld) + iters * costmodel_steady_max(&ld)) *
               ld.inv_unit);
    printf("  peak memory per rank during the kernel: %.1f - %.1f MiB%s\n",
           pkmin / 1024.0, pkmax / 1024.0,
           can_reset ? "" : " (VmHWM not reset: peak of the process)");
  }
  partition_ctx_destroy(&pw);
  partition_ctx_destroy(&pcc);
  dist_coarse_destroy(&co);
  contract_ws_destroy(&w);
  costmodel_loads_destroy(&ld);
  dist_part_destroy(&d);
  mx_close(&mc);
  minex_config_destroy(cfg);
  dist_case_free(&dc);
  MPI_Finalize();
  return 0;
}
