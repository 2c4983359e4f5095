/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MinEX from MPI codes (SPEC §6, docs/mpi.md): the repartition of a graph
 * distributed over the ranks of a communicator, as parallel adaptive codes
 * hold it. Link libminex_mpi, a superset of libminex (one library to
 * link); the core library libminex never uses MPI. */
#ifndef MINEX_MPI_H
#define MINEX_MPI_H

#include <mpi.h>

#include "minex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Repartitions the graph distributed over comm (every rank calls it; the
 * call is collective).
 *
 * The graph, as ParMETIS takes it, with 64-bit global ids:
 *   vtxdist  size+1 global ids, non-decreasing and equal on every rank:
 *            rank r holds the vertices vtxdist[r] .. vtxdist[r+1]-1 (a rank
 *            may hold none; vtxdist[0] may be above 0, global ids above
 *            2^31 are fine). The whole graph has n = vtxdist[size] -
 *            vtxdist[0] vertices, n <= INT32_MAX (the library's limit).
 *   xadj     nlocal+1 offsets into adjncy, xadj[0] = 0, non-decreasing
 *            (may be NULL when nlocal = 0).
 *   adjncy   global ids of the neighbours, in [vtxdist[0], vtxdist[size]).
 *   pwgt, rwgt (nlocal, per vertex) and cwgt (xadj[nlocal], per adjncy
 *            entry): Pwgt, Rwgt and Cwgt of SPEC §1, finite and >= 0; each
 *            NULL on every rank (meaning 1) or on none. Every edge appears
 *            in both directions with the same Cwgt, without self loops or
 *            duplicates, as for minex_graph_create.
 *   old      nlocal current owners in [0, P) (P = the configuration's
 *            processors, which need not equal the number of ranks); NULL on
 *            every rank: each vertex is owned by its rank (then size <= P).
 * config and options (options may be NULL: defaults) must be equal on every
 * rank; options.log_fn is called on rank 0 only (the layer's byte and
 * message counts per phase, then the library's log).
 *
 * Output: new_part (nlocal, may be NULL when nlocal = 0) the new owner of
 * each local vertex; metrics (may be NULL) equal on every rank. The result
 * equals minex_repartition's on the whole graph (global id order) with the
 * same configuration and options, for any number of ranks.
 *
 * Errors are collective: every rank returns the same code, and
 * minex_last_error() gives every rank the same message, which names the
 * rank and the argument at fault ("minex_mpi_repartition: rank 2:
 * adjncy[17] = 5000000000 is outside [0, 4000)"); no rank hangs, nothing is
 * printed. Returns MINEX_OK, or the codes of minex_repartition, with
 * MINEX_EINVAL (an argument NULL or different between the ranks) and
 * MINEX_EGRAPH (an edge without its reverse, naming both ranks). On error
 * new_part and metrics are unchanged. Calls on different communicators may
 * run concurrently from different threads only with MPI_THREAD_MULTIPLE. */
MINEX_API int minex_mpi_repartition(const int64_t *vtxdist, const int64_t *xadj,
                                    const int64_t *adjncy, const double *pwgt,
                                    const double *rwgt, const double *cwgt,
                                    const int32_t *old,
                                    const minex_config *config,
                                    const minex_options *options,
                                    int32_t *new_part, minex_metrics *metrics,
                                    MPI_Comm comm);

/* What the layer sent and received, summed over every rank, per phase of
 * the last minex_mpi_repartition of the calling thread on this rank (the
 * figures of docs/mpi.md; also printed through options.log_fn). */
typedef struct minex_mpi_stats {
  int64_t check_bytes, check_messages;     /* validation (reverse edges) */
  int64_t gather_bytes, gather_messages;   /* the graph to its solver rank */
  int64_t scatter_bytes, scatter_messages; /* the new owners back          */
  int64_t collective_calls;                /* reductions and broadcasts    */
  double seconds_check, seconds_gather, seconds_solve, seconds_scatter;
  int32_t ranks;  /* size of the communicator                  */
  int32_t solver; /* the rank that ran the kernel (stage 1)   */
} minex_mpi_stats;

/* Copies the figures of the calling thread's last minex_mpi_repartition
 * (all zero before the first); stats NULL is a no-op. */
MINEX_API void minex_mpi_last_stats(minex_mpi_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* MINEX_MPI_H */
