/* SPDX-License-Identifier: GPL-3.0-or-later */
/** @file
 * MinEX from MPI codes (SPEC §6, docs/guide/mpi.md): the repartition of a graph
 * distributed over the ranks of a communicator, as parallel adaptive codes
 * hold it. Link libminex_mpi, a superset of libminex (one library to
 * link); the core library libminex never uses MPI.
 *
 * Every function taking a communicator is collective over it: every rank
 * of comm calls it with that same valid communicator. A rank that passes
 * MPI_COMM_NULL gets MINEX_EINVAL at once while the others wait for it in
 * MPI_Comm_dup: no error can be agreed before the ranks share a
 * communicator, so MPI cannot avoid that hang. */
#ifndef MINEX_MPI_H
#define MINEX_MPI_H

#include <mpi.h>

#include "minex.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Repartitions the graph distributed over comm (every rank calls it; the
 * call is collective).
 *
 * The graph, as ParMETIS takes it, with 64-bit global ids:
 * @param[in] vtxdist size+1 global ids, non-decreasing and equal on every rank:
 *            rank r holds the vertices vtxdist[r] .. vtxdist[r+1]-1 (a rank
 *            may hold none; vtxdist[0] may be above 0, global ids above
 *            2^31 are fine). The whole graph has n = vtxdist[size] -
 *            vtxdist[0] vertices, n <= INT32_MAX (the library's limit).
 * @param[in] xadj nlocal+1 offsets into adjncy, xadj[0] = 0, non-decreasing
 *            (may be NULL when nlocal = 0).
 * @param[in] adjncy global ids of the neighbours, in [vtxdist[0],
 * vtxdist[size]).
 * @param[in] pwgt,rwgt,cwgt pwgt, rwgt (nlocal, per vertex) and cwgt
 *            (xadj[nlocal], per adjncy entry): Pwgt, Rwgt and Cwgt of SPEC §1,
 * finite and >= 0; each NULL on every rank (meaning 1) or on none. Every edge
 * appears in both directions with the same Cwgt, without self loops or
 *            duplicates, as for minex_graph_create.
 * @param[in] old nlocal current owners in [0, P) (P = the configuration's
 *            processors, which need not equal the number of ranks); NULL on
 *            every rank: each vertex is owned by its rank (then a rank r >= P
 *            must hold no vertex).
 * @param[in] config,options the machine and the options (options may be
 *            NULL: defaults), equal on every rank; options.log_fn is
 *            called on rank 0 only (the layer's byte and message counts
 *            per phase, then the library's log).
 * @param[out] new_part (nlocal, may be NULL when nlocal = 0) the new owner
 *            of each local vertex
 * @param[out] metrics (may be NULL) equal on every rank (its times those
 *            of the slowest rank)
 * @param[in] comm the communicator
 *
 * The result
 * equals minex_repartition's on the whole graph (global id order) with the
 * same configuration and options, for any number of ranks (the default
 * options included: options.rounds = MINEX_ROUNDS_AUTO means
 * MINEX_ROUNDS_ON in both).
 *
 * How (docs/guide/mpi.md): under options.rounds AUTO or ON (unless
 * paper_exact), every rank works on the old parts it is home to (part p on rank
 * p * size / P: the vertices of other parts move there once) and no rank holds
 * the whole graph ("stage 2"); the metrics' sums over vertices are then added
 * per old part, equal to the serial ones up to rounding. Otherwise (rounds OFF,
 * paper_exact) the graph is gathered on rank 0, which runs minex_repartition
 * ("stage 1").
 *
 * Errors are collective: every rank returns the same code, and
 * minex_last_error() gives every rank the same message, which names the
 * rank and the argument at fault ("minex_mpi_repartition: rank 2:
 * adjncy[17] = 5000000000 is outside [0, 4000)"); no rank hangs, nothing is
 * printed.
 * @return MINEX_OK, or the codes of minex_repartition, with
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

/** What the layer sent and received, summed over every rank, per phase of
 * the last minex_mpi_repartition of the calling thread on this rank (the
 * figures of docs/design/distributed.md; also printed through options.log_fn).
 */
typedef struct minex_mpi_stats {
  int64_t check_bytes;      /**< bytes of the validation (reverse edges) */
  int64_t check_messages;   /**< messages of the validation             */
  int64_t gather_bytes;     /**< bytes of stage 1: the graph to its solver
                                 rank; stage 2: all the kernel's traffic */
  int64_t gather_messages;  /**< messages of the same                  */
  int64_t scatter_bytes;    /**< bytes of the new owners sent back     */
  int64_t scatter_messages; /**< messages of the same                  */
  int64_t collective_calls; /**< reductions and broadcasts             */
  double seconds_check;     /**< wall time of the validation, s        */
  double seconds_gather;    /**< of the gather (stage 1), s            */
  double seconds_solve;     /**< of the kernel, s                      */
  double seconds_scatter;   /**< of the scatter of the new owners, s   */
  int32_t ranks;            /**< size of the communicator                  */
  int32_t solver;           /**< the rank that ran the kernel (stage 1), or -1:
                               every rank (stage 2)                     */
  int32_t recv_max_rank;    /**< the rank of recv_bytes_max (the lowest of
                               equals)                                  */
  int64_t recv_bytes_max;   /**< stage 2: the most bytes one rank received
                               from the others in the kernel (exchanges,
                               allgathers, broadcasts; the load of the
                               busiest rank, docs/guide/mpi.md)               */
} minex_mpi_stats;

/** Copies the figures of the calling thread's last minex_mpi_repartition
 * (all zero before the first); stats NULL is a no-op.
 * @param[out] stats receives the figures, or NULL */
MINEX_API void minex_mpi_last_stats(minex_mpi_stats *stats);

/* ------------------------------------------------------------- migration */
/* Moving the data after a repartition (docs/guide/migration.md). */

/* The rank that holds part p once the data have moved, for P parts on
 * size ranks: part_rank[p] when given, else the block rule p * size / P
 * (parts = ranks: part p on rank p; more parts than ranks: consecutive
 * parts, a cluster's processors, on one rank). */

/** Import and export lists of one rank (Zoltan_Invert_Lists gives the
 * same): which local vertices leave and where to, which arrive and from
 * where. Exports are in local order (ascending global id), imports by
 * source rank, then global id: the order in which data are unpacked. */
typedef struct minex_mpi_lists {
  int64_t nexport;      /**< local vertices whose new part is on another rank */
  int64_t *export_gid;  /**< their global ids                               */
  int64_t *export_lid;  /**< their local index (global id - vtxdist[rank])  */
  int32_t *export_rank; /**< the rank they go to                            */
  int32_t *export_part; /**< their new part                                 */
  int64_t nimport;      /**< vertices arriving here                         */
  int64_t *import_gid;  /**< their global ids                               */
  int32_t *import_rank; /**< the rank they come from                        */
  int32_t *import_part; /**< their new part (a part held here)              */
  int64_t nkeep;        /**< local vertices that stay on this rank          */
} minex_mpi_lists;

/** Builds this rank's lists from the new owner of each local vertex
 * (new_part, nlocal = vtxdist[rank+1] - vtxdist[rank] entries in [0,
 * nparts)); part_rank (nparts entries in [0, size), equal on every rank)
 * may be NULL (the block rule above). Collective. @return MINEX_OK,
 * MINEX_EINVAL, MINEX_EPART (an owner out of range, naming rank and
 * vertex) or MINEX_ENOMEM, the same on every rank; on error *out is
 * NULL.
 * @param[in] vtxdist the vertex distribution (size + 1)
 * @param[in] new_part new part per local vertex
 * @param[in] nparts number of parts P
 * @param[in] part_rank rank per part, or NULL
 * @param[out] out receives the lists
 * @param[in] comm the communicator */
MINEX_API int minex_mpi_lists_create(const int64_t *vtxdist,
                                     const int32_t *new_part, int32_t nparts,
                                     const int32_t *part_rank,
                                     minex_mpi_lists **out, MPI_Comm comm);
/** Frees the lists; NULL is a no-op.
 * @param[in] lists the lists, or NULL */
MINEX_API void minex_mpi_lists_destroy(minex_mpi_lists *lists);

/** The new part of every neighbour of every local vertex (adjncy order,
 * xadj[nlocal] entries into nbr_part): what a code needs to rebuild its
 * halos. One exchange with the neighbouring ranks. Collective; the codes
 * of minex_mpi_lists_create.
 * @param[in] vtxdist the vertex distribution
 * @param[in] xadj local offsets
 * @param[in] adjncy global neighbour ids
 * @param[in] new_part new part per local vertex
 * @param[out] nbr_part receives the part per adjncy entry
 * @param[in] comm the communicator
 * @return The codes of minex_mpi_lists_create. */
MINEX_API int minex_mpi_neighbour_parts(const int64_t *vtxdist,
                                        const int64_t *xadj,
                                        const int64_t *adjncy,
                                        const int32_t *new_part,
                                        int32_t *nbr_part, MPI_Comm comm);

/** The application's data of a vertex, through callbacks (Zoltan_Migrate's
 * query functions). Each returns 0 on success; anything else fails the
 * migration on every rank with MINEX_ECALLBACK naming the callback, the
 * vertex and the rank. Sizes may differ per vertex and may be 0. Either
 * the single-vertex or the multi-vertex form of each is set (multi wins).
 *   size    bytes of vertex gid (local index lid) that move
 *   pack    writes them into buf (bytes as size gave), for rank dest
 *   unpack  takes them from buf, arrived from rank src
 * The multi forms take n vertices at once; pack_multi writes vertex i at
 * buf + offset[i], unpack_multi reads it there. */
typedef struct minex_mpi_migrate_fns {
  /** Stores in *bytes the size of vertex gid (local index lid). */
  int (*size)(void *ctx, int64_t gid, int64_t lid, size_t *bytes);
  /** Writes vertex gid's bytes into buf, for rank dest. */
  int (*pack)(void *ctx, int64_t gid, int64_t lid, int dest, void *buf,
              size_t bytes);
  /** Takes vertex gid's bytes from buf, arrived from rank src. */
  int (*unpack)(void *ctx, int64_t gid, int src, const void *buf, size_t bytes);
  /** size for n vertices at once: bytes[i] of vertex gid[i]. */
  int (*size_multi)(void *ctx, int64_t n, const int64_t *gid,
                    const int64_t *lid, size_t *bytes);
  /** pack for n vertices: vertex i at buf + offset[i], for rank dest[i]. */
  int (*pack_multi)(void *ctx, int64_t n, const int64_t *gid,
                    const int64_t *lid, const int32_t *dest,
                    const size_t *bytes, const size_t *offset, void *buf);
  /** unpack for n vertices: vertex i at buf + offset[i], from src[i]. */
  int (*unpack_multi)(void *ctx, int64_t n, const int64_t *gid,
                      const int32_t *src, const size_t *bytes,
                      const size_t *offset, const void *buf);
  void *ctx; /**< passed to every callback */
} minex_mpi_migrate_fns;

/** Moves every exported vertex's data to its new rank and unpacks every
 * import, each exactly once, imports unpacked in list order (source rank,
 * then global id). max_bytes bounds the bytes this rank holds in pack and
 * receive buffers at once (0: no bound: everything packed, one exchange,
 * everything unpacked, as Zoltan_Migrate); with a bound the ranks exchange
 * pairwise, step d between rank r and ranks r+d and r-d, in pieces of at
 * most max_bytes / 2 each way (a vertex larger than that travels alone).
 * The ranks' lists must be one call's (of minex_mpi_lists_create, or
 * built alike): with the sizes, each rank sends every rank it exports to
 * a 64-bit hash of those vertices' global ids in order (8 bytes per rank
 * pair, not the ids' 8 per vertex), which the receiver compares with its
 * imports from there; lists of another call, even with the same counts,
 * fail with MINEX_EINVAL naming the rank pair and the first vertex that
 * differs, before anything is packed. Collective. @return MINEX_OK,
 * MINEX_EINVAL, MINEX_ECALLBACK or MINEX_ENOMEM, the same on every
 * rank.
 * @param[in] lists this rank's lists
 * @param[in] fns the callbacks
 * @param[in] max_bytes bound of the buffers, or 0
 * @param[in] comm the communicator */
MINEX_API int minex_mpi_migrate(const minex_mpi_lists *lists,
                                const minex_mpi_migrate_fns *fns,
                                size_t max_bytes, MPI_Comm comm);

/** The latency-tolerant migration of SPEC §6, split-phase, non-blocking MPI
 * only: begin packs and posts every send and receive (steps 1-2) and
 * returns; the application computes what waits for nothing (step 3)
 * between calls to progress, which unpacks the messages that have arrived
 * (step 4; whole messages, each source's vertices in global id order; a
 * source whose vertices total 0 bytes sends none and counts as arrived)
 * and tells when all are in; end waits for the rest and frees everything.
 * Boundary data of the application's own halo exchange are its own
 * non-blocking messages, posted beside (docs/guide/migration.md). Collective:
 * every rank calls begin, progress until done (or not at all) and end.
 * Errors as minex_mpi_migrate; after a failed begin, *out is NULL and end
 * need not be called. */
typedef struct minex_mpi_migration minex_mpi_migration;
/** Begins a migration (see minex_mpi_migration): packs and posts every
 * send and receive, and stores the handle in *out.
 * @param[in] lists this rank's lists
 * @param[in] fns the callbacks
 * @param[in] comm the communicator
 * @param[out] out receives the migration
 * @return The codes of minex_mpi_migrate. */
MINEX_API int minex_mpi_migrate_begin(const minex_mpi_lists *lists,
                                      const minex_mpi_migrate_fns *fns,
                                      MPI_Comm comm, minex_mpi_migration **out);
/** Unpacks what has arrived; *done = 1 once every import is unpacked.
 * *unpacked (may be NULL) receives the number of vertices unpacked by this
 * call. Local: no rank waits for another.
 * @param[in,out] m the migration
 * @param[out] done receives 1 once every import is unpacked
 * @param[out] unpacked receives the vertices unpacked, or NULL
 * @return The codes of minex_mpi_migrate. */
MINEX_API int minex_mpi_migrate_progress(minex_mpi_migration *m, int *done,
                                         int64_t *unpacked);
/** Waits for every send and receive, unpacks what is left, agrees on
 * errors with every rank, frees m. Collective.
 * @param[in] m the migration, freed
 * @return The codes of minex_mpi_migrate, the same on every rank. */
MINEX_API int minex_mpi_migrate_end(minex_mpi_migration *m);

/** The split-phase migration driven by a compute callback (SPEC §6 steps
 * 1-6 in one call): begin; then, until every import is unpacked and
 * compute has no work left, compute(ctx, unpacked, &more) is called with
 * the number of vertices the last progress unpacked (the application
 * computes what waits for nothing, or what those arrivals made ready, and
 * sets *more = 0 when it has nothing left that can run before the rest
 * arrives) and progress between the calls; then end. compute returning
 * non-zero fails the call on every rank with MINEX_ECALLBACK (end is still
 * reached: no rank hangs). Collective; errors as minex_mpi_migrate.
 * @param[in] lists this rank's lists
 * @param[in] fns the callbacks
 * @param[in] compute the application's work between progress calls
 * @param[in] ctx passed to compute
 * @param[in] comm the communicator
 * @return The codes of minex_mpi_migrate. */
MINEX_API int minex_mpi_migrate_overlap(
    const minex_mpi_lists *lists, const minex_mpi_migrate_fns *fns,
    int (*compute)(void *ctx, int64_t unpacked, int *more), void *ctx,
    MPI_Comm comm);

/* ---------------------------------------------------------- renumbering */

/** Contiguous global ids after a migration (docs/reference/parmetis.md),
 * which minex_mpi_repartition, ParMETIS and Zoltan's callers need again
 * for the next call: this rank holds nlocal vertices of old global ids
 * gid (any order; every id >= 0, on exactly one rank) and their adjacency
 * in old ids (xadj: nlocal+1 offsets, xadj[0] = 0; adjncy: xadj[nlocal]
 * old ids, each held by some rank). Output: vtxdist (size+1 entries,
 * equal on every rank, vtxdist[0] = 0) with rank r's new ids vtxdist[r] ..
 * vtxdist[r+1]-1, given to its vertices in the order of their old ids;
 * new_gid[i] the new id of gid[i]; new_adjncy[j] the new id of adjncy[j]
 * (local vertices and ghosts alike; may be adjncy itself). xadj NULL: no
 * adjacency (adjncy, new_adjncy unused). Collective; two sparse exchanges
 * with a directory of the ids spread over the ranks. Returns MINEX_OK,
 * MINEX_EINVAL (a NULL array, nlocal < 0, a negative id, xadj not
 * non-decreasing, an id held twice), MINEX_EGRAPH (a neighbour held by no
 * rank, naming it) or MINEX_ENOMEM, the same on every rank; on error the
 * outputs are unchanged.
 * @param[in] nlocal the vertices this rank holds
 * @param[in] gid their old global ids
 * @param[in] xadj nlocal + 1 offsets into adjncy, or NULL
 * @param[in] adjncy the neighbours' old global ids
 * @param[out] vtxdist size + 1 entries: the new distribution
 * @param[out] new_gid nlocal entries: each vertex's new id
 * @param[out] new_adjncy xadj[nlocal] entries: each neighbour's new id
 * @param[in] comm the communicator
 * @return MINEX_OK or the error code, the same on every rank. */
MINEX_API int minex_mpi_renumber(int64_t nlocal, const int64_t *gid,
                                 const int64_t *xadj, const int64_t *adjncy,
                                 int64_t *vtxdist, int64_t *new_gid,
                                 int64_t *new_adjncy, MPI_Comm comm);

#ifdef __cplusplus
}
#endif

#endif /* MINEX_MPI_H */
