/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The from-scratch candidate (beyond the paper, SPEC §3 "Beyond the
 * paper"): a multilevel partition of a graph by Scotch 7, cluster-aware
 * (the clusters first, with target weights their share of the machine's
 * speed, then each cluster's processors), relabelled for the smallest
 * remapping cost against the old partition. minex_repartition gives it a
 * level of its own contraction (docs/design/algorithm.md §7), runs the result
 * through MinEX's rules and keeps it when its T_k is the lowest.
 *
 * Scotch runs in a context of its own per call (SCOTCH_Context: one
 * thread, deterministic, a private clone of the random generator seeded
 * from options.seed), so the result is the same whatever else runs in the
 * process; Scotch touches no signal handler, and its error messages go to
 * this file's SCOTCH_errorPrint, which keeps them for the error message
 * and never prints. METIS 5.1, used before, keeps a process-global random
 * generator, installs SIGTERM/SIGABRT handlers during each call and prints
 * on stdout (docs/design/algorithm.md §7). */
#ifndef MINEX_SCRATCH_H
#define MINEX_SCRATCH_H

#include "core/rename.h"

#include "core/core.h"

/* Writes into part[0..n) a partition of g onto the available processors of
 * cfg: SCOTCH_graphMap onto a weighted complete graph of the clusters that
 * have available processors (weights proportional to their count / Proc,
 * the largest 2^20, none below 1), then each cluster's induced subgraph
 * onto its available processors (equal weights). Clusters of the same
 * available count and Proc are relabelled greedily for the smallest remapping
 * cost sum Rwgt * Conn(c(old), c) of the vertices leaving their old cluster;
 * processors inside a cluster greedily for the largest Rwgt staying on its old
 * owner. Deterministic for a seed. Returns MINEX_OK, MINEX_ENOMEM, MINEX_EUNSUP
 * (more adjacency entries than Scotch's 32-bit SCOTCH_Num holds) or
 * MINEX_EINTERNAL (Scotch failed; the message names the call and Scotch's
 * message). minex_repartition skips the candidate on any of these. */
int scratch_partition(const minex_graph *g, const minex_config *cfg,
                      const int32_t *old, uint64_t seed, int32_t *part);

#endif
