/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex repart: read a graph (or a mesh and its dual), an old partition (or
 * the mesh file's own, or build the documented initial one) and a
 * configuration; run minex_repartition; print the old and new metrics;
 * optionally write the new partition, the start built, and the mesh with
 * both partitions as VTK. */
#include "tool.h"
#include "tool_progress.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void help(void) {
  printf(
      "Usage: minex repart GRAPH|--mesh MESH [--old OLD.part] [--config "
      "CFG.xml | --nparts P]\n"
      "                    [--throttle T|inf|auto] [--alpha A] "
      "[--remap receiver|sender|both]\n"
      "                    [--iters K] [--seed S] [--coarse-per-proc N] "
      "[--no-global]\n"
      "                    [--threads N] [--max-imbalance X]\n"
      "                    [--steps N [--step-seconds S] [--tolerance D]]\n"
      "                    [-o NEW.part] [--write-old OLD.part] [--vtk "
      "OUT.vtk]\n"
      "                    [--out-mesh OUT.msh|OUT.vtk]\n"
      "                    [--kind K] [--ncommon N] [--pwgt FILE] [--rwgt "
      "FILE]\n"
      "                    [--pwgt-field NAME] [--rwgt-field NAME]\n"
      "                    [--json] [-v]\n"
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
      "lasts (default 1,\n"
      "                       or N of --steps); MinEX minimises MaxQwgt "
      "with\n"
      "                       processing and communication counted K times,\n"
      "                       remapping once. At K = 1 the remapping is "
      "paid within\n"
      "                       one iteration: give K when the partition must "
      "last\n"
      "  --seed S             random seed (default 1)\n"
      "  --coarse-per-proc N  contraction target per available processor "
      "(default 64)\n"
      "  --no-global          candidates are the neighbours' owners only\n");
  printf(
      "  --paper-exact        the paper's rules alone: no refinement, no\n"
      "                       from-scratch candidate, no ladder, no balance\n"
      "                       moves (SPEC section 3)\n"
      "  --refine on|off|auto refinement beyond the paper: moves that lower\n"
      "                       QwgtTot without raising MaxQwgt, SteadyMax or\n"
      "                       MaxRemap (default auto: from --iters 2 on)\n"
      "  --scratch on|off|auto  from-scratch candidate: a cluster-aware "
      "Scotch\n"
      "                       partition refined by MinEX's rules, kept when "
      "its T_k\n"
      "                       is lower (default auto: from --iters 10 on)\n"
      "  --ladder on|off|auto diffusive runs under the shorter horizons K/4,\n"
      "                       K/16, K/64 too, the lowest T_K kept (default\n"
      "                       auto: from --iters 2 on, and with --alpha > 0)\n"
      "  --balance on|off|auto  balance moves after the expansion: moves\n"
      "                       that leave every processor they touch below\n"
      "                       the sender's load (default auto: on when the\n"
      "                       processors are in more than one cluster)\n"
      "  --rounds on|off|auto   expansion, balance and refinement in\n"
      "                       synchronous rounds tested on the threads\n"
      "                       (default auto = on; off: the paper's\n"
      "                       expansion, one merge at a time, heap passes)\n"
      "  --cluster-levels on|off|auto  contraction levels built by joining\n"
      "                       each vertex to its best neighbouring cluster\n"
      "                       (clusters of 3 at most) in one pass (default "
      "auto: the\n"
      "                       levels above 64 x the target; off: the\n"
      "                       paper's sampled sweep on every level)\n"
      "  --global-spread N    in rounds: the least-loaded-processor\n"
      "                       moves of a round shared among up to N (1-8) of\n"
      "                       the lightest processors below the mean\n"
      "                       (default 8; 1: the least-loaded only)\n");
  printf("  --max-imbalance X    X >= 1: every processor's Pwgt sum at most X\n"
         "                       times its target (its speed's share of the\n"
         "                       total; ParMETIS's ubvec), MaxQwgt / T_K\n"
         "                       minimised within the bound; when none is "
         "found\n"
         "                       the closest is written and reported (default\n"
         "                       0: no bound)\n");
  printf(
      "  --steps N            solver iterations until the next adaptation "
      "(an\n"
      "                       integer >= 0): decide whether the new "
      "partition pays\n"
      "                       for its remapping, i.e. T_N(new) < T_N(old) "
      "(SPEC\n"
      "                       section 5, minex_decide); if not, -o writes "
      "the old\n"
      "                       partition. The same quantity as K: without "
      "--iters,\n"
      "                       K = N (at least 1); with both, K is what the "
      "partition\n"
      "                       is made for and N what it is judged over (they "
      "never\n"
      "                       multiply)\n"
      "  --step-seconds S     with --steps: the measured seconds of one "
      "solver\n"
      "                       iteration on the old partition; the call's own "
      "time\n"
      "                       counts too (SPEC section 5): before the call, "
      "its\n"
      "                       predicted time against the most any partition "
      "saves\n"
      "                       (SteadyMax - LB per iteration; no call when it "
      "cannot\n"
      "                       pay), after it, its measured time beside the "
      "remap\n"
      "  --tolerance D        discount in [0,1) of the predicted saving\n"
      "                       (default 0)\n"
      "  --threads N          OpenMP threads of the repartitioner (default 0:\n"
      "                       every core of the node); the partition is the\n"
      "                       same for any N\n");
  printf("  --mesh MESH          the mesh (any kind; read by content: Gmsh "
         ".msh 2.x/4.0/4.1\n"
         "                       ASCII or binary, MEDIT .mesh/.meshb, VTK "
         "legacy .vtk, VTK\n"
         "                       XML .vtu). Without GRAPH its dual graph is "
         "repartitioned\n"
         "                       (weights 1, or --pwgt and --rwgt); with "
         "GRAPH, GRAPH must\n"
         "                       have one vertex per element. A partition "
         "stored in the\n"
         "                       file (Gmsh partitioned entities or v2 tags, "
         "VTK cell data\n"
         "                       \"partition\") is the old one unless --old "
         "is given\n"
         "  --kind K             keep one element kind of MESH (tet, hex, "
         "prism, pyramid,\n"
         "                       tri, quad)\n"
         "  --ncommon N          dual by N common corners (mpmetis "
         "-ncommon)\n"
         "  --pwgt FILE          --mesh without GRAPH: element (dual vertex) "
         "processing\n"
         "                       weights, one number >= 0 per line, element "
         "i on line i\n"
         "  --rwgt FILE          the same for the remapping weights "
         "(default: --pwgt's,\n"
         "                       else 1)\n"
         "  --pwgt-field NAME    processing weights from MESH's element "
         "field NAME: Gmsh\n"
         "                       ASCII $ElementData view, VTK CELL_DATA or "
         "CellData array\n"
         "                       (one component; MEDIT files have none)\n"
         "  --rwgt-field NAME    remapping weights from field NAME\n"
         "  --vtk OUT.vtk        write MESH with cell data partition (new), "
         "old, moved,\n"
         "                       pwgt, rwgt (needs --mesh)\n"
         "  --out-mesh FILE      write MESH with the new (or kept old) "
         "partition, format by\n"
         "                       extension: .msh (Gmsh 4.1, each part a "
         "partitioned entity;\n"
         "                       views partition, old, moved) or .vtk (as "
         "--vtk)\n"
         "  --write-old FILE     write the old partition used (e.g. the "
         "start built\n"
         "                       without --old)\n");
  printf("  -o, --output FILE    write the new partition (atomically)\n"
         "  --json               print one JSON object instead of the table\n"
         "  -v, --verbose        library phase timings and progress on stderr\n"
         "  -h, --help           this help\n");
}

