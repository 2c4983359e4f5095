/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex gen: synthetic dual graph of a structured tetrahedral box (Kuhn
 * subdivision, 6 tetrahedra per cube) with optional refinement weights in a
 * ball that moves along x with --step; optional RCB old partition. */
#include "tool.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The default refined ball (--refine), data/cases/cube_ball_p16 convention
 * on the unit cube: radius 0.15 x the box diagonal, centre at 30% of x. */
#define GEN_BALL_X 0.3
#define GEN_BALL_Y 0.5
#define GEN_BALL_Z 0.5
#define GEN_BALL_R (0.15 * 1.7320508075688772)
#define GEN_FACTOR 8.0
#define GEN_CWGT 4.0
#define GEN_STEP_DX 0.1

static void help(void) {
  printf("Usage: minex gen (--elements N | --box NX NY NZ) -o GRAPH\n"
         "                 [--refine | --ball X,Y,Z,R] [--factor F] [--cwgt C] "
         "[--step K]\n"
         "                 [--part OLD.part --nparts P] [--mesh-vtk OUT.vtk] "
         "[-v]\n"
         "\n"
         "Generates the unit-cube box of NX*NY*NZ cubes, each cut into 6 "
         "tetrahedra,\nand writes its dual graph (METIS format, fmt 111: Rwgt, "
         "Pwgt, Cwgt).\n"
         "\n"
         "  --elements N         about N tetrahedra: NX = NY = NZ = "
         "round(cbrt(N/6)) >= 1\n"
         "  --box NX NY NZ       exact cube counts per axis\n"
         "  --refine             weight the default refined ball: centre "
         "(0.3,0.5,0.5),\n"
         "                       radius 0.15*sqrt(3), factor 8, Cwgt 4\n"
         "  --ball X,Y,Z,R       weight a ball of your own (factor 8, Cwgt 4 "
         "unless set)\n"
         "  --factor F           Pwgt = F, Rwgt = F + 1 inside the ball "
         "(implies --refine\n"
         "                       when no ball is given)\n"
         "  --cwgt C             Cwgt of an edge with a refined end (default "
         "4)\n"
         "  --step K             move the ball centre along x by K*0.1 (a "
         "moving refined\n"
         "                       region; implies --refine when no ball is "
         "given)\n"
         "                       Without a ball every weight is 1.\n"
         "  -o, --output GRAPH   dual graph to write (atomically)\n"
         "  --part OLD.part      also write an old partition: recursive "
         "coordinate\n"
         "                       bisection of the element centroids into "
         "--nparts\n"
         "                       parts of equal element count (made before "
         "refinement:\n"
         "                       weights ignored)\n"
         "  --nparts P           number of parts of --part\n"
         "  --mesh-vtk OUT.vtk   write the mesh with weights (and the "
         "partition) as VTK\n"
         "  -v, --verbose        timings on stderr\n"
         "  -h, --help           this help\n");
}

/* "X,Y,Z,R" -> four finite numbers, R > 0. */
static int parse_ball(const char *s, minex_ball *b) {
  char *end = NULL;
  double v[4];
  const char *p = s;
  for (int k = 0; k < 4; k++) {
    v[k] = strtod(p, &end);
    if (end == p || !isfinite(v[k]))
      return -1;
    if (k < 3) {
      if (*end != ',')
        return -1;
      p = end + 1;
    }
  }
  if (*end != '\0' || !(v[3] > 0))
    return -1;
  memcpy(b->center, v, sizeof b->center);
  b->radius = v[3];
  return 0;
}

