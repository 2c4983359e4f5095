/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex-sweep-mpi: the MinEX paper's Tables 1-4 (§4) as `minex sweep` runs
 * them, with the configurations spread over MPI ranks (configuration i on
 * rank i mod size, each rank on --threads threads). Every rank builds the
 * workload itself (it is deterministic); the records, zero where a rank did
 * not run the configuration, are summed on rank 0, which writes DIR. The
 * output equals a serial run's but for the timing columns
 * (docs/guide/sweeps-mpi.md). A failure on any rank ends every rank non-zero.
 */
#include "sweep.h"
#include "tool_sim.h"

#include <mpi.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Name in messages: "minex sweep-mpi: ..." like the tool's subcommands. */
static const char *const cmd = "sweep-mpi";

typedef struct mpi_args {
  tool_workload_args wa; /* MESH, --box, --steps, --depth, ...           */
  const char *dir;       /* -o DIR (rank 0 writes there)                  */
  int32_t list[8];       /* tables to run, in order                       */
  int32_t nt;            /* entries of list                               */
  int32_t threads;       /* --threads per rank                            */
  uint64_t seed;         /* --seed                                        */
  int verbose, plots;    /* -v, not --no-plots                            */
} mpi_args;

/* Who is talking: the rank in every runtime message. */
typedef struct mpi_who {
  int rank, size;
  char cmd[64]; /* "sweep-mpi: rank R of N", the tool functions' cmd */
} mpi_who;

static void help(void) {
  printf("Usage: mpiexec.mpich -n N minex-sweep-mpi [--table LIST] [-o DIR] "
         "[--threads N]\n"
         "                   [--seed S] [--no-plots] [MESH] [workload "
         "options] [-v]\n"
         "\n"
         "Runs the paper's parameter studies like `minex sweep`, the "
         "configurations spread\nover the MPI ranks (configuration i on rank "
         "i mod N). Every rank builds the\nworkload; rank 0 gathers the "
         "results and writes DIR/tableN.csv, tableN_steps.csv,\ntableN.md and "
         "the gnuplot plots. The files equal those of `minex sweep` but "
         "for\nthe timing columns.\n"
         "\n"
         "  --table LIST         comma-separated tables 1, 1log, 2, 3, 4, or "
         "all (default all)\n"
         "  -o, --output DIR     output directory on rank 0, created if "
         "missing\n"
         "                       (default minex-sweep)\n"
         "  --threads N          worker threads per rank (default 1)\n"
         "  --seed S             random seed of every run (default 1)\n"
         "  --no-plots           do not run gnuplot (the scripts are still "
         "written)\n");
  tool_workload_help();
  printf("  -v, --verbose        progress on stderr (every rank)\n"
         "  -h, --help           this help\n");
}

enum { PARSE_RUN, PARSE_HELP, PARSE_USAGE };

/* The command line; the same on every rank, so every rank reaches the same
 * verdict without talking. */
static int parse(int argc, char **argv, mpi_args *a) {
  memset(a, 0, sizeof *a);
  tool_workload_defaults(&a->wa);
  a->dir = "minex-sweep";
  a->threads = 1;
  a->seed = 1;
  a->plots = 1;
  const char *tables = "all";
  tool_args ta;
  tool_args_init(&ta, argc, argv);
  ta.cmd = cmd; /* argv[0] is the program path, not a subcommand */
  int more;
  while ((more = tool_args_next(&ta)) > 0) {
    const char *v;
    int w = tool_workload_option(&ta, cmd, &a->wa);
    if (w < 0)
      return PARSE_USAGE;
    if (w > 0)
      continue;
    if (tool_args_is(&ta, "-h", "--help")) {
      if (tool_args_no_value(&ta) != 0)
        return PARSE_USAGE;
      return PARSE_HELP;
    } else if (tool_args_is(&ta, NULL, "--table")) {
      if ((tables = tool_args_value(&ta)) == NULL)
        return PARSE_USAGE;
    } else if (tool_args_is(&ta, "-o", "--output")) {
      if ((a->dir = tool_args_value(&ta)) == NULL)
        return PARSE_USAGE;
    } else if (tool_args_is(&ta, NULL, "--threads")) {
      if ((v = tool_args_value(&ta)) == NULL ||
          tool_parse_i32(cmd, "--threads", v, 1, &a->threads))
        return PARSE_USAGE;
    } else if (tool_args_is(&ta, NULL, "--seed")) {
      if ((v = tool_args_value(&ta)) == NULL ||
          tool_parse_u64(cmd, "--seed", v, &a->seed))
        return PARSE_USAGE;
    } else if (tool_args_is(&ta, NULL, "--no-plots")) {
      a->plots = 0;
    } else if (tool_args_is(&ta, "-v", "--verbose")) {
      a->verbose = 1;
    } else if (tool_args_is_option(&ta)) {
      tool_usage_error(cmd, "unknown option '%s'", ta.arg);
      return PARSE_USAGE;
    } else if (a->wa.mesh_path == NULL) {
      a->wa.mesh_path = ta.arg;
    } else {
      tool_usage_error(cmd, "more than one mesh ('%s', '%s')", a->wa.mesh_path,
                       ta.arg);
      return PARSE_USAGE;
    }
  }
  if (more < 0)
    return PARSE_USAGE;
  return tool_parse_tables(cmd, tables, a->list, &a->nt) == 0 ? PARSE_RUN
                                                              : PARSE_USAGE;
}

