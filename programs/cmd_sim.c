/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex sim: one configuration of the MinEX paper's experiment (§4): the
 * adaptive-mesh workload (docs/design/workload.md) repartitioned by MinEX
 * between adaptations, beside the no-partitioning baseline; per-step table, run
 * totals, optional CSV, JSON, VTK of chosen steps and gnuplot plots. */
#include "sim.h"
#include "strbuf.h"
#include "sweep.h"
#include "tool_progress.h"
#include "tool_sim.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SIM_DEFAULT_P 32
#define SIM_DEFAULT_C 4
#define SIM_DEFAULT_I 10.0
static const double sim_default_proc[4] = {1, 1, 2, 2};

static void help(void) {
  printf("Usage: minex sim [MESH] [workload options] [machine options]\n"
         "                 [--throttle T|inf|auto] [--alpha A] [--seed S] "
         "[--no-partition]\n"
         "                 [--json] [--csv FILE] [--plots DIR]\n"
         "                 [--vtk-steps K1,K2,... --vtk-prefix PREFIX]\n"
         "                 [--write-graphs PREFIX] [-v]\n"
         "\n"
         "Runs the adaptive-mesh workload through its adaptations; before "
         "each step MinEX\nrepartitions the dual graph (the previous "
         "step's partition is the old one;\nstep 1 starts from the RCB of "
         "the initial mesh into P parts). Prints per step\nMaxQwgt, LoadImb, "
         "cut, TotalV, moved and the repartition time, and the run's\ntotal "
         "= sum of the steps' MaxQwgt (the paper's \"total time required to "
         "process\nthe application\"), beside the no-partitioning baseline "
         "(paper Table 4).\n\n");
  tool_workload_help();
  printf("Machine (default: P = 32 in 4 clusters, Proc 1,1,2,2, I = 10):\n"
         "  --nprocs P           processors, divided as evenly as possible "
         "among clusters\n"
         "  --clusters C         clusters\n"
         "  --interconnect I     inter-cluster Conn slowdown (intra-cluster "
         "Conn = 1)\n"
         "  --proc S1,S2,...     processing slowdown of each cluster "
         "(default 1,1,2,2 for\n"
         "                       the default 4 clusters, else all 1)\n"
         "  --config CFG.xml     any configuration (XML) instead of the "
         "above\n"
         "Partitioner:\n"
         "  --throttle T|inf|auto  ThroTTle (default: the library's, inf)\n"
         "  --alpha A            latency tolerance in [0,1] (default 0)\n"
         "  --seed S             random seed (default 1)\n"
         "  --paper-exact        the paper's rules alone (SPEC section 3)\n"
         "  --threads N          OpenMP threads of each repartition (default "
         "0: every\n"
         "                       core); the results are the same for any N\n"
         "  --refine on|off|auto  refinement beyond the paper (default auto: "
         "from --iters 2)\n"
         "  --scratch on|off|auto  from-scratch candidate (default auto: "
         "from --iters 10)\n"
         "  --ladder on|off|auto  shorter horizons too (default auto: from "
         "--iters 2, or alpha > 0)\n"
         "  --balance on|off|auto  balance moves (default auto: more than "
         "one cluster)\n"
         "  --rounds on|off|auto   expansion, balance, refinement in rounds "
         "(default\n"
         "                       auto = on; off: the paper's expansion)\n"
         "  --cluster-levels on|off|auto  cluster levels in the contraction "
         "(default\n"
         "                       auto: the levels above 64 x the target)\n"
         "  --global-spread N    in rounds: least-loaded moves "
         "shared among\n"
         "                       up to N (1-8) of the lightest processors "
         "(default 8)\n"
         "  --no-partition       report the baseline only\n"
         "Output:\n"
         "  --json               one JSON object instead of the table\n"
         "  --csv FILE           per-step CSV (atomically)\n"
         "  --plots DIR          gnuplot PNG and SVG of the per-step loads "
         "(DIR must exist)\n"
         "  --vtk-steps LIST     steps whose root mesh and partition are "
         "written as VTK\n"
         "  --vtk-prefix PREFIX  VTK files PREFIX_stepK.vtk (default "
         "minex_sim)\n"
         "  --write-graphs PREFIX  also write every step's dual graph "
         "PREFIX_stepK.graph\n"
         "                       (K = 1..N), the step-1 old partition "
         "PREFIX_initial.part\n"
         "                       and the machine PREFIX_config.xml, to run "
         "other tools on\n"
         "                       the same sequence (bench/peers)\n"
         "  -v, --verbose        progress and phase times on stderr\n"
         "  -h, --help           this help\n");
}

