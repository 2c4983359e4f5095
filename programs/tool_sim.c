/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Workload options shared by `minex sim` and `minex sweep`. */
#include "tool_sim.h"
#include "sweep.h"
#include "tool_progress.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void tool_workload_defaults(tool_workload_args *w) {
  memset(w, 0, sizeof *w);
  w->box[0] = 20;
  w->box[1] = 20;
  w->box[2] = 21;
  sim_adapt_defaults(&w->params);
}

int tool_workload_option(tool_args *a, const char *cmd, tool_workload_args *w) {
  const char *v;
  if (tool_args_is(a, NULL, "--box")) {
    for (int k = 0; k < 3; k++)
      if ((v = tool_args_value(a)) == NULL ||
          tool_parse_i32(cmd, "--box", v, 1, &w->box[k]) != 0)
        return -1;
    return 1;
  }
  if (tool_args_is(a, NULL, "--steps"))
    return (v = tool_args_value(a)) == NULL ||
                   tool_parse_i32(cmd, "--steps", v, 1, &w->params.nsteps)
               ? -1
               : 1;
  if (tool_args_is(a, NULL, "--depth")) {
    if ((v = tool_args_value(a)) == NULL ||
        tool_parse_i32(cmd, "--depth", v, 0, &w->params.depth))
      return -1;
    if (w->params.depth > SIM_ADAPT_MAX_DEPTH) {
      tool_usage_error(cmd,
                       "--depth: %d is above the largest supported "
                       "depth %d",
                       (int)w->params.depth, SIM_ADAPT_MAX_DEPTH);
      return -1;
    }
    return 1;
  }
  if (tool_args_is(a, NULL, "--radius"))
    return (v = tool_args_value(a)) == NULL ||
                   tool_parse_double(cmd, "--radius", v, 0.0, HUGE_VAL, 0,
                                     &w->params.radius)
               ? -1
               : 1;
  if (tool_args_is(a, NULL, "--iters"))
    return (v = tool_args_value(a)) == NULL ||
                   tool_parse_iterations(cmd, v, &w->params.iterations)
               ? -1
               : 1;
  return 0;
}

int tool_parse_tables(const char *cmd, const char *tables, int32_t list[8],
                      int32_t *nt) {
  *nt = 0;
  if (strcmp(tables, "all") == 0) {
    static const int32_t all[] = {SWEEP_T1, SWEEP_T1LOG, SWEEP_T2, SWEEP_T3,
                                  SWEEP_T4};
    for (int i = 0; i < 5; i++)
      list[(*nt)++] = all[i];
    return 0;
  }
  for (const char *p = tables; *p;) {
    char item[16];
    size_t len = strcspn(p, ",");
    if (len == 0 || len >= sizeof item || *nt == 8) {
      tool_usage_error(cmd, "--table: bad list '%s'", tables);
      return -1;
    }
    memcpy(item, p, len);
    item[len] = '\0';
    int32_t t = sweep_table_parse(item);
    if (t < 0) {
      tool_usage_error(cmd,
                       "--table: unknown table '%s' (1, 1log, 2, 3, 4 "
                       "or all)",
                       item);
      return -1;
    }
    list[(*nt)++] = t;
    p += len + (p[len] == ',');
  }
  if (*nt == 0) {
    tool_usage_error(cmd, "--table: empty list");
    return -1;
  }
  return 0;
}

void tool_workload_help(void) {
  sim_adapt_params p;
  sim_adapt_defaults(&p);
  printf(
      "Workload (docs/design/workload.md):\n"
      "  MESH                 tetrahedral mesh whose elements are the roots, "
      "read by\n"
      "                       content: Gmsh .msh, MEDIT .mesh/.meshb, VTK "
      ".vtk/.vtu\n"
      "                       (default: the built-in box, 50,400 "
      "tetrahedra)\n"
      "  --box NX NY NZ       cubes of the built-in box (default 20 20 21; "
      "6 tets each)\n"
      "  --steps N            adaptations (default 9)\n"
      "  --depth D            refinement levels inside the cylinder "
      "(default 3)\n"
      "  --radius R           cylinder radius / domain length along the "
      "sweep\n"
      "                       (default %.4g: ~1.8 million leaves at the "
      "largest)\n"
      "  --iters K            horizon: solver iterations each partition "
      "lasts (default 1);\n"
      "                       MinEX runs and scores under it (SPEC "
      "section 2: processing\n"
      "                       and communication count K times, "
      "remapping once)\n",
      p.radius);
}

int tool_sim_fail(const char *cmd, int rc) {
  const char *m = sim_last_error();
  tool_progress_clear();
  fprintf(stderr, "minex %s: %s\n", cmd, m && m[0] ? m : minex_strerror(rc));
  return TOOL_EXIT_FAIL;
}

int tool_workload_build(const char *cmd, const tool_workload_args *w,
                        int verbose, minex_mesh **mesh, sim_workload *out) {
  double t = tool_wtime();
  int rc;
  tool_progress("building the workload: %s, %d adaptations",
                w->mesh_path ? w->mesh_path : "built-in box",
                (int)w->params.nsteps);
  if (w->mesh_path != NULL)
    rc = tool_read_mesh(cmd, w->mesh_path, 0, mesh);
  else
    rc = minex_gen_box(w->box[0], w->box[1], w->box[2], mesh);
  if (rc != MINEX_OK)
    return w->mesh_path != NULL ? TOOL_EXIT_FAIL : tool_fail(cmd, rc);
  tool_verbose(verbose, cmd, "mesh: %d elements (%s) in %.3f s",
               (int)minex_mesh_nelems(*mesh),
               w->mesh_path ? w->mesh_path : "built-in box", tool_wtime() - t);
  if ((rc = sim_workload_build(*mesh, &w->params, out)) != MINEX_OK) {
    minex_mesh_destroy(*mesh);
    *mesh = NULL;
    /* sims/ says what failed; the user needs to know on which mesh */
    const char *m = sim_last_error();
    tool_progress_clear();
    fprintf(stderr, "minex %s: %s: %s\n", cmd,
            w->mesh_path ? w->mesh_path : "built-in box",
            m && m[0] ? m : minex_strerror(rc));
    return TOOL_EXIT_FAIL;
  }
  tool_verbose(verbose, cmd,
               "workload: %d adaptations, %lld -> %lld leaves "
               "at the last, in %.3f s",
               (int)out->nsteps, (long long)out->initial_elements,
               (long long)out->leaves[out->nsteps - 1], out->seconds);
  return TOOL_EXIT_OK;
}
