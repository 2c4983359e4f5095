/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Repartitioning benchmark (issues 2 and 19): wall time of
 * minex_repartition (best of N, for each thread count of --threads, the
 * partitions checked identical across them), its phases, and peak RSS on
 * refined-ball boxes of 1e5, 1e6 (three shapes) and 1e7 elements and on the
 * dual of cube_big_tetra.mesh; P = 64 in 4 clusters of 16, Proc = 1,1,2,2,
 * Conn 1 inside / 10 between; with METIS found at build time, METIS k-way
 * on the same graph in the same process, and the ratio. Public API only
 * (and METIS). Each case runs in a child process so that its peak RSS is
 * its own. */
#include "minex.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef MINEX_BENCH_METIS
#include <metis.h>
#endif

#ifndef MINEX_DATA_DIR
#define MINEX_DATA_DIR "data"
#endif

#define BENCH_P 64
#define BENCH_CLUSTERS 4

/* Targets on the reference 2-core machine (issues 2, 10 and 19). */
#define TARGET_SECONDS_1E6 0.30    /* one thread, each 10^6 case */
#define TARGET_SECONDS_1E6_2T 0.20 /* two threads */
#define TARGET_SECONDS_1E7 3.0     /* one thread */
#define TARGET_RSS_MIB_1E7_19 2048.0
/* MinEX / METIS k-way (one thread) in the same process: one MinEX thread,
 * two, and a perturbed case (the small step of an adaptive run). */
#define TARGET_METIS_RATIO 0.4
#define TARGET_METIS_RATIO_2T 0.25
#define TARGET_METIS_RATIO_PERTURB 0.1
#define MAX_THREAD_COUNTS 4
#define TARGET_RSS_MIB 1024.0
#define TARGET_RSS_MIB_1E7 8192.0 /* 10^7 elements: < 8 GiB */
#define TARGET_RATIO 12.0

typedef struct bench_result {
  int ok;          /* 1: the case ran                               */
  char error[256]; /* why not                                       */
  int32_t nvtxs;   /* graph size                                    */
  int64_t nedges;
  double seconds;       /* best wall time of minex_repartition, 1st
                           thread count                               */
  double seconds_worst; /* worst of the repeats                          */
  double seconds_t[MAX_THREAD_COUNTS]; /* best for each thread count   */
  double worst_t[MAX_THREAD_COUNTS];
  double first_t[MAX_THREAD_COUNTS]; /* the first call of each           */
  double later_t0; /* the best of the calls after the first, 1st count */
  minex_workspace_stats ws; /* --workspace: after the last call */
  int identical;            /* 1: every thread count gave the same owners */
  double sec_layout;        /* phases of the best 1st-count run           */
  double sec_contract, sec_partition, sec_expand, sec_other;
  double par_wall, par_work, par_span; /* its parallel regions (metrics) */
  int64_t merges;       /* merged pairs                               */
  double seconds_metis; /* best METIS k-way, 0 when not built         */
  double rss_base_mib;  /* peak RSS before the first repartition         */
  double rss_peak_mib;  /* peak RSS of the whole case                    */
  double max_qwgt_old;  /* MaxQwgt of the old partition                  */
  double max_qwgt_new;  /* MaxQwgt after repartitioning                  */
  double lower_bound;   /* LB                                            */
  int64_t moved;        /* vertices moved                                */
  int32_t coarse_nvtxs; /* vertices after contraction                    */
  /* --floor: what one pass over the graph costs here, and METIS's phases
     (its own timers, the run with the best total) */
  double sec_stream; /* one streaming pass over the CSR             */
  double sec_gather; /* every vertex's neighbour owners summed      */
  double metis_total, metis_coarsen, metis_match, metis_contract;
  double metis_init, metis_uncoarsen, metis_refine;
} bench_result;

static double wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double peak_rss_mib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / 1024.0; /* Linux: kilobytes */
}

static int fail(bench_result *r, const char *what, int rc) {
  snprintf(r->error, sizeof r->error, "%s: %s (%s)", what,
           minex_last_error()[0] ? minex_last_error() : minex_strerror(rc),
           minex_err_name(rc));
  return rc;
}

/* The heterogeneous configuration of the issue. */
static int make_config(minex_config **cfg) {
  int32_t np[BENCH_CLUSTERS] = {16, 16, 16, 16};
  double proc[BENCH_CLUSTERS] = {1, 1, 2, 2};
  double conn[BENCH_CLUSTERS * BENCH_CLUSTERS];
  for (int c = 0; c < BENCH_CLUSTERS; c++)
    for (int d = 0; d < BENCH_CLUSTERS; d++)
      conn[c * BENCH_CLUSTERS + d] = c == d ? 1.0 : 10.0;
  return minex_config_create(BENCH_CLUSTERS, np, proc, conn, cfg);
}

/* Mesh of a case: a generated box of about `elements` tetrahedra (the
 * `minex gen` rule, nx = round(cbrt(N/6))) or a mesh file; with the refined
 * ball: the minex gen default on the unit cube, and for a file the
 * cube_ball_p16 convention on its bounding box (radius 0.15 x diagonal,
 * centre at 30% of x, mid y and z); Pwgt 8, Cwgt 4 inside. */
