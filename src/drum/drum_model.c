/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DRUM machine model: a tree of network and computing nodes built parents
 * first (Faik's thesis ch. 3, Fig. 3.3), with checked setters. */
#include "drum/drum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int minex_drum_model_create(minex_drum_model **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_drum_model_create: out is NULL");
  *out = calloc(1, sizeof **out);
  if (*out == NULL)
    return core_error(MINEX_ENOMEM, "minex_drum_model_create: out of memory");
  return MINEX_OK;
}

void minex_drum_model_destroy(minex_drum_model *model) {
  if (model == NULL)
    return;
  for (int32_t i = 0; i < model->n; i++) {
    free((char *)model->nodes[i].name);
    free((char *)model->nodes[i].address);
  }
  free(model->nodes);
  free(model);
}

static char *dup_or_empty(const char *s) {
  if (s == NULL)
    s = "";
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d != NULL)
    memcpy(d, s, n);
  return d;
}

int drum_set_strings(minex_drum_model *m, int32_t i, const char *name,
                     const char *address) {
  char *a = dup_or_empty(name), *b = dup_or_empty(address);
  if (a == NULL || b == NULL) {
    free(a), free(b);
    return core_error(MINEX_ENOMEM, "machine model: out of memory");
  }
  free((char *)m->nodes[i].name);
  free((char *)m->nodes[i].address);
  m->nodes[i].name = a;
  m->nodes[i].address = b;
  return MINEX_OK;
}

int drum_check_node(const minex_drum_model *m, int32_t i, const char *what) {
  if (m == NULL)
    return core_error(MINEX_EINVAL, "%s: model is NULL", what);
  if (i < 0 || i >= m->n)
    return core_error(MINEX_EINVAL, "%s: node %d out of range [0, %d)", what,
                      (int)i, (int)m->n);
  return MINEX_OK;
}

int minex_drum_add_node(minex_drum_model *model, minex_drum_node_type type,
                        int32_t parent, const char *name, int32_t *index) {
  core_error_clear();
  if (model == NULL)
    return core_error(MINEX_EINVAL, "minex_drum_add_node: model is NULL");
  if (type != MINEX_DRUM_NETWORK && type != MINEX_DRUM_COMPUTING)
    return core_error(MINEX_EINVAL, "minex_drum_add_node: unknown type %d",
                      (int)type);
  if (model->n == 0 && parent != -1)
    return core_error(MINEX_EINVAL,
                      "minex_drum_add_node: the first node is "
                      "the root and needs parent -1, not %d",
                      (int)parent);
  if (model->n > 0) {
    if (parent == -1)
      return core_error(MINEX_EINVAL,
                        "minex_drum_add_node: node %d: the "
                        "model has a root already",
                        (int)model->n);
    if (parent < 0 || parent >= model->n)
      return core_error(MINEX_EINVAL,
                        "minex_drum_add_node: parent %d out "
                        "of range [0, %d)",
                        (int)parent, (int)model->n);
    if (model->nodes[parent].type != MINEX_DRUM_NETWORK)
      return core_error(MINEX_EINVAL,
                        "minex_drum_add_node: parent %d (%s) "
                        "is a computing node; only network nodes have "
                        "children",
                        (int)parent, model->nodes[parent].name);
  }
  if (model->n == INT32_MAX)
    return core_error(MINEX_EINVAL, "minex_drum_add_node: too many nodes");
  if (model->n == model->cap) {
    int32_t cap = model->cap ? model->cap * 2 : 8;
    minex_drum_node *nodes = realloc(model->nodes, sizeof *nodes * (size_t)cap);
    if (nodes == NULL)
      return core_error(MINEX_ENOMEM, "minex_drum_add_node: out of memory");
    model->nodes = nodes;
    model->cap = cap;
  }
  int32_t i = model->n;
  minex_drum_node *nd = &model->nodes[i];
  memset(nd, 0, sizeof *nd);
  nd->type = type;
  nd->parent = parent;
  nd->file_id = i;
  nd->monitorable = 1;
  nd->ncpus = 1;
  nd->nprocs = type == MINEX_DRUM_COMPUTING ? 1 : 0;
  model->n++;
  int rc = drum_set_strings(model, i, name, NULL);
  if (rc != MINEX_OK) {
    model->n--;
    return rc;
  }
  if (index != NULL)
    *index = i;
#ifdef MINEX_CHECKS
  return drum_model_check(model); /* debug builds */
#else
  return MINEX_OK;
#endif
}

int32_t minex_drum_nnodes(const minex_drum_model *model) {
  return model ? model->n : 0;
}

const minex_drum_node *minex_drum_get(const minex_drum_model *model,
                                      int32_t i) {
  if (model == NULL || i < 0 || i >= model->n)
    return NULL;
  return &model->nodes[i];
}

int32_t minex_drum_find(const minex_drum_model *model, const char *name) {
  if (model == NULL || name == NULL)
    return -1;
  for (int32_t i = 0; i < model->n; i++)
    if (strcmp(model->nodes[i].name, name) == 0 ||
        (model->nodes[i].address[0] != '\0' &&
         strcmp(model->nodes[i].address, name) == 0))
      return i;
  return -1;
}

static int check_value(double x, const char *fn, const char *what, int32_t i) {
  if (!isfinite(x) || x < 0)
    return core_error(MINEX_EINVAL,
                      "%s: node %d: %s = %g must be finite and "
                      ">= 0",
                      fn, (int)i, what, x);
  return MINEX_OK;
}

