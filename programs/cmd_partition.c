/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex partition: an initial partition of a mesh (any kind, any format
 * minex_mesh_read reads) or of a METIS graph, for P processors or a
 * heterogeneous configuration: weighted recursive coordinate or inertial
 * bisection of the element centroids, a cluster-aware Scotch partition of
 * the graph (the mesh's dual), or the breadth-first blocks of
 * minex_partition_initial. Writes the partition file and, for a mesh, a
 * VTK picture. */
#include "tool.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void help(void) {
  printf(
      "Usage: minex partition INPUT (--nparts P | --config CFG.xml) -o "
      "OUT.part\n"
      "                       [--method rcb|rib|scotch|bfs] [--pwgt FILE]\n"
      "                       [--kind K] [--ncommon N] [--seed S] "
      "[--vtk OUT.vtk]\n"
      "                       [--out-mesh OUT.msh|OUT.vtk] [--pwgt-field "
      "NAME] [-v]\n"
      "\n"
      "Writes an initial partition of INPUT, a mesh (every element kind; "
      "read by\ncontent: Gmsh .msh 2.x/4.0/4.1 ASCII or binary, MEDIT "
      ".mesh/.meshb, VTK\nlegacy .vtk, VTK XML .vtu) or a METIS graph: line "
      "i of OUT.part is the\nprocessor of element (vertex) i. Parts are "
      "weighted by Pwgt (--pwgt for a\nmesh, the graph's own for a graph) "
      "and sized by each processor's speed\n1/Proc under --config "
      "(unavailable ones get nothing); a cluster's\nprocessors get "
      "neighbouring regions.\n"
      "\n"
      "  --nparts P           P processors of equal speed\n"
      "  --config CFG.xml     heterogeneous configuration (minex-config.xsd)\n"
      "  --method M           rcb: recursive coordinate bisection of the "
      "element\n"
      "                       centroids (default for a mesh); rib: "
      "recursive inertial\n"
      "                       bisection; scotch: cluster-aware Scotch "
      "partition of the\n"
      "                       graph or dual graph (default for a graph); "
      "bfs:\n"
      "                       breadth-first blocks of equal vertex count "
      "(weights\n"
      "                       ignored). METIS is not linked: scotch is the "
      "graph\n"
      "                       partitioner\n"
      "  --pwgt FILE          mesh element weights, one number >= 0 per "
      "line\n"
      "  --pwgt-field NAME    mesh element weights from the mesh file's "
      "field NAME\n"
      "                       (Gmsh ASCII $ElementData view, VTK CELL_DATA "
      "or CellData\n"
      "                       array; one component, values >= 0)\n"
      "  --kind K             keep only one element kind: tet, hex, prism, "
      "pyramid,\n"
      "                       tri or quad (the others are dropped, "
      "counted)\n"
      "  --ncommon N          dual graph of scotch/bfs: elements sharing N "
      "corners\n"
      "                       (mpmetis -ncommon); default: a shared face "
      "(edge in 2D)\n"
      "  --seed S             Scotch's seed (default 1)\n"
      "  -o, --output FILE    partition to write (atomically)\n"
      "  --vtk OUT.vtk        the mesh with the partition and weights as cell "
      "data\n"
      "  --out-mesh FILE      the mesh with the partition, format by "
      "extension: .msh\n"
      "                       (Gmsh 4.1, each part a partitioned entity, "
      "the ids as\n"
      "                       view \"partition\") or .vtk (as --vtk)\n"
      "  -v, --verbose        timings on stderr\n"
      "  -h, --help           this help\n");
}