/* A generated case's box (cubes per axis, 0: the cube rule) and the x
 * of its ball's centre. */
typedef struct box_shape {
  int32_t nx, ny, nz;
  double ball_x;
  int perturb; /* 1: the small step of an adaptive run (perturb below) */
} box_shape;

/* The load change of a perturbed case: the region's share of the total
 * Pwgt before the change, and the factor of its Pwgt and Rwgt (2: one
 * more refinement of half the cells, a 5% rise of the total). */
#define PERTURB_SHARE 0.05
#define PERTURB_FACTOR 2.0

/* The case as an adaptive run sees it between two adaptations: *old is
 * the repartition of g from the RCB start (the last step's result, not
 * timed), then one region -- the vertices a breadth-first search from
 * vertex 0 reaches first, PERTURB_SHARE of the total Pwgt -- gets
 * PERTURB_FACTOR times its Pwgt and Rwgt. */
static int perturb(minex_graph *g, int32_t *old, bench_result *r) {
  int32_t n = minex_graph_nvtxs(g);
  const int64_t *xadj = minex_graph_xadj(g);
  const int32_t *adj = minex_graph_adjncy(g);
  minex_config *cfg = NULL;
  minex_options opt;
  minex_options_init(&opt);
  minex_metrics m;
  int32_t *prev = malloc(sizeof *prev * ((size_t)n + 1));
  int32_t *queue = malloc(sizeof *queue * ((size_t)n + 1));
  double *pw = malloc(sizeof *pw * ((size_t)n + 1));
  double *rw = malloc(sizeof *rw * ((size_t)n + 1));
  unsigned char *seen = calloc((size_t)n + 1, 1);
  int rc = prev && queue && pw && rw && seen ? make_config(&cfg) : MINEX_ENOMEM;
  if (rc == MINEX_OK) {
    memcpy(prev, old, sizeof *prev * (size_t)n);
    rc = minex_repartition(g, cfg, prev, &opt, old, &m);
  }
  if (rc == MINEX_OK) {
    memcpy(pw, minex_graph_pwgt(g), sizeof *pw * (size_t)n);
    memcpy(rw, minex_graph_rwgt(g), sizeof *rw * (size_t)n);
    double total = 0, got = 0;
    for (int32_t v = 0; v < n; v++)
      total += pw[v];
    int32_t head = 0, tail = 0;
    if (n > 0)
      queue[tail++] = 0, seen[0] = 1;
    while (head < tail && got < PERTURB_SHARE * total) {
      int32_t v = queue[head++];
      got += pw[v];
      pw[v] *= PERTURB_FACTOR;
      rw[v] *= PERTURB_FACTOR;
      for (int64_t j = xadj[v]; j < xadj[v + 1]; j++)
        if (!seen[adj[j]])
          seen[adj[j]] = 1, queue[tail++] = adj[j];
    }
    rc = minex_graph_set_weights(g, pw, rw, NULL);
  }
  free(prev), free(queue), free(pw), free(rw), free(seen);
  minex_config_destroy(cfg);
  return rc == MINEX_OK ? MINEX_OK : fail(r, "perturb", rc);
}

static int make_case(int64_t elements, const box_shape *shape,
                     const char *mesh_path, minex_graph **g, int32_t **old,
                     bench_result *r) {
  minex_mesh *mesh = NULL;
  int rc;
  if (mesh_path != NULL) {
    if ((rc = minex_mesh_read(mesh_path, &mesh)) != MINEX_OK)
      return fail(r, "minex_mesh_read", rc);
  } else if (shape->nx > 0) {
    if ((rc = minex_gen_box(shape->nx, shape->ny, shape->nz, &mesh)) !=
        MINEX_OK)
      return fail(r, "minex_gen_box", rc);
  } else {
    int32_t nx = (int32_t)fmax(1.0, round(cbrt((double)elements / 6.0)));
    if ((rc = minex_gen_box(nx, nx, nx, &mesh)) != MINEX_OK)
      return fail(r, "minex_gen_box", rc);
  }
  minex_ball ball = {
      {shape ? shape->ball_x : 0.3, 0.5, 0.5}, 0.15 * sqrt(3.0), 8.0, 4.0};
  if (mesh_path != NULL) {
    const double *xyz = minex_mesh_coords(mesh);
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
    double hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int32_t i = 0; i < minex_mesh_nnodes(mesh); i++)
      for (int k = 0; k < 3; k++) {
        lo[k] = fmin(lo[k], xyz[3 * i + k]);
        hi[k] = fmax(hi[k], xyz[3 * i + k]);
      }
    double diag = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) +
                       (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                       (hi[2] - lo[2]) * (hi[2] - lo[2]));
    ball.center[0] = lo[0] + 0.3 * (hi[0] - lo[0]);
    ball.center[1] = 0.5 * (lo[1] + hi[1]);
    ball.center[2] = 0.5 * (lo[2] + hi[2]);
    ball.radius = 0.15 * diag;
  }
  int32_t n = minex_mesh_nelems(mesh);
  *old = malloc(sizeof **old * ((size_t)n + 1));
  if (*old == NULL) {
    minex_mesh_destroy(mesh);
    snprintf(r->error, sizeof r->error, "out of memory");
    return MINEX_ENOMEM;
  }
  /* the old partition is made before refinement: RCB ignores weights */
  if ((rc = minex_mesh_partition_rcb(mesh, BENCH_P, *old)) != MINEX_OK ||
      (rc = minex_mesh_dual_ball(mesh, &ball, g)) != MINEX_OK) {
    minex_mesh_destroy(mesh);
    return fail(r, "RCB or dual graph", rc);
  }
  minex_mesh_destroy(mesh); /* not part of what is measured */
  return shape != NULL && shape->perturb ? perturb(*g, *old, r) : MINEX_OK;
}

