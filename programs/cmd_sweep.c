/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex sweep: the MinEX paper's Tables 1-4 (§3.3, §4) as grids of `minex
 * sim` configurations, run in parallel on the threads of this machine; CSV,
 * Markdown tables laid out like the paper's, and gnuplot plots in DIR.
 * Under MPI the same sweeps run with sweep_mpi.c (minex-sweep-mpi). */
#include "sweep.h"
#include "tool_progress.h"
#include "tool_sim.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void help(void) {
  printf("Usage: minex sweep [--table LIST] [-o DIR] [--threads N] "
         "[--seed S] [--rules R] [--no-plots]\n"
         "                   [MESH] [workload options] [-v]\n"
         "\n"
         "Runs the paper's parameter studies on the adaptive-mesh workload "
         "(see minex sim):\n"
         "  1     ThroTTle 0,1,4,16,32,64,128,inf (and auto) x C = 1..8; "
         "P = 32, I = 3, alpha 1\n"
         "  1log  ThroTTle 10^-3 .. 10^3 (13 values) x C = 1..8; same "
         "machine\n"
         "  2     I = 3,10,100,1000 x C = 1..8 x alpha 0,1; P = 32, ThroTTle "
         "= 64\n"
         "  3     P = 2..2048 x C = 1,8 x alpha 0,1; I = 3, ThroTTle = 2P (and "
         "auto)\n"
         "  4     as 3 without partitioning\n"
         "Processors are divided as evenly as possible among clusters; "
         "intra-cluster\nConn and every Proc are 1. Writes DIR/tableN.csv (per "
         "configuration),\nDIR/tableN_steps.csv (per adaptation), "
         "DIR/tableN.md (the paper's layout,\nMaxQwgt = sum over adaptations "
         "in thousands) and gnuplot PNG/SVG plots.\n"
         "\n"
         "  --table LIST         comma-separated tables, or all (default "
         "all)\n"
         "  -o, --output DIR     output directory, created if missing "
         "(default minex-sweep)\n"
         "  --threads N          worker threads (default: all online "
         "CPUs)\n"
         "  --seed S             random seed of every run (default 1)\n"
         "  --rules paper|default  the paper's rules alone (default: the\n"
         "                       paper's tables) or the library's defaults\n"
         "                       (refinement, ladder, from-scratch candidate\n"
         "                       as --iters and alpha choose them; at --iters "
         "1\n"
         "                       the ladder runs wherever alpha > 0; SPEC "
         "section 3)\n"
         "  --no-plots           do not run gnuplot (the scripts are still "
         "written)\n");
  tool_workload_help();
  printf("  -v, --verbose        progress on stderr\n"
         "  -h, --help           this help\n");
}

/* ctx: the number of adaptations (the steps in each record). For
 * --throttle auto the ThroTTle shown is the one the last step chose. */
static void progress(const sweep_spec *s, const double *rec, int32_t done,
                     int32_t todo, void *ctx) {
  char th[48];
  sweep_throttle_label(s, rec, *(const int32_t *)ctx, th, sizeof th);
  fprintf(stderr,
          "minex sweep: %s %d/%d: P %d C %d I %g alpha %g ThroTTle "
          "%s: total %.0f, %.2f s\n",
          sweep_table_name(s->table), (int)done, (int)todo, (int)s->P,
          (int)s->C, s->I, s->alpha, th, rec[SWEEP_SUM_TOTAL],
          rec[SWEEP_SUM_SECONDS]);
}

/* The same on a terminal without -v: one line, rewritten. */
static void progress_line(const sweep_spec *s, const double *rec, int32_t done,
                          int32_t todo, void *ctx) {
  (void)rec;
  (void)ctx;
  tool_progress("%s: %d of %d configurations done", sweep_table_name(s->table),
                (int)done, (int)todo);
}

int cmd_sweep(int argc, char **argv) {
  const char *cmd = "sweep";
  tool_workload_args wa;
  tool_workload_defaults(&wa);
  const char *dir = "minex-sweep", *tables = "all";
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  int32_t threads = ncpu > 0 ? (int32_t)ncpu : 1;
  uint64_t seed = 1;
  int verbose = 0, plots = 1, default_rules = 0;
  tool_args a;
  tool_args_init(&a, argc, argv);
  int more;
  while ((more = tool_args_next(&a)) > 0) {
    const char *v;
    int w = tool_workload_option(&a, cmd, &wa);
    if (w < 0)
      return TOOL_EXIT_USAGE;
    if (w > 0)
      continue;
    if (tool_args_is(&a, "-h", "--help")) {
      if (tool_args_no_value(&a) != 0)
        return TOOL_EXIT_USAGE;
      help();
      return TOOL_EXIT_OK;
    } else if (tool_args_is(&a, NULL, "--table")) {
      if ((tables = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, "-o", "--output")) {
      if ((dir = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--threads")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_i32(cmd, "--threads", v, 1, &threads))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--seed")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_u64(cmd, "--seed", v, &seed))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--rules")) {
      if ((v = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
      if (strcmp(v, "paper") != 0 && strcmp(v, "default") != 0)
        return tool_usage_error(cmd,
                                "--rules: expected paper or default, "
                                "got '%s'",
                                v);
      default_rules = strcmp(v, "default") == 0;
    } else if (tool_args_is(&a, NULL, "--no-plots")) {
      plots = 0;
    } else if (tool_args_is(&a, "-v", "--verbose")) {
      verbose = 1;
    } else if (tool_args_is_option(&a)) {
      return tool_usage_error(cmd, "unknown option '%s'", a.arg);
    } else if (wa.mesh_path == NULL) {
      wa.mesh_path = a.arg;
    } else {
      return tool_usage_error(cmd, "more than one mesh ('%s', '%s')",
                              wa.mesh_path, a.arg);
    }
  }
  if (more < 0)
    return TOOL_EXIT_USAGE;
  int32_t list[8], nt = 0;
  if (tool_parse_tables(cmd, tables, list, &nt) != 0)
    return TOOL_EXIT_USAGE;
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "minex %s: %s: cannot create the directory: %s\n", cmd, dir,
            strerror(errno));
    return TOOL_EXIT_FAIL;
  }

  minex_mesh *mesh = NULL;
  sim_workload wl = {0};
  int bar = tool_progress_begin(cmd, verbose);
  if (tool_workload_build(cmd, &wa, verbose, &mesh, &wl) != TOOL_EXIT_OK)
    return TOOL_EXIT_FAIL;
  tool_progress_clear();
  int status = TOOL_EXIT_FAIL;
  double t_all = tool_wtime(), t_repart = 0;
  printf("minex sweep: %s (%d roots), %d adaptations, workload built in "
         "%.3f s; %d threads -> %s/\n",
         wa.mesh_path ? wa.mesh_path : "built-in box",
         (int)minex_mesh_nelems(mesh), (int)wl.nsteps, wl.seconds, (int)threads,
         dir);
  for (int32_t t = 0; t < nt; t++) {
    sweep_spec *specs = NULL;
    int32_t n = 0;
    int rc = sweep_specs(list[t], &specs, &n);
    if (rc != MINEX_OK) {
      tool_sim_fail(cmd, rc);
      goto done;
    }
    double *res = calloc((size_t)n * (size_t)sweep_record_size(wl.nsteps),
                         sizeof(double));
    if (res == NULL) {
      free(specs);
      fprintf(stderr, "minex %s: out of memory\n", cmd);
      goto done;
    }
    for (int32_t i = 0; i < n; i++)
      specs[i].default_rules = default_rules;
    double t0 = tool_wtime();
    tool_progress("%s: 0 of %d configurations done", sweep_table_name(list[t]),
                  (int)n);
    rc = sweep_run(&wl, mesh, specs, n, seed, 0, 1, threads, res,
                   verbose ? progress
                   : bar   ? progress_line
                           : NULL,
                   &wl.nsteps);
    tool_progress_clear();
    double wall = tool_wtime() - t0, cpu = 0;
    for (int32_t i = 0; i < n; i++)
      cpu += res[(int64_t)i * sweep_record_size(wl.nsteps) + SWEEP_SUM_SECONDS];
    t_repart += cpu;
    if (rc == MINEX_OK)
      rc = sweep_write(dir, list[t], specs, n, wl.nsteps, res);
    if (rc != MINEX_OK) {
      tool_sim_fail(cmd, rc);
      free(res);
      free(specs);
      goto done;
    }
    /* print the Markdown table that was just written */
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.md", dir, sweep_table_name(list[t]));
    FILE *fp = fopen(path, "r");
    if (fp) {
      char buf[4096];
      size_t k;
      printf("\n");
      while ((k = fread(buf, 1, sizeof buf, fp)) > 0)
        fwrite(buf, 1, k, stdout);
      fclose(fp);
    }
    printf("\n%s: %d configurations x %d adaptations in %.2f s wall "
           "(repartition calls %.2f s summed over threads)\n",
           sweep_table_name(list[t]), (int)n, (int)wl.nsteps, wall, cpu);
    if (plots && (rc = sweep_plot(dir, list[t])) != MINEX_OK)
      fprintf(stderr, "minex %s: plots: %s\n", cmd, sim_last_error());
    free(res);
    free(specs);
  }
  printf("\nall: %.2f s wall (workload %.3f s once, repartition calls %.2f "
         "s summed); files in %s/\n",
         tool_wtime() - t_all + wl.seconds, wl.seconds, t_repart, dir);
  if (fflush(stdout) == 0)
    status = TOOL_EXIT_OK;
done:
  sim_workload_free(&wl);
  minex_mesh_destroy(mesh);
  return status;
}