/* parse() with the usage errors of ranks other than 0 silenced: N copies
 * of one message help nobody. */
static int parse_on_rank(int rank, int argc, char **argv, mpi_args *a) {
  int saved = -1;
  if (rank != 0) {
    fflush(stderr);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      saved = dup(STDERR_FILENO);
      if (saved >= 0)
        dup2(null, STDERR_FILENO);
      close(null);
    }
  }
  int r = parse(argc, argv, a);
  if (saved >= 0) {
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
  }
  return r;
}

/* 1 when `failed` is non-zero on any rank. Collective: every rank calls it
 * at the same points, so a rank that failed never leaves the others
 * waiting in a later reduction. */
static int any_failed(int failed) {
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any;
}

/* Prints the last sims/ failure with the rank; returns 1 (failed). */
static int report(const mpi_who *who, int rc) {
  const char *m = sim_last_error();
  fprintf(stderr, "minex %s: %s\n", who->cmd,
          m && m[0] ? m : minex_strerror(rc));
  return 1;
}

/* Sums the n doubles of buf over the ranks into rank 0's buf. MPI counts
 * are int: large arrays go in pieces. */
static void sum_to_root(const mpi_who *who, double *buf, int64_t n) {
  const int64_t piece = (int64_t)1 << 24;
  for (int64_t off = 0; off < n; off += piece) {
    int k = (int)(n - off < piece ? n - off : piece);
    if (who->rank == 0)
      MPI_Reduce(MPI_IN_PLACE, buf + off, k, MPI_DOUBLE, MPI_SUM, 0,
                 MPI_COMM_WORLD);
    else
      MPI_Reduce(buf + off, NULL, k, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  }
}

/* What a progress line needs: the rank and the records' steps. */
typedef struct mpi_progress {
  const mpi_who *who;
  int32_t nsteps;
} mpi_progress;

static void progress(const sweep_spec *s, const double *rec, int32_t done,
                     int32_t todo, void *ctx) {
  const mpi_progress *pr = ctx;
  char th[48];
  sweep_throttle_label(s, rec, pr->nsteps, th, sizeof th);
  fprintf(stderr,
          "minex %s: %s %d/%d: P %d C %d I %g alpha %g ThroTTle %s: total "
          "%.0f, %.2f s\n",
          pr->who->cmd, sweep_table_name(s->table), (int)done, (int)todo,
          (int)s->P, (int)s->C, s->I, s->alpha, th, rec[SWEEP_SUM_TOTAL],
          rec[SWEEP_SUM_SECONDS]);
}

/* Copies DIR/<table>.md to stdout (rank 0, after writing it). */
static void print_md(const char *dir, int32_t table) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.md", dir, sweep_table_name(table));
  FILE *fp = fopen(path, "r");
  if (fp == NULL)
    return;
  char buf[4096];
  size_t k;
  printf("\n");
  while ((k = fread(buf, 1, sizeof buf, fp)) > 0)
    fwrite(buf, 1, k, stdout);
  fclose(fp);
}

/* Rank 0's part once the records are summed: every record must have been
 * filled by exactly one rank; then the files, the table and the plots. */
static int write_table(const mpi_who *who, const mpi_args *a, int32_t table,
                       const sweep_spec *specs, int32_t n, int32_t nsteps,
                       const double *res, double wall, double *t_repart) {
  int64_t rs = sweep_record_size(nsteps);
  double cpu = 0;
  for (int32_t i = 0; i < n; i++) {
    const double *rec = res + (int64_t)i * rs;
    if (rec[SWEEP_SUM_DONE] != 1)
      return report(who, sim_fail(MINEX_EINTERNAL,
                                  "%s: configuration %d "
                                  "was run by %g ranks instead of 1",
                                  sweep_table_name(table), (int)i,
                                  rec[SWEEP_SUM_DONE]));
    cpu += rec[SWEEP_SUM_SECONDS];
  }
  *t_repart += cpu;
  int rc = sweep_write(a->dir, table, specs, n, nsteps, res);
  if (rc != MINEX_OK)
    return report(who, rc);
  print_md(a->dir, table);
  printf("\n%s: %d configurations x %d adaptations in %.2f s wall on %d "
         "ranks x %d threads (repartition calls %.2f s summed)\n",
         sweep_table_name(table), (int)n, (int)nsteps, wall, who->size,
         (int)a->threads, cpu);
  fflush(stdout);
  if (a->plots && sweep_plot(a->dir, table) != MINEX_OK)
    fprintf(stderr, "minex %s: plots: %s\n", who->cmd, sim_last_error());
  return 0;
}