int minex_drum_set_link(minex_drum_model *model, int32_t node,
                        double capacity_mbps, double latency_s) {
  core_error_clear();
  const char *fn = "minex_drum_set_link";
  int rc = drum_check_node(model, node, fn);
  if (rc == MINEX_OK)
    rc = check_value(capacity_mbps, fn, "capacity", node);
  if (rc == MINEX_OK)
    rc = check_value(latency_s, fn, "latency", node);
  if (rc != MINEX_OK)
    return rc;
  model->nodes[node].capacity = capacity_mbps;
  model->nodes[node].latency = latency_s;
  return MINEX_OK;
}

static int check_computing(const minex_drum_model *m, int32_t i,
                           const char *fn) {
  int rc = drum_check_node(m, i, fn);
  if (rc == MINEX_OK && m->nodes[i].type != MINEX_DRUM_COMPUTING)
    rc = core_error(MINEX_EINVAL, "%s: node %d (%s) is a network node", fn,
                    (int)i, m->nodes[i].name);
  return rc;
}

int minex_drum_set_benchmark(minex_drum_model *model, int32_t node,
                             double mflops) {
  core_error_clear();
  const char *fn = "minex_drum_set_benchmark";
  int rc = check_computing(model, node, fn);
  if (rc == MINEX_OK)
    rc = check_value(mflops, fn, "benchmark", node);
  if (rc != MINEX_OK)
    return rc;
  model->nodes[node].benchmark = mflops;
  return MINEX_OK;
}

int minex_drum_set_cpus(minex_drum_model *model, int32_t node, int32_t ncpus,
                        int32_t nprocs) {
  core_error_clear();
  const char *fn = "minex_drum_set_cpus";
  int rc = check_computing(model, node, fn);
  if (rc != MINEX_OK)
    return rc;
  if (ncpus < 1 || ncpus > MINEX_NPROCS_MAX)
    return core_error(MINEX_EINVAL,
                      "%s: node %d: ncpus = %d must be in "
                      "1..%d",
                      fn, (int)node, (int)ncpus, MINEX_NPROCS_MAX);
  if (nprocs < 0 || nprocs > MINEX_NPROCS_MAX)
    return core_error(MINEX_EINVAL,
                      "%s: node %d: nprocs = %d must be in "
                      "0..%d (MINEX_NPROCS_MAX)",
                      fn, (int)node, (int)nprocs, MINEX_NPROCS_MAX);
  model->nodes[node].ncpus = ncpus;
  model->nodes[node].nprocs = nprocs;
  return MINEX_OK;
}

int minex_drum_set_measured(minex_drum_model *model, int32_t node,
                            double cpu_use, double idle, double traffic_mbps) {
  core_error_clear();
  const char *fn = "minex_drum_set_measured";
  int rc = check_computing(model, node, fn);
  if (rc == MINEX_OK)
    rc = check_value(cpu_use, fn, "cpu_use", node);
  if (rc == MINEX_OK)
    rc = check_value(idle, fn, "idle", node);
  if (rc == MINEX_OK)
    rc = check_value(traffic_mbps, fn, "traffic", node);
  if (rc != MINEX_OK)
    return rc;
  minex_drum_node *nd = &model->nodes[node];
  nd->measured = 1;
  nd->cpu_use = cpu_use;
  nd->idle = idle;
  nd->traffic = traffic_mbps;
  return MINEX_OK;
}

int minex_drum_set_traffic(minex_drum_model *model, int32_t node,
                           double traffic_mbps) {
  core_error_clear();
  const char *fn = "minex_drum_set_traffic";
  int rc = drum_check_node(model, node, fn);
  if (rc == MINEX_OK)
    rc = check_value(traffic_mbps, fn, "traffic", node);
  if (rc != MINEX_OK)
    return rc;
  model->nodes[node].traffic = traffic_mbps;
  return MINEX_OK;
}

int drum_model_check(const minex_drum_model *m) {
  const char *w = "drum_model_check";
  if (m == NULL || m->n < 0 || m->n > m->cap || (m->n > 0 && !m->nodes))
    return core_error(MINEX_EINTERNAL, "%s: %d nodes of %d allocated", w,
                      m ? (int)m->n : -1, m ? (int)m->cap : -1);
  for (int32_t i = 0; i < m->n; i++) {
    const minex_drum_node *nd = &m->nodes[i];
    if (nd->type != MINEX_DRUM_NETWORK && nd->type != MINEX_DRUM_COMPUTING)
      return core_error(MINEX_EINTERNAL, "%s: node %d has type %d", w, (int)i,
                        (int)nd->type);
    if (i == 0 ? nd->parent != -1 : nd->parent < 0 || nd->parent >= i)
      return core_error(MINEX_EINTERNAL,
                        "%s: node %d has parent %d (the "
                        "root is node 0, parents come first)",
                        w, (int)i, (int)nd->parent);
    if (i > 0 && m->nodes[nd->parent].type != MINEX_DRUM_NETWORK)
      return core_error(MINEX_EINTERNAL,
                        "%s: node %d is a child of "
                        "computing node %d",
                        w, (int)i, (int)nd->parent);
    if (nd->name == NULL || nd->address == NULL)
      return core_error(MINEX_EINTERNAL,
                        "%s: node %d has no name or "
                        "address string",
                        w, (int)i);
    if (nd->ncpus < 1 || nd->nprocs < 0)
      return core_error(MINEX_EINTERNAL,
                        "%s: node %d has %d CPUs, %d "
                        "processes",
                        w, (int)i, (int)nd->ncpus, (int)nd->nprocs);
    const double v[4] = {nd->capacity, nd->latency, nd->traffic, nd->benchmark};
    for (int k = 0; k < 4; k++)
      if (!isfinite(v[k]) || v[k] < 0)
        return core_error(MINEX_EINTERNAL,
                          "%s: node %d: capacity, latency, "
                          "traffic or benchmark is %g",
                          w, (int)i, v[k]);
  }
  return MINEX_OK;
}
