/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex_partition_graph: the from-scratch candidate's cluster-aware Scotch
 * partition (scratch.c) offered on its own, for a first partition of a
 * graph or of a mesh's dual (`minex partition --method scotch`). */
#include "scratch/scratch.h"

#include <stdlib.h>
#include <string.h>

int minex_partition_graph(const minex_graph *graph, const minex_config *config,
                          uint64_t seed, int32_t *part) {
  core_error_clear();
  if (graph == NULL || config == NULL || part == NULL)
    return core_error(MINEX_EINVAL, "minex_partition_graph: NULL argument");
  if (minex_config_navailable(config) < 1)
    return core_error(MINEX_ENOPROC,
                      "minex_partition_graph: all %d processors are "
                      "unavailable: no processor to partition onto",
                      (int)minex_config_nprocs(config));
  int32_t n = minex_graph_nvtxs(graph);
  /* no old partition: everything "on" processor 0, so that the relabelling
     (which keeps vertices on their old owner) has nothing to gain */
  int32_t *old = core_calloc((size_t)n + 1, sizeof *old);
  int32_t *tmp = core_malloc(sizeof *tmp * ((size_t)n + 1));
  int rc = MINEX_OK;
  if (old == NULL || tmp == NULL)
    rc = core_error(MINEX_ENOMEM, "minex_partition_graph: out of memory");
  if (rc == MINEX_OK && n > 0)
    rc = scratch_partition(graph, config, old, seed, tmp);
  if (rc == MINEX_OK && n > 0)
    memcpy(part, tmp, sizeof *part * (size_t)n);
  if (rc != MINEX_OK)
    core_error_prefix("minex_partition_graph");
  core_free(old);
  core_free(tmp);
  return rc;
}
