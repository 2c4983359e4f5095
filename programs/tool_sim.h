/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The workload options that `minex sim` and `minex sweep` share (mesh,
 * adaptation model, time units) and the building of the workload. */
#ifndef MINEX_TOOL_SIM_H
#define MINEX_TOOL_SIM_H

#include "adapt.h"
#include "tool.h"

typedef struct tool_workload_args {
  const char *mesh_path;   /* MESH (positional) or NULL: built-in box   */
  int32_t box[3];          /* --box NX NY NZ of the built-in mesh        */
  sim_adapt_params params; /* --steps --depth --radius --iters (horizon) */
} tool_workload_args;

/* Defaults: the built-in box 20 x 20 x 21 (50,400 tetrahedra, the paper's
 * 50,000) and sim_adapt_defaults. */
void tool_workload_defaults(tool_workload_args *w);

/* Takes a's current argument when it is a workload option: 1 taken, 0 not
 * one of them, -1 bad value (usage error printed). */
int tool_workload_option(tool_args *a, const char *cmd, tool_workload_args *w);

/* The value of --table: "all" (1, 1log, 2, 3, 4) or a comma-separated list
 * of 1, 1log, 2, 3, 4 (at most 8) into list[0..*nt); -1 after a usage
 * error. */
int tool_parse_tables(const char *cmd, const char *tables, int32_t list[8],
                      int32_t *nt);

/* Help lines of the workload options. */
void tool_workload_help(void);

/* Reads or generates the mesh and builds every adaptation's graph. On
 * failure prints the message and returns TOOL_EXIT_FAIL. */
int tool_workload_build(const char *cmd, const tool_workload_args *w,
                        int verbose, minex_mesh **mesh, sim_workload *out);

/* Writes a file of the sims (sweep_write_file) or prints the failure. */
int tool_sim_fail(const char *cmd, int rc);

#endif