int cmd_partition(int argc, char **argv) {
  const char *cmd = "partition";
  const char *in_path = NULL, *out_path = NULL, *vtk_path = NULL;
  const char *out_mesh = NULL;
  const char *config_path = NULL, *pwgt_path = NULL, *method = NULL;
  const char *pwgt_field = NULL;
  int32_t nparts = 0;
  int verbose = 0, kind = 0;
  int32_t ncommon = 0;
  uint64_t seed = 1;
  tool_args a;
  tool_args_init(&a, argc, argv);
  int more;
  while ((more = tool_args_next(&a)) > 0) {
    const char *v;
    if (tool_args_is(&a, "-h", "--help")) {
      if (tool_args_no_value(&a) != 0)
        return TOOL_EXIT_USAGE;
      help();
      return TOOL_EXIT_OK;
    } else if (tool_args_is(&a, "-o", "--output")) {
      if ((out_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--vtk")) {
      if ((vtk_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--out-mesh")) {
      if ((out_mesh = tool_args_value(&a)) == NULL ||
          tool_out_mesh_format(cmd, "--out-mesh", out_mesh) == 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--config")) {
      if ((config_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--nparts")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_i32(cmd, "--nparts", v, 1, &nparts) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--method")) {
      if ((method = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
      if (strcmp(method, "metis") == 0)
        return tool_usage_error(cmd,
                                "--method: expected rcb, rib, scotch or bfs "
                                "(METIS is not linked into this build; "
                                "scotch partitions the graph), got 'metis'");
      if (strcmp(method, "rcb") != 0 && strcmp(method, "rib") != 0 &&
          strcmp(method, "scotch") != 0 && strcmp(method, "bfs") != 0)
        return tool_usage_error(cmd,
                                "--method: expected rcb, rib, scotch or "
                                "bfs, got '%s'",
                                method);
    } else if (tool_args_is(&a, NULL, "--pwgt")) {
      if ((pwgt_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--pwgt-field")) {
      if ((pwgt_field = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--kind")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_kind(cmd, v, &kind) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--ncommon")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_i32(cmd, "--ncommon", v, 1, &ncommon) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--seed")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_u64(cmd, "--seed", v, &seed) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, "-v", "--verbose")) {
      verbose = 1;
    } else if (tool_args_is_option(&a)) {
      return tool_usage_error(cmd, "unknown option '%s'", a.arg);
    } else if (in_path == NULL) {
      in_path = a.arg;
    } else {
      return tool_usage_error(cmd, "unexpected argument '%s'", a.arg);
    }
  }
  if (more < 0)
    return TOOL_EXIT_USAGE;
  if (in_path == NULL)
    return tool_usage_error(cmd, "missing INPUT (mesh or METIS graph)");
  if (out_path == NULL)
    return tool_usage_error(cmd, "missing -o OUT.part");
  if ((config_path == NULL) == (nparts <= 0))
    return tool_usage_error(cmd, "give exactly one of --nparts and --config");

  int status = TOOL_EXIT_FAIL, rc;
  minex_mesh *mesh = NULL;
  minex_graph *g = NULL;
  minex_config *cfg = NULL;
  double *w = NULL, *target = NULL;
  int32_t *part = NULL;
  double t = tool_wtime();
  /* a mesh when the mesh reader recognises the format, else a graph */
  rc = minex_mesh_read_kind(in_path, kind, &mesh);
  if (rc == MINEX_EUNSUP && strstr(minex_last_error(), "unrecognised") &&
      kind == 0) {
    rc = minex_graph_read_metis(in_path, &g);
    if (rc != MINEX_OK) {
      status = tool_fail(cmd, rc);
      goto done;
    }
  } else if (rc != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  if (method == NULL)
    method = mesh != NULL ? "rcb" : "scotch";
  int geometric = strcmp(method, "rcb") == 0 || strcmp(method, "rib") == 0;
  if (pwgt_path != NULL && pwgt_field != NULL) {
    status = tool_usage_error(cmd, "give --pwgt or --pwgt-field, not both");
    goto done;
  }
  if (mesh == NULL && (geometric || vtk_path != NULL || pwgt_path != NULL ||
                       pwgt_field != NULL || out_mesh != NULL)) {
    status = tool_usage_error(cmd,
                              "%s is a graph, not a mesh: --method %s, "
                              "--vtk, --out-mesh and --pwgt need a mesh "
                              "(read by content: " TOOL_MESH_FORMATS ")",
                              in_path, method);
    goto done;
  }
  int32_t n = mesh ? minex_mesh_nelems(mesh) : minex_graph_nvtxs(g);
  if (mesh != NULL)
    tool_verbose(verbose, cmd,
                 "read %s: %" PRId32 " elements (%s), %" PRId32
                 " nodes; %" PRId64 " lower-dimensional elements ignored, "
                 "in %.3f s",
                 in_path, n, minex_elem_name(minex_mesh_elem_type(mesh)),
                 minex_mesh_nnodes(mesh), minex_mesh_ignored(mesh),
                 tool_wtime() - t);
  if (pwgt_path != NULL && tool_read_weights(cmd, pwgt_path, n, &w) != 0)
    goto done;
  if (pwgt_field != NULL &&
      tool_read_field_weights(cmd, mesh, in_path, pwgt_field, &w) != 0)
    goto done;
  if ((rc = tool_make_config(config_path, nparts, 0, &cfg)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  int32_t P = minex_config_nprocs(cfg);
  /* as minex_repartition says it, whatever the method (rcb and rib would
     see targets that sum to 0, bfs would fill unavailable processors) */
  if (minex_config_navailable(cfg) < 1) {
    fprintf(stderr,
            "minex %s: %s: all %" PRId32 " processors are unavailable: no "
            "processor to partition onto (%s)\n",
            cmd, config_path ? config_path : "--nparts", P,
            minex_err_name(MINEX_ENOPROC));
    goto done;
  }
  part = malloc(sizeof *part * ((size_t)n + 1));
  target = malloc(sizeof *target * ((size_t)P + 1));
  if (part == NULL || target == NULL) {
    fprintf(stderr, "minex %s: out of memory\n", cmd);
    goto done;
  }
  /* each processor's share: its speed, 0 when unavailable */
  for (int32_t p = 0; p < P; p++)
    target[p] = minex_config_is_available(cfg, p)
                    ? 1.0 / minex_config_proc_slowdown(
                                cfg, minex_config_cluster_of(cfg, p))
                    : 0.0;
  if (mesh != NULL &&
      (!geometric || vtk_path != NULL ||
       (out_mesh != NULL && tool_out_mesh_format(cmd, "", out_mesh) == 'v'))) {
    t = tool_wtime();
    rc = minex_mesh_dual_ncommon(mesh, ncommon, w, w, NULL, NULL, &g);
    if (rc != MINEX_OK) {
      status = tool_fail(cmd, rc);
      goto done;
    }
    tool_verbose(verbose, cmd, "dual graph: %" PRId64 " edges in %.3f s",
                 minex_graph_nedges(g), tool_wtime() - t);
  }
  t = tool_wtime();
  if (geometric)
    rc = minex_mesh_partition_geom(
        mesh, P, strcmp(method, "rib") == 0 ? MINEX_GEOM_RIB : MINEX_GEOM_RCB,
        w, target, part);
  else if (strcmp(method, "scotch") == 0)
    rc = minex_partition_graph(g, cfg, seed, part);
  else
    rc = minex_partition_initial(g, P, MINEX_INIT_BFS, part);
  if (rc != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  tool_verbose(verbose, cmd, "%s partition in %.3f s", method,
               tool_wtime() - t);
  if ((rc = minex_part_write(out_path, n, part)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  if (vtk_path != NULL &&
      (rc = minex_mesh_write_vtk(mesh, g, NULL, part, vtk_path)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  if (out_mesh != NULL &&
      (rc = tool_write_mesh(out_mesh, mesh, g, NULL, part)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  /* balance: each part's weight against its share */
  double wsum = 0, tsum = 0, worst = 0;
  double *pw = calloc((size_t)P + 1, sizeof *pw);
  if (pw == NULL) {
    fprintf(stderr, "minex %s: out of memory\n", cmd);
    goto done;
  }
  const double *gw = g != NULL ? minex_graph_pwgt(g) : NULL;
  for (int32_t e = 0; e < n; e++) {
    double x = w ? w[e] : gw ? gw[e] : 1.0;
    pw[part[e]] += x;
    wsum += x;
  }
  for (int32_t p = 0; p < P; p++)
    tsum += target[p];
  for (int32_t p = 0; p < P; p++)
    if (target[p] > 0 && wsum > 0)
      worst = fmax(worst, pw[p] / (wsum * target[p] / tsum));
  free(pw);
  printf("%s: %" PRId32 " %s -> %s: %" PRId32 " parts by %s, largest part "
         "%.3f x its share of the weight\n",
         in_path, n, mesh ? "elements" : "vertices", out_path, P, method,
         worst);
  if (mesh != NULL && minex_mesh_ignored(mesh) > 0)
    printf("%" PRId64 " lower-dimensional (or unselected) elements of the "
           "file ignored\n",
           minex_mesh_ignored(mesh));
  if (vtk_path != NULL)
    printf("mesh with the partition written to %s\n", vtk_path);
  if (out_mesh != NULL)
    printf("mesh with the partition written to %s\n", out_mesh);
  status = TOOL_EXIT_OK;
done:
  free(w);
  free(target);
  free(part);
  minex_config_destroy(cfg);
  minex_graph_destroy(g);
  minex_mesh_destroy(mesh);
  return status;
}