/* Options of the run beyond the defaults (--iters, --scratch, --refine,
 * --threads). */
static int32_t opt_iters = 1;
static int opt_scratch = MINEX_SCRATCH_AUTO;
static int opt_refine = MINEX_REFINE_AUTO;
static int opt_rounds = MINEX_ROUNDS_AUTO;
static int opt_clusters = MINEX_CLUSTER_LEVELS_AUTO;
static int opt_workspace; /* --workspace: one minex_workspace per case */
static int32_t thread_counts[MAX_THREAD_COUNTS] = {1, 2};
static int opt_verbose = 0;
static int opt_floor; /* --floor: the passes' and METIS's phase costs */

static void log_stderr(const char *msg, void *ctx) {
  (void)ctx;
  fprintf(stderr, "minex: %s\n", msg);
}
static int nthread_counts = 2;

/* --floor: the cost of one pass over g here. A streaming pass reads the
 * CSR in order (the least any pass costs); an owner-gather pass sums, for
 * every vertex in id order, its edges' Cwgt by the owner (old) of their
 * other end: the reads every test of the move rule makes before its
 * arithmetic. Best of repeat, into r. */
static void floor_passes(const minex_graph *g, const int32_t *old, int repeat,
                         bench_result *r) {
  int32_t n = minex_graph_nvtxs(g);
  const int64_t *xadj = minex_graph_xadj(g);
  const int32_t *adj = minex_graph_adjncy(g);
  const double *cw = minex_graph_cwgt(g);
  double acc[BENCH_P];
  int32_t stamp[BENCH_P] = {0}, list[BENCH_P];
  volatile double sink = 0;
  r->sec_stream = r->sec_gather = HUGE_VAL;
  for (int k = 0; k < repeat; k++) {
    double t = wtime(), s = 0;
    for (int64_t j = 0; j < xadj[n]; j++)
      s += cw[j] + adj[j];
    r->sec_stream = fmin(r->sec_stream, wtime() - t);
    sink = s;
    t = wtime();
    s = 0;
    for (int32_t v = 0; v < n; v++) {
      int32_t nn = 0;
      for (int64_t j = xadj[v]; j < xadj[v + 1]; j++) {
        int32_t o = old[adj[j]];
        if (stamp[o] != v + 1) {
          stamp[o] = v + 1;
          acc[o] = 0;
          list[nn++] = o;
        }
        acc[o] += cw[j];
      }
      for (int32_t i = 0; i < nn; i++)
        s += acc[list[i]];
    }
    r->sec_gather = fmin(r->sec_gather, wtime() - t);
    sink += s;
  }
  (void)sink;
}

#ifdef MINEX_BENCH_METIS
/* g as METIS input (integer weights: Pwgt and Cwgt rounded, at least 1). */
typedef struct metis_in {
  idx_t n, *x, *adj, *vw, *ew, *part;
} metis_in;

static void metis_in_free(metis_in *m) {
  free(m->x), free(m->adj), free(m->vw), free(m->ew), free(m->part);
}

/* 0 when out of memory (m freed). */
static int metis_in_make(const minex_graph *g, metis_in *m) {
  idx_t n = m->n = minex_graph_nvtxs(g);
  const int64_t *xadj = minex_graph_xadj(g);
  int64_t ne = xadj[n];
  m->x = malloc(sizeof(idx_t) * ((size_t)n + 1));
  m->adj = malloc(sizeof(idx_t) * ((size_t)ne + 1));
  m->vw = malloc(sizeof(idx_t) * ((size_t)n + 1));
  m->ew = malloc(sizeof(idx_t) * ((size_t)ne + 1));
  m->part = malloc(sizeof(idx_t) * ((size_t)n + 1));
  if (!m->x || !m->adj || !m->vw || !m->ew || !m->part) {
    metis_in_free(m);
    return 0;
  }
  for (idx_t v = 0; v <= n; v++)
    m->x[v] = (idx_t)xadj[v];
  for (int64_t j = 0; j < ne; j++) {
    m->adj[j] = minex_graph_adjncy(g)[j];
    m->ew[j] = (idx_t)fmax(1, round(minex_graph_cwgt(g)[j]));
  }
  for (idx_t v = 0; v < n; v++)
    m->vw[v] = (idx_t)fmax(1, round(minex_graph_pwgt(g)[v]));
  return 1;
}

/* METIS 5 k-way into BENCH_P parts of m with options opts; METIS_OK or
 * its code. */
static int metis_kway(metis_in *m, idx_t *opts) {
  idx_t ncon = 1, nparts = BENCH_P, cut = 0;
  return METIS_PartGraphKway(&m->n, &ncon, m->x, m->adj, m->vw, NULL, m->ew,
                             &nparts, NULL, NULL, opts, &cut, m->part);
}

