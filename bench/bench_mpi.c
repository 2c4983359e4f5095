/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_mpi: minex_mpi_repartition on a refined-ball tet box (bench_repart's
 * gen cases: P = 64 in 4 clusters, the old partition from RCB), spread over
 * the ranks as an application holds it: the vertices numbered part by part
 * and every rank holding whole old parts (parts r*64/size ..). Prints per
 * rank the peak resident memory during the call (VmHWM, reset just before
 * it through /proc/self/clear_refs), and on rank 0 the best and worst wall
 * time of --repeat calls and the layer's bytes and messages per phase
 * (docs/guide/mpi.md). Usage:
 *   mpiexec.mpich -n R build/bench/bench_mpi [--elements N] [--repeat K]
 *                                            [--threads T] [--iters K]
 *                                            [--migrate B]
 *                                            [--rounds on|off|auto]
 *                                            [--cluster-levels on|off|auto]
 *                                            [--seed S]
 * --rounds: options.rounds; auto (the default) and on run the distributed
 * kernel (stage 2), off the graph gathered on rank 0 (stage 1).
 * --cluster-levels: options.cluster_levels; --seed: options.seed.
 * --migrate B: then moves B bytes per unit of Rwgt of every vertex to its
 * new rank (minex_mpi_migrate), all at once, in 1 MiB pieces and
 * split-phase beside a computation, and prints the time, throughput, peak
 * memory and the share of the migration hidden behind the computation
 * (docs/guide/migration.md). */
#include "dist_case.h"
#include "minex_mpi.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_P DIST_P

static int rank, size;

