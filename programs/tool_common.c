/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Common part of the minex tool: option parsing, configuration building,
 * metrics as a table or JSON (docs/guide/cli.md). */
#include "tool.h"
#include "tool_progress.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------- argument parsing */

void tool_args_init(tool_args *a, int argc, char **argv) {
  memset(a, 0, sizeof *a);
  a->argc = argc;
  a->argv = argv;
  a->i = 1;
  a->cmd = argc > 0 ? argv[0] : "?";
}

int tool_args_no_value(const tool_args *a) {
  if (a->inl == NULL || a->inl_taken)
    return 0;
  tool_usage_error(a->cmd, "%s: expected no value (a flag), got '%s=%s'",
                   a->arg, a->arg, a->inl);
  return -1;
}

int tool_args_next(tool_args *a) {
  /* a flag that takes no value left its inline value untaken: refuse it
     rather than read "--paper-exact=0" as --paper-exact */
  if (a->arg != NULL && tool_args_no_value(a) != 0)
    return -1;
  if (a->i >= a->argc)
    return 0;
  const char *s = a->argv[a->i++];
  a->arg = s;
  a->inl = NULL;
  a->inl_taken = 0;
  /* "--name=value": split, keeping the name in a->buf */
  if (s[0] == '-' && s[1] == '-' && s[2] != '\0') {
    const char *eq = strchr(s, '=');
    if (eq != NULL && (size_t)(eq - s) < sizeof a->buf) {
      memcpy(a->buf, s, (size_t)(eq - s));
      a->buf[eq - s] = '\0';
      a->arg = a->buf;
      a->inl = eq + 1;
    }
  }
  return 1;
}

int tool_args_is(const tool_args *a, const char *shortname,
                 const char *longname) {
  return (shortname != NULL && strcmp(a->arg, shortname) == 0) ||
         (longname != NULL && strcmp(a->arg, longname) == 0);
}

int tool_args_is_option(const tool_args *a) {
  /* "-" alone is positional; negative numbers are never positional here */
  return a->arg[0] == '-' && a->arg[1] != '\0';
}

const char *tool_args_value(tool_args *a) {
  if (a->inl != NULL && !a->inl_taken) {
    a->inl_taken = 1;
    return a->inl;
  }
  if (a->i >= a->argc) {
    tool_usage_error(a->cmd, "option %s needs a value", a->arg);
    return NULL;
  }
  return a->argv[a->i++];
}

int tool_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "minex %s: ", cmd);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\nTry 'minex %s --help'.\n", cmd);
  return TOOL_EXIT_USAGE;
}

int tool_fail(const char *cmd, int rc) {
  const char *msg = minex_last_error();
  if (msg == NULL || msg[0] == '\0')
    msg = minex_strerror(rc);
  tool_progress_clear();
  fprintf(stderr, "minex %s: %s (%s)\n", cmd, msg, minex_err_name(rc));
  return TOOL_EXIT_FAIL;
}

int tool_parse_i64(const char *cmd, const char *opt, const char *s, int64_t min,
                   int64_t *out) {
  char *end = NULL;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (s[0] == '\0' || *end != '\0' || errno == ERANGE || v < min) {
    tool_usage_error(cmd, "%s: expected an integer >= %" PRId64 ", got '%s'",
                     opt, min, s);
    return -1;
  }
  *out = (int64_t)v;
  return 0;
}

int tool_parse_i32(const char *cmd, const char *opt, const char *s, int32_t min,
                   int32_t *out) {
  int64_t v;
  if (tool_parse_i64(cmd, opt, s, min, &v) != 0)
    return -1;
  if (v > INT32_MAX) {
    tool_usage_error(cmd, "%s: %s is too large (at most %" PRId32 ")", opt, s,
                     INT32_MAX);
    return -1;
  }
  *out = (int32_t)v;
  return 0;
}

int tool_parse_iterations(const char *cmd, const char *s, int32_t *out) {
  int64_t k;
  char *end = NULL;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  k = v;
  if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno == ERANGE || k < 1 ||
      k > MINEX_ITERATIONS_MAX) {
    tool_usage_error(cmd, "--iters: expected an integer in [1, %d], got '%s'",
                     MINEX_ITERATIONS_MAX, s);
    return -1;
  }
  *out = (int32_t)k;
  return 0;
}

