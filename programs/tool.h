/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The minex command-line tool: one file per subcommand (cmd_*.c) and the
 * common part (tool_common.c: option parsing, configuration building,
 * metrics printing as a table or JSON). Public API (minex.h) only. */
#ifndef MINEX_TOOL_H
#define MINEX_TOOL_H

#include "minex.h"

#include <stdint.h>
#include <stdio.h>

/* Exit statuses of every subcommand. */
enum {
  TOOL_EXIT_OK = 0,   /* success                                       */
  TOOL_EXIT_FAIL = 1, /* a library call failed (message on stderr)     */
  TOOL_EXIT_USAGE = 2 /* bad command line (message and hint on stderr) */
};

/* Subcommand entry points: argv[0] is the subcommand name. */
int cmd_repart(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_mesh2dual(int argc, char **argv);
int cmd_partition(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_drum(int argc, char **argv);

/* ------------------------------------------------------- argument parsing */

/* Walks argv[1..] one argument at a time. Options are "-x", "--long" or
 * "--long=value"; everything else is positional. An inline value that no
 * tool_args_value call took (a flag that takes no value, "--json=1") is a
 * usage error, reported by the next tool_args_next. */
typedef struct tool_args {
  int argc;        /* argument count                                */
  char **argv;     /* arguments; argv[0] is the subcommand name      */
  int i;           /* index of the next unread argument              */
  const char *cmd; /* subcommand name, for messages                  */
  const char *arg; /* current argument (option name without "=...")  */
  const char *inl; /* value given inline with "--opt=value", or NULL */
  int inl_taken;   /* 1 once tool_args_value has returned inl        */
  char buf[64];    /* holds the option name when split at '='        */
} tool_args;

void tool_args_init(tool_args *a, int argc, char **argv);
/* Next argument: 1 and a->arg set, 0 when none is left, -1 (usage error
 * printed) when the previous argument was "--flag=value" and the flag
 * takes no value. Loops: while ((r = tool_args_next(&a)) > 0) { ... }
 * if (r < 0) return TOOL_EXIT_USAGE; */
int tool_args_next(tool_args *a);
/* -1 (usage error printed) when the current argument carries an inline
 * value, else 0: for flags handled without another tool_args_next call
 * (--help). */
int tool_args_no_value(const tool_args *a);
/* 1 when the current argument is one of the two spellings (short may be
 * NULL). */
int tool_args_is(const tool_args *a, const char *shortname,
                 const char *longname);
/* 1 when the current argument looks like an option ("-x", "--x"). */
int tool_args_is_option(const tool_args *a);
/* The value of the current option: the inline one the first time, then
 * the next argument (--box=1 2 3 reads three values); NULL and a message
 * on stderr when it is missing. */
const char *tool_args_value(tool_args *a);

/* Strict conversions of an option value; on failure they print
 * "minex CMD: OPTION: ..." on stderr and return -1. */
int tool_parse_i32(const char *cmd, const char *opt, const char *s, int32_t min,
                   int32_t *out);
int tool_parse_i64(const char *cmd, const char *opt, const char *s, int64_t min,
                   int64_t *out);
int tool_parse_u64(const char *cmd, const char *opt, const char *s,
                   uint64_t *out);
/* A finite double in [min, max], or "inf" when allow_inf. */
int tool_parse_double(const char *cmd, const char *opt, const char *s,
                      double min, double max, int allow_inf, double *out);
/* The value of --throttle: a ThroTTle >= 0, "inf", or "auto" (sets
 * opt->throttle_auto). */
int tool_parse_throttle(const char *cmd, const char *s, minex_options *opt);
/* The value of --iters: the horizon k, an integer in [1,
 * MINEX_ITERATIONS_MAX] (SPEC §2). */
int tool_parse_iterations(const char *cmd, const char *s, int32_t *out);
/* The value of --kind: tet, hex, prism, pyramid, tri or quad (a
 * minex_elem_type). */
int tool_parse_kind(const char *cmd, const char *s, int *kind);
/* "receiver", "sender" or "both". */
int tool_parse_remap(const char *cmd, const char *s, minex_remap_mode *out);

/* Prints "minex CMD: message" and "Try 'minex CMD --help'." on stderr;
 * returns TOOL_EXIT_USAGE. */
/* The options repart and eval share (machine and cost model): where each
 * one's value goes. */
typedef struct tool_cost_args {
  const char **config_path; /* --config CFG.xml                         */
  int32_t *nparts;          /* --nparts P                               */
  minex_options *opt;       /* --alpha A, --remap MODE, --iters K       */
  int *json;                /* --json                                   */
  int *verbose;             /* -v, --verbose                            */
} tool_cost_args;

/* Takes a's current argument when it is one of the shared options: 1 when
 * taken, 0 when it is not one of them, -1 on a bad value (usage error
 * already printed). */
int tool_cost_option(tool_args *a, const char *cmd, const tool_cost_args *c);

/* Takes a's current argument when it selects the rules beyond the paper
 * (SPEC §3), for repart and sim: --paper-exact, --refine on|off|auto,
 * --scratch on|off|auto, --ladder on|off|auto. 1 taken, 0 not one of them, -1
 * bad value. */
int tool_rule_option(tool_args *a, const char *cmd, minex_options *opt);

int tool_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Prints "minex CMD: <library message>" for the failed call's code rc;
 * returns TOOL_EXIT_FAIL. */
int tool_fail(const char *cmd, int rc);

/* ------------------------------------------------------ shared behaviour */

/* Monotonic wall clock in seconds. */
double tool_wtime(void);

/* log_fn of the library for -v: "minex: message" on stderr. */
void tool_log(const char *message, void *ctx);
/* The tool's own progress line for -v (printf format). */
void tool_verbose(int verbose, const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The configuration from --config PATH or --nparts P (exactly one of them
 * may be set; neither: nparts_default > 0 makes a uniform one, else an
 * error). MINEX_OK or a library error code (message via tool_fail). */
int tool_make_config(const char *config_path, int32_t nparts,
                     int32_t nparts_default, minex_config **out);

/* Reads a partition file; nparts > 0 checks the range, <= 0 accepts any
 * id >= 0 and stores max id + 1 in *maxp (may be NULL). */
int tool_read_part(const char *path, int32_t nvtxs, int32_t nparts,
                   int32_t **part, int32_t *maxp);

/* The mesh formats minex_mesh_read recognises (by content), for --help
 * texts and hints. */
#define TOOL_MESH_FORMATS                                                      \
  "Gmsh .msh (2.x, 4.0, 4.1; ASCII or binary), MEDIT .mesh/.meshb, VTK "       \
  "legacy .vtk, VTK XML .vtu"

/* minex_mesh_read_kind(path, kind, out), and on failure the library's
 * message plus a hint for the usual mistakes (a METIS graph or a partition
 * file given as the mesh, an unknown format): MINEX_OK or the code (message
 * printed). */
int tool_read_mesh(const char *cmd, const char *path, int kind,
                   minex_mesh **out);

/* Element weights from path: one finite number >= 0 per line, exactly n
 * lines; messages name the file and line. 0 and *out (malloc'ed), or -1
 * (message printed). */
int tool_read_weights(const char *cmd, const char *path, int32_t n,
                      double **out);

/* Element weights from the field name of the mesh file path
 * (minex_mesh_read_field), each >= 0. 0 and *out (malloc'ed), or -1
 * (message printed, naming the file and field). */
int tool_read_field_weights(const char *cmd, const minex_mesh *mesh,
                            const char *path, const char *name, double **out);

/* The format of a mesh output path by its extension: 'g' for .msh (Gmsh
 * 4.1 with partitioned entities), 'v' for .vtk (VTK legacy); 0 and a usage
 * error listing both for anything else. */
int tool_out_mesh_format(const char *cmd, const char *opt, const char *path);
/* Writes the mesh with its partitions to path in the format of its
 * extension (tool_out_mesh_format; graph adds pwgt and rwgt to VTK).
 * MINEX_OK or the library's code (message via tool_fail). */
int tool_write_mesh(const char *path, const minex_mesh *mesh,
                    const minex_graph *graph, const int32_t *old,
                    const int32_t *new_part);

/* --------------------------------------------------------------- output */

/* Writes s as a JSON string literal (quotes and escapes included). */
void tool_json_string(FILE *fp, const char *s);
/* Writes a double as JSON: %.17g, or null when not finite. */
void tool_json_double(FILE *fp, double x);
/* Writes the metrics' fields as JSON members ("key": value, ...) at the
 * given indentation, without braces and without a trailing comma. */
void tool_json_metrics(FILE *fp, const minex_metrics *m, int indent);

/* Human-readable comparison table of old and new metrics under the
 * horizon k = iterations (0 means 1); old may be NULL (one column). The
 * ratios to LB compare like with like: MaxQwgt and T_k against k LB,
 * SteadyMax against LB (docs/guide/cli.md). */
void tool_print_table(FILE *fp, const minex_metrics *old,
                      const minex_metrics *new_m, const char *old_title,
                      const char *new_title, int32_t iterations);

#endif