typedef struct vtk_ctx {
  const minex_mesh *mesh;
  const char *prefix;
  const int32_t *steps;
  int32_t nsteps;
  int rc;
} vtk_ctx;

static int write_vtk(int32_t step, const minex_graph *g, const int32_t *old,
                     const int32_t *part, const sim_step *s, void *ctx) {
  (void)s;
  vtk_ctx *c = ctx;
  for (int32_t i = 0; i < c->nsteps; i++)
    if (c->steps[i] == step) {
      char path[4096];
      snprintf(path, sizeof path, "%s_step%d.vtk", c->prefix, (int)step);
      if ((c->rc = minex_mesh_write_vtk(c->mesh, g, old, part, path)))
        return 1;
    }
  return 0;
}

/* Per-step callback of both runs: the progress line, then the VTK files of
 * the chosen steps when this run writes them (vtk not NULL). */
typedef struct step_ctx {
  const char *run; /* "no-partitioning baseline" or "MinEX" */
  int32_t nsteps;  /* adaptations of the run                */
  vtk_ctx *vtk;    /* NULL: this run writes no VTK          */
} step_ctx;

static int on_step(int32_t step, const minex_graph *g, const int32_t *old,
                   const int32_t *part, const sim_step *s, void *ctx) {
  step_ctx *c = ctx;
  tool_progress("%s: %d of %d steps done (%" PRId64 " leaves)", c->run,
                (int)step, (int)c->nsteps, s->leaves);
  return c->vtk ? write_vtk(step, g, old, part, s, c->vtk) : 0;
}

static int parse_list(const char *cmd, const char *opt, const char *v,
                      double **out, int32_t *n) {
  int32_t cap = 1;
  for (const char *p = v; *p; p++)
    cap += *p == ',';
  double *x = malloc(sizeof(double) * (size_t)cap);
  if (x == NULL)
    return -1;
  int32_t k = 0;
  const char *p = v;
  while (k < cap) {
    char item[64];
    size_t len = strcspn(p, ",");
    if (len == 0 || len >= sizeof item) {
      free(x);
      tool_usage_error(cmd, "%s: bad list '%s'", opt, v);
      return -1;
    }
    memcpy(item, p, len);
    item[len] = '\0';
    if (tool_parse_double(cmd, opt, item, 0.0, HUGE_VAL, 0, &x[k]) != 0) {
      free(x);
      return -1;
    }
    k++;
    p += len;
    if (*p == ',')
      p++;
  }
  *out = x;
  *n = k;
  return 0;
}

static int64_t max_leaves(const sim_workload *w) {
  int64_t m = 0;
  for (int32_t k = 0; k < w->nsteps; k++)
    if (w->leaves[k] > m)
      m = w->leaves[k];
  return m;
}

static void print_steps(const sim_result *r, const sim_result *base) {
  printf("\n%4s %10s %12s %12s %8s %9s %12s %12s %7s %8s %9s | %12s %12s "
         "%8s\n",
         "step", "leaves", "T_k", "MaxQwgt", "LoadImb", "cut", "cut weight",
         "TotalV", "moved", "ThroTTle", "seconds", "no-part T_k", "MaxQwgt",
         "LoadImb");
  for (int32_t k = 0; k < base->nsteps; k++) {
    const sim_step *b = &base->steps[k];
    if (r) {
      const sim_step *s = &r->steps[k];
      char th[32];
      snprintf(th, sizeof th, isinf(s->throttle_used) ? "inf" : "%g",
               s->throttle_used);
      printf("%4d %10" PRId64 " %12.0f %12.0f %8.3f %9" PRId64
             " %12.0f %12.0f %7" PRId64 " %8s %9.4f |",
             (int)k + 1, s->leaves, s->horizon_time, s->max_qwgt, s->load_imb,
             s->cut_edges, s->cut_weight, s->total_v, s->moved, th, s->seconds);
    } else {
      printf("%4d %10" PRId64 " %12s %12s %8s %9s %12s %12s %7s %8s %9s |",
             (int)k + 1, b->leaves, "-", "-", "-", "-", "-", "-", "-", "-",
             "-");
    }
    printf(" %12.0f %12.0f %8.3f%s\n", b->horizon_time, b->max_qwgt,
           b->load_imb, r && r->steps[k].returned_old ? "  old kept" : "");
  }
}