int tool_parse_u64(const char *cmd, const char *opt, const char *s,
                   uint64_t *out) {
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (s[0] == '\0' || s[0] == '-' || *end != '\0' || errno == ERANGE) {
    tool_usage_error(cmd, "%s: expected an unsigned integer, got '%s'", opt, s);
    return -1;
  }
  *out = (uint64_t)v;
  return 0;
}

int tool_parse_double(const char *cmd, const char *opt, const char *s,
                      double min, double max, int allow_inf, double *out) {
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end); /* also reads "inf", "Infinity", ... */
  int ok = s[0] != '\0' && *end == '\0';
  if (ok && allow_inf && isinf(v) && v > 0) {
    *out = INFINITY;
    return 0;
  }
  if (!ok || errno == ERANGE || !isfinite(v) || v < min || v > max) {
    tool_usage_error(cmd, "%s: expected a number in [%g, %g]%s, got '%s'", opt,
                     min, max, allow_inf ? " or inf" : "", s);
    return -1;
  }
  *out = v;
  return 0;
}

int tool_parse_throttle(const char *cmd, const char *s, minex_options *opt) {
  opt->throttle_auto = strcmp(s, "auto") == 0;
  if (opt->throttle_auto)
    return 0;
  return tool_parse_double(cmd, "--throttle", s, 0.0, HUGE_VAL, 1,
                           &opt->throttle);
}

int tool_parse_kind(const char *cmd, const char *s, int *kind) {
  static const struct {
    const char *name;
    minex_elem_type kind;
  } kinds[] = {{"tet", MINEX_ELEM_TETRA},    {"hex", MINEX_ELEM_HEXA},
               {"prism", MINEX_ELEM_PRISM},  {"pyramid", MINEX_ELEM_PYRAMID},
               {"tri", MINEX_ELEM_TRIANGLE}, {"quad", MINEX_ELEM_QUAD}};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strcmp(s, kinds[i].name) == 0) {
      *kind = (int)kinds[i].kind;
      return 0;
    }
  tool_usage_error(cmd,
                   "--kind: expected tet, hex, prism, pyramid, tri or "
                   "quad, got '%s'",
                   s);
  return -1;
}