int cmd_gen(int argc, char **argv) {
  const char *cmd = "gen";
  const char *out_path = NULL, *part_path = NULL, *vtk_path = NULL;
  int64_t elements = 0, step = 0;
  int32_t box[3] = {0, 0, 0}, nparts = 0;
  int have_ball = 0, verbose = 0;
  double factor = GEN_FACTOR, cwgt = GEN_CWGT;
  minex_ball ball = {
      {GEN_BALL_X, GEN_BALL_Y, GEN_BALL_Z}, GEN_BALL_R, GEN_FACTOR, GEN_CWGT};

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
    } else if (tool_args_is(&a, NULL, "--elements")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_i64(cmd, "--elements", v, 1, &elements) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--box")) {
      /* three values: the inline one (if any) and the following ones */
      for (int k = 0; k < 3; k++) {
        if (a.i >= a.argc && (a.inl == NULL || a.inl_taken))
          return tool_usage_error(cmd, "--box needs NX NY NZ");
        v = tool_args_value(&a);
        if (tool_parse_i32(cmd, "--box", v, 1, &box[k]) != 0)
          return TOOL_EXIT_USAGE;
      }
    } else if (tool_args_is(&a, NULL, "--refine")) {
      have_ball = 1;
    } else if (tool_args_is(&a, NULL, "--ball")) {
      if ((v = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
      if (parse_ball(v, &ball) != 0)
        return tool_usage_error(cmd,
                                "--ball: expected X,Y,Z,R with R > 0, "
                                "got '%s'",
                                v);
      have_ball = 1;
    } else if (tool_args_is(&a, NULL, "--factor")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_double(cmd, "--factor", v, 0.0, 1e300, 0, &factor) != 0)
        return TOOL_EXIT_USAGE;
      have_ball = 1;
    } else if (tool_args_is(&a, NULL, "--cwgt")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_double(cmd, "--cwgt", v, 0.0, 1e300, 0, &cwgt) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--step")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_i64(cmd, "--step", v, -1000000, &step) != 0)
        return TOOL_EXIT_USAGE;
      have_ball = 1;
    } else if (tool_args_is(&a, "-o", "--output")) {
      if ((out_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--part")) {
      if ((part_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--nparts")) {
      if ((v = tool_args_value(&a)) == NULL ||
          tool_parse_i32(cmd, "--nparts", v, 1, &nparts) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--mesh-vtk")) {
      if ((vtk_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, "-v", "--verbose")) {
      verbose = 1;
    } else if (tool_args_is_option(&a)) {
      return tool_usage_error(cmd, "unknown option '%s'", a.arg);
    } else {
      return tool_usage_error(cmd, "unexpected argument '%s'", a.arg);
    }
  }
  if (more < 0)
    return TOOL_EXIT_USAGE;
  if ((elements > 0) == (box[0] > 0))
    return tool_usage_error(cmd, "give exactly one of --elements N and "
                                 "--box NX NY NZ");
  if (out_path == NULL)
    return tool_usage_error(cmd, "missing -o GRAPH");
  if ((part_path != NULL) != (nparts > 0))
    return tool_usage_error(cmd, "--part and --nparts go together");
  if (elements > 0) {
    double c = round(cbrt((double)elements / 6.0));
    if (c < 1)
      c = 1;
    if (c > 1290) /* 6 * 1290^3 > INT32_MAX */
      return tool_usage_error(cmd, "--elements %" PRId64 " is too large",
                              elements);
    box[0] = box[1] = box[2] = (int32_t)c;
  }
  if (6.0 * (double)box[0] * (double)box[1] * (double)box[2] > INT32_MAX)
    return tool_usage_error(cmd,
                            "--box %" PRId32 " %" PRId32 " %" PRId32
                            ": more than 2^31-1 elements",
                            box[0], box[1], box[2]);
  ball.factor = factor;
  ball.cwgt_refined = cwgt;
  ball.center[0] += GEN_STEP_DX * (double)step;

  int status = TOOL_EXIT_FAIL, rc;
  minex_mesh *mesh = NULL;
  minex_graph *g = NULL;
  int32_t *part = NULL;
  double t = tool_wtime();
  if ((rc = minex_gen_box(box[0], box[1], box[2], &mesh)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  int32_t ne = minex_mesh_nelems(mesh);
  tool_verbose(verbose, cmd,
               "box %" PRId32 "x%" PRId32 "x%" PRId32 ": %" PRId32
               " tetrahedra in %.3f s",
               box[0], box[1], box[2], ne, tool_wtime() - t);
  int32_t nrefined = 0;
  if (have_ball) {
    /* count the refined elements for the summary (the dual below weights
     * the graph by the same ball) */
    double *pw = malloc(sizeof *pw * ((size_t)ne + 1));
    double *rw = malloc(sizeof *rw * ((size_t)ne + 1));
    if (pw == NULL || rw == NULL) {
      free(pw);
      free(rw);
      fprintf(stderr, "minex gen: out of memory\n");
      goto done;
    }
    rc = minex_ball_weights(mesh, &ball, pw, rw, &nrefined);
    free(pw);
    free(rw);
    if (rc != MINEX_OK) {
      status = tool_fail(cmd, rc);
      goto done;
    }
  }
  t = tool_wtime();
  rc = minex_mesh_dual_ball(mesh, have_ball ? &ball : NULL, &g);
  if (rc != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  tool_verbose(verbose, cmd, "dual graph in %.3f s", tool_wtime() - t);
  if (part_path != NULL) {
    part = malloc(sizeof *part * ((size_t)ne + 1));
    if (part == NULL) {
      fprintf(stderr, "minex gen: out of memory\n");
      goto done;
    }
    t = tool_wtime();
    if ((rc = minex_mesh_partition_rcb(mesh, nparts, part)) != MINEX_OK) {
      status = tool_fail(cmd, rc);
      goto done;
    }
    tool_verbose(verbose, cmd, "RCB into %" PRId32 " parts in %.3f s", nparts,
                 tool_wtime() - t);
  }
  t = tool_wtime();
  if ((rc = minex_graph_write_metis(g, out_path)) != MINEX_OK ||
      (part_path != NULL &&
       (rc = minex_part_write(part_path, ne, part)) != MINEX_OK) ||
      (vtk_path != NULL && (rc = minex_mesh_write_vtk(mesh, g, NULL, part,
                                                      vtk_path)) != MINEX_OK)) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  tool_verbose(verbose, cmd, "wrote the outputs in %.3f s", tool_wtime() - t);

  printf("box %" PRId32 "x%" PRId32 "x%" PRId32 ": %" PRId32
         " tetrahedra -> %s: %" PRId32 " vertices, %" PRId64 " edges\n",
         box[0], box[1], box[2], ne, out_path, minex_graph_nvtxs(g),
         minex_graph_nedges(g));
  if (have_ball)
    printf("refined ball: centre (%g, %g, %g), radius %g, Pwgt %g, Rwgt %g, "
           "Cwgt %g: %" PRId32 " refined elements\n",
           ball.center[0], ball.center[1], ball.center[2], ball.radius,
           ball.factor, ball.factor + 1, ball.cwgt_refined, nrefined);
  else
    printf("no refinement: all weights 1\n");
  if (part_path != NULL)
    printf("old partition: RCB into %" PRId32 " parts -> %s\n", nparts,
           part_path);
  if (vtk_path != NULL)
    printf("mesh written to %s\n", vtk_path);
  status = TOOL_EXIT_OK;
done:
  free(part);
  minex_graph_destroy(g);
  minex_mesh_destroy(mesh);
  return status;
}
