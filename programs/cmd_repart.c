/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex repart: read a graph, an old partition (or build the documented
 * initial one) and a configuration; run minex_repartition; print the old and
 * new metrics; optionally write the new partition. */
#include "tool.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void help(void) {
  printf(
      "Usage: minex repart GRAPH [--old OLD.part] [--config CFG.xml | "
      "--nparts P]\n"
      "                    [--throttle T|inf|auto] [--alpha A] "
      "[--remap receiver|sender|both]\n"
      "                    [--iters K] [--seed S] [--coarse-per-proc N] "
      "[--no-global]\n"
      "                    [--steps N [--tolerance D]]\n"
      "                    [-o NEW.part] [--json] [-v]\n"
      "\n"
      "Repartitions GRAPH (METIS format) with MinEX and prints the old and "
      "new\nmetrics (SPEC section 2).\n"
      "\n"
      "  --old OLD.part       old partition, one processor id per line.\n"
      "                       Without it an initial partition is built "
      "first:\n"
      "                       minex_partition_initial(MINEX_INIT_BFS), "
      "breadth-first\n"
      "                       order from a pseudo-peripheral vertex cut "
      "into P blocks\n"
      "                       of equal vertex count (weights ignored); a "
      "note on\n"
      "                       stderr says so.\n"
      "  --config CFG.xml     heterogeneous configuration (XML, "
      "minex-config.xsd)\n"
      "  --nparts P           homogeneous configuration: P processors, Proc "
      "= Conn = 1.\n"
      "                       Without --config and --nparts: P = largest id "
      "in OLD + 1.\n"
      "  --throttle T|inf|auto  ThroTTle >= 0, dimensionless (default inf);\n"
      "                       auto: try 0.25,1,4,16,64,inf on the contracted "
      "graph,\n"
      "                       keep the lowest MaxQwgt\n"
      "  --alpha A            latency tolerance in [0,1] (default 0)\n"
      "  --remap MODE         who pays remapping: receiver (default), "
      "sender, both\n"
      "  --iters K            horizon: solver iterations the partition "
      "lasts (default 1);\n"
      "                       MinEX minimises MaxQwgt with processing and\n"
      "                       communication counted K times, remapping "
      "once\n"
      "  --seed S             random seed (default 1)\n"
      "  --coarse-per-proc N  contraction target per available processor "
      "(default 64)\n"
      "  --no-global          candidates are the neighbours' owners only\n"
      "  --paper-exact        the paper's rules alone: no refinement, no\n"
      "                       from-scratch candidate, no ladder (SPEC "
      "section 3)\n"
      "  --refine on|off|auto refinement beyond the paper: moves that lower\n"
      "                       QwgtTot without raising MaxQwgt, SteadyMax or\n"
      "                       MaxRemap (default auto: from --iters 2 on)\n"
      "  --scratch on|off|auto  from-scratch candidate: a cluster-aware "
      "METIS\n"
      "                       partition refined by MinEX's rules, kept when "
      "its T_k\n"
      "                       is lower (default auto: from --iters 10 on)\n"
      "  --ladder on|off|auto diffusive runs under the shorter horizons K/4,\n"
      "                       K/16, K/64 too, the lowest T_K kept (default\n"
      "                       auto: from --iters 2 on, and with --alpha > 0)\n"
      "  --steps N            steps until the next adaptation: decide whether\n"
      "                       the new partition pays for its remapping\n"
      "                       (SPEC section 5, minex_decide); if not, -o\n"
      "                       writes the old partition\n"
      "  --tolerance D        discount in [0,1) of the predicted saving\n"
      "                       (default 0)\n"
      "  -o, --output FILE    write the new partition (atomically)\n"
      "  --json               print one JSON object instead of the table\n"
      "  -v, --verbose        library phase timings and progress on stderr\n"
      "  -h, --help           this help\n");
}