/* The run's totals: the objective first (T_k under the workload's k), its
 * ratio, then the paper's scale (MaxQwgt) with its own ratio; why MinEX
 * can lose to no partitioning at small k; the steps where the old
 * partition was kept, and why. */
static void print_totals(const sim_result *r, const sim_result *base,
                         int32_t k) {
  printf("objective: T_k = MaxRemap + k x SteadyMax under k = %" PRId32
         " (solver iterations a partition lasts, --iters); each call "
         "minimises\n  MaxQwgt under k (remapping once, processing and "
         "communication k times) and compares its candidates by T_k\n",
         k);
  if (r == NULL) {
    printf("sum of T_%" PRId32 " without partitioning: %.0f\n", k,
           base->total_horizon);
    printf("sum of MaxQwgt (the paper's Table 4 scale) without "
           "partitioning: %.0f\n",
           base->total);
    return;
  }
  double sp = r->total_horizon > 0 ? base->total_horizon / r->total_horizon : 0;
  printf("sum of T_%" PRId32 ": %.0f with MinEX, %.0f without partitioning "
         "(speed-up x%.2f%s)\n",
         k, r->total_horizon, base->total_horizon, sp,
         sp < 1 ? ": MinEX slower" : "");
  printf("sum of MaxQwgt (the paper's Table 4 scale, remapping inside each "
         "step): %.0f with MinEX, %.0f without (speed-up x%.2f)\n",
         r->total, base->total, r->total > 0 ? base->total / r->total : 0);
  if (sp < 1)
    printf("  note: under k = %" PRId32 " every step charges MinEX's "
           "remapping against %s; no partitioning\n  never remaps, so it "
           "wins when moving data costs more than the iterations save.\n"
           "  Give --iters K when a partition lasts K solver iterations "
           "between adaptations.\n",
           k, k == 1 ? "one iteration" : "k iterations");
  int32_t nkept = 0;
  for (int32_t i = 0; i < r->nsteps; i++)
    nkept += r->steps[i].returned_old;
  if (nkept > 0) {
    printf("kept the old partition at %s", nkept > 1 ? "steps" : "step");
    for (int32_t i = 0, j = 0; i < r->nsteps; i++)
      if (r->steps[i].returned_old)
        printf("%s%d", j++ ? "," : " ", (int)i + 1);
    printf(" (\"old kept\"): no candidate lowered MaxQwgt under k = %" PRId32
           " - moving data costs more\n  than %s saves\n",
           k, k == 1 ? "one iteration" : "k iterations");
  }
}

static void json_steps(const sim_result *r) {
  printf("[");
  for (int32_t k = 0; k < r->nsteps; k++) {
    const sim_step *s = &r->steps[k];
    printf("%s\n    {\"step\": %d, \"leaves\": %" PRId64 ", \"max_qwgt\": ",
           k ? "," : "", (int)k + 1, s->leaves);
    tool_json_double(stdout, s->max_qwgt);
    printf(", \"min_qwgt\": ");
    tool_json_double(stdout, s->min_qwgt);
    printf(", \"qwgt_tot\": ");
    tool_json_double(stdout, s->qwgt_tot);
    printf(", \"load_imb\": ");
    tool_json_double(stdout, s->load_imb);
    printf(", \"lower_bound\": ");
    tool_json_double(stdout, s->lower_bound);
    printf(", \"cut_edges\": %" PRId64 ", \"cut_weight\": ", s->cut_edges);
    tool_json_double(stdout, s->cut_weight);
    printf(", \"moved\": %" PRId64 ", \"total_v\": ", s->moved);
    tool_json_double(stdout, s->total_v);
    printf(", \"steady_max\": ");
    tool_json_double(stdout, s->steady_max);
    printf(", \"max_remap\": ");
    tool_json_double(stdout, s->max_remap);
    printf(", \"horizon_time\": ");
    tool_json_double(stdout, s->horizon_time);
    printf(", \"throttle\": ");
    if (isinf(s->throttle_used))
      printf("\"inf\"");
    else
      tool_json_double(stdout, s->throttle_used);
    printf(", \"seconds\": ");
    tool_json_double(stdout, s->seconds);
    /* 1: the call kept the old partition (no candidate lowered MaxQwgt
       under k) */
    printf(", \"kept_old\": %s}", s->returned_old ? "true" : "false");
  }
  printf("\n  ]");
}

