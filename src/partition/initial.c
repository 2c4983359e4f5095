/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Simple starting partitions for callers that have none (the tool without
 * --old): contiguous blocks of vertex ids, or blocks of a breadth-first
 * order, of equal vertex count. Weights are ignored on purpose: the result
 * stands for the partition a mesh had before it was refined. */
#include "core/core.h"

#include <stdlib.h>

/* Breadth-first order of the component of s into order[*len...], marking
 * seen; returns the last vertex reached. */
static int32_t bfs(const minex_graph *g, int32_t s, char *seen, int32_t *order,
                   int32_t *len) {
  int32_t head = *len, last = s;
  seen[s] = 1;
  order[(*len)++] = s;
  while (head < *len) {
    int32_t v = order[head++];
    last = v;
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
      int32_t w = g->adjncy[j];
      if (!seen[w]) {
        seen[w] = 1;
        order[(*len)++] = w;
      }
    }
  }
  return last;
}

int minex_partition_initial(const minex_graph *g, int32_t nparts,
                            minex_init_method method, int32_t *part) {
  core_error_clear();
  if (g == NULL || part == NULL)
    return core_error(MINEX_EINVAL, "minex_partition_initial: graph or part "
                                    "is NULL");
  if (nparts <= 0)
    return core_error(MINEX_EINVAL,
                      "minex_partition_initial: nparts = %d "
                      "(must be > 0)",
                      (int)nparts);
  int32_t n = g->nvtxs;
  if (method == MINEX_INIT_BLOCK) {
    for (int32_t v = 0; v < n; v++)
      part[v] = (int32_t)((int64_t)v * nparts / n);
    return MINEX_OK;
  }
  if (method != MINEX_INIT_BFS)
    return core_error(MINEX_EINVAL,
                      "minex_partition_initial: unknown method "
                      "%d",
                      (int)method);
  int32_t *order = core_malloc(sizeof(int32_t) * ((size_t)n + 1));
  char *seen = core_calloc((size_t)n + 1, 1);
  if (order == NULL || seen == NULL) {
    core_free(order);
    core_free(seen);
    return core_error(MINEX_ENOMEM, "minex_partition_initial: out of memory");
  }
  int32_t len = 0;
  for (int32_t s = 0; s < n; s++) {
    if (seen[s])
      continue;
    /* a second sweep from the far end of the first one starts at a
       pseudo-peripheral vertex, so blocks are layers, not wedges */
    int32_t start = len;
    int32_t far = bfs(g, s, seen, order, &len);
    for (int32_t i = start; i < len; i++)
      seen[order[i]] = 0;
    len = start;
    bfs(g, far, seen, order, &len);
  }
  for (int32_t i = 0; i < n; i++)
    part[order[i]] = (int32_t)((int64_t)i * nparts / n);
  core_free(order);
  core_free(seen);
  return MINEX_OK;
}