int tool_parse_remap(const char *cmd, const char *s, minex_remap_mode *out) {
  if (strcmp(s, "receiver") == 0)
    *out = MINEX_REMAP_RECEIVER;
  else if (strcmp(s, "sender") == 0)
    *out = MINEX_REMAP_SENDER;
  else if (strcmp(s, "both") == 0)
    *out = MINEX_REMAP_BOTH;
  else {
    tool_usage_error(cmd,
                     "--remap: expected receiver, sender or both, got "
                     "'%s'",
                     s);
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------ shared behaviour */

double tool_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void tool_log(const char *message, void *ctx) {
  (void)ctx;
  fprintf(stderr, "minex: %s\n", message);
}

void tool_verbose(int verbose, const char *cmd, const char *fmt, ...) {
  if (!verbose)
    return;
  va_list ap;
  fprintf(stderr, "minex %s: ", cmd);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

int tool_make_config(const char *config_path, int32_t nparts,
                     int32_t nparts_default, minex_config **out) {
  *out = NULL;
  if (config_path != NULL)
    return minex_config_load(config_path, out);
  if (nparts <= 0)
    nparts = nparts_default;
  return minex_config_create_uniform(nparts, out);
}

int tool_read_part(const char *path, int32_t nvtxs, int32_t nparts,
                   int32_t **part, int32_t *maxp) {
  int rc = minex_part_read(path, nvtxs, nparts, part);
  if (rc != MINEX_OK)
    return rc;
  if (maxp != NULL) {
    int32_t mx = -1;
    for (int32_t v = 0; v < nvtxs; v++)
      if ((*part)[v] > mx)
        mx = (*part)[v];
    *maxp = mx + 1;
  }
  return MINEX_OK;
}

/* --------------------------------------------------------------- output */

void tool_json_string(FILE *fp, const char *s) {
  fputc('"', fp);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '"':
      fputs("\\\"", fp);
      break;
    case '\\':
      fputs("\\\\", fp);
      break;
    case '\n':
      fputs("\\n", fp);
      break;
    case '\t':
      fputs("\\t", fp);
      break;
    case '\r':
      fputs("\\r", fp);
      break;
    default:
      if (*p < 0x20)
        fprintf(fp, "\\u%04x", *p);
      else
        fputc(*p, fp);
    }
  }
  fputc('"', fp);
}

void tool_json_double(FILE *fp, double x) {
  if (isfinite(x))
    fprintf(fp, "%.17g", x);
  else
    fputs("null", fp); /* JSON has no inf/nan */
}

void tool_json_metrics(FILE *fp, const minex_metrics *m, int indent) {
  /* one table drives the member list so the order is fixed */
  struct {
    const char *key;
    int is_int;
    double d;
    int64_t i;
  } f[] = {
      {"max_qwgt", 0, m->max_qwgt, 0},
      {"min_qwgt", 0, m->min_qwgt, 0},
      {"qwgt_tot", 0, m->qwgt_tot, 0},
      {"load_imb", 0, m->load_imb, 0},
      {"min_var", 0, m->min_var, 0},
      {"lower_bound", 0, m->lower_bound, 0},
      {"max_wgt", 0, m->max_wgt, 0},
      {"max_comm", 0, m->max_comm, 0},
      {"max_remap", 0, m->max_remap, 0},
      {"steady_max", 0, m->steady_max, 0},
      {"horizon_time", 0, m->horizon_time, 0},
      {"cut_edges", 1, 0, m->cut_edges},
      {"cut_weight", 0, m->cut_weight, 0},
      {"moved", 1, 0, m->moved},
      {"total_v", 0, m->total_v, 0},
      {"max_v", 0, m->max_v, 0},
      {"stranded", 1, 0, m->stranded},
      {"navailable", 1, 0, m->navailable},
  };
  size_t n = sizeof f / sizeof f[0];
  for (size_t k = 0; k < n; k++) {
    fprintf(fp, "%*s\"%s\": ", indent, "", f[k].key);
    if (f[k].is_int)
      fprintf(fp, "%" PRId64, f[k].i);
    else
      tool_json_double(fp, f[k].d);
    fputs(k + 1 < n ? ",\n" : "", fp);
  }
}

/* v in fmt; the fixed-point default turns to %g outside [1e-3, 1e9), so
 * that weights of 1e150 or 1e-200 print as numbers a reader can take in
 * (fixed point gave 150 digits, or 0.000000) */
static void put_d(FILE *fp, const char *fmt, double v) {
  double a = fabs(v);
  if (strcmp(fmt, " %16.6f") == 0 && a != 0 && (a >= 1e9 || a < 1e-3))
    fmt = " %16.6g";
  fprintf(fp, fmt, v);
}

static void row_d(FILE *fp, const char *name, const minex_metrics *old,
                  double vo, double vn, const char *fmt) {
  fprintf(fp, "  %-22s", name);
  if (old != NULL)
    put_d(fp, fmt, vo);
  put_d(fp, fmt, vn);
  fputc('\n', fp);
}

static void row_i(FILE *fp, const char *name, const minex_metrics *old,
                  int64_t vo, int64_t vn) {
  fprintf(fp, "  %-22s", name);
  if (old != NULL)
    fprintf(fp, " %16" PRId64, vo);
  fprintf(fp, " %16" PRId64 "\n", vn);
}

/* a / b, 0 when b is not positive */
static double ratio(double a, double b) {
  return b > 0 ? a / b : 0.0;
}

void tool_print_table(FILE *fp, const minex_metrics *old,
                      const minex_metrics *n, const char *old_title,
                      const char *new_title, int32_t iterations) {
  static const minex_metrics zero;
  const minex_metrics *o = old != NULL ? old : &zero;
  double k = iterations > 1 ? iterations : 1;
  char name[64];
  fprintf(fp, "  %-22s", "metric");
  if (old != NULL)
    fprintf(fp, " %16s", old_title);
  fprintf(fp, " %16s\n", new_title);
  const char *g = " %16.6f";
  if (k > 1)
    snprintf(name, sizeof name, "MaxQwgt (k = %.0f)", k);
  else
    snprintf(name, sizeof name, "MaxQwgt");
  row_d(fp, name, old, o->max_qwgt, n->max_qwgt, g);
  row_d(fp, "MinQwgt", old, o->min_qwgt, n->min_qwgt, g);
  row_d(fp, "QwgtTot", old, o->qwgt_tot, n->qwgt_tot, g);
  row_d(fp, "LoadImb", old, o->load_imb, n->load_imb, g);
  /* ratios to LB compare like with like: LB is one iteration's processing,
     so the figures under k are set against k LB */
  row_d(fp, k > 1 ? "MaxQwgt / (k LB)" : "MaxQwgt / LB", old,
        ratio(o->max_qwgt, k * o->lower_bound),
        ratio(n->max_qwgt, k * n->lower_bound), g);
  row_d(fp, "SteadyMax / LB", old, ratio(o->steady_max, o->lower_bound),
        ratio(n->steady_max, n->lower_bound), g);
  row_d(fp, k > 1 ? "T_k / (k LB)" : "T_1 / LB", old,
        ratio(o->horizon_time, k * o->lower_bound),
        ratio(n->horizon_time, k * n->lower_bound), g);
  row_d(fp, "lower bound LB", old, o->lower_bound, n->lower_bound, g);
  row_d(fp, "MinVar", old, o->min_var, n->min_var, " %16.6g");
  row_d(fp, "max Wgt", old, o->max_wgt, n->max_wgt, g);
  row_d(fp, "max Comm", old, o->max_comm, n->max_comm, g);
  row_d(fp, "max Remap (MaxRemap)", old, o->max_remap, n->max_remap, g);
  row_d(fp, "SteadyMax", old, o->steady_max, n->steady_max, g);
  if (k > 1)
    snprintf(name, sizeof name, "T_k (k = %.0f)", k);
  else
    snprintf(name, sizeof name, "T_1");
  row_d(fp, name, old, o->horizon_time, n->horizon_time, g);
  row_i(fp, "cut edges", old, o->cut_edges, n->cut_edges);
  row_d(fp, "cut weight", old, o->cut_weight, n->cut_weight, g);
  row_i(fp, "moved", old, o->moved, n->moved);
  row_d(fp, "TotalV", old, o->total_v, n->total_v, g);
  row_d(fp, "MaxV", old, o->max_v, n->max_v, g);
  row_i(fp, "stranded", old, o->stranded, n->stranded);
  row_i(fp, "available processors", old, o->navailable, n->navailable);
}

int tool_cost_option(tool_args *a, const char *cmd, const tool_cost_args *c) {
  const char *v;
  if (tool_args_is(a, NULL, "--config"))
    return (*c->config_path = tool_args_value(a)) == NULL ? -1 : 1;
  if (tool_args_is(a, NULL, "--nparts"))
    return (v = tool_args_value(a)) == NULL ||
                   tool_parse_i32(cmd, "--nparts", v, 1, c->nparts) != 0
               ? -1
               : 1;
  if (tool_args_is(a, NULL, "--alpha"))
    return (v = tool_args_value(a)) == NULL ||
                   tool_parse_double(cmd, "--alpha", v, 0.0, 1.0, 0,
                                     &c->opt->alpha) != 0
               ? -1
               : 1;
  if (tool_args_is(a, NULL, "--remap"))
    return (v = tool_args_value(a)) == NULL ||
                   tool_parse_remap(cmd, v, &c->opt->remap_mode) != 0
               ? -1
               : 1;
  if (tool_args_is(a, NULL, "--iters"))
    return (v = tool_args_value(a)) == NULL ||
                   tool_parse_iterations(cmd, v, &c->opt->iterations) != 0
               ? -1
               : 1;
  if (tool_args_is(a, NULL, "--json")) {
    *c->json = 1;
    return 1;
  }
  if (tool_args_is(a, "-v", "--verbose")) {
    *c->verbose = 1;
    return 1;
  }
  return 0;
}

/* --NAME on|off|auto into *field as on, off or aut. 1 taken, 0 not this
 * flag, -1 bad or missing value (already reported). */
static int mode_option(tool_args *a, const char *cmd, const char *flag,
                       int *field, int on, int off, int aut) {
  if (!tool_args_is(a, NULL, flag))
    return 0;
  const char *v = tool_args_value(a);
  if (v == NULL)
    return -1;
  if (!strcmp(v, "on"))
    *field = on;
  else if (!strcmp(v, "off"))
    *field = off;
  else if (!strcmp(v, "auto"))
    *field = aut;
  else {
    tool_usage_error(cmd, "%s: expected on, off or auto, got '%s'", flag, v);
    return -1;
  }
  return 1;
}

int tool_rule_option(tool_args *a, const char *cmd, minex_options *opt) {
  int r;
  if (tool_args_is(a, NULL, "--paper-exact")) {
    opt->paper_exact = 1;
    return 1;
  }
  if (tool_args_is(a, NULL, "--threads")) {
    const char *v = tool_args_value(a);
    if (v == NULL ||
        tool_parse_i32(cmd, "--threads", v, 0, &opt->nthreads) != 0)
      return -1;
    if (opt->nthreads > MINEX_NTHREADS_MAX) {
      tool_usage_error(cmd, "--threads: %s is above %d", v, MINEX_NTHREADS_MAX);
      return -1;
    }
    return 1;
  }
  if (tool_args_is(a, NULL, "--max-imbalance")) {
    const char *v = tool_args_value(a);
    if (v == NULL || tool_parse_double(cmd, "--max-imbalance", v, 0, 1e300, 0,
                                       &opt->max_imbalance) != 0)
      return -1;
    if (opt->max_imbalance != 0 && opt->max_imbalance < 1) {
      tool_usage_error(cmd,
                       "--max-imbalance: %s is neither 0 (no bound) nor "
                       ">= 1",
                       v);
      return -1;
    }
    return 1;
  }
  if (tool_args_is(a, NULL, "--global-spread")) {
    const char *v = tool_args_value(a);
    if (v == NULL ||
        tool_parse_i32(cmd, "--global-spread", v, 1, &opt->global_spread) != 0)
      return -1;
    if (opt->global_spread > MINEX_GLOBAL_SPREAD_MAX) {
      tool_usage_error(cmd, "--global-spread: %s is above %d", v,
                       MINEX_GLOBAL_SPREAD_MAX);
      return -1;
    }
    return 1;
  }
  if ((r = mode_option(a, cmd, "--refine", &opt->refine, MINEX_REFINE_ON,
                       MINEX_REFINE_OFF, MINEX_REFINE_AUTO)) != 0)
    return r;
  if ((r = mode_option(a, cmd, "--scratch", &opt->scratch, MINEX_SCRATCH_ON,
                       MINEX_SCRATCH_OFF, MINEX_SCRATCH_AUTO)) != 0)
    return r;
  if ((r = mode_option(a, cmd, "--ladder", &opt->ladder, MINEX_LADDER_ON,
                       MINEX_LADDER_OFF, MINEX_LADDER_AUTO)) != 0)
    return r;
  if ((r = mode_option(a, cmd, "--rounds", &opt->rounds, MINEX_ROUNDS_ON,
                       MINEX_ROUNDS_OFF, MINEX_ROUNDS_AUTO)) != 0)
    return r;
  if ((r = mode_option(a, cmd, "--cluster-levels", &opt->cluster_levels,
                       MINEX_CLUSTER_LEVELS_ON, MINEX_CLUSTER_LEVELS_OFF,
                       MINEX_CLUSTER_LEVELS_AUTO)) != 0)
    return r;
  return mode_option(a, cmd, "--balance", &opt->balance, MINEX_BALANCE_ON,
                     MINEX_BALANCE_OFF, MINEX_BALANCE_AUTO);
}

/* ----------------------------------------------------------------- meshes */

/* Integers on the first line of path that is no '%' comment: their
 * count (up to 8), -1 when the line holds anything else or cannot be
 * read. */
static int first_line_ints(const char *path) {
  FILE *fp = fopen(path, "r");
  if (fp == NULL)
    return -1;
  char line[512];
  int n = -1;
  while (fgets(line, sizeof line, fp) != NULL) {
    if (line[0] == '%')
      continue;
    n = 0;
    char *s = line, *end;
    for (;;) {
      while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
      if (*s == '\0')
        break;
      errno = 0;
      (void)strtoll(s, &end, 10);
      if (end == s || errno != 0 || n == 8 ||
          (*end != '\0' && *end != ' ' && *end != '\t' && *end != '\r' &&
           *end != '\n')) {
        n = -1;
        break;
      }
      n++;
      s = end;
    }
    break;
  }
  fclose(fp);
  return n;
}

int tool_read_mesh(const char *cmd, const char *path, int kind,
                   minex_mesh **out) {
  int rc = minex_mesh_read_kind(path, kind, out);
  if (rc == MINEX_OK)
    return rc;
  int unknown =
      rc == MINEX_EUNSUP && strstr(minex_last_error(), "unrecognised") != NULL;
  tool_fail(cmd, rc);
  if (!unknown)
    return rc;
  int n = first_line_ints(path);
  if (n >= 2 && n <= 4)
    fprintf(stderr,
            "minex %s: hint: %s starts like a METIS graph ('nvtxs nedges "
            "[fmt [ncon]]'): give a graph as GRAPH (minex repart GRAPH, "
            "minex partition GRAPH), not as a mesh\n",
            cmd, path);
  else if (n == 1)
    fprintf(stderr,
            "minex %s: hint: %s starts like a partition file (one id per "
            "line): give it to --old, not as a mesh\n",
            cmd, path);
  fprintf(stderr, "minex %s: hint: meshes are read by content: %s\n", cmd,
          TOOL_MESH_FORMATS);
  return rc;
}

/* 1 when path ends in ext (case-insensitive). */
static int has_ext(const char *path, const char *ext) {
  size_t n = strlen(path), m = strlen(ext);
  if (n <= m)
    return 0;
  for (size_t i = 0; i < m; i++) {
    char c = path[n - m + i];
    if (c >= 'A' && c <= 'Z')
      c = (char)(c - 'A' + 'a');
    if (c != ext[i])
      return 0;
  }
  return 1;
}

int tool_out_mesh_format(const char *cmd, const char *opt, const char *path) {
  if (has_ext(path, ".msh"))
    return 'g';
  if (has_ext(path, ".vtk"))
    return 'v';
  tool_usage_error(cmd,
                   "%s %s: unknown output format: the extension chooses it, "
                   ".msh (Gmsh 4.1 ASCII with the parts as partitioned "
                   "entities) or .vtk (VTK legacy, for ParaView)",
                   opt, path);
  return 0;
}

int tool_write_mesh(const char *path, const minex_mesh *mesh,
                    const minex_graph *graph, const int32_t *old,
                    const int32_t *new_part) {
  if (has_ext(path, ".msh"))
    return minex_mesh_write_gmsh(mesh, old, new_part, path);
  return minex_mesh_write_vtk(mesh, graph, old, new_part, path);
}

int tool_read_weights(const char *cmd, const char *path, int32_t n,
                      double **out) {
  FILE *fp = fopen(path, "r");
  if (fp == NULL) {
    fprintf(stderr, "minex %s: %s: cannot open: %s\n", cmd, path,
            strerror(errno));
    return -1;
  }
  double *w = malloc(sizeof *w * ((size_t)n + 1));
  char line[256];
  int32_t i = 0;
  long long lineno = 0;
  int bad = w == NULL;
  while (!bad && fgets(line, sizeof line, fp) != NULL) {
    lineno++;
    char *end;
    errno = 0;
    double x = strtod(line, &end);
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
      end++;
    if (end == line || *end != '\0' || errno != 0 || !isfinite(x) || x < 0) {
      fprintf(stderr,
              "minex %s: %s:%lld: a weight (a finite number >= 0) "
              "expected\n",
              cmd, path, lineno);
      bad = 1;
    } else if (i >= n) {
      fprintf(stderr, "minex %s: %s:%lld: more than %" PRId32 " weights\n", cmd,
              path, lineno, n);
      bad = 1;
    } else {
      w[i++] = x;
    }
  }
  fclose(fp);
  if (!bad && i != n) {
    fprintf(stderr,
            "minex %s: %s: %" PRId32 " weights for %" PRId32 " elements\n", cmd,
            path, i, n);
    bad = 1;
  }
  if (bad) {
    free(w);
    return -1;
  }
  *out = w;
  return 0;
}

int tool_read_field_weights(const char *cmd, const minex_mesh *mesh,
                            const char *path, const char *name, double **out) {
  int32_t n = minex_mesh_nelems(mesh);
  double *w = malloc(sizeof *w * ((size_t)n + 1));
  if (w == NULL) {
    fprintf(stderr, "minex %s: out of memory\n", cmd);
    return -1;
  }
  int rc = minex_mesh_read_field(mesh, path, name, w);
  if (rc != MINEX_OK) {
    tool_fail(cmd, rc);
    free(w);
    return -1;
  }
  for (int32_t e = 0; e < n; e++)
    if (w[e] < 0) {
      fprintf(stderr,
              "minex %s: %s: field \"%s\": element %" PRId32
              " has weight %g (weights are >= 0)\n",
              cmd, path, name, e, w[e]);
      free(w);
      return -1;
    }
  *out = w;
  return 0;
}