static int write_csv(const char *path, const sim_result *r,
                     const sim_result *base) {
  strbuf b = {0};
  strbuf_printf(&b, "step,leaves,max_qwgt,min_qwgt,qwgt_tot,load_imb,"
                    "lower_bound,cut_edges,cut_weight,moved,total_v,max_v,"
                    "throttle,seconds,baseline_max_qwgt,baseline_load_imb\n");
  for (int32_t k = 0; k < base->nsteps; k++) {
    const sim_step *b0 = &base->steps[k];
    const sim_step *s = r ? &r->steps[k] : b0;
    strbuf_printf(&b,
                  "%d,%" PRId64 ",%.17g,%.17g,%.17g,%.6f,%.17g,%" PRId64
                  ",%.17g,%" PRId64 ",%.17g,%.17g,%s,%.6f,%.17g,%.6f\n",
                  (int)k + 1, s->leaves, s->max_qwgt, s->min_qwgt, s->qwgt_tot,
                  s->load_imb, s->lower_bound, s->cut_edges, s->cut_weight,
                  s->moved, s->total_v, s->max_v,
                  isinf(s->throttle_used) ? "inf" : "", s->seconds,
                  b0->max_qwgt, b0->load_imb);
  }
  if (b.failed)
    return sim_fail(MINEX_ENOMEM, "out of memory");
  int rc = sweep_write_file(path, b.s, b.len);
  strbuf_free(&b);
  return rc;
}

/* Per-step timeline of the loads: every processor's Qwgt per step with and
 * without partitioning, and the steps' MaxQwgt: writes DIR/sim_loads.dat and
 * DIR/sim_loads.gp (rendering them is the caller's). */
static int write_plots(const char *dir, const sim_result *r,
                       const sim_result *base, int32_t iters) {
  strbuf dat = {0}, gp = {0}, path = {0};
  int32_t P = base->nprocs;
  for (int t = 0; t < 2; t++) {
    const sim_result *x = t == 0 ? r : base;
    strbuf_printf(&dat, "# %s: step processor Qwgt\n",
                  t == 0 ? "MinEX" : "no partitioning");
    if (x != NULL)
      for (int32_t k = 0; k < x->nsteps; k++)
        for (int32_t p = 0; p < P; p++)
          strbuf_printf(&dat, "%g %d %.17g\n", k + 1 + (t == 0 ? -0.15 : 0.15),
                        (int)p, x->qwgt[(size_t)k * (size_t)P + (size_t)p]);
    else
      strbuf_printf(&dat, "NaN NaN NaN\n");
    strbuf_printf(&dat, "\n\n# %s: step MaxQwgt LoadImb T_k\n",
                  t == 0 ? "MinEX" : "no partitioning");
    for (int32_t k = 0; x != NULL && k < x->nsteps; k++)
      strbuf_printf(&dat, "%d %.17g %.6f %.17g\n", (int)k + 1,
                    x->steps[k].max_qwgt, x->steps[k].load_imb,
                    x->steps[k].horizon_time);
    if (x == NULL)
      strbuf_printf(&dat, "NaN NaN NaN NaN\n");
    strbuf_printf(&dat, "\n\n");
  }
  for (int svg = 0; svg <= 1; svg++) {
    if (svg)
      strbuf_printf(&gp, "set terminal svg size 1000,660 dynamic enhanced\n"
                         "set output 'sim_loads.svg'\n");
    else
      strbuf_printf(&gp, "set terminal pngcairo size 1000,660 enhanced\n"
                         "set output 'sim_loads.png'\n");
    /* T_k is what MinEX minimises (k = --iters); no partitioning never
       remaps, so its T_k is k x its MaxQwgt */
    strbuf_printf(
        &gp,
        "reset\nset grid\nset key outside bottom center horizontal box width "
        "-4\n"
        "set title \"Loads per adaptation step under k = %d: T_k = MaxRemap + "
        "k SteadyMax (dashed, what MinEX minimises),\\nMaxQwgt "
        "(solid) and each processor's Qwgt (dots); MinEX blue, no "
        "partitioning red\"\n"
        "set xlabel 'adaptation step' offset 0,0.5\nset bmargin 8\n"
        "set ylabel 'time (cost-model units, SPEC section 2)'\n"
        "set xtics 1\nset xrange [0.5:%d.5]\nset yrange [0:*]\n",
        (int)iters, (int)base->nsteps);
    strbuf_printf(&gp,
                  "plot 'sim_loads.dat' index 0 using 1:3 with points pt 7 "
                  "ps 0.4 lc rgb '#1f77b4' title 'Qwgt, MinEX', \\\n"
                  "     'sim_loads.dat' index 2 using 1:3 with points pt 7 "
                  "ps 0.4 lc rgb '#d62728' title 'Qwgt, no partitioning', "
                  "\\\n"
                  "     'sim_loads.dat' index 1 using 1:2 with linespoints "
                  "lw 2 lc rgb '#1f77b4' title 'MaxQwgt, MinEX', \\\n"
                  "     'sim_loads.dat' index 3 using 1:2 with linespoints "
                  "lw 2 lc rgb '#d62728' title 'MaxQwgt, no partitioning', "
                  "\\\n"
                  "     'sim_loads.dat' index 1 using 1:4 with linespoints "
                  "lw 2 dt 2 pt 6 lc rgb '#1f77b4' title 'T_k, MinEX', \\\n"
                  "     'sim_loads.dat' index 3 using 1:4 with linespoints "
                  "lw 2 dt 2 pt 6 lc rgb '#d62728' title 'T_k, no "
                  "partitioning'\n");
  }
  int rc = MINEX_OK;
  if (dat.failed || gp.failed)
    rc = sim_fail(MINEX_ENOMEM, "out of memory");
  if (rc == MINEX_OK) {
    strbuf_printf(&path, "%s/sim_loads.dat", dir);
    rc = path.failed ? sim_fail(MINEX_ENOMEM, "out of memory")
                     : sweep_write_file(path.s, dat.s, dat.len);
  }
  if (rc == MINEX_OK) {
    strbuf_free(&path);
    strbuf_printf(&path, "%s/sim_loads.gp", dir);
    rc = path.failed ? sim_fail(MINEX_ENOMEM, "out of memory")
                     : sweep_write_file(path.s, gp.s, gp.len);
  }
  strbuf_free(&dat);
  strbuf_free(&gp);
  strbuf_free(&path);
  return rc;
}