/* The value after `label` in METIS's timing report (0 when absent). */
static double metis_timer(const char *text, const char *label) {
  const char *p = strstr(text, label);
  return p ? strtod(p + strlen(label), NULL) : 0;
}

/* --floor: METIS k-way of m with its own timers (METIS_DBG_TIME, which
 * METIS prints on stdout: caught in a temporary file and read back), the
 * run with the best total of repeat, into r. */
static void metis_phases(metis_in *m, int repeat, bench_result *r) {
  char *text = malloc(65536);
  idx_t opts[METIS_NOPTIONS];
  METIS_SetDefaultOptions(opts);
  opts[METIS_OPTION_DBGLVL] = METIS_DBG_TIME;
  for (int k = 0; text != NULL && k < repeat; k++) {
    FILE *tf = tmpfile();
    int saved = tf ? dup(1) : -1;
    if (saved < 0) {
      if (tf)
        fclose(tf);
      break;
    }
    fflush(stdout);
    dup2(fileno(tf), 1);
    int rc = metis_kway(m, opts);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(tf);
    size_t got = fread(text, 1, 65535, tf);
    text[got] = '\0';
    fclose(tf);
    double total = metis_timer(text, "Multilevel:");
    if (rc != METIS_OK || total <= 0)
      break;
    if (r->metis_total > 0 && total >= r->metis_total)
      continue;
    r->metis_total = total;
    r->metis_coarsen = metis_timer(text, "Coarsening:");
    r->metis_match = metis_timer(text, "Matching:");
    r->metis_contract = metis_timer(text, "Contract:");
    r->metis_init = metis_timer(text, "Initial Partition:");
    r->metis_uncoarsen = metis_timer(text, "Uncoarsening:");
    r->metis_refine = metis_timer(text, "Refinement:");
  }
  free(text);
}

/* METIS k-way on g: the best wall time of `repeat` calls into
 * r->seconds_metis (0 when a call fails), and with --floor its phases. */
static void metis_run(const minex_graph *g, int repeat, bench_result *r) {
  metis_in m;
  if (!metis_in_make(g, &m))
    return;
  idx_t opts[METIS_NOPTIONS];
  METIS_SetDefaultOptions(opts);
  double best = HUGE_VAL;
  for (int k = 0; k < repeat; k++) {
    double t = wtime();
    int rc = metis_kway(&m, opts);
    t = wtime() - t;
    if (rc != METIS_OK) {
      best = 0;
      break;
    }
    best = fmin(best, t);
  }
  r->seconds_metis = best;
  if (opt_floor && best > 0)
    metis_phases(&m, repeat, r);
  metis_in_free(&m);
}
#endif

static void run_case(int64_t elements, const box_shape *shape,
                     const char *mesh_path, int repeat, bench_result *r) {
  memset(r, 0, sizeof *r);
  minex_graph *g = NULL;
  minex_config *cfg = NULL;
  int32_t *old = NULL, *new_part = NULL, *first = NULL;
  int rc;
  if (make_case(elements, shape, mesh_path, &g, &old, r) != MINEX_OK)
    goto done;
  if ((rc = make_config(&cfg)) != MINEX_OK) {
    fail(r, "minex_config_create", rc);
    goto done;
  }
  int32_t n = minex_graph_nvtxs(g);
  r->nvtxs = n;
  r->nedges = minex_graph_nedges(g);
  new_part = malloc(sizeof *new_part * ((size_t)n + 1));
  first = malloc(sizeof *first * ((size_t)n + 1));
  if (new_part == NULL || first == NULL) {
    snprintf(r->error, sizeof r->error, "out of memory");
    goto done;
  }
  minex_options opt;
  minex_options_init(&opt);
  opt.iterations = opt_iters;
  opt.scratch = opt_scratch;
  opt.refine = opt_refine;
  opt.rounds = opt_rounds;
  opt.cluster_levels = opt_clusters;
  if (opt_verbose)
    opt.log_fn = log_stderr;
  minex_workspace *ws = NULL;
  if (opt_workspace && (rc = minex_workspace_create(&ws)) != MINEX_OK) {
    fail(r, "minex_workspace_create", rc);
    goto done;
  }
  opt.workspace = ws;
  r->rss_base_mib = peak_rss_mib();
  r->identical = 1;
  minex_metrics m, best_m;
  memset(&best_m, 0, sizeof best_m);
  for (int t = 0; t < nthread_counts; t++) {
    opt.nthreads = thread_counts[t];
    r->seconds_t[t] = HUGE_VAL;
    for (int k = 0; k < repeat; k++) {
      double s = wtime();
      rc = minex_repartition(g, cfg, old, &opt, new_part, &m);
      s = wtime() - s;
      if (rc != MINEX_OK) {
        minex_workspace_destroy(ws);
        fail(r, "minex_repartition", rc);
        goto done;
      }
      if (k == 0)
        r->first_t[t] = s;
      else if (t == 0)
        r->later_t0 = r->later_t0 > 0 ? fmin(r->later_t0, s) : s;
      if (t == 0 && s < r->seconds_t[0])
        best_m = m;
      r->seconds_t[t] = fmin(r->seconds_t[t], s);
      r->worst_t[t] = fmax(r->worst_t[t], s);
    }
    if (t == 0)
      memcpy(first, new_part, sizeof *first * (size_t)n);
    else if (memcmp(first, new_part, sizeof *first * (size_t)n) != 0)
      r->identical = 0;
  }
  r->seconds = r->seconds_t[0];
  r->seconds_worst = r->worst_t[0];
  r->rss_peak_mib = peak_rss_mib();
  if (ws != NULL) {
    minex_workspace_get_stats(ws, &r->ws);
    minex_workspace_destroy(ws);
  }
  r->coarse_nvtxs = best_m.coarse_nvtxs;
  r->sec_contract = best_m.seconds_contract;
  r->sec_partition = best_m.seconds_partition;
  r->sec_expand = best_m.seconds_expand;
  r->sec_other = best_m.seconds - best_m.seconds_contract -
                 best_m.seconds_partition - best_m.seconds_expand;
  r->merges = n - (int64_t)best_m.coarse_nvtxs;
  r->par_wall = best_m.seconds_parallel;
  r->par_work = best_m.seconds_parallel_work;
  r->par_span = best_m.seconds_parallel_span;
#ifdef MINEX_BENCH_METIS
  metis_run(g, repeat, r);
#endif
  if (opt_floor)
    floor_passes(g, old, repeat, r);
  minex_metrics mo, mn;
  if ((rc = minex_evaluate(g, cfg, old, old, &opt, &mo)) != MINEX_OK ||
      (rc = minex_evaluate(g, cfg, old, first, &opt, &mn)) != MINEX_OK) {
    fail(r, "minex_evaluate", rc);
    goto done;
  }
  r->max_qwgt_old = mo.max_qwgt;
  r->max_qwgt_new = mn.max_qwgt;
  r->lower_bound = mn.lower_bound;
  r->moved = mn.moved;
  r->ok = 1;
done:
  free(old);
  free(new_part);
  free(first);
  minex_config_destroy(cfg);
  minex_graph_destroy(g);
}

