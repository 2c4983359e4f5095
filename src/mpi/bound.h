/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The load bounds of the MPI layer (docs/SPEC.md §3 "Load bounds"). */
#ifndef MINEX_MPI_BOUND_H
#define MINEX_MPI_BOUND_H

#include "mpi/mpi_comm.h"

/* Collective: the repair and the choice against old of a bounded call
 * (options.max_imbalance, target_min, target_max) applied to new_part, the
 * result of mx_repartition without the bounds, on the graph of in (old
 * NULL: every vertex owned by its rank). The graph is gathered on rank 0,
 * which runs the serial pass (the serial library's, so the result is
 * minex_repartition's for any number of ranks) and scatters the owners;
 * metrics (equal on every rank, holding the unbounded call's figures) get
 * the result's. Failures recorded in c and agreed; on error new_part and
 * metrics are unchanged. */
int mx_bound_apply(mx_comm *c, const dist_input *in, const minex_config *cfg,
                   const minex_options *options, int32_t *new_part,
                   minex_metrics *metrics);

/* mx_repartition honouring the load bounds: without them (options NULL
 * or no bound) mx_repartition itself; with them, the bounds' arrays
 * checked on every rank first, mx_repartition without the bounds, then
 * mx_bound_apply. So minex_repartition's result for any number of ranks.
 * Collective; errors agreed. On an error of the bound pass itself (memory
 * on rank 0) new_part may hold the unbounded result; otherwise on error
 * new_part and metrics are unchanged. */
int mx_repartition_bounded(const mx_names *nm, const dist_input *in,
                           const minex_config *config,
                           const minex_options *options, int32_t *new_part,
                           minex_metrics *metrics, MPI_Comm comm);

#endif