/* --write-graphs: each adaptation's dual graph, the initial partition and
 * the machine, so that other partitioners can run the same sequence
 * (bench/peers chains them step after step). Every file atomically (the
 * library's writers). */
static int write_graphs(const char *cmd, const char *prefix,
                        const sim_workload *wl, const minex_config *cfg,
                        const int32_t *initial) {
  strbuf path = {0};
  minex_graph *g = NULL;
  int rc = MINEX_OK;
  strbuf_printf(&path, "%s_initial.part", prefix);
  if (!path.failed)
    rc = minex_part_write(path.s, sim_workload_nvtxs(wl), initial);
  if (rc == MINEX_OK && !path.failed) {
    strbuf_free(&path);
    strbuf_printf(&path, "%s_config.xml", prefix);
    if (!path.failed)
      rc = minex_config_save(cfg, path.s);
  }
  for (int32_t k = 0; k < wl->nsteps && rc == MINEX_OK && !path.failed; k++) {
    strbuf_free(&path);
    strbuf_printf(&path, "%s_step%d.graph", prefix, (int)k + 1);
    if (path.failed)
      break;
    if ((rc = sim_workload_graph(wl, k, &g)) != MINEX_OK) {
      minex_graph_destroy(g);
      strbuf_free(&path);
      return tool_sim_fail(cmd, rc);
    }
    rc = minex_graph_write_metis(g, path.s);
  }
  minex_graph_destroy(g);
  int failed = path.failed;
  strbuf_free(&path);
  if (failed) {
    fprintf(stderr, "minex %s: out of memory\n", cmd);
    return TOOL_EXIT_FAIL;
  }
  return rc == MINEX_OK ? TOOL_EXIT_OK : tool_fail(cmd, rc);
}