/* After a failed --old read with --mesh: what the count must be. */
static void part_hint(const char *path, const minex_mesh *mesh, int rc) {
  if (mesh == NULL || rc != MINEX_EPART)
    return;
  fprintf(stderr,
          "minex repart: hint: %s needs one processor id per element of the "
          "mesh: %" PRId32 " %s elements in file order (the %" PRId64
          " lower-dimensional or unselected ones of the file are not "
          "counted)\n",
          path, minex_mesh_nelems(mesh),
          minex_elem_dim(minex_mesh_elem_kind(mesh, 0)) == 3 ? "3D" : "2D",
          minex_mesh_ignored(mesh));
}

int cmd_repart(int argc, char **argv) {
  const char *cmd = "repart";
  const char *graph_path = NULL, *old_path = NULL, *config_path = NULL;
  const char *out_path = NULL, *mesh_path = NULL, *vtk_path = NULL;
  const char *write_old = NULL, *out_mesh = NULL;
  const char *pwgt_path = NULL, *rwgt_path = NULL;
  const char *pwgt_field = NULL, *rwgt_field = NULL;
  int32_t nparts = 0, ncommon = 0;
  int kind = 0;
  int json = 0, verbose = 0;
  int64_t steps = -1;
  double tolerance = 0, step_seconds = 0;
  minex_options opt;
  minex_options_init(&opt);
  opt.nthreads = 0;   /* the tools use every core (--threads) */
  opt.iterations = 0; /* not given: 1, or N of --steps (below) */

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
          tool_parse_i64(cmd, "--steps", v, 0, &steps) != 0)
        return TOOL_EXIT_USAGE;
      if (steps > (int64_t)1e15)
        return tool_usage_error(cmd, "--steps: %s is above 10^15", v);
    } else if (tool_args_is(&a, NULL, "--step-seconds")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_double(cmd, "--step-seconds", v, 1e-300, 1e300, 0,
                            &step_seconds) != 0)
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
    } else if (tool_args_is(&a, NULL, "--mesh")) {
      if ((mesh_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--vtk")) {
      if ((vtk_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--pwgt")) {
      if ((pwgt_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--pwgt-field")) {
      if ((pwgt_field = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--rwgt-field")) {
      if ((rwgt_field = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--rwgt")) {
      if ((rwgt_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--out-mesh")) {
      if ((out_mesh = tool_args_value(&a)) == NULL ||
          tool_out_mesh_format(cmd, "--out-mesh", out_mesh) == 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--write-old")) {
      if ((write_old = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--kind")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_kind(cmd, v, &kind) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--ncommon")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_i32(cmd, "--ncommon", v, 1, &ncommon) != 0)
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
  if (graph_path == NULL && mesh_path == NULL)
    return tool_usage_error(cmd, "missing GRAPH (or --mesh MESH)");
  if ((vtk_path != NULL || out_mesh != NULL) && mesh_path == NULL)
    return tool_usage_error(cmd, "%s needs --mesh MESH",
                            vtk_path != NULL ? "--vtk" : "--out-mesh");
  if ((pwgt_path != NULL || rwgt_path != NULL || pwgt_field != NULL ||
       rwgt_field != NULL) &&
      (mesh_path == NULL || graph_path != NULL))
    return tool_usage_error(
        cmd,
        "%s needs --mesh MESH without GRAPH (a METIS graph carries "
        "its own weights)",
        pwgt_path != NULL    ? "--pwgt"
        : rwgt_path != NULL  ? "--rwgt"
        : pwgt_field != NULL ? "--pwgt-field"
                             : "--rwgt-field");
  if ((pwgt_path != NULL && pwgt_field != NULL) ||
      (rwgt_path != NULL && rwgt_field != NULL))
    return tool_usage_error(cmd, "give a weight file or a field, not both");
  if (step_seconds > 0 && steps < 0)
    return tool_usage_error(cmd, "--step-seconds needs --steps N");
  if ((kind != 0 || ncommon != 0) && mesh_path == NULL)
    return tool_usage_error(cmd, "--kind and --ncommon need --mesh MESH");
  /* --steps N and --iters K count the same solver iterations (SPEC §5):
     N alone is the horizon too; given both, K makes the partition and N
     judges it */
  if (opt.iterations == 0)
    opt.iterations = steps < 1 ? 1
                               : (int32_t)(steps < MINEX_ITERATIONS_MAX
                                               ? steps
                                               : MINEX_ITERATIONS_MAX);
  if (config_path != NULL && nparts > 0)
    return tool_usage_error(cmd, "--config and --nparts exclude each other");
  if (config_path == NULL && nparts <= 0 && old_path == NULL &&
      mesh_path == NULL)
    return tool_usage_error(cmd, "need --config or --nparts (or --old to "
                                 "take P from the old partition)");
  if (verbose) {
    opt.log_fn = tool_log;
    opt.log_ctx = NULL;
  } else if (tool_progress_begin(cmd, verbose)) {
    opt.log_fn = tool_progress_log; /* the library's phases, on a terminal */
  }

  int status = TOOL_EXIT_FAIL, rc;
  minex_graph *g = NULL;
  minex_mesh *mesh = NULL;
  minex_config *cfg = NULL;
  int32_t *old = NULL, *new_part = NULL;
  double *pwgt = NULL, *rwgt = NULL;
  minex_metrics mo, mn, mr;
  memset(&mr, 0, sizeof mr);

  double t = tool_wtime();
  if (mesh_path != NULL) {
    tool_progress("reading %s", mesh_path);
    if ((rc = tool_read_mesh(cmd, mesh_path, kind, &mesh)) != MINEX_OK)
      goto done;
    tool_progress_clear();
    tool_verbose(verbose, cmd,
                 "read %s: %" PRId32 " elements, %" PRId64
                 " lower-dimensional ignored, in %.3f s",
                 mesh_path, minex_mesh_nelems(mesh), minex_mesh_ignored(mesh),
                 tool_wtime() - t);
    t = tool_wtime();
  }
  if (graph_path != NULL) {
    tool_progress("reading %s", graph_path);
    rc = minex_graph_read_metis(graph_path, &g);
  } else {
    graph_path = mesh_path;
    int32_t ne = minex_mesh_nelems(mesh);
    if ((pwgt_path != NULL &&
         tool_read_weights(cmd, pwgt_path, ne, &pwgt) != 0) ||
        (rwgt_path != NULL &&
         tool_read_weights(cmd, rwgt_path, ne, &rwgt) != 0) ||
        (pwgt_field != NULL &&
         tool_read_field_weights(cmd, mesh, mesh_path, pwgt_field, &pwgt)) ||
        (rwgt_field != NULL &&
         tool_read_field_weights(cmd, mesh, mesh_path, rwgt_field, &rwgt)))
      goto done;
    rc = minex_mesh_dual_ncommon(mesh, ncommon, pwgt, rwgt ? rwgt : pwgt, NULL,
                                 NULL, &g);
  }
  if (rc != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  int32_t n = minex_graph_nvtxs(g);
  if (mesh != NULL && minex_mesh_nelems(mesh) != n) {
    fprintf(stderr,
            "minex repart: %s has %" PRId32 " elements, the graph %" PRId32
            " vertices: one vertex per element expected\n",
            mesh_path, minex_mesh_nelems(mesh), n);
    goto done;
  }
  /* the partition stored in the mesh file is the old one */
  const int32_t *fpart = mesh ? minex_mesh_file_partition(mesh) : NULL;
  int32_t fparts = 0;
  for (int32_t v = 0; fpart != NULL && old_path == NULL && v < n; v++)
    fparts = fpart[v] + 1 > fparts ? fpart[v] + 1 : fparts;
  tool_progress_clear();
  tool_verbose(verbose, cmd,
               "read %s: %" PRId32 " vertices, %" PRId64 " edges in %.3f s",
               graph_path, n, minex_graph_nedges(g), tool_wtime() - t);

  int32_t pmax = fpart != NULL && old_path == NULL ? fparts : 0;
  if (config_path == NULL && nparts <= 0 && mesh_path != NULL &&
      old_path == NULL && fpart == NULL) {
    fprintf(stderr,
            "minex repart: %s holds no partition: give --nparts, "
            "--config or --old\n",
            mesh_path);
    status = TOOL_EXIT_USAGE;
    goto done;
  }
  if (config_path == NULL && nparts <= 0 && old_path != NULL) {
    /* P from the old partition: read it unbounded first */
    if ((rc = tool_read_part(old_path, n, 0, &old, &pmax)) != MINEX_OK) {
      status = tool_fail(cmd, rc);
      part_hint(old_path, mesh, rc);
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
      part_hint(old_path, mesh, rc);
      goto done;
    }
  } else if (old == NULL && fpart != NULL) {
    old = malloc(sizeof *old * ((size_t)n + 1));
    if (old == NULL) {
      fprintf(stderr, "minex repart: out of memory\n");
      goto done;
    }
    for (int32_t v = 0; v < n; v++) {
      if (fpart[v] >= P) {
        fprintf(stderr,
                "minex repart: %s: element %" PRId32 " is in partition %" PRId32
                " of the file, beyond the %" PRId32 " processors\n",
                mesh_path, v, fpart[v], P);
        goto done;
      }
      old[v] = fpart[v];
    }
    fprintf(stderr,
            "minex repart: no --old given: old partition = the one stored "
            "in %s\n",
            mesh_path);
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
  /* the call's own time in the figures' units: seconds x SteadyMax(old)
     / the seconds of one iteration on old (SPEC section 5) */
  double unit_per_second = step_seconds > 0 ? mo.steady_max / step_seconds : 0;
  minex_decision dec;
  memset(&dec, 0, sizeof dec);
  int skipped = 0;
  double predicted = 0;
  if (step_seconds > 0) {
    if ((rc = minex_predict_seconds(g, cfg, &opt, 0, 0, &predicted)) ||
        (rc = minex_decide_before(g, cfg, old, &opt, (double)steps, tolerance,
                                  &dec)) ||
        (rc = minex_decision_add_call(&dec, predicted * unit_per_second))) {
      status = tool_fail(cmd, rc);
      goto done;
    }
    skipped = !dec.repartition;
  }
  double seconds = 0;
  if (skipped) {
    memset(&mr, 0, sizeof mr);
    memcpy(new_part, old, sizeof *new_part * (size_t)n);
  } else {
    t = tool_wtime();
    tool_progress(
        "repartitioning %" PRId32 " vertices for %" PRId32 " processors", n, P);
    rc = minex_repartition(g, cfg, old, &opt, new_part, &mr);
    if (rc != MINEX_OK) {
      status = tool_fail(cmd, rc);
      goto done;
    }
    seconds = mr.seconds; /* the call's own clock: its phases add up to it */
  }
  /* Score the result with the evaluator, the same code `minex eval` runs,
   * so that both commands print identical figures for one partition. */
  if ((rc = minex_evaluate(g, cfg, old, new_part, &opt, &mn)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  int kept_old = skipped;
  if (steps >= 0 && !skipped) {
    if ((rc = minex_decide(g, cfg, old, new_part, &opt, (double)steps,
                           tolerance, &dec)) != MINEX_OK ||
        (rc = minex_decision_add_call(&dec, seconds * unit_per_second))) {
      status = tool_fail(cmd, rc);
      goto done;
    }
    kept_old = !dec.repartition;
  }
  /* T_steps of keeping old and of moving (SPEC §5 in SPEC §2's figures) */
  double t_old = (double)steps * mo.steady_max;
  double t_new = mn.max_remap + (double)steps * mn.steady_max;
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
  if (write_old != NULL &&
      (rc = minex_part_write(write_old, n, old)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  if (vtk_path != NULL &&
      (rc = minex_mesh_write_vtk(mesh, g, old, kept_old ? old : new_part,
                                 vtk_path)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  if (out_mesh != NULL &&
      (rc = tool_write_mesh(out_mesh, mesh, g, old,
                            kept_old ? old : new_part)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }

  tool_progress_clear();
  if (json) {
    printf("{\n");
    tool_json_metrics(stdout, &mn, 2);
    printf(",\n  \"seconds\": ");
    tool_json_double(stdout, seconds);
    const struct {
      const char *name;
      double v;
    } phases[] = {{"diffusive", mr.seconds_diffusive},
                  {"ladder", mr.seconds_ladder},
                  {"scratch", mr.seconds_scratch},
                  {"refine", mr.seconds_refine},
                  {"candidates", mr.seconds_candidates},
                  {"contract", mr.seconds_contract},
                  {"partition", mr.seconds_partition},
                  {"expand", mr.seconds_expand},
                  {"parallel", mr.seconds_parallel},
                  {"parallel_work", mr.seconds_parallel_work},
                  {"parallel_span", mr.seconds_parallel_span}};
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++) {
      printf(",\n  \"seconds_%s\": ", phases[i].name);
      tool_json_double(stdout, phases[i].v);
    }
    /* JSON has no infinity: ThroTTle = inf is the string "inf" */
    printf(",\n  \"throttle\": ");
    if (isinf(mr.throttle_used))
      printf("\"inf\"");
    else
      tool_json_double(stdout, mr.throttle_used);
    printf(",\n  \"coarse_nvtxs\": %" PRId32 ",\n  \"start_nvtxs\": %" PRId32
           ",\n  \"candidates\": %" PRId32 ",\n  \"threads\": %" PRId32
           ",\n  \"coarse_moves\": %" PRId64 ",\n  \"expand_moves\": %" PRId64
           ",\n  \"returned_old\": %d"
           ",\n  \"scratch_used\": %d,\n  \"horizon_used\": ",
           mr.coarse_nvtxs, mr.start_nvtxs, mr.candidates, mr.threads_used,
           mr.coarse_moves, mr.expand_moves, mr.returned_old, mr.scratch_used);
    tool_json_double(stdout, mr.horizon_used);
    if (mr.bound_status != MINEX_BOUND_NONE) {
      printf(",\n  \"max_imbalance\": ");
      tool_json_double(stdout, opt.max_imbalance);
      printf(",\n  \"imbalance\": ");
      tool_json_double(stdout, mr.imbalance);
      printf(",\n  \"bound_excess\": ");
      tool_json_double(stdout, mr.bound_excess);
      printf(",\n  \"bound_met\": %s",
             mr.bound_status == MINEX_BOUND_MET ? "true" : "false");
    }
    printf(",\n  \"nvtxs\": %" PRId32 ",\n  \"nedges\": %" PRId64
           ",\n  \"nprocs\": %" PRId32 ",\n  \"iterations\": %" PRId32
           ",\n  \"graph\": ",
           n, minex_graph_nedges(g), P, opt.iterations);
    tool_json_string(stdout, graph_path);
    printf(",\n  \"old_source\": ");
    tool_json_string(stdout, old_path != NULL ? old_path
                             : fpart != NULL  ? "mesh file"
                                              : "initial:bfs");
    printf(",\n  \"output\": ");
    if (out_path != NULL)
      tool_json_string(stdout, out_path);
    else
      printf("null");
    if (steps >= 0) {
      printf(",\n  \"decision\": {\"steps\": %" PRId64, steps);
      printf(", \"horizon_old\": ");
      tool_json_double(stdout, t_old);
      printf(", \"horizon_new\": ");
      tool_json_double(stdout, t_new);
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
      if (step_seconds > 0) {
        printf(", \"step_seconds\": ");
        tool_json_double(stdout, step_seconds);
        printf(", \"call_seconds\": ");
        tool_json_double(stdout, skipped ? predicted : seconds);
        printf(", \"call_cost\": ");
        tool_json_double(stdout, dec.call_cost);
        printf(", \"called\": %s", skipped ? "false" : "true");
      }
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
    tool_print_table(stdout, &mo, &mn, "old", "new", opt.iterations);
    int32_t k = opt.iterations;
    if (mr.candidates > 1 && mr.threads_used > 1) {
      /* the candidates ran concurrently: their own times overlap */
      printf("  %-22s %16.6f s = contract %.3f + candidates %.3f on %d "
             "threads (diffusive run %.3f",
             "repartition time", seconds, mr.seconds_contract,
             mr.seconds_candidates, (int)mr.threads_used, mr.seconds_diffusive);
      if (mr.seconds_ladder > 0)
        printf(", ladder %.3f", mr.seconds_ladder);
      if (mr.seconds_scratch > 0)
        printf(", from-scratch %.3f", mr.seconds_scratch);
      printf(") + layout, checks and scoring %.3f\n",
             fmax(0, seconds - mr.seconds_contract - mr.seconds_candidates));
    } else {
      printf("  %-22s %16.6f s = contract %.3f + diffusive run %.3f",
             "repartition time", seconds, mr.seconds_contract,
             mr.seconds_diffusive);
      if (mr.seconds_ladder > 0)
        printf(" + ladder %.3f", mr.seconds_ladder);
      if (mr.seconds_scratch > 0)
        printf(" + from-scratch %.3f", mr.seconds_scratch);
      printf(" + layout, checks and scoring %.3f\n",
             fmax(0, seconds - mr.seconds_contract - mr.seconds_diffusive -
                         mr.seconds_ladder - mr.seconds_scratch));
    }
    char kept[128];
    if (mr.returned_old)
      snprintf(kept, sizeof kept,
               "none: the old partition was returned, no candidate's "
               "MaxQwgt under k = %d below its own",
               (int)k);
    else if (mr.scratch_used)
      snprintf(kept, sizeof kept, "the from-scratch candidate");
    else if (mr.horizon_used != (double)k)
      snprintf(kept, sizeof kept, "the ladder's run under k = %g",
               mr.horizon_used);
    else
      snprintf(kept, sizeof kept, "the diffusive run");
    printf("  %-22s %16" PRId32 " (%s kept; its partition %.3f s, expansion "
           "and refinement %.3f s; refinement in all %.3f s)\n",
           "candidates", mr.candidates, kept, mr.seconds_partition,
           mr.seconds_expand, mr.seconds_refine);
    if (mr.bound_status != MINEX_BOUND_NONE)
      printf("  %-22s %16.6f (max Pwgt / target; bound %g %s, load outside "
             "it %g)\n",
             "imbalance", mr.imbalance, opt.max_imbalance,
             mr.bound_status == MINEX_BOUND_MET ? "met" : "MISSED",
             mr.bound_excess);
    printf("  %-22s %16" PRId32 " (after the contraction", "coarse vertices",
           mr.coarse_nvtxs);
    if (mr.start_nvtxs != mr.coarse_nvtxs && !mr.returned_old)
      printf("; the kept candidate started on %" PRId32, mr.start_nvtxs);
    printf("; moves: %" PRId64 " coarse, %" PRId64 " expansion)\n",
           mr.coarse_moves, mr.expand_moves);
    if (opt.throttle_auto)
      printf("  %-22s %16g (throttle auto)\n", "ThroTTle", mr.throttle_used);
    printf("  %-22s MaxQwgt under k = %" PRId32
           " (remapping once, processing and communication %s)%s\n",
           "minimised", k, k > 1 ? "k times" : "once",
           mr.candidates > 1 ? "; the candidates compared by T_k" : "");
    if (mn.horizon_time > mo.horizon_time) {
      if (k == 1)
        printf("  note: T_1 rose from %g to %g: at k = 1 the remapping is "
               "charged against one\n  iteration. If the partition must "
               "last K solver iterations, give --iters K\n  (or --steps K, "
               "which also decides whether moving pays).\n",
               mo.horizon_time, mn.horizon_time);
      else
        printf("  note: T_k rose from %g to %g: moving costs more than "
               "k = %" PRId32 " iterations\n  save; --steps %" PRId32
               " keeps the old partition when it is cheaper.\n",
               mo.horizon_time, mn.horizon_time, k, k);
    }
    if (steps >= 0) {
      printf("  %-22s %16s (T_%" PRId64
             ": old %g, new %g = MaxRemap %g + %" PRId64
             " x SteadyMax %g; saving %g per iteration x %" PRId64
             " x (1 - %g) = %g vs remap %g; break-even after %g iterations)\n",
             "repartition?", dec.repartition ? "yes" : "no", steps, t_old,
             t_new, mn.max_remap, steps, mn.steady_max, dec.saving_per_step,
             steps, tolerance, dec.gain, dec.remap_cost, dec.break_even_steps);
      if (skipped)
        printf("  %-22s %16s (predicted %.3g s = %g; at most %g saved per "
               "iteration, SteadyMax %g - LB %g, x %" PRId64
               " x (1 - %g) = %g: not called)\n",
               "call pays?", "no", predicted, dec.call_cost,
               dec.saving_per_step, mo.steady_max,
               mo.steady_max - dec.saving_per_step, steps, tolerance, dec.gain);
      else if (step_seconds > 0)
        printf("  %-22s %16.4g (%.3g s x SteadyMax %g / %g s per iteration, "
               "beside the remap)\n",
               "call cost", dec.call_cost, seconds, mo.steady_max,
               step_seconds);
    }
    if (out_path != NULL)
      printf("  %s partition written to %s\n", kept_old ? "old" : "new",
             out_path);
    if (write_old != NULL)
      printf("  old partition written to %s\n", write_old);
    if (vtk_path != NULL)
      printf("  mesh with the old and %s partitions written to %s\n",
             kept_old ? "(kept) old" : "new", vtk_path);
    if (out_mesh != NULL)
      printf("  mesh with the old and %s partitions written to %s\n",
             kept_old ? "(kept) old" : "new", out_mesh);
  }
  if (fflush(stdout) != 0) {
    fprintf(stderr, "minex repart: cannot write the report to stdout\n");
    goto done;
  }
  status = TOOL_EXIT_OK;

done:
  free(pwgt);
  free(rwgt);
  free(old);
  free(new_part);
  minex_config_destroy(cfg);
  minex_graph_destroy(g);
  minex_mesh_destroy(mesh);
  return status;
}
