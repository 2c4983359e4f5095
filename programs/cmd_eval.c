/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex eval: score a new partition against an old one with the library's
 * evaluator (SPEC section 2), so partitions made by any tool are scored by
 * the same rules. */
#include "tool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void help(void) {
  printf("Usage: minex eval GRAPH --old OLD.part --new NEW.part\n"
         "                  [--config CFG.xml | --nparts P] [--alpha A]\n"
         "                  [--remap receiver|sender|both] [--iters K] "
         "[--json] [-v]\n"
         "\n"
         "Scores NEW against OLD on GRAPH (METIS format): loads, MaxQwgt, "
         "cut,\nmoved vertices, TotalV, MaxV, lower bound, SteadyMax, MaxRemap "
         "and T_k\n(SPEC section 2).\n"
         "\n"
         "  --old OLD.part       old partition (gives the remapping costs)\n"
         "  --new NEW.part       partition to score\n"
         "  --config CFG.xml     heterogeneous configuration (XML)\n"
         "  --nparts P           homogeneous configuration of P processors.\n"
         "                       Without both: P = largest id in OLD/NEW + 1.\n"
         "  --alpha A            latency tolerance in [0,1] (default 0)\n"
         "  --remap MODE         receiver (default), sender or both\n"
         "  --iters K            horizon: solver iterations the partition "
         "lasts (default 1);\n"
         "                       Qwgt counts processing and communication K "
         "times,\n"
         "                       remapping once; T_K = MaxRemap + K * "
         "SteadyMax\n"
         "  --json               print one JSON object (seconds = evaluation "
         "time)\n"
         "  -v, --verbose        timings on stderr\n"
         "  -h, --help           this help\n");
}

int cmd_eval(int argc, char **argv) {
  const char *cmd = "eval";
  const char *graph_path = NULL, *old_path = NULL, *new_path = NULL;
  const char *config_path = NULL;
  int32_t nparts = 0;
  int json = 0, verbose = 0;
  minex_options opt;
  minex_options_init(&opt);

  tool_cost_args cost = {&config_path, &nparts, &opt, &json, &verbose};
  tool_args a;
  tool_args_init(&a, argc, argv);
  int more;
  while ((more = tool_args_next(&a)) > 0) {
    int taken = tool_cost_option(&a, cmd, &cost);
    if (taken < 0)
      return TOOL_EXIT_USAGE;
    if (taken > 0)
      continue;
    if (tool_args_is(&a, "-h", "--help")) {
      if (tool_args_no_value(&a) != 0)
        return TOOL_EXIT_USAGE;
      help();
      return TOOL_EXIT_OK;
    } else if (tool_args_is(&a, NULL, "--old")) {
      if ((old_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--new")) {
      if ((new_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is_option(&a)) {
      return tool_usage_error(cmd, "unknown option '%s'", a.arg);
    } else if (graph_path == NULL) {
      graph_path = a.arg;
    } else {
      return tool_usage_error(cmd, "unexpected argument '%s'", a.arg);
    }
  }
  if (more < 0)
    return TOOL_EXIT_USAGE;
  if (graph_path == NULL)
    return tool_usage_error(cmd, "missing GRAPH");
  if (old_path == NULL || new_path == NULL)
    return tool_usage_error(cmd, "--old and --new are required");
  if (config_path != NULL && nparts > 0)
    return tool_usage_error(cmd, "--config and --nparts exclude each other");

  int status = TOOL_EXIT_FAIL, rc;
  minex_graph *g = NULL;
  minex_config *cfg = NULL;
  int32_t *old = NULL, *new_part = NULL;
  minex_metrics mo, mn;

  double t = tool_wtime();
  if ((rc = minex_graph_read_metis(graph_path, &g)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  int32_t n = minex_graph_nvtxs(g);
  tool_verbose(verbose, cmd, "read %s: %" PRId32 " vertices in %.3f s",
               graph_path, n, tool_wtime() - t);
  int32_t bound = 0, pmax_old = 0, pmax_new = 0;
  if (config_path == NULL && nparts <= 0) {
    bound = -1; /* read both unbounded, P from the largest id */
  } else {
    if ((rc = tool_make_config(config_path, nparts, 0, &cfg)) != MINEX_OK) {
      status = tool_fail(cmd, rc);
      goto done;
    }
    bound = minex_config_nprocs(cfg);
  }
  if ((rc = tool_read_part(old_path, n, bound, &old, &pmax_old)) != MINEX_OK ||
      (rc = tool_read_part(new_path, n, bound, &new_part, &pmax_new)) !=
          MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  if (cfg == NULL) {
    int32_t P = pmax_old > pmax_new ? pmax_old : pmax_new;
    if (P < 1)
      P = 1;
    fprintf(stderr,
            "minex eval: no --config/--nparts: P = %" PRId32
            " (largest id + 1), homogeneous\n",
            P);
    if ((rc = minex_config_create_uniform(P, &cfg)) != MINEX_OK) {
      status = tool_fail(cmd, rc);
      goto done;
    }
  }
  if ((rc = minex_evaluate(g, cfg, old, old, &opt, &mo)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  t = tool_wtime();
  rc = minex_evaluate(g, cfg, old, new_part, &opt, &mn);
  double seconds = tool_wtime() - t;
  if (rc != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  tool_verbose(verbose, cmd, "evaluated in %.3f s", seconds);

  if (json) {
    printf("{\n");
    tool_json_metrics(stdout, &mn, 2);
    printf(",\n  \"seconds\": ");
    tool_json_double(stdout, seconds);
    printf(",\n  \"nvtxs\": %" PRId32 ",\n  \"nedges\": %" PRId64
           ",\n  \"nprocs\": %" PRId32 ",\n  \"iterations\": %" PRId32
           ",\n  \"old\": {\n",
           n, minex_graph_nedges(g), minex_config_nprocs(cfg), opt.iterations);
    tool_json_metrics(stdout, &mo, 4);
    printf("\n  }\n}\n");
  } else {
    printf("minex eval %s: %" PRId32 " vertices, P = %" PRId32 " (%" PRId32
           " available)\n",
           graph_path, n, minex_config_nprocs(cfg),
           minex_config_navailable(cfg));
    tool_print_table(stdout, &mo, &mn, "old", "new", opt.iterations);
  }
  if (fflush(stdout) != 0) {
    fprintf(stderr, "minex eval: cannot write the report to stdout\n");
    goto done;
  }
  status = TOOL_EXIT_OK;

done:
  free(old);
  free(new_part);
  minex_config_destroy(cfg);
  minex_graph_destroy(g);
  return status;
}