int cmd_repart(int argc, char **argv) {
  const char *cmd = "repart";
  const char *graph_path = NULL, *old_path = NULL, *config_path = NULL;
  const char *out_path = NULL;
  int32_t nparts = 0;
  int json = 0, verbose = 0;
  double steps = -1, tolerance = 0;
  minex_options opt;
  minex_options_init(&opt);

  tool_cost_args cost = {&config_path, &nparts, &opt, &json, &verbose};
  tool_args a;
  tool_args_init(&a, argc, argv);
  int more;
  while ((more = tool_args_next(&a)) > 0) {
    const char *v;
    int taken = tool_cost_option(&a, cmd, &cost);
    if (taken == 0)
      taken = tool_rule_option(&a, cmd, &opt);
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
    } else if (tool_args_is(&a, NULL, "--throttle")) {
      if ((v = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
      if (tool_parse_throttle(cmd, v, &opt) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--seed")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_u64(cmd, "--seed", v, &opt.seed) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--coarse-per-proc")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_i32(cmd, "--coarse-per-proc", v, 1,
                         &opt.coarse_per_proc) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--steps")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_double(cmd, "--steps", v, 0, 1e15, 0, &steps) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--tolerance")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_double(cmd, "--tolerance", v, 0, 0.999999, 0,
                            &tolerance) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--no-global")) {
      opt.global_candidates = 0;
    } else if (tool_args_is(&a, "-o", "--output")) {
      if ((out_path = tool_args_value(&a)) == NULL)
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
  if (config_path != NULL && nparts > 0)
    return tool_usage_error(cmd, "--config and --nparts exclude each other");
  if (config_path == NULL && nparts <= 0 && old_path == NULL)
    return tool_usage_error(cmd, "need --config or --nparts (or --old to "
                                 "take P from the old partition)");
  if (verbose) {
    opt.log_fn = tool_log;
    opt.log_ctx = NULL;
  }

  int status = TOOL_EXIT_FAIL, rc;
  minex_graph *g = NULL;
  minex_config *cfg = NULL;
  int32_t *old = NULL, *new_part = NULL;
  minex_metrics mo, mn, mr;
  memset(&mr, 0, sizeof mr);

  double t = tool_wtime();
  if ((rc = minex_graph_read_metis(graph_path, &g)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  int32_t n = minex_graph_nvtxs(g);
  tool_verbose(verbose, cmd,
               "read %s: %" PRId32 " vertices, %" PRId64 " edges in %.3f s",
               graph_path, n, minex_graph_nedges(g), tool_wtime() - t);

  int32_t pmax = 0;
  if (config_path == NULL && nparts <= 0) {
    /* P from the old partition: read it unbounded first */
    if ((rc = tool_read_part(old_path, n, 0, &old, &pmax)) != MINEX_OK) {
      status = tool_fail(cmd, rc);
      goto done;
    }
    if (pmax < 1)
      pmax = 1;
    fprintf(stderr,
            "minex repart: no --config/--nparts: P = %" PRId32
            " (largest id in %s + 1), homogeneous\n",
            pmax, old_path);
  }
  if ((rc = tool_make_config(config_path, nparts, pmax, &cfg)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  int32_t P = minex_config_nprocs(cfg);

  if (old == NULL && old_path != NULL) {
    if ((rc = tool_read_part(old_path, n, P, &old, NULL)) != MINEX_OK) {
      status = tool_fail(cmd, rc);
      goto done;
    }
  } else if (old == NULL) {
    old = malloc(sizeof *old * ((size_t)n + 1));
    if (old == NULL) {
      fprintf(stderr, "minex repart: out of memory\n");
      goto done;
    }
    rc = minex_partition_initial(g, P, MINEX_INIT_BFS, old);
    if (rc != MINEX_OK) {
      status = tool_fail(cmd, rc);
      goto done;
    }
    fprintf(stderr,
            "minex repart: no --old given: initial partition = "
            "breadth-first order cut into %" PRId32 " blocks of equal vertex "
            "count (MINEX_INIT_BFS)\n",
            P);
  }

  if ((rc = minex_evaluate(g, cfg, old, old, &opt, &mo)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  new_part = malloc(sizeof *new_part * ((size_t)n + 1));
  if (new_part == NULL) {
    fprintf(stderr, "minex repart: out of memory\n");
    goto done;
  }
  t = tool_wtime();
  rc = minex_repartition(g, cfg, old, &opt, new_part, &mr);
  double seconds = tool_wtime() - t;
  if (rc != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  /* Score the result with the evaluator, the same code `minex eval` runs,
   * so that both commands print identical figures for one partition. */
  if ((rc = minex_evaluate(g, cfg, old, new_part, &opt, &mn)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  minex_decision dec;
  memset(&dec, 0, sizeof dec);
  int kept_old = 0;
  if (steps >= 0) {
    if ((rc = minex_decide(g, cfg, old, new_part, &opt, steps, tolerance,
                           &dec)) != MINEX_OK) {
      status = tool_fail(cmd, rc);
      goto done;
    }
    kept_old = !dec.repartition;
  }
  if (out_path != NULL) {
    t = tool_wtime();
    if ((rc = minex_part_write(out_path, n, kept_old ? old : new_part)) !=
        MINEX_OK) {
      status = tool_fail(cmd, rc);
      goto done;
    }
    tool_verbose(verbose, cmd, "wrote %s in %.3f s", out_path,
                 tool_wtime() - t);
  }

  if (json) {
    printf("{\n");
    tool_json_metrics(stdout, &mn, 2);
    printf(",\n  \"seconds\": ");
    tool_json_double(stdout, seconds);
    printf(",\n  \"seconds_contract\": ");
    tool_json_double(stdout, mr.seconds_contract);
    printf(",\n  \"seconds_partition\": ");
    tool_json_double(stdout, mr.seconds_partition);
    printf(",\n  \"seconds_expand\": ");
    tool_json_double(stdout, mr.seconds_expand);
    /* JSON has no infinity: ThroTTle = inf is the string "inf" */
    printf(",\n  \"throttle\": ");
    if (isinf(mr.throttle_used))
      printf("\"inf\"");
    else
      tool_json_double(stdout, mr.throttle_used);
    printf(",\n  \"coarse_nvtxs\": %" PRId32 ",\n  \"coarse_moves\": %" PRId64
           ",\n  \"expand_moves\": %" PRId64 ",\n  \"returned_old\": %d"
           ",\n  \"scratch_used\": %d,\n  \"horizon_used\": ",
           mr.coarse_nvtxs, mr.coarse_moves, mr.expand_moves, mr.returned_old,
           mr.scratch_used);
    tool_json_double(stdout, mr.horizon_used);
    printf(",\n  \"nvtxs\": %" PRId32 ",\n  \"nedges\": %" PRId64
           ",\n  \"nprocs\": %" PRId32 ",\n  \"iterations\": %" PRId32
           ",\n  \"graph\": ",
           n, minex_graph_nedges(g), P, opt.iterations);
    tool_json_string(stdout, graph_path);
    printf(",\n  \"old_source\": ");
    tool_json_string(stdout, old_path != NULL ? old_path : "initial:bfs");
    printf(",\n  \"output\": ");
    if (out_path != NULL)
      tool_json_string(stdout, out_path);
    else
      printf("null");
    if (steps >= 0) {
      printf(",\n  \"decision\": {\"steps\": ");
      tool_json_double(stdout, steps);
      printf(", \"tolerance\": ");
      tool_json_double(stdout, tolerance);
      printf(", \"repartition\": %s, \"saving_per_step\": ",
             dec.repartition ? "true" : "false");
      tool_json_double(stdout, dec.saving_per_step);
      printf(", \"remap_cost\": ");
      tool_json_double(stdout, dec.remap_cost);
      printf(", \"gain\": ");
      tool_json_double(stdout, dec.gain);
      /* JSON has no infinity: never breaking even is null */
      printf(", \"break_even_steps\": ");
      tool_json_double(stdout, dec.break_even_steps);
      printf("}");
    }
    printf(",\n  \"old\": {\n");
    tool_json_metrics(stdout, &mo, 4);
    printf("\n  }\n}\n");
  } else {
    printf("minex repart %s: %" PRId32 " vertices, %" PRId64
           " edges, P = %" PRId32 " (%" PRId32 " available, %" PRId32
           " clusters)\n",
           graph_path, n, minex_graph_nedges(g), P,
           minex_config_navailable(cfg), minex_config_nclusters(cfg));
    tool_print_table(stdout, &mo, &mn, "old", "new");
    printf("  %-22s %16.6f s (contract %.3f, partition %.3f, expand %.3f)\n",
           "repartition time", seconds, mr.seconds_contract,
           mr.seconds_partition, mr.seconds_expand);
    printf("  %-22s %16" PRId32 " (moves: %" PRId64 " coarse, %" PRId64
           " expansion)%s\n",
           "coarse vertices", mr.coarse_nvtxs, mr.coarse_moves, mr.expand_moves,
           mr.returned_old ? "; old partition returned" : "");
    if (opt.throttle_auto)
      printf("  %-22s %16g (throttle auto)\n", "ThroTTle", mr.throttle_used);
    if (steps >= 0) {
      printf("  %-22s %16s (saving %g per step x %g steps x (1 - %g) = %g "
             "vs remap %g; break-even after %g steps)\n",
             "repartition?", dec.repartition ? "yes" : "no",
             dec.saving_per_step, steps, tolerance, dec.gain, dec.remap_cost,
             dec.break_even_steps);
    }
    if (out_path != NULL)
      printf("  %s partition written to %s\n", kept_old ? "old" : "new",
             out_path);
  }
  if (fflush(stdout) != 0) {
    fprintf(stderr, "minex repart: cannot write the report to stdout\n");
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