static void die(const char *what) {
  fprintf(stderr, "bench_mpi: rank %d: %s: %s\n", rank, what,
          minex_last_error());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/* --migrate: a vertex's data are Rwgt * unit bytes. */
typedef struct mig_ctx {
  const double *rw;
  size_t unit;
  int64_t got; /* bytes unpacked */
  unsigned sum;
} mig_ctx;

static int mig_size(void *ctx, int64_t gid, int64_t lid, size_t *bytes) {
  const mig_ctx *m = ctx;
  (void)gid;
  *bytes = (size_t)m->rw[lid] * m->unit;
  return 0;
}

static int mig_pack(void *ctx, int64_t gid, int64_t lid, int dest, void *buf,
                    size_t bytes) {
  (void)ctx;
  (void)lid;
  (void)dest;
  memset(buf, (int)(gid & 0xff), bytes);
  return 0;
}

static int mig_unpack(void *ctx, int64_t gid, int src, const void *buf,
                      size_t bytes) {
  mig_ctx *m = ctx;
  (void)gid;
  (void)src;
  m->got += (int64_t)bytes;
  if (bytes > 0)
    m->sum += ((const unsigned char *)buf)[bytes - 1];
  return 0;
}

/* The application's work between progress calls: flops per element. */
static double work(int64_t from, int64_t to, int flops) {
  double x = 0;
  for (int64_t i = from; i < to; i++)
    for (int k = 0; k < flops; k++)
      x = x * 0.999999 + (double)(i + k) * 1e-9;
  return x;
}

static double max_all(double x) {
  double m;
  MPI_Allreduce(&x, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

/* Moves the data after the repartition (docs/guide/migration.md figures). */
static void bench_migrate(const int64_t *vd, const int32_t *newp,
                          const double *rw, long unit) {
  int64_t n = vd[rank + 1] - vd[rank];
  minex_mpi_lists *l = NULL;
  double t = MPI_Wtime();
  if (minex_mpi_lists_create(vd, newp, BENCH_P, NULL, &l, MPI_COMM_WORLD))
    die("minex_mpi_lists_create");
  double t_lists = max_all(MPI_Wtime() - t);
  mig_ctx mc = {rw, (size_t)unit, 0, 0};
  minex_mpi_migrate_fns f = {0};
  f.size = mig_size;
  f.pack = mig_pack;
  f.unpack = mig_unpack;
  f.ctx = &mc;
  int64_t sent = 0;
  for (int64_t i = 0; i < l->nexport; i++)
    sent += (int64_t)rw[l->export_lid[i]] * unit;
  int64_t moved = 0, in_out = 0;
  MPI_Allreduce(&sent, &moved, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  double t_all = 0, t_bounded = 0;
  long peak_all = 0, peak_bounded = 0, base = dist_status_kb("VmRSS:");
  for (int mode = 0; mode < 2; mode++) {
    /* freed memory back to the system first (glibc), so that the peak
       counts what the migration allocates, not pages reused */
    malloc_trim(0);
    base = dist_status_kb("VmRSS:");
    dist_reset_peak();
    mc.got = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    if (minex_mpi_migrate(l, &f, mode == 0 ? 0 : (size_t)1 << 20,
                          MPI_COMM_WORLD))
      die("minex_mpi_migrate");
    double dt = max_all(MPI_Wtime() - t);
    long pk = dist_status_kb("VmHWM:") - base, pkmax;
    MPI_Allreduce(&pk, &pkmax, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (mode == 0) {
      t_all = dt;
      peak_all = pkmax;
    } else {
      t_bounded = dt;
      peak_bounded = pkmax;
    }
  }
  int64_t mine = sent + mc.got, most = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  in_out = most;
  /* the computation alone, sized to about the migration's time */
  int flops = 16;
  for (;;) {
    t = MPI_Wtime();
    volatile double sink = work(0, n, flops);
    (void)sink;
    double tc = max_all(MPI_Wtime() - t);
    if (tc >= t_all || flops >= 1 << 20)
      break;
    flops *= 2;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  t = MPI_Wtime();
  volatile double sink = work(0, n, flops);
  double t_comp = max_all(MPI_Wtime() - t);
  /* split-phase: the computation in slices, progress between them */
  MPI_Barrier(MPI_COMM_WORLD);
  t = MPI_Wtime();
  minex_mpi_migration *m = NULL;
  if (minex_mpi_migrate_begin(l, &f, MPI_COMM_WORLD, &m))
    die("minex_mpi_migrate_begin");
  int done = 0;
  for (int64_t a = 0; a < n; a += 1024) {
    sink = work(a, a + 1024 < n ? a + 1024 : n, flops);
    if (!done && minex_mpi_migrate_progress(m, &done, NULL))
      die("minex_mpi_migrate_progress");
  }
  if (minex_mpi_migrate_end(m))
    die("minex_mpi_migrate_end");
  double t_split = max_all(MPI_Wtime() - t);
  (void)sink;
  double hidden = (t_all + t_comp - t_split) / t_all;
  hidden = hidden < 0 ? 0 : hidden > 1 ? 1 : hidden;
  if (rank == 0) {
    printf("bench_mpi: migration of %ld bytes per unit of Rwgt: %.1f MiB "
           "moved in all (the most one rank sends and receives: %.1f MiB); "
           "lists %.3f s\n",
           unit, moved / 1048576.0, in_out / 1048576.0, t_lists);
    printf("bench_mpi: all at once %.3f s (%.0f MB/s per rank), peak +%.1f "
           "MiB; 1 MiB pieces %.3f s, peak +%.1f MiB\n",
           t_all, t_all > 0 ? in_out / t_all / 1e6 : 0.0, peak_all / 1024.0,
           t_bounded, peak_bounded / 1024.0);
    printf("bench_mpi: split-phase beside %.3f s of computation: %.3f s in "
           "all (migration alone %.3f s): %.0f%% of the migration hidden\n",
           t_comp, t_split, t_all, 100 * hidden);
  }
  minex_mpi_lists_destroy(l);
}

/* -v: a line of the library's log */
static void log_line(const char *message, void *ctx) {
  (void)ctx;
  fprintf(stderr, "minex: %s\n", message);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int64_t elements = 1000000;
  int repeat = 3, threads = 1, iters = 1;
  long migrate_unit = 0; /* --migrate B: B bytes of data per unit of Rwgt */
  int rounds =
      MINEX_ROUNDS_AUTO; /* off: stage 1 (docs/design/distributed.md) */
  int clusters = MINEX_CLUSTER_LEVELS_AUTO;
  unsigned long long seed = 1;
  int verbose = 0; /* -v: the library's log (rank 0's lines) on stderr */
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--elements") == 0 && i + 1 < argc)
      elements = strtoll(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
      repeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
      threads = atoi(argv[++i]);
    else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc)
      iters = atoi(argv[++i]);
    else if (strcmp(argv[i], "--migrate") == 0 && i + 1 < argc)
      migrate_unit = atol(argv[++i]);
    else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
      rounds = strcmp(argv[++i], "on") == 0  ? MINEX_ROUNDS_ON
               : strcmp(argv[i], "off") == 0 ? MINEX_ROUNDS_OFF
                                             : MINEX_ROUNDS_AUTO;
    else if (strcmp(argv[i], "--cluster-levels") == 0 && i + 1 < argc &&
             (strcmp(argv[i + 1], "on") == 0 ||
              strcmp(argv[i + 1], "off") == 0 ||
              strcmp(argv[i + 1], "auto") == 0))
      clusters = strcmp(argv[++i], "on") == 0  ? MINEX_CLUSTER_LEVELS_ON
                 : strcmp(argv[i], "off") == 0 ? MINEX_CLUSTER_LEVELS_OFF
                                               : MINEX_CLUSTER_LEVELS_AUTO;
    else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
      seed = strtoull(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "--verbose") == 0)
      verbose = 1;
    else {
      if (rank == 0)
        fprintf(stderr, "usage: bench_mpi [--elements N] [--repeat K] "
                        "[--threads T] [--iters K] [--migrate B] "
                        "[--rounds on|off|auto] "
                        "[--cluster-levels on|off|auto] [--seed S] [-v]\n");
      MPI_Finalize();
      return 2;
    }
  }
  if (elements < 6 || repeat < 1 || threads < 1 || iters < 1 ||
      migrate_unit < 0 || size > BENCH_P) {
    if (rank == 0)
      fprintf(stderr, "bench_mpi: bad arguments (at most %d ranks)\n", BENCH_P);
    MPI_Finalize();
    return 2;
  }
  /* the case, on every rank (bench/dist_case.h) */
  dist_case dc;
  if (dist_case_make(elements, rank, size, &dc) != MINEX_OK)
    die("the case");
  int64_t nedges = minex_graph_nedges(dc.g);
  dist_case_drop_whole(&dc); /* each rank keeps its rows only */
  const int64_t *vd = dc.vd;
  int64_t nloc = dc.nloc;
  int32_t *newp = malloc(sizeof *newp * (size_t)(nloc + 1));
  minex_config *cfg = NULL;
  if (newp == NULL || dist_case_config(&cfg) != MINEX_OK)
    die("the machine");
  minex_options o;
  minex_options_init(&o);
  o.nthreads = threads;
  o.iterations = iters;
  o.rounds = rounds;
  o.cluster_levels = clusters;
  o.seed = seed;
  if (verbose)
    o.log_fn = log_line;
  double best = HUGE_VAL, worst = 0;
  long peak = -1, rss_before = dist_status_kb("VmRSS:");
  minex_metrics m;
  minex_mpi_stats st;
  int can_reset = dist_reset_peak() == 0;
  for (int it = 0; it < repeat; it++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    if (minex_mpi_repartition(vd, dc.xadj, dc.adj, dc.pw, dc.rw, dc.cw, dc.old,
                              cfg, &o, newp, &m, MPI_COMM_WORLD) != MINEX_OK)
      die("minex_mpi_repartition");
    double dt = MPI_Wtime() - t, dtmax;
    MPI_Allreduce(&dt, &dtmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    best = fmin(best, dtmax);
    worst = fmax(worst, dtmax);
    if (it == 0) {
      peak = dist_status_kb("VmHWM:");
      minex_mpi_last_stats(&st);
    }
  }
  long all_peak[BENCH_P], all_before[BENCH_P];
  MPI_Gather(&peak, 1, MPI_LONG, all_peak, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  MPI_Gather(&rss_before, 1, MPI_LONG, all_before, 1, MPI_LONG, 0,
             MPI_COMM_WORLD);
  int64_t all_n[BENCH_P];
  MPI_Gather(&nloc, 1, MPI_INT64_T, all_n, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("bench_mpi: %d ranks x %d threads, %lld vertices, %lld edges, P = "
           "%d, k = %d, seed %llu, cluster levels %s; best of %d %.3f s, "
           "worst %.3f s; MaxQwgt %.1f, T_k %.1f, moved %lld\n",
           size, threads, (long long)vd[size], (long long)nedges, BENCH_P,
           iters, seed,
           clusters == MINEX_CLUSTER_LEVELS_ON    ? "on"
           : clusters == MINEX_CLUSTER_LEVELS_OFF ? "off"
                                                  : "auto",
           repeat, best, worst, m.max_qwgt, m.horizon_time, (long long)m.moved);
    printf("bench_mpi: phases (slowest rank, first call): check %.3f s, "
           "gather %.3f s, solve %.3f s, scatter %.3f s\n",
           st.seconds_check, st.seconds_gather, st.seconds_solve,
           st.seconds_scatter);
    printf("bench_mpi: volume (all ranks): check %lld bytes in %lld "
           "messages, gather %lld bytes in %lld, scatter %lld bytes in "
           "%lld; %lld collective calls per rank\n",
           (long long)st.check_bytes, (long long)st.check_messages,
           (long long)st.gather_bytes, (long long)st.gather_messages,
           (long long)st.scatter_bytes, (long long)st.scatter_messages,
           (long long)st.collective_calls);
    /* what the collectives alone would cost on a large machine: 10 us
       per collective is a pessimistic flat figure (an allreduce over a
       congested network); a tree collective takes about log2(R) message
       latencies, 1 us each.  The counts do not depend on R (rounds and
       levels are the algorithm's, not the machine's). */
    printf("bench_mpi: latency model (10 us per collective; 1 us x "
           "log2(R)): %lld collectives cost %.3f s flat;",
           (long long)st.collective_calls, 1e-5 * (double)st.collective_calls);
    for (int lr = 6; lr <= 10; lr += 2)
      printf(" %.3f s at %d ranks%s", 1e-6 * lr * (double)st.collective_calls,
             1 << lr, lr < 10 ? "," : "\n");
    long long goal = iters >= 100 ? 3000 : 1000;
    printf("bench_mpi: target collectives per call <= %lld at k = %d: %s\n",
           goal, iters, st.collective_calls <= goal ? "met" : "MISSED");
    if (st.solver < 0)
      printf("bench_mpi: the most one rank received in stage 2: %lld bytes "
             "(rank %d)\n",
             (long long)st.recv_bytes_max, (int)st.recv_max_rank);
    for (int r = 0; r < size; r++)
      printf("bench_mpi: rank %d: %lld vertices; RSS before the call %.1f "
             "MiB, peak during the first call %.1f MiB%s\n",
             r, (long long)all_n[r], all_before[r] / 1024.0,
             all_peak[r] / 1024.0,
             can_reset ? "" : " (VmHWM not reset: peak of the process)");
  }
  if (migrate_unit > 0)
    bench_migrate(vd, newp, dc.rw, migrate_unit);
  minex_config_destroy(cfg);
  dist_case_free(&dc);
  free(newp);
  MPI_Finalize();
  return 0;
}
