/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The from-scratch candidate (beyond the paper, SPEC §3 "Beyond the
 * paper"): a multilevel partition of a graph by METIS, cluster-aware (the
 * clusters first, with targets their share of the machine's speed, then
 * each cluster's processors), relabelled for the smallest remapping cost
 * against the old partition. minex_repartition gives it a level of its own
 * contraction (docs/algorithm.md §7), runs the result through MinEX's
 * rules and keeps it when its T_k is the lowest. */
#ifndef MINEX_SCRATCH_H
#define MINEX_SCRATCH_H

#include "core/rename.h"

#include "core/core.h"

/* Writes into part[0..n) a partition of g onto the available processors of
 * cfg: METIS_PartGraphKway into the clusters that have available
 * processors (targets proportional to their count / Proc), then each
 * cluster's induced subgraph into its available processors (equal
 * targets). Clusters of the same available count and Proc are relabelled
 * greedily for the smallest remapping cost sum Rwgt * Conn(c(old), c) of
 * the vertices leaving their old cluster; processors inside a cluster
 * greedily for the largest Rwgt staying on its old owner. Deterministic for
 * a seed. Returns MINEX_OK, MINEX_ENOMEM, MINEX_EUNSUP (more adjacency
 * entries than METIS's 32-bit indices hold) or MINEX_EINTERNAL (METIS
 * failed; the message names the call). */
int scratch_partition(const minex_graph *g, const minex_config *cfg,
                      const int32_t *old, uint64_t seed, int32_t *part);

#endif
