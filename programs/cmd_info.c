/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex info: read and fully validate a METIS graph (the reader checks
 * symmetry, ranges and weights) and print its statistics. */
#include "tool.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

static void help(void) {
  printf("Usage: minex info GRAPH [--json]\n"
         "\n"
         "Reads GRAPH (METIS format) with full validation (every edge in "
         "both\ndirections with the same weight, ids in range, weights "
         "finite and >= 0)\nand prints: vertices, edges, degree "
         "min/avg/max, Pwgt/Rwgt/Cwgt\nsum/min/max, connected components, "
         "isolated vertices.\n"
         "\n"
         "  --json               print one JSON object\n"
         "  -h, --help           this help\n");
}

typedef struct wstats {
  double sum, min, max; /* over the counted items; 0 when none */
} wstats;

static wstats stats_of(const double *w, int64_t n) {
  wstats s = {0.0, 0.0, 0.0};
  if (w == NULL || n == 0)
    return s;
  s.min = s.max = w[0];
  for (int64_t i = 0; i < n; i++) {
    s.sum += w[i];
    s.min = fmin(s.min, w[i]);
    s.max = fmax(s.max, w[i]);
  }
  return s;
}

/* Connected components by breadth-first search; -1 on out of memory. */
static int32_t components(const minex_graph *g) {
  int32_t n = minex_graph_nvtxs(g);
  const int64_t *xadj = minex_graph_xadj(g);
  const int32_t *adj = minex_graph_adjncy(g);
  int32_t *queue = malloc(sizeof *queue * ((size_t)n + 1));
  unsigned char *seen = calloc((size_t)n + 1, 1);
  if (queue == NULL || seen == NULL) {
    free(queue);
    free(seen);
    return -1;
  }
  int32_t ncomp = 0;
  for (int32_t s = 0; s < n; s++) {
    if (seen[s])
      continue;
    ncomp++;
    int32_t head = 0, tail = 0;
    queue[tail++] = s;
    seen[s] = 1;
    while (head < tail) {
      int32_t v = queue[head++];
      for (int64_t j = xadj[v]; j < xadj[v + 1]; j++)
        if (!seen[adj[j]]) {
          seen[adj[j]] = 1;
          queue[tail++] = adj[j];
        }
    }
  }
  free(queue);
  free(seen);
  return ncomp;
}

static void json_wstats(const char *key, wstats s) {
  printf("  \"%s_sum\": ", key);
  tool_json_double(stdout, s.sum);
  printf(",\n  \"%s_min\": ", key);
  tool_json_double(stdout, s.min);
  printf(",\n  \"%s_max\": ", key);
  tool_json_double(stdout, s.max);
  printf(",\n");
}

int cmd_info(int argc, char **argv) {
  const char *cmd = "info";
  const char *graph_path = NULL;
  int json = 0;
  tool_args a;
  tool_args_init(&a, argc, argv);
  int more;
  while ((more = tool_args_next(&a)) > 0) {
    if (tool_args_is(&a, "-h", "--help")) {
      if (tool_args_no_value(&a) != 0)
        return TOOL_EXIT_USAGE;
      help();
      return TOOL_EXIT_OK;
    } else if (tool_args_is(&a, NULL, "--json")) {
      json = 1;
    } else if (tool_args_is(&a, "-v", "--verbose")) {
      /* accepted for symmetry; info has nothing more to say */
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

  minex_graph *g = NULL;
  int rc = minex_graph_read_metis(graph_path, &g);
  if (rc != MINEX_OK)
    return tool_fail(cmd, rc);
  int32_t n = minex_graph_nvtxs(g);
  int64_t m = minex_graph_nedges(g);
  const int64_t *xadj = minex_graph_xadj(g);
  int64_t dmin = 0, dmax = 0, isolated = 0;
  for (int32_t v = 0; v < n; v++) {
    int64_t d = xadj[v + 1] - xadj[v];
    if (v == 0 || d < dmin)
      dmin = d;
    if (d > dmax)
      dmax = d;
    isolated += d == 0;
  }
  double davg = n > 0 ? 2.0 * (double)m / (double)n : 0.0;
  wstats pw = stats_of(minex_graph_pwgt(g), n);
  wstats rw = stats_of(minex_graph_rwgt(g), n);
  /* every undirected edge is stored twice: halve the sum, min/max hold */
  wstats cw = stats_of(minex_graph_cwgt(g), xadj[n]);
  cw.sum *= 0.5;
  int32_t ncomp = components(g);
  if (ncomp < 0) {
    fprintf(stderr, "minex info: out of memory\n");
    minex_graph_destroy(g);
    return TOOL_EXIT_FAIL;
  }

  if (json) {
    printf("{\n  \"graph\": ");
    tool_json_string(stdout, graph_path);
    printf(",\n  \"nvtxs\": %" PRId32 ",\n  \"nedges\": %" PRId64
           ",\n  \"degree_min\": %" PRId64 ",\n  \"degree_avg\": ",
           n, m, dmin);
    tool_json_double(stdout, davg);
    printf(",\n  \"degree_max\": %" PRId64 ",\n", dmax);
    json_wstats("pwgt", pw);
    json_wstats("rwgt", rw);
    json_wstats("cwgt", cw);
    printf("  \"components\": %" PRId32 ",\n  \"isolated\": %" PRId64 "\n}\n",
           ncomp, isolated);
  } else {
    printf("%s: valid graph\n", graph_path);
    printf("  %-22s %" PRId32 "\n", "vertices", n);
    printf("  %-22s %" PRId64 "\n", "edges (undirected)", m);
    printf("  %-22s min %" PRId64 ", avg %.3f, max %" PRId64 "\n", "degree",
           dmin, davg, dmax);
    printf("  %-22s sum %.17g, min %.17g, max %.17g\n", "Pwgt (processing)",
           pw.sum, pw.min, pw.max);
    printf("  %-22s sum %.17g, min %.17g, max %.17g\n", "Rwgt (remapping)",
           rw.sum, rw.min, rw.max);
    printf("  %-22s sum %.17g, min %.17g, max %.17g\n", "Cwgt (per edge)",
           cw.sum, cw.min, cw.max);
    printf("  %-22s %" PRId32 "\n", "connected components", ncomp);
    printf("  %-22s %" PRId64 "\n", "isolated vertices", isolated);
  }
  minex_graph_destroy(g);
  if (fflush(stdout) != 0) {
    fprintf(stderr, "minex info: cannot write the report to stdout\n");
    return TOOL_EXIT_FAIL;
  }
  return TOOL_EXIT_OK;
}
