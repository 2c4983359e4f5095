/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared part of the peer drivers (peers_common.h). */
#include "peers_common.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double peers_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int usage_error(const char *tool, const char *what) {
  fprintf(stderr, "peer_%s: %s\nTry 'peer_%s --help'.\n", tool, what, tool);
  return 2;
}

int peers_case_load(peers_case *c, const char *tool, const char *usage,
                    int argc, char **argv) {
  memset(c, 0, sizeof *c);
  c->tool = tool;
  c->param = NAN;
  c->seed = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      return -1;
    }
    int takes = !strcmp(a, "--old") || !strcmp(a, "--config") ||
                !strcmp(a, "-o") || !strcmp(a, "--method") ||
                !strcmp(a, "--param") || !strcmp(a, "--seed");
    if (!takes) {
      if (a[0] == '-' || c->graph_path)
        return usage_error(tool, "unexpected argument");
      c->graph_path = a;
      continue;
    }
    if (i + 1 >= argc)
      return usage_error(tool, "an option lacks its value");
    const char *v = argv[++i];
    char *end = NULL;
    if (!strcmp(a, "--old"))
      c->old_path = v;
    else if (!strcmp(a, "--config"))
      c->config_path = v;
    else if (!strcmp(a, "-o"))
      c->out_path = v;
    else if (!strcmp(a, "--method"))
      c->method = v;
    else if (!strcmp(a, "--param")) {
      c->param = strtod(v, &end);
      if (end == v || *end || !isfinite(c->param))
        return usage_error(tool, "--param: not a finite number");
    } else {
      c->seed = strtoull(v, &end, 10);
      if (end == v || *end)
        return usage_error(tool, "--seed: not a decimal integer");
    }
  }
  if (!c->graph_path || !c->old_path || !c->config_path || !c->out_path ||
      !c->method)
    return usage_error(tool,
                       "GRAPH, --old, --config, --method and -o are required");
  int rc = minex_graph_read_metis(c->graph_path, &c->g);
  if (rc == MINEX_OK)
    rc = minex_config_load(c->config_path, &c->cfg);
  if (rc == MINEX_OK) {
    c->nvtxs = minex_graph_nvtxs(c->g);
    c->nprocs = minex_config_nprocs(c->cfg);
    rc = minex_part_read(c->old_path, c->nvtxs, c->nprocs, &c->old);
  }
  if (rc != MINEX_OK) {
    fprintf(stderr, "peer_%s: %s (%s)\n", tool, minex_last_error(),
            minex_err_name(rc));
    peers_case_free(c);
    return 1;
  }
  return 0;
}

void peers_case_free(peers_case *c) {
  minex_graph_destroy(c->g);
  minex_config_destroy(c->cfg);
  free(c->old);
  c->g = NULL;
  c->cfg = NULL;
  c->old = NULL;
}

typedef struct overlap {
  int64_t key; /* a * P + b: new label a, old owner b                 */
  double w;    /* Rwgt of the vertices in new part a and old part b */
} overlap;

static int by_key(const void *x, const void *y) {
  const overlap *p = x, *q = y;
  return (p->key > q->key) - (p->key < q->key);
}

/* heaviest first; ties by key so that the order is deterministic */
static int by_weight(const void *x, const void *y) {
  const overlap *p = x, *q = y;
  if (p->w != q->w)
    return p->w > q->w ? -1 : 1;
  return by_key(x, y);
}

int peers_relabel(const peers_case *c, const int32_t *class_of, int32_t *part) {
  int32_t P = c->nprocs;
  const double *rwgt = minex_graph_rwgt(c->g);
  size_t n = (size_t)c->nvtxs;
  overlap *ov = malloc(sizeof *ov * (n > 0 ? n : 1));
  int32_t *map = malloc(sizeof *map * (size_t)P);
  char *used_a = calloc((size_t)P, 1), *used_b = calloc((size_t)P, 1);
  int rc = 1;
  if (!ov || !map || !used_a || !used_b) {
    fprintf(stderr, "peer_%s: relabel: out of memory\n", c->tool);
    goto out;
  }
  size_t m = 0;
  for (size_t v = 0; v < n; v++) {
    int32_t a = part[v], b = c->old[v];
    if (class_of == NULL || class_of[a] == class_of[b])
      ov[m++] = (overlap){(int64_t)a * P + b, rwgt[v]};
  }
  qsort(ov, m, sizeof *ov, by_key);
  size_t k = 0;
  for (size_t i = 0; i < m; k++) {
    overlap s = ov[i++];
    for (; i < m && ov[i].key == s.key; i++)
      s.w += ov[i].w;
    ov[k] = s;
  }
  qsort(ov, k, sizeof *ov, by_weight);
  for (int32_t p = 0; p < P; p++)
    map[p] = -1;
  for (size_t i = 0; i < k; i++) {
    int32_t a = (int32_t)(ov[i].key / P), b = (int32_t)(ov[i].key % P);
    if (!used_a[a] && !used_b[b]) {
      map[a] = b;
      used_a[a] = used_b[b] = 1;
    }
  }
  /* labels left over go to free owners of the same class, lowest first */
  for (int32_t a = 0; a < P; a++) {
    if (map[a] >= 0)
      continue;
    for (int32_t b = 0; b < P; b++)
      if (!used_b[b] && (class_of == NULL || class_of[a] == class_of[b])) {
        map[a] = b;
        used_b[b] = 1;
        break;
      }
    if (map[a] < 0) {
      fprintf(stderr, "peer_%s: relabel: classes of unequal sizes\n", c->tool);
      goto out;
    }
  }
  for (size_t v = 0; v < n; v++)
    part[v] = map[part[v]];
  rc = 0;
out:
  free(ov);
  free(map);
  free(used_a);
  free(used_b);
  return rc;
}

int peers_finish(const peers_case *c, const int32_t *part, double seconds) {
  for (int32_t v = 0; v < c->nvtxs; v++)
    if (part[v] < 0 || part[v] >= c->nprocs) {
      fprintf(stderr,
              "peer_%s: vertex %" PRId32 " got part %" PRId32
              ", outside [0, %" PRId32 ")\n",
              c->tool, v, part[v], c->nprocs);
      return 1;
    }
  int rc = minex_part_write(c->out_path, c->nvtxs, part);
  if (rc != MINEX_OK) {
    fprintf(stderr, "peer_%s: %s (%s)\n", c->tool, minex_last_error(),
            minex_err_name(rc));
    return 1;
  }
  printf("{\"tool\": \"%s\", \"method\": \"%s\", \"param\": ", c->tool,
         c->method);
  if (isnan(c->param))
    printf("null");
  else
    printf("%.17g", c->param);
  printf(", \"seconds\": %.6f}\n", seconds);
  return 0;
}