/* Runs one case in a child process and reads its result from a pipe. */
static void run_case_isolated(int64_t elements, const box_shape *shape,
                              const char *mesh_path, int repeat,
                              bench_result *r) {
  int fd[2];
  memset(r, 0, sizeof *r);
  fflush(stdout);
  fflush(stderr);
  if (pipe(fd) != 0) {
    snprintf(r->error, sizeof r->error, "pipe failed");
    return;
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    snprintf(r->error, sizeof r->error, "fork failed");
    return;
  }
  if (pid == 0) {
    close(fd[0]);
    bench_result cr;
    run_case(elements, shape, mesh_path, repeat, &cr);
    ssize_t w = write(fd[1], &cr, sizeof cr);
    close(fd[1]);
    _exit(w == (ssize_t)sizeof cr ? 0 : 1);
  }
  close(fd[1]);
  size_t got = 0;
  while (got < sizeof *r) {
    ssize_t k = read(fd[0], (char *)r + got, sizeof *r - got);
    if (k <= 0)
      break;
    got += (size_t)k;
  }
  close(fd[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  if (got != sizeof *r) {
    memset(r, 0, sizeof *r);
    snprintf(r->error, sizeof r->error,
             "the case's process died (status "
             "%d)",
             st);
  }
}

static void usage(FILE *fp) {
  fprintf(
      fp,
      "Usage: bench_repart [--cases LIST] [--repeat N] [--data DIR]\n"
      "                    [--threads LIST] [--iters K] [--scratch M] "
      "[--refine M]\n"
      "                    [--rounds M] [--cluster-levels M] [--workspace] "
      "[--floor]\n"
      "  --cases LIST    comma-separated: gen1e5, gen1e6, slab1e6, "
      "shift1e6,\n"
      "                  perturb1e6, cube, gen1e4, perturb1e4, gen1e7 "
      "(default\n"
      "                  gen1e5,gen1e6,slab1e6,shift1e6,perturb1e6,cube; "
      "cube is\n"
      "                  skipped when its mesh is absent; perturbN: gen's "
      "box\n"
      "                  repartitioned once, then 5%% more load in one "
      "region)\n"
      "  --repeat N      repartitions per case and thread count, the best "
      "counts\n"
      "                  (default 3)\n"
      "  --threads LIST  comma-separated thread counts, at most %d "
      "(default 1,2);\n"
      "                  the partitions must be identical\n"
      "  --data DIR      data folder with meshes/ (default %s, the\n"
      "                  repository's data/, or $MINEX_DATA)\n"
      "  --iters K       horizon k of SPEC section 2 (default 1)\n"
      "  --scratch M     from-scratch candidate: on, off or auto (default)\n"
      "  --refine M      refinement: on, off or auto (default)\n"
      "  --rounds M      synchronous rounds (options.rounds): on, off or "
      "auto (default)\n"
      "  --cluster-levels M  cluster levels in the contraction\n"
      "                  (options.cluster_levels): on, off or auto "
      "(default)\n"
      "  --workspace     one minex_workspace per case, kept across its "
      "calls\n"
      "                  (options.workspace): the first call's time and the "
      "others'\n"
      "                  best are printed, and what the workspace held\n"
      "  --floor         what one pass over the graph costs here (a "
      "streaming\n"
      "                  pass, an owner-gather pass) and METIS k-way's own "
      "phase\n"
      "                  times, against MinEX's phases\n"
      "  -v, --verbose   the library's phase log on stderr\n",
      MAX_THREAD_COUNTS, MINEX_DATA_DIR);
}

/* "1,2,4" into thread_counts; 0 on a bad list. */
static int parse_threads(const char *s) {
  int k = 0;
  const char *p = s;
  while (*p != '\0') {
    char *end;
    long t = strtol(p, &end, 10);
    if (end == p || t < 1 || t > 4096 || k == MAX_THREAD_COUNTS)
      return 0;
    thread_counts[k++] = (int32_t)t;
    p = end;
    if (*p == ',')
      p++;
    else if (*p != '\0')
      return 0;
  }
  nthread_counts = k;
  return k > 0;
}

/* on|off|auto as the MINEX_*_ON/OFF/AUTO values; -1 when neither */
static int mode_arg(const char *s, int on, int off, int aut) {
  return strcmp(s, "on") == 0     ? on
         : strcmp(s, "off") == 0  ? off
         : strcmp(s, "auto") == 0 ? aut
                                  : -1;
}

static const char *mode_name(int m, int on, int off) {
  return m == on ? "on" : m == off ? "off" : "auto";
}

static int has_case(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
    if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
      return 1;
  return 0;
}

int main(int argc, char **argv) {
  const char *cases = "gen1e5,gen1e6,slab1e6,shift1e6,perturb1e6,cube";
  const char *data = getenv("MINEX_DATA");
  int repeat = 3;
  if (data == NULL || data[0] == '\0')
    data = MINEX_DATA_DIR;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--cases") == 0 && i + 1 < argc)
      cases = argv[++i];
    else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
      repeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "--data") == 0 && i + 1 < argc)
      data = argv[++i];
    else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc)
      opt_iters = (int32_t)atol(argv[++i]);
    else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc &&
             parse_threads(argv[i + 1]))
      i++;
    else if (strcmp(argv[i], "--scratch") == 0 && i + 1 < argc &&
             (opt_scratch = mode_arg(argv[++i], MINEX_SCRATCH_ON,
                                     MINEX_SCRATCH_OFF, MINEX_SCRATCH_AUTO)) >=
                 0)
      continue;
    else if (strcmp(argv[i], "--refine") == 0 && i + 1 < argc &&
             (opt_refine = mode_arg(argv[++i], MINEX_REFINE_ON,
                                    MINEX_REFINE_OFF, MINEX_REFINE_AUTO)) >= 0)
      continue;
    else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc &&
             (opt_rounds = mode_arg(argv[++i], MINEX_ROUNDS_ON,
                                    MINEX_ROUNDS_OFF, MINEX_ROUNDS_AUTO)) >= 0)
      continue;
    else if (strcmp(argv[i], "--cluster-levels") == 0 && i + 1 < argc &&
             (opt_clusters = mode_arg(argv[++i], MINEX_CLUSTER_LEVELS_ON,
                                      MINEX_CLUSTER_LEVELS_OFF,
                                      MINEX_CLUSTER_LEVELS_AUTO)) >= 0)
      continue;
    else if (strcmp(argv[i], "--workspace") == 0)
      opt_workspace = 1;
    else if (strcmp(argv[i], "--floor") == 0)
      opt_floor = 1;
    else if (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "--verbose") == 0)
      opt_verbose = 1;
    else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 0;
    } else {
      usage(stderr);
      return 2;
    }
  }
  if (repeat < 1)
    repeat = 1;
  if (opt_iters < 1) {
    usage(stderr);
    return 2;
  }
  char mesh_path[4096];
  snprintf(mesh_path, sizeof mesh_path, "%s/meshes/cube_big_tetra.mesh", data);

  /* the 10^6 shapes: the cube of the `minex gen` rule (55^3 cubes), an
     elongated slab (160 x 40 x 26 cubes, 998,400 elements: RCB cuts it
     into long parts) and the cube with its refined ball moved to x = 0.7
     (`minex gen --step 4`: more of the old parts are out of balance) */
  struct {
    const char *name;
    int64_t elements;
    box_shape shape;
    const char *mesh;
  } all[] = {{"gen1e5", 100000, {0, 0, 0, 0.3, 0}, NULL},
             {"gen1e6", 1000000, {0, 0, 0, 0.3, 0}, NULL},
             {"slab1e6", 998400, {160, 40, 26, 0.3, 0}, NULL},
             {"shift1e6", 1000000, {0, 0, 0, 0.7, 0}, NULL},
             {"perturb1e6", 1000000, {0, 0, 0, 0.3, 1}, NULL},
             {"cube", 0, {0, 0, 0, 0.3, 0}, mesh_path},
             {"gen1e4", 10000, {0, 0, 0, 0.3, 0}, NULL}, /* ctest smoke */
             {"perturb1e4", 10000, {0, 0, 0, 0.3, 1}, NULL},
             {"gen1e7", 10000000, {0, 0, 0, 0.3, 0}, NULL}};
  enum { NCASES = sizeof all / sizeof all[0] };
  bench_result res[NCASES];
  int ran[NCASES] = {0};
  int failed = 0;

  printf("minex %s bench_repart: P = %d in %d clusters of 16, Proc = "
         "1,1,2,2, Conn 1 inside / 10 between; alpha 0, ThroTTle inf, "
         "k = %d, scratch %s, refine %s, rounds %s, cluster levels %s, "
         "other options default; best of %d for each thread count\n\n",
         MINEX_VERSION_STRING, BENCH_P, BENCH_CLUSTERS, (int)opt_iters,
         mode_name(opt_scratch, MINEX_SCRATCH_ON, MINEX_SCRATCH_OFF),
         mode_name(opt_refine, MINEX_REFINE_ON, MINEX_REFINE_OFF),
         mode_name(opt_rounds, MINEX_ROUNDS_ON, MINEX_ROUNDS_OFF),
         mode_name(opt_clusters, MINEX_CLUSTER_LEVELS_ON,
                   MINEX_CLUSTER_LEVELS_OFF),
         repeat);
  printf("%-10s %9s %9s", "case", "vertices", "edges");
  for (int t = 0; t < nthread_counts; t++) {
    char h[32];
    snprintf(h, sizeof h, "%dT best", (int)thread_counts[t]);
    printf(" %9s %9s", h, "worst");
  }
  printf(" %9s %9s %12s %12s %8s %9s\n", "METIS s", "RSS MiB", "MaxQwgt old",
         "MaxQwgt new", "new/LB", "moved");
  for (int c = 0; c < NCASES; c++) {
    if (!has_case(cases, all[c].name))
      continue;
    struct stat st;
    if (all[c].mesh != NULL && stat(all[c].mesh, &st) != 0) {
      printf("%-10s skipped: %s is absent\n", all[c].name, all[c].mesh);
      continue;
    }
    bench_result *r = &res[c];
    run_case_isolated(all[c].elements, &all[c].shape, all[c].mesh, repeat, r);
    ran[c] = 1;
    if (!r->ok) {
      printf("%-10s FAILED: %s\n", all[c].name, r->error);
      failed = 1;
      continue;
    }
    if (!r->identical) {
      printf("%-10s FAILED: the thread counts gave different partitions\n",
             all[c].name);
      failed = 1;
    }
    printf("%-10s %9" PRId32 " %9" PRId64, all[c].name, r->nvtxs, r->nedges);
    for (int t = 0; t < nthread_counts; t++)
      printf(" %9.3f %9.3f", r->seconds_t[t], r->worst_t[t]);
    printf(" %9.3f %9.1f %12.1f %12.1f %8.3f %9" PRId64 "\n", r->seconds_metis,
           r->rss_peak_mib, r->max_qwgt_old, r->max_qwgt_new,
           r->lower_bound > 0 ? r->max_qwgt_new / r->lower_bound : 0.0,
           r->moved);
  }
  printf("\n");
  for (int c = 0; c < NCASES; c++) {
    if (!ran[c] || !res[c].ok)
      continue;
    const bench_result *r = &res[c];
    printf("bench: case=%s nvtxs=%" PRId32 " nedges=%" PRId64
           " P=%d seconds=%.4f rss_mib=%.1f rss_before_mib=%.1f "
           "max_qwgt_old=%.17g max_qwgt_new=%.17g lower_bound=%.17g "
           "moved=%" PRId64 " coarse_nvtxs=%" PRId32 "\n",
           all[c].name, r->nvtxs, r->nedges, BENCH_P, r->seconds,
           r->rss_peak_mib, r->rss_base_mib, r->max_qwgt_old, r->max_qwgt_new,
           r->lower_bound, r->moved, r->coarse_nvtxs);
    printf("bench: case=%s threads=%d phases: contract %.3f s (%.0f ns per "
           "merged pair, %" PRId64 " pairs), partition %.3f s, expansion "
           "and refinement %.3f s, the rest (layout, loads, scoring) %.3f "
           "s; memory beyond the input %.0f bytes per vertex\n",
           all[c].name, (int)thread_counts[0], r->sec_contract,
           r->merges > 0 ? 1e9 * r->sec_contract / (double)r->merges : 0.0,
           r->merges, r->sec_partition, r->sec_expand, r->sec_other,
           r->nvtxs > 0
               ? (r->rss_peak_mib - r->rss_base_mib) * 1048576.0 / r->nvtxs
               : 0.0);
    /* A projection to more cores from the first count's run:
       what ran outside the parallel regions stays, the work divides, the
       largest unit of each region stays (an upper bound; the lower bound
       takes the larger of work / c and the span) */
    double serial = r->seconds - r->par_wall;
    printf("bench: case=%s projection from the %d-thread run (an estimate, "
           "not a measurement): outside the parallel regions %.3f s, their "
           "work %.3f s, their span %.3f s",
           all[c].name, (int)thread_counts[0], serial, r->par_work,
           r->par_span);
    static const int cores[] = {2, 16, 64};
    for (int k = 0; k < 3; k++)
      printf("; %d cores %.3f-%.3f s", cores[k],
             serial + fmax(r->par_work / cores[k], r->par_span),
             serial + r->par_work / cores[k] + r->par_span);
    printf("\n");
    for (int t = 0; t < nthread_counts; t++)
      printf("bench: case=%s threads=%d seconds=%.4f worst=%.4f%s\n",
             all[c].name, (int)thread_counts[t], r->seconds_t[t], r->worst_t[t],
             r->identical ? " identical" : " DIFFERENT");
    if (opt_workspace)
      printf("bench: case=%s threads=%d workspace: first call (a new "
             "workspace) %.4f s, the later calls' best %.4f s\n",
             all[c].name, (int)thread_counts[0], r->first_t[0], r->later_t0);
    if (opt_workspace)
      printf("bench: case=%s workspace held %.1f MiB in %lld blocks after %lld "
             "calls; the last call made %lld new blocks (%.1f MiB), reused "
             "%lld; its peak in use %.1f MiB\n",
             all[c].name, r->ws.bytes_held / 1048576.0,
             (long long)r->ws.blocks_held, (long long)r->ws.calls,
             (long long)r->ws.blocks_new, r->ws.bytes_new / 1048576.0,
             (long long)r->ws.blocks_reused, r->ws.bytes_peak / 1048576.0);
    for (int t = 0; t < nthread_counts && r->seconds_metis > 0; t++) {
      double goal = all[c].shape.perturb    ? TARGET_METIS_RATIO_PERTURB
                    : thread_counts[t] == 1 ? TARGET_METIS_RATIO
                    : thread_counts[t] == 2 ? TARGET_METIS_RATIO_2T
                                            : 0;
      double ratio = r->seconds_t[t] / r->seconds_metis;
      printf("bench: case=%s threads=%d metis_kway_seconds=%.4f "
             "minex_over_metis=%.2f",
             all[c].name, (int)thread_counts[t], r->seconds_metis, ratio);
      if (goal > 0)
        printf(" (target <= %.2f) %s", goal, ratio <= goal ? "met" : "MISSED");
      printf("\n");
    }
    if (opt_floor && r->sec_gather > 0)
      printf("bench: case=%s floor: one streaming pass over the CSR %.4f s, "
             "one owner-gather pass %.4f s; MinEX contraction %.3f s = %.1f "
             "owner-gather passes, expansion and refinement %.3f s = %.1f\n",
             all[c].name, r->sec_stream, r->sec_gather, r->sec_contract,
             r->sec_contract / r->sec_gather, r->sec_expand,
             r->sec_expand / r->sec_gather);
    if (opt_floor && r->metis_coarsen > 0)
      printf("bench: case=%s floor: METIS k-way by its own timers %.3f s: "
             "coarsening %.3f s (matching %.3f, contraction %.3f), initial "
             "partition %.3f s, uncoarsening %.3f s (refinement %.3f); MinEX "
             "contraction / METIS coarsening %.2f, MinEX / METIS coarsening "
             "%.2f\n",
             all[c].name, r->metis_total, r->metis_coarsen, r->metis_match,
             r->metis_contract, r->metis_init, r->metis_uncoarsen,
             r->metis_refine, r->sec_contract / r->metis_coarsen,
             r->seconds / r->metis_coarsen);
    int is1e6 = r->nvtxs > 900000 && r->nvtxs < 1100000;
    for (int t = 0; t < nthread_counts && is1e6; t++) {
      double goal = thread_counts[t] == 1   ? TARGET_SECONDS_1E6
                    : thread_counts[t] == 2 ? TARGET_SECONDS_1E6_2T
                                            : 0;
      if (goal > 0)
        printf("bench: target_1e6_seconds case=%s threads=%d %.3f (target "
               "<= %.2f) %s\n",
               all[c].name, (int)thread_counts[t], r->seconds_t[t], goal,
               r->seconds_t[t] <= goal ? "met" : "MISSED");
    }
  }
  if (ran[0] && ran[1] && res[0].ok && res[1].ok) {
    double ratio = res[1].seconds / res[0].seconds;
    printf("bench: ratio_1e5_to_1e6=%.2f (target <= %.0f) %s\n", ratio,
           TARGET_RATIO, ratio <= TARGET_RATIO ? "met" : "MISSED");
  }
  if (ran[1] && res[1].ok)
    printf("bench: target_1e6_rss_mib=%.1f (target <= %.0f) %s\n",
           res[1].rss_peak_mib, TARGET_RSS_MIB,
           res[1].rss_peak_mib <= TARGET_RSS_MIB ? "met" : "MISSED");
  if (ran[NCASES - 1] && res[NCASES - 1].ok) {
    const bench_result *r = &res[NCASES - 1];
    printf("bench: target_1e7_seconds=%.3f (target <= %.1f) %s\n", r->seconds,
           TARGET_SECONDS_1E7,
           r->seconds <= TARGET_SECONDS_1E7 ? "met" : "MISSED");
    printf("bench: target_1e7_rss_mib=%.1f (target <= %.0f; the looser "
           "bound <= %.0f) %s\n",
           r->rss_peak_mib, TARGET_RSS_MIB_1E7_19, TARGET_RSS_MIB_1E7,
           r->rss_peak_mib <= TARGET_RSS_MIB_1E7_19 ? "met" : "MISSED");
  }
  return failed ? 1 : 0;
}
