/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Repartitioning benchmark (issue 2 targets): wall time of minex_repartition
 * (best of N, one thread) and peak RSS on refined-ball boxes of 1e5 and 1e6
 * elements and on the dual of cube_big_tetra.mesh; P = 64 in 4 clusters of
 * 16, Proc = 1,1,2,2, Conn 1 inside / 10 between. Public API only.
 * Each case runs in a child process so that its peak RSS is its own. */
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

#ifndef MINEX_DATA_DIR
#define MINEX_DATA_DIR "data"
#endif

#define BENCH_P 64
#define BENCH_CLUSTERS 4

/* Targets on the reference 2-core machine, one core (issue 2). */
#define TARGET_SECONDS_1E6 1.0
#define TARGET_RSS_MIB 1024.0
#define TARGET_RSS_MIB_1E7 8192.0 /* 10^7 elements: < 8 GiB (issue 10) */
#define TARGET_RATIO 12.0

typedef struct bench_result {
  int ok;          /* 1: the case ran                               */
  char error[256]; /* why not                                       */
  int32_t nvtxs;   /* graph size                                    */
  int64_t nedges;
  double seconds;       /* best wall time of minex_repartition           */
  double seconds_worst; /* worst of the repeats                          */
  double rss_base_mib;  /* peak RSS before the first repartition         */
  double rss_peak_mib;  /* peak RSS of the whole case                    */
  double max_qwgt_old;  /* MaxQwgt of the old partition                  */
  double max_qwgt_new;  /* MaxQwgt after repartitioning                  */
  double lower_bound;   /* LB                                            */
  int64_t moved;        /* vertices moved                                */
  int32_t coarse_nvtxs; /* vertices after contraction                    */
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
static int make_case(int64_t elements, const char *mesh_path, minex_graph **g,
                     int32_t **old, bench_result *r) {
  minex_mesh *mesh = NULL;
  int rc;
  if (mesh_path != NULL) {
    if ((rc = minex_mesh_read(mesh_path, &mesh)) != MINEX_OK)
      return fail(r, "minex_mesh_read", rc);
  } else {
    int32_t nx = (int32_t)fmax(1.0, round(cbrt((double)elements / 6.0)));
    if ((rc = minex_gen_box(nx, nx, nx, &mesh)) != MINEX_OK)
      return fail(r, "minex_gen_box", rc);
  }
  minex_ball ball = {{0.3, 0.5, 0.5}, 0.15 * sqrt(3.0), 8.0, 4.0};
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
  return MINEX_OK;
}

/* Options of the run beyond the defaults (--iters, --scratch, --refine). */
static int32_t opt_iters = 1;
static int opt_scratch = MINEX_SCRATCH_AUTO;
static int opt_refine = MINEX_REFINE_AUTO;

static void run_case(int64_t elements, const char *mesh_path, int repeat,
                     bench_result *r) {
  memset(r, 0, sizeof *r);
  minex_graph *g = NULL;
  minex_config *cfg = NULL;
  int32_t *old = NULL, *new_part = NULL;
  int rc;
  if (make_case(elements, mesh_path, &g, &old, r) != MINEX_OK)
    goto done;
  if ((rc = make_config(&cfg)) != MINEX_OK) {
    fail(r, "minex_config_create", rc);
    goto done;
  }
  int32_t n = minex_graph_nvtxs(g);
  r->nvtxs = n;
  r->nedges = minex_graph_nedges(g);
  new_part = malloc(sizeof *new_part * ((size_t)n + 1));
  if (new_part == NULL) {
    snprintf(r->error, sizeof r->error, "out of memory");
    goto done;
  }
  minex_options opt;
  minex_options_init(&opt);
  opt.iterations = opt_iters;
  opt.scratch = opt_scratch;
  opt.refine = opt_refine;
  r->rss_base_mib = peak_rss_mib();
  r->seconds = HUGE_VAL;
  minex_metrics m;
  for (int k = 0; k < repeat; k++) {
    double t = wtime();
    rc = minex_repartition(g, cfg, old, &opt, new_part, &m);
    t = wtime() - t;
    if (rc != MINEX_OK) {
      fail(r, "minex_repartition", rc);
      goto done;
    }
    r->seconds = fmin(r->seconds, t);
    r->seconds_worst = fmax(r->seconds_worst, t);
  }
  r->rss_peak_mib = peak_rss_mib();
  r->coarse_nvtxs = m.coarse_nvtxs;
  minex_metrics mo, mn;
  if ((rc = minex_evaluate(g, cfg, old, old, &opt, &mo)) != MINEX_OK ||
      (rc = minex_evaluate(g, cfg, old, new_part, &opt, &mn)) != MINEX_OK) {
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
  minex_config_destroy(cfg);
  minex_graph_destroy(g);
}

/* Runs one case in a child process and reads its result from a pipe. */
static void run_case_isolated(int64_t elements, const char *mesh_path,
                              int repeat, bench_result *r) {
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
    run_case(elements, mesh_path, repeat, &cr);
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
      "  --cases LIST  comma-separated: gen1e5, gen1e6, cube, gen1e4, gen1e7 "
      "(default\n"
      "                gen1e5,gen1e6,cube; cube is skipped when its "
      "mesh is absent)\n"
      "  --repeat N    repartitions per case, the best time counts "
      "(default 3)\n"
      "  --data DIR    data folder with meshes/ (default %s, "
      "the\n"
      "                repository's data/, or $MINEX_DATA)\n"
      "  --iters K     horizon k of SPEC section 2 (default 1)\n"
      "  --scratch M   from-scratch candidate: on, off or auto (default)\n"
      "  --refine M    refinement: on, off or auto (default)\n",
      MINEX_DATA_DIR);
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
  const char *cases = "gen1e5,gen1e6,cube";
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
    else if (strcmp(argv[i], "--scratch") == 0 && i + 1 < argc &&
             (opt_scratch = mode_arg(argv[++i], MINEX_SCRATCH_ON,
                                     MINEX_SCRATCH_OFF, MINEX_SCRATCH_AUTO)) >=
                 0)
      continue;
    else if (strcmp(argv[i], "--refine") == 0 && i + 1 < argc &&
             (opt_refine = mode_arg(argv[++i], MINEX_REFINE_ON,
                                    MINEX_REFINE_OFF, MINEX_REFINE_AUTO)) >= 0)
      continue;
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

  struct {
    const char *name;
    int64_t elements;
    const char *mesh;
  } all[] = {{"gen1e5", 100000, NULL},
             {"gen1e6", 1000000, NULL},
             {"cube", 0, mesh_path},
             {"gen1e4", 10000, NULL},     /* smoke test only (ctest) */
             {"gen1e7", 10000000, NULL}}; /* memory: docs/reliability.md */
  enum { NCASES = sizeof all / sizeof all[0] };
  bench_result res[NCASES];
  int ran[NCASES] = {0};
  int failed = 0;

  printf("minex %s bench_repart: P = %d in %d clusters of 16, Proc = "
         "1,1,2,2, Conn 1 inside / 10 between; alpha 0, ThroTTle inf, "
         "k = %d, scratch %s, refine %s, other options default; best of "
         "%d\n\n",
         MINEX_VERSION_STRING, BENCH_P, BENCH_CLUSTERS, (int)opt_iters,
         mode_name(opt_scratch, MINEX_SCRATCH_ON, MINEX_SCRATCH_OFF),
         mode_name(opt_refine, MINEX_REFINE_ON, MINEX_REFINE_OFF), repeat);
  printf("%-8s %9s %9s %9s %9s %9s %12s %12s %12s %8s %9s\n", "case",
         "vertices", "edges", "best s", "worst s", "RSS MiB", "MaxQwgt old",
         "MaxQwgt new", "LB", "new/LB", "moved");
  for (int c = 0; c < NCASES; c++) {
    if (!has_case(cases, all[c].name))
      continue;
    struct stat st;
    if (all[c].mesh != NULL && stat(all[c].mesh, &st) != 0) {
      printf("%-8s skipped: %s is absent\n", all[c].name, all[c].mesh);
      continue;
    }
    bench_result *r = &res[c];
    run_case_isolated(all[c].elements, all[c].mesh, repeat, r);
    ran[c] = 1;
    if (!r->ok) {
      printf("%-8s FAILED: %s\n", all[c].name, r->error);
      failed = 1;
      continue;
    }
    printf("%-8s %9" PRId32 " %9" PRId64 " %9.3f %9.3f %9.1f %12.1f %12.1f "
           "%12.1f %8.3f %9" PRId64 "\n",
           all[c].name, r->nvtxs, r->nedges, r->seconds, r->seconds_worst,
           r->rss_peak_mib, r->max_qwgt_old, r->max_qwgt_new, r->lower_bound,
           r->lower_bound > 0 ? r->max_qwgt_new / r->lower_bound : 0.0,
           r->moved);
  }
  printf("\n");
  for (int c = 0; c < NCASES; c++)
    if (ran[c] && res[c].ok)
      printf("bench: case=%s nvtxs=%" PRId32 " nedges=%" PRId64
             " P=%d seconds=%.4f rss_mib=%.1f rss_before_mib=%.1f "
             "max_qwgt_old=%.17g max_qwgt_new=%.17g lower_bound=%.17g "
             "moved=%" PRId64 " coarse_nvtxs=%" PRId32 "\n",
             all[c].name, res[c].nvtxs, res[c].nedges, BENCH_P, res[c].seconds,
             res[c].rss_peak_mib, res[c].rss_base_mib, res[c].max_qwgt_old,
             res[c].max_qwgt_new, res[c].lower_bound, res[c].moved,
             res[c].coarse_nvtxs);
  if (ran[0] && ran[1] && res[0].ok && res[1].ok) {
    double ratio = res[1].seconds / res[0].seconds;
    printf("bench: ratio_1e5_to_1e6=%.2f (target <= %.0f) %s\n", ratio,
           TARGET_RATIO, ratio <= TARGET_RATIO ? "met" : "MISSED");
  }
  if (ran[1] && res[1].ok) {
    printf("bench: target_1e6_seconds=%.3f (target <= %.1f) %s\n",
           res[1].seconds, TARGET_SECONDS_1E6,
           res[1].seconds <= TARGET_SECONDS_1E6 ? "met" : "MISSED");
    printf("bench: target_1e6_rss_mib=%.1f (target <= %.0f) %s\n",
           res[1].rss_peak_mib, TARGET_RSS_MIB,
           res[1].rss_peak_mib <= TARGET_RSS_MIB ? "met" : "MISSED");
  }
  if (ran[NCASES - 1] && res[NCASES - 1].ok)
    printf("bench: target_1e7_rss_mib=%.1f (target <= %.0f) %s\n",
           res[NCASES - 1].rss_peak_mib, TARGET_RSS_MIB_1E7,
           res[NCASES - 1].rss_peak_mib <= TARGET_RSS_MIB_1E7 ? "met"
                                                              : "MISSED");
  return failed ? 1 : 0;
}