int cmd_sim(int argc, char **argv) {
  const char *cmd = "sim";
  tool_workload_args wa;
  tool_workload_defaults(&wa);
  minex_options opt;
  minex_options_init(&opt);
  opt.nthreads = 0; /* the tools use every core (--threads) */
  int32_t P = SIM_DEFAULT_P, C = SIM_DEFAULT_C, nproc = 0, nvtk = 0;
  double I = SIM_DEFAULT_I, *proc = NULL, *vtk_steps = NULL;
  const char *config_path = NULL, *csv_path = NULL, *plots = NULL;
  const char *vtk_prefix = "minex_sim", *graphs_prefix = NULL;
  int json = 0, verbose = 0, partition = 1, status = TOOL_EXIT_USAGE;
  int machine_set = 0;
  tool_args a;
  tool_args_init(&a, argc, argv);
  int more;
  while ((more = tool_args_next(&a)) > 0) {
    const char *v;
    int w = tool_workload_option(&a, cmd, &wa);
    if (w == 0)
      w = tool_rule_option(&a, cmd, &opt);
    if (w < 0)
      goto done;
    if (w > 0)
      continue;
    if (tool_args_is(&a, "-h", "--help")) {
      if (tool_args_no_value(&a) != 0)
        return TOOL_EXIT_USAGE;
      help();
      status = TOOL_EXIT_OK;
      goto done;
    } else if (tool_args_is(&a, NULL, "--nprocs")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_i32(cmd, "--nprocs", v, 1, &P))
        goto done;
      machine_set = 1;
    } else if (tool_args_is(&a, NULL, "--clusters")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_i32(cmd, "--clusters", v, 1, &C))
        goto done;
      machine_set = 1;
    } else if (tool_args_is(&a, NULL, "--interconnect")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_double(cmd, "--interconnect", v, 1.0, HUGE_VAL, 0, &I))
        goto done;
      machine_set = 1;
    } else if (tool_args_is(&a, NULL, "--proc")) {
      free(proc);
      proc = NULL;
      if ((v = tool_args_value(&a)) == NULL ||
          parse_list(cmd, "--proc", v, &proc, &nproc))
        goto done;
      machine_set = 1;
    } else if (tool_args_is(&a, NULL, "--config")) {
      if ((config_path = tool_args_value(&a)) == NULL)
        goto done;
    } else if (tool_args_is(&a, NULL, "--throttle")) {
      if ((v = tool_args_value(&a)) == NULL)
        goto done;
      if (tool_parse_throttle(cmd, v, &opt) != 0)
        goto done;
    } else if (tool_args_is(&a, NULL, "--alpha")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_double(cmd, "--alpha", v, 0.0, 1.0, 0, &opt.alpha))
        goto done;
    } else if (tool_args_is(&a, NULL, "--seed")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_u64(cmd, "--seed", v, &opt.seed))
        goto done;
    } else if (tool_args_is(&a, NULL, "--no-partition")) {
      partition = 0;
    } else if (tool_args_is(&a, NULL, "--json")) {
      json = 1;
    } else if (tool_args_is(&a, NULL, "--csv")) {
      if ((csv_path = tool_args_value(&a)) == NULL)
        goto done;
    } else if (tool_args_is(&a, NULL, "--plots")) {
      if ((plots = tool_args_value(&a)) == NULL)
        goto done;
    } else if (tool_args_is(&a, NULL, "--vtk-steps")) {
      free(vtk_steps);
      vtk_steps = NULL;
      if ((v = tool_args_value(&a)) == NULL ||
          parse_list(cmd, "--vtk-steps", v, &vtk_steps, &nvtk))
        goto done;
    } else if (tool_args_is(&a, NULL, "--vtk-prefix")) {
      if ((vtk_prefix = tool_args_value(&a)) == NULL)
        goto done;
    } else if (tool_args_is(&a, NULL, "--write-graphs")) {
      if ((graphs_prefix = tool_args_value(&a)) == NULL)
        goto done;
      if (graphs_prefix[0] == '\0') {
        tool_usage_error(cmd, "--write-graphs: empty prefix");
        goto done;
      }
    } else if (tool_args_is(&a, "-v", "--verbose")) {
      verbose = 1;
    } else if (tool_args_is_option(&a)) {
      tool_usage_error(cmd, "unknown option '%s'", a.arg);
      goto done;
    } else if (wa.mesh_path == NULL) {
      wa.mesh_path = a.arg;
    } else {
      tool_usage_error(cmd, "more than one mesh ('%s', '%s')", wa.mesh_path,
                       a.arg);
      goto done;
    }
  }
  if (more < 0)
    return TOOL_EXIT_USAGE;
  if (config_path && machine_set) {
    tool_usage_error(cmd,
                     "--config and the machine options (--nprocs, "
                     "--clusters, --interconnect, --proc) exclude each other");
    goto done;
  }
  if (proc && nproc != C) {
    tool_usage_error(cmd, "--proc has %d values for %d clusters", (int)nproc,
                     (int)C);
    goto done;
  }
  for (int32_t i = 0; i < nvtk; i++)
    if (vtk_steps[i] != floor(vtk_steps[i]) || vtk_steps[i] < 1 ||
        vtk_steps[i] > wa.params.nsteps) {
      tool_usage_error(cmd, "--vtk-steps: %g is not a step in 1..%d",
                       vtk_steps[i], (int)wa.params.nsteps);
      goto done;
    }

  status = TOOL_EXIT_FAIL;
  /* --plots names a folder the user made: a missing one is a typo to report
   * now, not after the run (and not one to create, unlike sweep's -o). */
  struct stat st;
  if (plots && stat(plots, &st) != 0) {
    fprintf(stderr, "minex %s: --plots %s: %s\n", cmd, plots,
            errno == ENOENT ? "no such directory (create it first)"
                            : strerror(errno));
    goto done;
  }
  if (plots && !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "minex %s: --plots %s: not a directory\n", cmd, plots);
    goto done;
  }
  minex_mesh *mesh = NULL;
  minex_config *cfg = NULL;
  sim_workload wl = {0};
  sim_result res = {0}, base = {0};
  int32_t *initial = NULL, *vs = NULL;
  int rc;
  if (config_path) {
    if ((rc = minex_config_load(config_path, &cfg)) != MINEX_OK) {
      tool_fail(cmd, rc);
      goto done;
    }
  } else {
    const double *pr = proc;
    if (pr == NULL && C == 4)
      pr = sim_default_proc;
    if ((rc = sim_config_make(P, C, I, pr, &cfg)) != MINEX_OK) {
      tool_sim_fail(cmd, rc);
      goto done;
    }
  }
  tool_progress_begin(cmd, verbose);
  if (tool_workload_build(cmd, &wa, verbose, &mesh, &wl) != TOOL_EXIT_OK)
    goto cleanup;
  P = minex_config_nprocs(cfg);
  int32_t n = minex_mesh_nelems(mesh);
  initial = malloc(sizeof(int32_t) * (size_t)n);
  if (initial == NULL) {
    fprintf(stderr, "minex %s: out of memory\n", cmd);
    goto cleanup;
  }
  if ((rc = minex_mesh_partition_rcb(mesh, P, initial)) != MINEX_OK) {
    tool_fail(cmd, rc);
    goto cleanup;
  }
  if (graphs_prefix &&
      write_graphs(cmd, graphs_prefix, &wl, cfg, initial) != TOOL_EXIT_OK)
    goto cleanup;
  if (verbose)
    opt.log_fn = tool_log;
  vtk_ctx vc = {mesh, vtk_prefix, NULL, 0, MINEX_OK};
  if (nvtk > 0 && (vs = malloc(sizeof(int32_t) * (size_t)nvtk)) != NULL)
    for (int32_t i = 0; i < nvtk; i++)
      vs[i] = (int32_t)vtk_steps[i];
  vc.steps = vs;
  vc.nsteps = vs ? nvtk : 0;
  sim_params sp = {0, opt};
  sp.opt.log_fn = NULL; /* the baseline makes no repartition calls */
  step_ctx bc = {"no-partitioning baseline", wl.nsteps, partition ? NULL : &vc};
  step_ctx mc = {"MinEX", wl.nsteps, &vc};
  tool_progress("%s: 0 of %d steps done", bc.run, (int)wl.nsteps);
  if ((rc = sim_run(&wl, cfg, initial, &sp, on_step, &bc, &base)) != MINEX_OK) {
    if (vc.rc != MINEX_OK)
      tool_fail(cmd, vc.rc);
    else
      tool_sim_fail(cmd, rc);
    goto cleanup;
  }
  if (partition) {
    sp.partition = 1;
    sp.opt = opt;
    tool_progress("%s: 0 of %d steps done", mc.run, (int)wl.nsteps);
    rc = sim_run(&wl, cfg, initial, &sp, on_step, &mc, &res);
    if (rc != MINEX_OK) {
      if (vc.rc != MINEX_OK)
        tool_fail(cmd, vc.rc);
      else
        tool_sim_fail(cmd, rc);
      goto cleanup;
    }
  }
  tool_progress_clear();
  const sim_result *r = partition ? &res : NULL;
  if (csv_path && (rc = write_csv(csv_path, r, &base)) != MINEX_OK) {
    tool_sim_fail(cmd, rc);
    goto cleanup;
  }
  if (plots &&
      (rc = write_plots(plots, r, &base, wl.params.iterations)) != MINEX_OK) {
    tool_sim_fail(cmd, rc);
    goto cleanup;
  }
  int plots_ok = 1;
  if (plots && sweep_gnuplot(plots, "sim_loads.gp") != MINEX_OK) {
    /* the data and script are written; only rendering failed */
    fprintf(stderr, "minex %s: plots: %s\n", cmd, sim_last_error());
    plots_ok = 0;
  }
  if (json) {
    printf("{\n  \"nprocs\": %d,\n  \"nclusters\": %d,\n  \"roots\": %d,\n"
           "  \"adaptations\": %d,\n  \"alpha\": ",
           (int)P, (int)minex_config_nclusters(cfg), (int)n, (int)wl.nsteps);
    tool_json_double(stdout, opt.alpha);
    printf(",\n  \"throttle\": ");
    if (opt.throttle_auto)
      printf("\"auto\"");
    else if (isinf(opt.throttle))
      printf("\"inf\"");
    else
      tool_json_double(stdout, opt.throttle);
    printf(",\n  \"iters\": %" PRId32, wl.params.iterations);
    printf(",\n  \"total\": ");
    tool_json_double(stdout, r ? r->total : base.total);
    printf(",\n  \"total_horizon\": ");
    tool_json_double(stdout, r ? r->total_horizon : base.total_horizon);
    printf(",\n  \"baseline_total_horizon\": ");
    tool_json_double(stdout, base.total_horizon);
    printf(",\n  \"load_imb\": ");
    tool_json_double(stdout, r ? r->load_imb : base.load_imb);
    printf(",\n  \"baseline_total\": ");
    tool_json_double(stdout, base.total);
    printf(",\n  \"baseline_load_imb\": ");
    tool_json_double(stdout, base.load_imb);
    printf(",\n  \"seconds_adaptation\": ");
    tool_json_double(stdout, wl.seconds);
    printf(",\n  \"seconds_repartition\": ");
    tool_json_double(stdout, r ? r->seconds : 0);
    printf(",\n  \"steps\": ");
    json_steps(r ? r : &base);
    printf(",\n  \"baseline_steps\": ");
    json_steps(&base);
    printf("\n}\n");
  } else {
    printf("minex sim: %s (%d roots), %d adaptations: %" PRId64 " -> %" PRId64
           " leaf elements at the last (largest %" PRId64 ")\n",
           wa.mesh_path ? wa.mesh_path : "built-in box", (int)n, (int)wl.nsteps,
           wl.initial_elements, wl.leaves[wl.nsteps - 1], max_leaves(&wl));
    printf("machine: P = %d in %d clusters", (int)P,
           (int)minex_config_nclusters(cfg));
    if (config_path) {
      printf(" (%s)", config_path);
    } else {
      const double *pr = proc ? proc : C == 4 ? sim_default_proc : NULL;
      printf(", Proc ");
      for (int32_t c = 0; c < C; c++)
        printf("%s%g", c ? "," : "", pr ? pr[c] : 1.0);
      printf(", I = %g", I);
    }
    char th[32];
    snprintf(th, sizeof th,
             opt.throttle_auto     ? "auto"
             : isinf(opt.throttle) ? "inf"
                                   : "%g",
             opt.throttle);
    printf("; ThroTTle %s, alpha %g, iters %" PRId32 ", seed %" PRIu64 "\n", th,
           opt.alpha, wl.params.iterations, opt.seed);
    print_steps(r, &base);
    printf("\n");
    print_totals(r, &base, wl.params.iterations);
    printf("LoadImb of the run: %.3f with MinEX, %.3f without\n",
           r ? r->load_imb : base.load_imb, base.load_imb);
    printf("time: adaptation model %.3f s, repartitioning %.3f s\n", wl.seconds,
           r ? r->seconds : 0.0);
    if (csv_path)
      printf("per-step CSV written to %s\n", csv_path);
    if (plots)
      printf(plots_ok ? "plots written to %s/sim_loads.png and .svg\n"
                      : "plot data and script written to %s/sim_loads.{dat,"
                        "gp} (gnuplot failed)\n",
             plots);
    if (graphs_prefix)
      printf("graphs written to %s_step1..%d.graph, initial partition to "
             "%s_initial.part, machine to %s_config.xml\n",
             graphs_prefix, (int)wl.nsteps, graphs_prefix, graphs_prefix);
    for (int32_t i = 0; i < vc.nsteps; i++)
      printf("VTK of step %d written to %s_step%d.vtk\n", (int)vc.steps[i],
             vtk_prefix, (int)vc.steps[i]);
  }
  if (fflush(stdout) == 0)
    status = TOOL_EXIT_OK;
cleanup:
  free(initial);
  free(vs);
  sim_result_free(&res);
  sim_result_free(&base);
  sim_workload_free(&wl);
  minex_mesh_destroy(mesh);
  minex_config_destroy(cfg);
done:
  free(proc);
  free(vtk_steps);
  return status;
}