/* One table on every rank. Returns 1 when it failed on any rank (the
 * failing rank has said why), the same on every rank. */
static int run_table(const mpi_who *who, const mpi_args *a,
                     const minex_mesh *mesh, const sim_workload *wl,
                     int32_t table, double *t_repart) {
  sweep_spec *specs = NULL;
  double *res = NULL;
  int32_t n = 0;
  int64_t count = 0;
  int rc = sweep_specs(table, &specs, &n);
  if (rc == MINEX_OK) {
    count = (int64_t)n * sweep_record_size(wl->nsteps);
    /* zeros where this rank does not run: the sum over ranks is exact */
    res = calloc((size_t)count, sizeof(double));
    if (res == NULL)
      rc = sim_fail(MINEX_ENOMEM, "%s: out of memory for %lld records",
                    sweep_table_name(table), (long long)n);
  }
  double t0 = MPI_Wtime();
  mpi_progress pr = {who, wl->nsteps};
  if (rc == MINEX_OK)
    rc = sweep_run(wl, mesh, specs, n, a->seed, who->rank, who->size,
                   a->threads, res, a->verbose ? progress : NULL, &pr);
  int failed = rc != MINEX_OK ? report(who, rc) : 0;
  if (!any_failed(failed)) {
    sum_to_root(who, res, count);
    double wall = MPI_Wtime() - t0; /* rank 0 waited for the slowest */
    failed = who->rank == 0 ? write_table(who, a, table, specs, n, wl->nsteps,
                                          res, wall, t_repart)
                            : 0;
    failed = any_failed(failed);
  } else {
    failed = 1;
  }
  free(res);
  free(specs);
  return failed;
}

static int run(const mpi_who *who, int provided, const mpi_args *in) {
  mpi_args a = *in;
  if (a.threads > 1 && provided < MPI_THREAD_FUNNELED) {
    /* the workers never call MPI, but MPI_THREAD_SINGLE allows no threads */
    if (who->rank == 0)
      fprintf(stderr,
              "minex %s: this MPI supports no threads; running "
              "with --threads 1\n",
              cmd);
    a.threads = 1;
  }
  int failed = 0;
  if (who->rank == 0 && mkdir(a.dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "minex %s: %s: cannot create the directory: %s\n", who->cmd,
            a.dir, strerror(errno));
    failed = 1;
  }
  if (any_failed(failed))
    return TOOL_EXIT_FAIL;

  minex_mesh *mesh = NULL;
  sim_workload wl = {0};
  double t_all = MPI_Wtime(), t_repart = 0;
  failed = tool_workload_build(who->cmd, &a.wa, a.verbose && who->rank == 0,
                               &mesh, &wl) != TOOL_EXIT_OK;
  if (any_failed(failed)) {
    sim_workload_free(&wl);
    minex_mesh_destroy(mesh);
    return TOOL_EXIT_FAIL;
  }
  if (who->rank == 0) {
    printf("minex %s: %s (%d roots), %d adaptations, workload built in "
           "%.3f s on each rank; %d ranks x %d threads -> %s/\n",
           cmd, a.wa.mesh_path ? a.wa.mesh_path : "built-in box",
           (int)minex_mesh_nelems(mesh), (int)wl.nsteps, wl.seconds, who->size,
           (int)a.threads, a.dir);
    fflush(stdout);
  }
  for (int32_t t = 0; t < a.nt && !failed; t++)
    failed = run_table(who, &a, mesh, &wl, a.list[t], &t_repart);
  if (!failed && who->rank == 0) {
    printf("\nall: %.2f s wall (workload %.3f s, repartition calls %.2f s "
           "summed over ranks and threads); files in %s/\n",
           MPI_Wtime() - t_all, wl.seconds, t_repart, a.dir);
    failed = fflush(stdout) != 0;
  }
  failed = any_failed(failed);
  sim_workload_free(&wl);
  minex_mesh_destroy(mesh);
  return failed ? TOOL_EXIT_FAIL : TOOL_EXIT_OK;
}

int main(int argc, char **argv) {
  int provided = MPI_THREAD_SINGLE;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) !=
      MPI_SUCCESS) {
    fprintf(stderr, "minex %s: cannot start MPI (MPI_Init_thread failed)\n",
            cmd);
    return TOOL_EXIT_FAIL;
  }
  mpi_who who;
  MPI_Comm_rank(MPI_COMM_WORLD, &who.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &who.size);
  snprintf(who.cmd, sizeof who.cmd, "%s: rank %d of %d", cmd, who.rank,
           who.size);
  mpi_args a;
  int status;
  switch (parse_on_rank(who.rank, argc, argv, &a)) {
  case PARSE_HELP:
    if (who.rank == 0)
      help();
    status = TOOL_EXIT_OK;
    break;
  case PARSE_USAGE:
    status = TOOL_EXIT_USAGE;
    break;
  default:
    status = run(&who, provided, &a);
    break;
  }
  MPI_Finalize();
  return status;
}
