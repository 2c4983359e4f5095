/* SPDX-License-Identifier: GPL-3.0-or-later */
/** @file
 * MinEX: latency-tolerant diffusive repartitioning of adaptive meshes on
 * heterogeneous clusters (Das, Harvey, Biswas, FGCS 2002). The whole public
 * API of the core library; semantics in SPEC.md (shipped as docs/). */
#ifndef MINEX_H
#define MINEX_H

#include <stddef.h>
#include <stdint.h>

#include "minex_version.h" /* generated: MINEX_VERSION_MAJOR ... _STRING */

#ifdef __cplusplus
extern "C" {
#endif

/** Marks the functions the library exports: the default visibility when
 * the library itself is compiled (MINEX_BUILDING), nothing for its users
 * and for the static library (MINEX_STATIC_DEFINE). */
#if defined(MINEX_STATIC_DEFINE)
#define MINEX_API
#elif defined(MINEX_BUILDING)
#define MINEX_API __attribute__((visibility("default")))
#else
#define MINEX_API
#endif

/** The version of the library actually linked (MINEX_VERSION_STRING and
 * MINEX_VERSION_HEX are those of the headers compiled against).
 * @return The version string, "major.minor.patch"; never NULL. */
MINEX_API const char *minex_version(void);
/** The version of the library actually linked as
 * (major << 16) | (minor << 8) | patch, like MINEX_VERSION_HEX.
 * @return The version as a number. */
MINEX_API unsigned minex_version_hex(void);

/** The binary interface of the library as built, for bindings that call it
 * without its headers (the Python package checks it when imported, and
 * refuses a library that differs): minex_abi_get stores the value of one
 * entry in *value. Entries, by name (minex_abi_name(i) is the i-th for
 * i = 0, 1, ..., NULL past the last):
 *   xadj_bits     bits of an edge offset (xadj: int64_t, 64)
 *   adjncy_bits   bits of a vertex id (adjncy, elems: int32_t, 32)
 *   part_bits     bits of a processor id (old, new_part, part: int32_t, 32)
 *   real_bits     bits of a weight, slowdown or metric (double, 64)
 *   int_bits      bits of an int (the flags of minex_metrics)
 *   options_size  sizeof(minex_options), in bytes
 *   metrics_size  sizeof(minex_metrics), in bytes
 *   version_hex   minex_version_hex()
 * @return MINEX_OK or MINEX_EINVAL (NULL argument, an unknown name, naming
 * it); on error *value is unchanged.
 * @param[in] name the entry, e.g. "xadj_bits"
 * @param[out] value receives its value */
MINEX_API int minex_abi_get(const char *name, int64_t *value);
/** Name of the i-th entry of minex_abi_get (i = 0, 1, ...), NULL past the
 * last.
 * @param[in] i index of the entry, from 0
 * @return The name, or NULL when i is out of range. */
MINEX_API const char *minex_abi_name(int i);

/* ---------------------------------------------------------------- errors */

/** One list makes the enum, minex_strerror and minex_err_name. */
#define MINEX_ERRNO_MAP(X)                                                     \
  X(OK, 0, "success")                                                          \
  X(EINVAL, -1, "invalid argument")                                            \
  X(ENOMEM, -2, "out of memory")                                               \
  X(EIO, -3, "input/output error")                                             \
  X(EPARSE, -4, "malformed input")                                             \
  X(EGRAPH, -5, "invalid graph")                                               \
  X(ECONFIG, -6, "invalid configuration")                                      \
  X(EPART, -7, "invalid partition")                                            \
  X(ESCHEMA, -8, "document violates the XML schema")                           \
  X(EUNSUP, -9, "unsupported input")                                           \
  X(ENOPROC, -10, "no available processor")                                    \
  X(EINTERNAL, -11, "internal consistency check failed")                       \
  X(ECALLBACK, -12, "a user callback failed")

/** The error codes every function returns: MINEX_OK (0) or a negative
 * code, whose text minex_strerror gives and whose message
 * minex_last_error holds. */
typedef enum minex_errno {
#define MINEX_ERRNO_ENUM_(name, code, msg) MINEX_##name = code,
  MINEX_ERRNO_MAP(MINEX_ERRNO_ENUM_)
#undef MINEX_ERRNO_ENUM_
} minex_errno;

/** Static description of an error code ("invalid graph"); never NULL.
 * @param[in] err an error code (minex_errno)
 * @return A static string. */
MINEX_API const char *minex_strerror(int err);
/** Symbolic name of an error code ("MINEX_EGRAPH"); never NULL.
 * @param[in] err an error code (minex_errno)
 * @return A static string. */
MINEX_API const char *minex_err_name(int err);
/** Message of the last failure in this thread, naming the argument, file and
 * line at fault ("mesh.graph:12: edge 5-9 has no reverse edge"). Empty
 * string when the last call succeeded or set no message.
 * @return The message, owned by the library, valid until the next call of
 *     this thread. */
MINEX_API const char *minex_last_error(void);

/* ----------------------------------------------------------------- graph */

/** Dual graph (SPEC §1): one vertex per root element. Opaque. Its topology
 * (xadj, adjncy) is fixed once created; its weights change only through
 * minex_graph_set_weights. Vertex ids are int32_t in [0, nvtxs); edge
 * offsets int64_t. */
typedef struct minex_graph minex_graph;

/** Creates a graph from CSR arrays, which are copied. xadj has nvtxs+1
 * entries, adjncy xadj[nvtxs]. pwgt, rwgt (per vertex) and cwgt (per adjncy
 * entry) may each be NULL, meaning 1. Every edge must appear in both
 * directions with the same cwgt, without self loops or duplicates; weights
 * finite and >= 0. Neighbour lists are stored sorted by id.
 * @return MINEX_OK, MINEX_EINVAL (out or arrays NULL, nvtxs < 0),
 * MINEX_EGRAPH (the message names the vertex and edge at fault) or
 * MINEX_ENOMEM. On error *out is NULL.
 * @param[in] nvtxs number of vertices, >= 0
 * @param[in] xadj nvtxs + 1 edge offsets
 * @param[in] adjncy xadj[nvtxs] neighbour ids
 * @param[in] pwgt processing weight per vertex, or NULL
 * @param[in] rwgt remapping weight per vertex, or NULL
 * @param[in] cwgt communication weight per adjncy entry, or NULL
 * @param[out] out receives the new graph */
MINEX_API int minex_graph_create(int32_t nvtxs, const int64_t *xadj,
                                 const int32_t *adjncy, const double *pwgt,
                                 const double *rwgt, const double *cwgt,
                                 minex_graph **out);
/** Frees the graph; NULL is a no-op.
 * @param[in] graph the graph to free, or NULL */
MINEX_API void minex_graph_destroy(minex_graph *graph);
/** Accessors; the arrays belong to the graph (cwgt in the stored, sorted
 * order of adjncy). A NULL graph gives 0 or NULL.
 * @param[in] graph the graph
 * @return The number of vertices. */
MINEX_API int32_t minex_graph_nvtxs(const minex_graph *graph);
/** Number of undirected edges (xadj[nvtxs] / 2).
 * @param[in] graph the graph
 * @return The number of undirected edges. */
MINEX_API int64_t minex_graph_nedges(const minex_graph *graph);
/** Edge offsets, nvtxs + 1 entries (CSR).
 * @param[in] graph the graph
 * @return The array, owned by the graph. */
MINEX_API const int64_t *minex_graph_xadj(const minex_graph *graph);
/** Neighbour ids, xadj[nvtxs] entries, each list sorted by id.
 * @param[in] graph the graph
 * @return The array, owned by the graph. */
MINEX_API const int32_t *minex_graph_adjncy(const minex_graph *graph);
/** Processing weights Pwgt, nvtxs entries.
 * @param[in] graph the graph
 * @return The array, owned by the graph. */
MINEX_API const double *minex_graph_pwgt(const minex_graph *graph);
/** Remapping weights Rwgt (the data that moves), nvtxs entries.
 * @param[in] graph the graph
 * @return The array, owned by the graph. */
MINEX_API const double *minex_graph_rwgt(const minex_graph *graph);
/** Communication weights Cwgt, one per adjncy entry.
 * @param[in] graph the graph
 * @return The array, owned by the graph. */
MINEX_API const double *minex_graph_cwgt(const minex_graph *graph);
/** Replaces the weights, keeping the topology: for a mesh whose refinement
 * changes the weights but not the dual graph, without the re-sort and
 * re-validation of minex_graph_create. pwgt, rwgt have nvtxs entries and
 * cwgt xadj[nvtxs], one per adjncy entry in the stored (sorted) order of
 * minex_graph_adjncy; each may be NULL, leaving those weights as they are.
 * Checks only the weights (finite, >= 0, Cwgt equal both ways), O(V + E).
 * Not safe while another thread reads the graph.
 * @return MINEX_OK, MINEX_EINVAL (graph NULL), MINEX_EGRAPH (the message
 * names the array entry, and for Cwgt the edge) or MINEX_ENOMEM (cwgt set:
 * nvtxs cursors). On error the graph is unchanged. The arrays the
 * accessors returned stay valid and hold the new weights.
 * @param[in,out] graph the graph
 * @param[in] pwgt new Pwgt (nvtxs), or NULL to keep
 * @param[in] rwgt new Rwgt (nvtxs), or NULL to keep
 * @param[in] cwgt new Cwgt (xadj[nvtxs]), or NULL to keep */
MINEX_API int minex_graph_set_weights(minex_graph *graph, const double *pwgt,
                                      const double *rwgt, const double *cwgt);

/* --------------------------------------------------------- configuration */

/** Limits on what a configuration may hold. Every per-processor structure is
 * O(P) and Conn is C x C, so these bound what a few bytes of input (a
 * procs="..." attribute, a processor id in a partition file) can make the
 * library allocate: about 160 bytes per processor in a repartition
 * (~170 MB at the limit) and 8 C^2 bytes for Conn (128 MiB at the limit).
 * Beyond them the readers and constructors return MINEX_ECONFIG (or
 * MINEX_EPART for an id in a partition file) naming the value. */
#define MINEX_NPROCS_MAX (1 << 20)
/** Most clusters a configuration may hold (see MINEX_NPROCS_MAX). */
#define MINEX_NCLUSTERS_MAX 4096

/** Configuration graph (SPEC §1): clusters of processors with processing
 * slowdowns Proc_c and link slowdowns Conn(c,d). Processors are numbered
 * 0..P-1 cluster by cluster. Opaque. */
typedef struct minex_config minex_config;

/** nprocs[c] >= 0 processors in cluster c, proc_slowdown[c] > 0 (NULL: all 1),
 * conn: nclusters*nclusters row-major, symmetric, > 0, diagonal is the
 * intra-cluster slowdown (NULL: all 1). Everything is copied.
 * @return MINEX_OK, MINEX_EINVAL (out or nprocs NULL, nclusters < 1),
 * MINEX_ECONFIG (beyond MINEX_NCLUSTERS_MAX or MINEX_NPROCS_MAX, no
 * processor, a count < 0, a slowdown not finite and > 0, Conn asymmetric;
 * the message names the entry) or MINEX_ENOMEM. On error *out is NULL.
 * @param[in] nclusters number of clusters, >= 1
 * @param[in] nprocs processors per cluster (nclusters)
 * @param[in] proc_slowdown Proc_c per cluster, or NULL
 * @param[in] conn Conn, nclusters x nclusters row-major, or NULL
 * @param[out] out receives the configuration */
MINEX_API int minex_config_create(int32_t nclusters, const int32_t *nprocs,
                                  const double *proc_slowdown,
                                  const double *conn, minex_config **out);
/** One cluster of nparts processors, Proc = Conn = 1 (homogeneous).
 * @return MINEX_OK, MINEX_EINVAL (out NULL, nparts < 1), MINEX_ECONFIG
 * (nparts > MINEX_NPROCS_MAX) or MINEX_ENOMEM. On error *out is NULL.
 * @param[in] nparts number of processors, >= 1
 * @param[out] out receives the configuration */
MINEX_API int minex_config_create_uniform(int32_t nparts, minex_config **out);
/** Frees the configuration; NULL is a no-op.
 * @param[in] config the configuration to free, or NULL */
MINEX_API void minex_config_destroy(minex_config *config);
/** Marks processor proc (un)available: an unavailable one owns nothing in
 * the new partition (a resource that left). @return MINEX_OK or
 * MINEX_EINVAL (config NULL, proc outside [0, P)); on error nothing
 * changes.
 * @param[in,out] config the configuration
 * @param[in] proc processor id in [0, P)
 * @param[in] available 1: available, 0: unavailable */
MINEX_API int minex_config_set_available(minex_config *config, int32_t proc,
                                         int available);
/** Accessors below: a NULL config or an index out of range gives 0 (-1 for
 * cluster_of, NaN for the slowdowns).
 * @param[in] config the configuration
 * @return The number of clusters. */
MINEX_API int32_t minex_config_nclusters(const minex_config *config);
/** P, the total processor count (available or not).
 * @param[in] config the configuration
 * @return P. */
MINEX_API int32_t minex_config_nprocs(const minex_config *config);
/** Processors marked available.
 * @param[in] config the configuration
 * @return The number of available processors. */
MINEX_API int32_t minex_config_navailable(const minex_config *config);
/** Processors of cluster cluster.
 * @param[in] config the configuration
 * @param[in] cluster cluster index
 * @return Its processor count. */
MINEX_API int32_t minex_config_cluster_nprocs(const minex_config *config,
                                              int32_t cluster);
/** Cluster of processor proc, or -1 when proc is out of range.
 * @param[in] config the configuration
 * @param[in] proc processor id
 * @return The cluster index, or -1. */
MINEX_API int32_t minex_config_cluster_of(const minex_config *config,
                                          int32_t proc);
/** Processing slowdown Proc_c of cluster cluster.
 * @param[in] config the configuration
 * @param[in] cluster cluster index
 * @return Proc_c, or NaN. */
MINEX_API double minex_config_proc_slowdown(const minex_config *config,
                                            int32_t cluster);
/** Link slowdown Conn(c,d) between clusters c and d.
 * @param[in] config the configuration
 * @param[in] c first cluster
 * @param[in] d second cluster
 * @return Conn(c,d), or NaN. */
MINEX_API double minex_config_conn(const minex_config *config, int32_t c,
                                   int32_t d);
/** 1 when processor proc is available, else 0.
 * @param[in] config the configuration
 * @param[in] proc processor id
 * @return 1 or 0. */
MINEX_API int minex_config_is_available(const minex_config *config,
                                        int32_t proc);

/* --------------------------------------------------------------- options */

/** Where the remapping cost Rwgt_v * Conn(c(old), c(new)) is charged. */
typedef enum minex_remap_mode {
  MINEX_REMAP_RECEIVER = 0, /**< the paper's formula (default) */
  MINEX_REMAP_SENDER = 1,   /**< the old owner pays */
  MINEX_REMAP_BOTH = 2      /**< both ends pay (packing and unpacking) */
} minex_remap_mode;

/** User replacement for Qwgt^p = Wgt + X - alpha*min(Wgt, X), X = Comm+Remap
 * (§3.2); must be non-decreasing in each argument. */
typedef double (*minex_qwgt_fn)(double wgt, double comm, double remap,
                                void *ctx);

/** Progress and timing messages, only when set (the library never prints). */
typedef void (*minex_log_fn)(const char *message, void *ctx);

/** The ranges minex_repartition and minex_evaluate accept; a value outside
 * its range is refused with MINEX_EINVAL naming the field. */
#define MINEX_COARSE_PER_PROC_MAX (1 << 20)
/** Upper bound of options.coarse_target. */
#define MINEX_COARSE_TARGET_MAX INT32_MAX
/** Upper bound of options.sample_size. */
#define MINEX_SAMPLE_SIZE_MAX 4096
/** Upper bound of options.max_passes and options.refine_passes. */
#define MINEX_MAX_PASSES_MAX 1000000
/** Values of options.refine. */
#define MINEX_REFINE_OFF 0
#define MINEX_REFINE_ON 1   /**< refinement on */
#define MINEX_REFINE_AUTO 2 /**< on from MINEX_REFINE_AUTO_ITERATIONS on */
/** MINEX_REFINE_AUTO refines from this horizon on: at k = 1 a refined step
 * left the next steps of a sequence a worse start (docs/design/algorithm.md
 * §7). */
#define MINEX_REFINE_AUTO_ITERATIONS 2
/** Values of options.balance. */
#define MINEX_BALANCE_OFF 0
#define MINEX_BALANCE_ON 1   /**< balance moves on */
#define MINEX_BALANCE_AUTO 2 /**< on with more than one cluster */
/** Values of options.rounds. */
#define MINEX_ROUNDS_OFF 0
#define MINEX_ROUNDS_ON 1   /**< synchronous rounds */
#define MINEX_ROUNDS_AUTO 2 /**< the same as MINEX_ROUNDS_ON */
/** Values of options.cluster_levels. */
#define MINEX_CLUSTER_LEVELS_OFF 0
#define MINEX_CLUSTER_LEVELS_ON 1   /**< cluster levels on every level */
#define MINEX_CLUSTER_LEVELS_AUTO 2 /**< on the large levels only */
/** Heap passes of the balance moves after the expansion. */
#define MINEX_BALANCE_PASSES 4
/** Values of options.scratch. */
#define MINEX_SCRATCH_OFF 0
#define MINEX_SCRATCH_ON 1 /**< from-scratch candidate on */
/** On from MINEX_SCRATCH_AUTO_ITERATIONS on. */
#define MINEX_SCRATCH_AUTO 2
/** MINEX_SCRATCH_AUTO runs the candidate from this horizon on. */
#define MINEX_SCRATCH_AUTO_ITERATIONS 10
/** Values of options.ladder. */
#define MINEX_LADDER_OFF 0
#define MINEX_LADDER_ON 1 /**< horizon ladder on */
/** On from MINEX_LADDER_AUTO_ITERATIONS on, or when alpha > 0. */
#define MINEX_LADDER_AUTO 2
/** MINEX_LADDER_AUTO tries the shorter horizons from this horizon on, and
 * at any horizon when alpha > 0. */
#define MINEX_LADDER_AUTO_ITERATIONS 2
/** Ratio of the ladder's shorter horizons: k / MINEX_LADDER_STEP^j for
 * j = 1 .. MINEX_LADDER_MAX, fractions of an iteration included (a power
 * of two, so that a horizon is exactly a scaling of Pwgt and Cwgt). */
#define MINEX_LADDER_STEP 4.0
/** Number of shorter horizons of the ladder. */
#define MINEX_LADDER_MAX 3

/** Largest horizon options.iterations (SPEC §2). */
#define MINEX_ITERATIONS_MAX 1000000000
/** Upper bound of options.nthrottle_candidates. */
#define MINEX_THROTTLE_CANDIDATES_MAX 64

/** A workspace kept across calls (below the options). */
typedef struct minex_workspace minex_workspace;

/** The options of minex_repartition and minex_evaluate (SPEC §3); fill
 * them with minex_options_init, then set fields directly or by name
 * (minex_options_set). */
typedef struct minex_options {
  double throttle; /**< ThroTTle >= 0, dimensionless (SPEC §3);
                      INFINITY admits every move lowering MinVar;
                      NaN is refused                               */
  double alpha;    /**< latency tolerance in [0,1]: 0 none, 1 maximum */
  minex_remap_mode remap_mode; /**< who pays remapping; default receiver  */
  minex_qwgt_fn qwgt_fn;       /**< NULL: the alpha formula. Must return a
                                  finite value >= 0, non-decreasing in each
                                  argument; a NaN, infinite or negative value
                                  makes the call fail with MINEX_EINVAL       */
  void *qwgt_ctx;          /**< passed to qwgt_fn                            */
  int32_t coarse_per_proc; /**< contraction target = this * P_available
                              coarse vertices, at most n/4; in [1,
                              MINEX_COARSE_PER_PROC_MAX] (default 64)    */
  int32_t coarse_target;   /**< > 0: absolute contraction target, overrides
                              coarse_per_proc; 0: unset; never negative   */
  int32_t sample_size;     /**< same-owner vertices sampled per contraction
                              step, in [1, MINEX_SAMPLE_SIZE_MAX]
                              (default 4)                                  */
  uint64_t seed;           /**< random seed; same seed, same output          */
  int global_candidates;   /**< 1: overloaded vertices may also move to the
                              least-loaded processor (default 1); 0 or 1  */
  int32_t max_passes;      /**< heap passes over the coarse graph, in [0,
                              MINEX_MAX_PASSES_MAX], 0 means 1 (default 8) */
  minex_log_fn log_fn;     /**< progress messages (NULL: silent)             */
  void *log_ctx;           /**< passed to log_fn                             */
  int throttle_auto; /**< 0 or 1. 1: ignore throttle; partition the contracted
                        graph with each candidate, keep the one with
                        the lowest MaxQwgt, and use it for the rest
                        of the call (see metrics.throttle_used)      */
  const double *throttle_candidates; /**< candidates of throttle_auto
                            (each >= 0 or INFINITY); NULL: the built-in
                            set MINEX_THROTTLE_AUTO_SET                  */
  int32_t nthrottle_candidates;      /**< entries of throttle_candidates, in
                                 [1, MINEX_THROTTLE_CANDIDATES_MAX]           */
  int32_t iterations; /**< horizon k (SPEC §2): solver iterations the partition
                         must last. Processing and communication count k
                         times (k*Wgt, k*Comm in Qwgt), remapping once; the
                         repartitioner minimises MaxQwgt under k. In [0,
                         MINEX_ITERATIONS_MAX]; 0 means 1 (default 1: the
                         paper's formula)                                */
  int refine;         /**< refinement beyond the paper (SPEC §3): after the
                         expansion, heap passes of the moves of boundary vertices
                         that lower QwgtTot (under the horizon) without raising
                         MaxQwgt, SteadyMax or MaxRemap, so the cut improves and not
                         only the balance. MINEX_REFINE_OFF, _ON, or _AUTO
                         (default): on when iterations >=
                         MINEX_REFINE_AUTO_ITERATIONS */
  int32_t refine_passes; /**< passes of the refinement, in [0,
                            MINEX_MAX_PASSES_MAX], 0 means 1 (default 4) */
  int scratch;           /**< the from-scratch candidate (beyond the paper, SPEC
                            §3): a cluster-aware Scotch partition (of a level
                            of MinEX's own contraction, so each piece keeps
                            one old owner) relabelled against old, then run
                            through these rules from a finer level, kept
                            when its T_k is the lowest of the candidates
                            (and its MaxQwgt under k no worse than old's);
                            skipped, never failing the call, when Scotch
                            refuses the input.
                            MINEX_SCRATCH_OFF, _ON, or _AUTO (default): on
                            when iterations >=
                            MINEX_SCRATCH_AUTO_ITERATIONS                  */
  int paper_exact;       /**< 0 or 1. 1: the paper's rules alone, every addition
                            beyond it off (refine, scratch, ladder, balance,
                            rounds, cluster_levels) whatever
                            their own fields say (default 0)               */
  int ladder;            /**< the horizon ladder (beyond the paper, SPEC §3):
                            besides the diffusive run under k, diffusive runs
                            of the same contracted graph under the shorter
                            horizons k/4, k/16, k/64 (MINEX_LADDER_STEP), each
                            scored under k; the lowest T_k among all
                            candidates wins. MaxQwgt under k weighs each
                            processor's remapping against k times its own
                            load (and with alpha > 0 hides it behind
                            computation), while T_k adds the largest
                            remapping to k times the largest steady load, so
                            a shorter horizon often gives the lower T_k.
                            MINEX_LADDER_OFF, _ON, or _AUTO (default): on when
                            iterations >= MINEX_LADDER_AUTO_ITERATIONS or
                            alpha > 0                                      */
  int balance;           /**< balance moves (beyond the paper, SPEC §3):
                            after the expansion, up to
                            MINEX_BALANCE_PASSES heap passes of the moves
                            after which every processor they touch is below
                            the sender's load before. In heap passes
                            (rounds = OFF) every move is tested against
                            the loads it is made on, so MaxQwgt under k
                            never rises; in rounds (the default) a move is
                            decided so against the round's running sums
                            and not checked again when executed
                            (docs/design/algorithm.md "The execution check"), so
                            a pass can raise it; the result is still
                            never worse than the old partition (SPEC §3's
                            guarantee, kept by the driver).
                            The paper's MinVar, measured from
                            the least-loaded processor, refuses a move
                            between two loaded processors when the receiver
                            pays more (Pwgt plus its remapping) than the
                            sender saves, even when it lowers the maximum.
                            MINEX_BALANCE_OFF, _ON, or _AUTO (default): on
                            when processors are in more than one cluster */
  int rounds;            /**< synchronous rounds (SPEC §3 "Parallel
                            execution"): the merges of a level
                            undone together, the restored vertices tested
                            against the frozen owners and loads on the
                            threads, the moves found applied in (forced,
                            Gain, vertex) order, each re-tested first; then
                            the neighbours of the moved vertices.
                            MINEX_ROUNDS_AUTO (default) = _ON: the
                            expansion, the balance and the refinement
                            passes in rounds, each proposal tested for
                            its own destination against the round's
                            loads plus every earlier proposal's deltas,
                            an accepted one with an earlier accepted
                            neighbour waiting for the next round
                            (docs/design/algorithm.md "The replay-free rule";
                            the distributed kernel's rule, so that
                            minex_mpi_repartition's default result is
                            this one, docs/guide/mpi.md), the balance passes
                            twice as many under k > 1;
                            _OFF: the paper's expansion, one merge at a
                            time, and heap passes. paper_exact: off.  */
  int32_t nthreads;      /**< OpenMP threads of minex_repartition, in [0,
                            MINEX_NTHREADS_MAX]; 0: one per processor of the
                            node (omp_get_num_procs). Default 1, so that a
                            library called inside an MPI rank never
                            oversubscribes its cores. The result does not
                            depend on it: the same input and seed give the
                            same partition, bit for bit, for any value
                            (SPEC §3 "Parallel execution")             */
  minex_workspace *workspace; /**< NULL (default), or a workspace made by
                            minex_workspace_create whose large buffers the
                            call takes and gives back instead of the
                            system's: a second call on a graph
                            of the same size allocates nothing large. One
                            call at a time per workspace; it does not
                            change the result                          */
  int cluster_levels;         /**< cluster levels (beyond the paper, SPEC §3):
                                 a contraction level built in one
                                 pass in which each vertex still alone joins the
                                 neighbouring cluster (same old owner, fewer
                                 than 3 members) of the largest Cwgt/(Rwgt_v +
                                 Rwgt_C), each join one pair merge, instead of
                                 the paper's sampled sweep.
                                 MINEX_CLUSTER_LEVELS_AUTO (default): the levels
                                 with more than 64 times the target's vertices
                                 (where most merges are), the sampled sweep
                                 below; T_k unchanged on the peer benchmark,
                                 10^6 vertices a third faster; _ON: every
                                 level (T_k +0.7%); _OFF, paper_exact: the
                                 sampled sweep on every level (docs/reference/api.md) */
  int32_t global_spread;      /**< rounds = ON, so by default in
                                 minex_mpi_repartition (beyond the paper,
                                 SPEC §3):
                                 the global candidates of a round's vertices
                                 (least-loaded-processor moves) are shared
                                 among up to this many of the least-loaded
                                 processors below the mean, each vertex's
                                 picked by a hash of its id, where every
                                 vertex would otherwise offer the same
                                 lightest processor and a round could fill
                                 only that one. In [1,
                                 MINEX_GLOBAL_SPREAD_MAX]; 1: the
                                 least-loaded processor, as SPEC §3 and the
                                 other modes. Default 8: T_k 0.9990 of
                                 spread 1 on the peer benchmark (geometric
                                 mean, two seeds, 3 rows worse and 8 better
                                 by > 1%), a fifth of the proposals in
                                 the expansion's rounds at 10^6
                                 (docs/design/algorithm.md "Spread global
                                 candidates")                             */
  double max_imbalance;       /**< bound on each available processor's
                                 processing load L_p = sum of Pwgt on p
                                 relative to its target t_p = (sum Pwgt)
                                 * (1/Proc_p) / sum_avail (1/Proc_q), its
                                 share in proportion to its speed
                                 (ParMETIS's ubvec): the result has L_p <=
                                 max_imbalance * t_p when the repair pass
                                 finds such a partition; the objective
                                 stays MaxQwgt / T_k. 0 (default): no
                                 bound, the results are those without it;
                                 else >= 1 (docs/SPEC.md §3 "Load bounds",
                                 docs/reference/parmetis.md)              */
  const double *target_min;   /**< NULL (default) or P entries: processor
                                 p's lower bound L_p >= target_min[p] *
                                 t_p, relative to its target (finite,
                                 >= 0)                                    */
  const double *target_max;   /**< NULL (default) or P entries: processor
                                 p's upper bound L_p <= target_max[p] *
                                 t_p (>= target_min[p]; INFINITY: no
                                 bound; with max_imbalance the smaller
                                 bound holds)                             */
} minex_options;

/** Values of metrics.bound_status (options.max_imbalance, target_min,
 * target_max). */
#define MINEX_BOUND_NONE 0 /**< no bound was asked */
#define MINEX_BOUND_MET 1  /**< every available processor within bounds */
#define MINEX_BOUND_MISSED                                                     \
  2 /**< no partition within the bounds was found:                             \
         the one closest to them is returned */

/** Upper bound of options.global_spread (the least-loaded list's length). */
#define MINEX_GLOBAL_SPREAD_MAX 8

/** Upper bound of options.nthreads. */
#define MINEX_NTHREADS_MAX 4096

/** The candidates tried by throttle_auto when none are given. */
#define MINEX_THROTTLE_AUTO_SET                                                \
  { 0.25, 1.0, 4.0, 16.0, 64.0, INFINITY }
/** Number of entries of MINEX_THROTTLE_AUTO_SET. */
#define MINEX_THROTTLE_AUTO_COUNT 6

/** Fills the defaults: throttle = INFINITY, alpha = 0, receiver pays,
 * coarse_per_proc = 64, sample_size = 4, seed = 1, global candidates on,
 * nthreads = 1.
 * @param[out] options the options to fill */
MINEX_API void minex_options_init(minex_options *options);

/** The value options by name (the field's name: "iterations", "alpha",
 * ...), for bindings and configuration files. minex_options_set stores
 * value in the field: an integer field takes an integral value of its
 * type (options.seed one in [0, 2^64)); the range is checked by the call
 * that uses the options, as for a field set directly. MINEX_EINVAL names
 * an unknown option or a value the field cannot hold. minex_options_get
 * reads a field (a seed above 2^53 rounded to a double).
 * minex_options_name(i) is the i-th name for i = 0, 1, ... and NULL past
 * the last. The callbacks, their contexts, throttle_candidates and the
 * workspace are set as fields only.
 * @param[in,out] options the options
 * @param[in] name the field's name
 * @param[in] value its new value
 * @return MINEX_OK or MINEX_EINVAL. */
MINEX_API int minex_options_set(minex_options *options, const char *name,
                                double value);
/** Reads the field named name into *value (see minex_options_set).
 * @param[in] options the options
 * @param[in] name the field's name
 * @param[out] value receives its value
 * @return MINEX_OK or MINEX_EINVAL (NULL argument, unknown name). */
MINEX_API int minex_options_get(const minex_options *options, const char *name,
                                double *value);
/** The i-th option name (i = 0, 1, ...), NULL past the last.
 * @param[in] i index, from 0
 * @return The name, or NULL past the last. */
MINEX_API const char *minex_options_name(int i);

/* --------------------------------------------------------------- metrics */

/** Scores of a (graph, config, old, new) quadruple, SPEC §2. Loads are in
 * the graph's weight units scaled by slowdowns. Sums over processors are
 * over available processors only. */
typedef struct minex_metrics {
  double max_qwgt;     /**< MaxQwgt: largest Qwgt^p over available procs     */
  double min_qwgt;     /**< MinQwgt: smallest, empty processors included      */
  double qwgt_tot;     /**< QwgtTot: sum of Qwgt^p                            */
  double load_imb;     /**< LoadImb = P_avail * MaxQwgt / QwgtTot (0 if empty)*/
  double min_var;      /**< MinVar = sum_p (Qwgt^p - MinQwgt)^2               */
  double lower_bound;  /**< LB = sum Pwgt / sum_{avail p} 1/Proc_c(p)        */
  double max_wgt;      /**< largest Wgt^p (processing only)                   */
  double max_comm;     /**< largest Comm^p                                    */
  double max_remap;    /**< MaxRemap: largest Remap^p under the charging mode */
  double steady_max;   /**< SteadyMax: largest Qwgt^p with Remap = 0 and k = 1
                          (one solver iteration once the data have moved)  */
  double horizon_time; /**< T_k = MaxRemap + k * SteadyMax (k =
                          options.iterations): what one adaptation interval
                          costs an application that synchronises every
                          iteration; the figure tools are compared by     */
  int64_t cut_edges;   /**< undirected edges whose ends differ in new         */
  double cut_weight;   /**< sum of Cwgt over those edges (no slowdowns)       */
  int64_t moved;       /**< vertices with new[v] != old[v]                    */
  double total_v;      /**< TotalV: sum of Rwgt over moved vertices           */
  double max_v;        /**< MaxV: max_p of Rwgt sent plus received by p       */
  int64_t stranded;    /**< vertices whose new owner is unavailable           */
  int32_t navailable;  /**< P_avail                                           */
  /* Filled by minex_repartition only (0 from minex_evaluate): */
  int32_t coarse_nvtxs;    /**< vertices left after the contraction, which
                              every diffusive candidate shares          */
  int64_t coarse_moves;    /**< moves made on the contracted graph            */
  int64_t expand_moves;    /**< moves made during expansion                   */
  int returned_old;        /**< 1: the result was worse, old was returned     */
  int scratch_used;        /**< 1: the from-scratch candidate was kept        */
  double seconds_contract; /**< wall time of the shared contraction, s     */
  double seconds_partition; /**< the kept candidate's coarse partition, s   */
  double seconds_expand;    /**< the kept candidate's expansion and
                               refinement, s                              */
  double seconds;           /**< wall time of the whole call: the layout +
                               seconds_contract + seconds_candidates +
                               checks and scoring                           */
  double throttle_used;     /**< ThroTTle of the call (the chosen one under
                               throttle_auto)                                 */
  double horizon_used;      /**< horizon the kept partition was optimised under:
                               options.iterations (at least 1), or a shorter one
                               of the ladder (options.ladder), possibly below 1 */
  /* minex_repartition only (0 from minex_evaluate): */
  int32_t start_nvtxs;      /**< vertices of the graph the kept candidate's rule
                               started on: coarse_nvtxs, or for the from-scratch
                               candidate the (finer) level it starts from     */
  int32_t candidates;       /**< candidate partitions compared: 1 (the diffusive
                               run under k), + the ladder's runs, + the
                               from-scratch candidate                          */
  double seconds_diffusive; /**< wall time of the diffusive run under k
                               (partition, expansion, refinement), s     */
  double seconds_ladder;    /**< of the ladder's runs together, s (0 without
                               the ladder)                                */
  double seconds_scratch;   /**< of the from-scratch candidate (METIS on a
                               level, the rule, expansion, refinement), s
                               (0 without it)                             */
  double seconds_refine;    /**< of the refinement passes of every candidate
                               together, s: part of the three above       */
  /* minex_repartition only (0 from minex_evaluate): */
  double seconds_candidates; /**< wall time of all the candidates together,
                               s: with one thread the sum of the three
                               above; with more they run concurrently and
                               their times overlap                       */
  int32_t threads_used;      /**< OpenMP threads of the call (options.nthreads,
                               0 resolved to the node's processors)       */
  double seconds_parallel;   /**< wall time spent in the parallel regions
                               (the contraction's chunks, the scans of
                               tests, the candidates when there are
                               several), s; seconds minus it ran on the
                               calling thread alone                     */
  double seconds_parallel_work; /**< the sum of those regions' units' times
                                   (chunks, blocks of 1,024 tests,
                                   candidates), s                       */
  double seconds_parallel_span; /**< the sum over the regions of their
                                   largest unit, s: what no number of
                                   threads shortens. With c threads the
                                   call takes about (seconds -
                                   seconds_parallel) + work / c + span at
                                   most (a projection)          */
  /* the next three: minex_repartition with a load bound
     (options.max_imbalance, target_min, target_max) only; 0 otherwise */
  double imbalance;    /**< max over available processors of L_p / t_p, the
                          processing load relative to the target (ParMETIS's
                          imbalance; 1 is perfect balance)               */
  double bound_excess; /**< sum over available processors of the load
                          outside their bounds, in Pwgt units (0 when
                          bound_status is MINEX_BOUND_MET)              */
  int bound_status;    /**< MINEX_BOUND_NONE, _MET or _MISSED            */
} minex_metrics;

/** Scores new against old (SPEC §2). old and new have nvtxs entries in
 * [0, P); options may be NULL (defaults: alpha, remap mode, qwgt_fn are
 * read). metrics must not be NULL. Owners on unavailable processors are
 * allowed and counted in metrics->stranded.
 * @return MINEX_OK, MINEX_EINVAL (NULL argument, an option out of range,
 * qwgt_fn returning a bad value, sums that overflow), MINEX_EPART (an
 * owner out of range, naming the vertex) or MINEX_ENOMEM. On error
 * *metrics is unchanged.
 * @param[in] graph the graph
 * @param[in] config the machine
 * @param[in] old old owner per vertex (nvtxs)
 * @param[in] new_part new owner per vertex (nvtxs)
 * @param[in] options the options, or NULL
 * @param[out] metrics receives the scores */
MINEX_API int minex_evaluate(const minex_graph *graph,
                             const minex_config *config, const int32_t *old,
                             const int32_t *new_part,
                             const minex_options *options,
                             minex_metrics *metrics);

/** Per-processor loads of new (old gives the remapping): each output array
 * has P entries and may be NULL. Unavailable processors get their loads
 * too. @return the codes of minex_evaluate; on error the arrays are
 * unchanged.
 * @param[in] graph the graph
 * @param[in] config the machine
 * @param[in] old old owner per vertex
 * @param[in] new_part new owner per vertex
 * @param[in] options the options, or NULL
 * @param[out] wgt Wgt^p per processor (P), or NULL
 * @param[out] comm Comm^p per processor, or NULL
 * @param[out] remap Remap^p per processor, or NULL
 * @param[out] qwgt Qwgt^p per processor, or NULL */
MINEX_API int minex_evaluate_procs(const minex_graph *graph,
                                   const minex_config *config,
                                   const int32_t *old, const int32_t *new_part,
                                   const minex_options *options, double *wgt,
                                   double *comm, double *remap, double *qwgt);

/* ----------------------------------------------------------- repartition */

/** MinEX (SPEC §3): contract, partition the contracted graph, expand. old has
 * nvtxs owners in [0, P); new_part receives nvtxs owners, each an available
 * processor. options may be NULL (defaults); metrics may be NULL.
 * Guarantees: MaxQwgt(new) <= MaxQwgt(old) when every old owner is
 * available; the same inputs and seed give the same output, whatever
 * options.nthreads.
 * Threads (SPEC §3 "Parallel execution"): the call runs on
 * options.nthreads OpenMP threads (default 1; 0: every processor of the
 * node), started inside the call and done before it returns. log_fn is
 * called from the calling thread only, in the order of a one-thread run;
 * with nthreads > 1, qwgt_fn may be called from several threads at once
 * and must be reentrant. Calls on separate outputs may run concurrently
 * from several threads of the application (each with its own nthreads);
 * the graph, configuration and old partition are only read and may be
 * shared by concurrent calls. The per-thread last-error message is set on
 * the calling thread.
 * @return MINEX_OK, MINEX_EINVAL (NULL argument, an option out of range,
 * qwgt_fn returning a bad value, sums that overflow), MINEX_EPART (an old
 * owner out of range), MINEX_ENOPROC (no available processor),
 * MINEX_ENOMEM or MINEX_EINTERNAL (an internal consistency check failed,
 * naming it: a library bug; a MINEX_CHECKS build checks every structure at
 * each phase). On error new_part and *metrics are unchanged.
 * @param[in] graph the graph
 * @param[in] config the machine
 * @param[in] old current owner per vertex (nvtxs)
 * @param[in] options the options, or NULL (defaults)
 * @param[out] new_part receives the new owner per vertex (nvtxs)
 * @param[out] metrics receives the scores of the result, or NULL */
MINEX_API int minex_repartition(const minex_graph *graph,
                                const minex_config *config, const int32_t *old,
                                const minex_options *options, int32_t *new_part,
                                minex_metrics *metrics);

/* ------------------------------------------- workspace */

/** For the adaptive loop: a workspace given as options.workspace keeps the
 * call's large buffers (64 KiB and more: the per-part layout, the
 * contraction's levels, the loads' and the rounds' arrays) when the call
 * returns, and the next call takes them again instead of asking the
 * system, so it pays no page faults for them and allocates nothing large
 * when the graph has the same size (sizes in classes of 1/4 of a
 * doubling: a graph a few per cent larger usually fits too). Between
 * calls it holds about the call's peak memory; minex_workspace_trim gives
 * it back, minex_workspace_destroy frees it. A workspace serves one call
 * at a time (a second concurrent call with it returns MINEX_EINVAL); the
 * calls using it may come from any thread. minex_mpi_repartition uses it
 * too (the kernel's buffers on each rank). Not covered: the from-scratch
 * candidate's Scotch (its own allocations, about n/32 vertices). */
typedef struct minex_workspace_stats {
  int64_t bytes_held;    /**< bytes of the blocks the workspace holds now    */
  int64_t blocks_held;   /**< their number                                   */
  int64_t bytes_peak;    /**< last call: most bytes of blocks in use at once */
  int64_t bytes_new;     /**< last call: bytes of blocks it had to make      */
  int64_t blocks_new;    /**< last call: their number (0: nothing large was
                            allocated)                                     */
  int64_t bytes_reused;  /**< last call: bytes of the kept blocks it took     */
  int64_t blocks_reused; /**< last call: their number                        */
  int64_t calls;         /**< calls made with the workspace                  */
} minex_workspace_stats;

/** Creates an empty workspace.
 * @return MINEX_OK or MINEX_EINVAL (out NULL) / MINEX_ENOMEM.
 * @param[out] out receives the workspace */
MINEX_API int minex_workspace_create(minex_workspace **out);
/** Frees the workspace and its blocks (not during a call using it). NULL is
 * allowed.
 * @param[in] ws the workspace, or NULL */
MINEX_API void minex_workspace_destroy(minex_workspace *ws);
/** Gives every block back to the system; the workspace stays usable.
 * MINEX_EINVAL when ws is NULL or a call is using it.
 * @param[in,out] ws the workspace
 * @return MINEX_OK or MINEX_EINVAL. */
MINEX_API int minex_workspace_trim(minex_workspace *ws);
/** What the workspace holds and what its last call took (MINEX_EINVAL when
 * an argument is NULL).
 * @param[in] ws the workspace
 * @param[out] out receives the figures
 * @return MINEX_OK or MINEX_EINVAL. */
MINEX_API int minex_workspace_get_stats(const minex_workspace *ws,
                                        minex_workspace_stats *out);

/* ------------------------------------- whether to repartition (SPEC §5) */

/** ATOP-grid cost/benefit rule (Gupta 2006, §6.5), in SPEC §2's figures
 * (SPEC §5): repartition iff
 * (SteadyMax_old - SteadyMax_new) * steps * (1 - delta) > remap_cost +
 * call_cost, i.e. at delta = 0 and no call cost iff T_steps(new) <
 * T_steps(old). A step is one solver iteration, the unit of the horizon k
 * (options.iterations); call_cost is the repartitioner's own time, in the
 * same units (minex_decision_add_call). */
typedef struct minex_decision {
  int repartition;         /**< 1: the saving over `steps` pays for the remap
                              and the call                                 */
  double saving_per_step;  /**< SteadyMax_old - SteadyMax_new (may be < 0);
                              minex_decide_before: the most any partition
                              saves, SteadyMax_old - LB                    */
  double gain;             /**< saving_per_step * steps * (1 - delta)         */
  double remap_cost;       /**< the one-off cost of moving compared against
                              gain (0 in minex_decide_before)              */
  double break_even_steps; /**< (remap_cost + call_cost) / (saving_per_step *
                              (1 - delta)): the steps after which
                              repartitioning has paid off; INFINITY when
                              saving_per_step <= 0                         */
  double call_cost;        /**< the call's own cost counted
                              (minex_decision_add_call), else 0            */
  double steps;            /**< the rule's steps                           */
  double delta;            /**< the rule's tolerance                       */
  int forced;              /**< 1: old has vertices on unavailable processors
                              (and the candidate none): repartition
                              whatever it costs                            */
} minex_decision;

/** steady_old: cost per step (solver iteration) of the current partition;
 * steady_new: the same of the candidate once its data has moved (no remap
 * term); remap_cost: the one-off cost of moving (same time unit); steps:
 * steps until the next adaptation (>= 0); delta: tolerance in [0,1) for
 * the error of the prediction. All finite and >= 0. Any figures of one
 * unit will do (measured step times, for instance).
 * @return MINEX_OK or MINEX_EINVAL (out NULL, a value out of range,
 * naming it); on error *out is unchanged.
 * @param[in] steady_old cost per step of the current partition
 * @param[in] steady_new cost per step of the candidate
 * @param[in] remap_cost one-off cost of moving
 * @param[in] steps steps until the next adaptation
 * @param[in] delta tolerance in [0,1)
 * @param[out] out receives the decision */
MINEX_API int minex_should_repartition(double steady_old, double steady_new,
                                       double remap_cost, double steps,
                                       double delta, minex_decision *out);
/** The same rule from the cost model (SPEC §5): steady_old = SteadyMax of
 * old kept, steady_new = SteadyMax of new_part, remap_cost = MaxRemap of
 * moving from old to new_part (remapping charged as options say), so that
 * the answer at delta = 0 is T_steps(new_part) < T_steps(old) (SPEC §2:
 * T_k = MaxRemap + k SteadyMax). options->iterations does not enter: the
 * horizon a partition was made for does not multiply steps. When old has
 * vertices on unavailable processors (and new_part none) the answer is
 * always to repartition. options may be NULL (defaults).
 * @return the codes of minex_evaluate (for old and for new_part) and of
 * minex_should_repartition; on error *out is unchanged.
 * @param[in] graph the graph
 * @param[in] config the machine
 * @param[in] old current owner per vertex
 * @param[in] new_part candidate owner per vertex
 * @param[in] options the options, or NULL
 * @param[in] steps steps until the next adaptation
 * @param[in] delta tolerance in [0,1)
 * @param[out] out receives the decision */
MINEX_API int minex_decide(const minex_graph *graph, const minex_config *config,
                           const int32_t *old, const int32_t *new_part,
                           const minex_options *options, double steps,
                           double delta, minex_decision *out);

/** The same rule before the call, for whether to call at all (SPEC §5):
 * no partition has SteadyMax below the lower bound LB (SPEC §2; 0 under a
 * user Qwgt function, which need not exceed Wgt), so a call saves at most
 * SteadyMax(old) - LB per step, the decision's saving_per_step; remap_cost
 * is 0 (what the call will move is not known yet: it only adds to the
 * cost). Count the call's cost with minex_decision_add_call. When old has
 * vertices on unavailable processors the answer is always to repartition.
 * options may be NULL. Codes of minex_evaluate and of
 * minex_should_repartition; on error *out is unchanged.
 * @param[in] graph the graph
 * @param[in] config the machine
 * @param[in] old current owner per vertex
 * @param[in] options the options, or NULL
 * @param[in] steps steps until the next adaptation
 * @param[in] delta tolerance in [0,1)
 * @param[out] out receives the decision
 * @return The codes of minex_evaluate and of minex_should_repartition. */
MINEX_API int minex_decide_before(const minex_graph *graph,
                                  const minex_config *config,
                                  const int32_t *old,
                                  const minex_options *options, double steps,
                                  double delta, minex_decision *out);
/** Counts the repartitioner's own time in a decision of minex_decide,
 * minex_decide_before or minex_should_repartition (SPEC §5): call_cost
 * (finite, >= 0, in the units of the figures) joins the one-off costs, and
 * d->repartition, d->break_even_steps follow, so that a call that does not
 * pay for itself keeps old (unless old strands vertices on unavailable
 * processors). A call's seconds become units by the application's own
 * clock: the measured seconds of one step on old divided by old's
 * SteadyMax are the seconds per unit (docs/reference/api.md "Does a repartition
 * pay?"). call_cost is the measured time of the call (metrics.seconds,
 * after it) or a prediction (minex_predict_seconds, before). MINEX_EINVAL
 * naming the argument at fault; on error *d is unchanged.
 * @param[in,out] d the decision
 * @param[in] call_cost the call's cost, finite and >= 0
 * @return MINEX_OK or MINEX_EINVAL. */
MINEX_API int minex_decision_add_call(minex_decision *d, double call_cost);
/** The predicted wall time in seconds of minex_repartition(graph, config,
 * ..., options) (SPEC §5 "predicted from the graph's size and the previous
 * call"): last_seconds, the metrics.seconds of an earlier call with the same
 * options on this machine, scaled by the size -- vertices plus edge ends --
 * against last_size, that call's graph's; without an earlier call
 * (last_seconds = 0), MINEX_PREDICT_NS_PER_ENTRY nanoseconds per vertex and
 * edge end for each candidate the options make (the multilevel run, the
 * horizon ladder's rungs and the from-scratch candidate), about what one
 * thread takes on the reference machine (docs/reference/api.md). MINEX_EINVAL
 * when a pointer is NULL, last_seconds is not finite and >= 0, or last_size < 1
 * with last_seconds > 0; the codes of the options' check. */
#define MINEX_PREDICT_NS_PER_ENTRY 200.0
/** The predicted wall time of minex_repartition: see
 * MINEX_PREDICT_NS_PER_ENTRY. Stores it in *seconds.
 * @param[in] graph the graph
 * @param[in] config the machine
 * @param[in] options the options, or NULL
 * @param[in] last_seconds metrics.seconds of an earlier call, or 0
 * @param[in] last_size vertices plus edge ends of that call's graph
 * @param[out] seconds receives the prediction
 * @return MINEX_OK or MINEX_EINVAL. */
MINEX_API int minex_predict_seconds(const minex_graph *graph,
                                    const minex_config *config,
                                    const minex_options *options,
                                    double last_seconds, int64_t last_size,
                                    double *seconds);

/** Proportional allocation of `total` partitions to n weights by the
 * largest-remainder rule (quota total*w_i/sum w; floors, then one more to
 * the largest remainders, ties to the lower index). weights >= 0, finite,
 * with a positive sum; total >= 0. counts[i] sums to total.
 * @return MINEX_OK, MINEX_EINVAL (n < 1, NULL array, total < 0, a weight
 * out of range or a zero sum, naming it) or MINEX_ENOMEM; on error counts
 * is unchanged.
 * @param[in] n number of weights, >= 1
 * @param[in] weights the n weights
 * @param[in] total partitions to allocate, >= 0
 * @param[out] counts receives the n counts */
MINEX_API int minex_allocate(int32_t n, const double *weights, int32_t total,
                             int32_t *counts);
/** Two levels (ATOP-grid §5.5): sites get `total` in proportion to the sum
 * of their nodes' weights times site_factor (NULL: 1; ATOP's
 * (1 - FracComm_site) / (1 - avg FracComm)), then each site's share goes to
 * its nodes. Site s owns the next site_size[s] entries of node_weights.
 * @return MINEX_OK, MINEX_EINVAL (nsites < 1, NULL array, total < 0, a
 * site_size < 1, a weight or factor out of range, every site of weight 0)
 * or MINEX_ENOMEM; on error site_counts and node_counts are unchanged.
 * @param[in] nsites number of sites, >= 1
 * @param[in] site_size nodes per site (nsites)
 * @param[in] node_weights weight per node, site by site
 * @param[in] site_factor factor per site, or NULL
 * @param[in] total partitions to allocate, >= 0
 * @param[out] site_counts receives the count per site (nsites)
 * @param[out] node_counts receives the count per node */
MINEX_API int minex_allocate_sites(int32_t nsites, const int32_t *site_size,
                                   const double *node_weights,
                                   const double *site_factor, int32_t total,
                                   int32_t *site_counts, int32_t *node_counts);

/* ------------------------------------------ measured feedback (Watts) */

/** Slowdowns from the application's own step times (Watts, Rieffel, Taylor
 * 1998, §2): capacity_p = load_p / time_p per step, smoothed over a window
 * of the last steps, Proc = max capacity / capacity_p. */
typedef struct minex_feedback minex_feedback;

/** How minex_feedback smooths the capacities of its window. */
typedef enum minex_feedback_estimator {
  MINEX_FEEDBACK_MEDIAN = 0, /**< median of the window's capacities (robust
                                to an odd slow step)                       */
  MINEX_FEEDBACK_RATIO = 1   /**< sum of loads / sum of times over the window
                                (time-weighted mean)                       */
} minex_feedback_estimator;

/** nprocs processors, window >= 1 steps remembered. @return MINEX_OK,
 * MINEX_EINVAL (out NULL, nprocs < 1, window outside [1, 2^20], unknown
 * estimator) or MINEX_ENOMEM. On error *out is NULL.
 * @param[in] nprocs number of processors, >= 1
 * @param[in] window steps remembered, in [1, 2^20]
 * @param[in] estimator how the window is smoothed
 * @param[out] out receives the record */
MINEX_API int minex_feedback_create(int32_t nprocs, int32_t window,
                                    minex_feedback_estimator estimator,
                                    minex_feedback **out);
/** Frees the record; NULL is a no-op.
 * @param[in] feedback the record, or NULL */
MINEX_API void minex_feedback_destroy(minex_feedback *feedback);
/** One step: load[p] processed (e.g. the Pwgt it owned) in seconds[p] of
 * computation. A processor with load <= 0 or seconds <= 0 has no sample
 * this step; negative or non-finite values are errors.
 * @return MINEX_OK, MINEX_EINVAL (NULL argument; a value, or a capacity
 * load/seconds, that is negative or not finite, naming the processor:
 * nothing is recorded) or, in a MINEX_CHECKS build, MINEX_EINTERNAL (the
 * record failed its check after the step was added).
 * @param[in,out] feedback the record
 * @param[in] load load per processor (nprocs)
 * @param[in] seconds computation seconds per processor (nprocs) */
MINEX_API int minex_feedback_add(minex_feedback *feedback, const double *load,
                                 const double *seconds);
/** Per processor (each array nprocs, any may be NULL): capacity, slowdown
 * (>= 1, the fastest is 1), sd (standard deviation of the window's
 * capacities, 0 with fewer than 2), samples in the window. A processor
 * without samples gets the median capacity of those with samples.
 * @return MINEX_OK, MINEX_EINVAL (feedback NULL, no processor has a
 * sample, a slowdown or deviation that overflows) or MINEX_ENOMEM; on
 * error the arrays are unchanged.
 * @param[in] feedback the record
 * @param[out] capacity capacity per processor, or NULL
 * @param[out] slowdown slowdown per processor, or NULL
 * @param[out] sd deviation per processor, or NULL
 * @param[out] samples samples per processor, or NULL */
MINEX_API int minex_feedback_estimate(const minex_feedback *feedback,
                                      double *capacity, double *slowdown,
                                      double *sd, int32_t *samples);
/** A configuration with measured slowdowns. per_processor = 1: one cluster
 * per processor of base (Proc from its own capacity, Conn from base's
 * clusters, availability kept); 0: base's clusters, Proc_c from the median
 * capacity of the cluster's processors. base must have nprocs processors.
 * @return MINEX_OK, MINEX_EINVAL (NULL argument, base's processor count,
 * no processor has a sample), MINEX_ECONFIG (the measured slowdowns make
 * no valid configuration) or MINEX_ENOMEM. On error *out is NULL.
 * @param[in] feedback the record
 * @param[in] base the machine measured
 * @param[in] per_processor 1: one cluster per processor; 0: base's clusters
 * @param[out] out receives the configuration */
MINEX_API int minex_feedback_config(const minex_feedback *feedback,
                                    const minex_config *base, int per_processor,
                                    minex_config **out);

/* ------------------------------------------------------- initial layouts */

/** The starting partitions of minex_partition_initial. */
typedef enum minex_init_method {
  MINEX_INIT_BLOCK = 0, /**< contiguous id blocks of equal vertex count     */
  MINEX_INIT_BFS = 1    /**< breadth-first order from a pseudo-peripheral
                           vertex, cut in blocks of equal vertex count    */
} minex_init_method;

/** A simple starting partition into nparts (weights ignored: it stands for
 * the partition the mesh had before refinement). part has nvtxs entries.
 * @return MINEX_OK, MINEX_EINVAL (graph or part NULL, nparts < 1, unknown
 * method) or MINEX_ENOMEM (BFS); on error part is unchanged.
 * @param[in] graph the graph
 * @param[in] nparts number of parts, >= 1
 * @param[in] method the layout
 * @param[out] part receives the part per vertex (nvtxs) */
MINEX_API int minex_partition_initial(const minex_graph *graph, int32_t nparts,
                                      minex_init_method method, int32_t *part);

/** A partition from scratch of the graph onto the available processors of
 * config, balancing Pwgt against each processor's speed and cutting little
 * Cwgt: Scotch 7 maps the graph onto the clusters (targets their share of
 * the machine's speed), then each cluster's part onto its processors (the
 * from-scratch candidate of minex_repartition, with no old partition to
 * keep). Deterministic for a seed. part has nvtxs entries. @return
 * MINEX_OK, MINEX_EINVAL (NULL argument), MINEX_ENOPROC (no available
 * processor), MINEX_EUNSUP (more than 2^31 adjacency entries), MINEX_EINTERNAL
 * (Scotch failed, its message kept) or MINEX_ENOMEM; on error part is
 * unchanged.
 * @param[in] graph the graph
 * @param[in] config the machine
 * @param[in] seed random seed
 * @param[out] part receives the owner per vertex (nvtxs) */
MINEX_API int minex_partition_graph(const minex_graph *graph,
                                    const minex_config *config, uint64_t seed,
                                    int32_t *part);

/* ------------------------------------------------------------------- I/O */

/* All readers reject malformed input with MINEX_EPARSE / MINEX_EGRAPH /
 * MINEX_ECONFIG / MINEX_ESCHEMA and a message "path:line: what". All writers
 * write a temporary file next to the target and rename it, so a failure
 * never leaves a truncated file. */

/** METIS graph format; fmt digits "vsize vwgt ewgt" map to Rwgt, Pwgt, Cwgt
 * (a missing weight is 1). Multi-constraint vwgt (ncon > 1) is rejected.
 * Reading returns MINEX_OK, MINEX_EINVAL (NULL argument), MINEX_EIO,
 * MINEX_EPARSE (syntax, counts, ids, weights), MINEX_EUNSUP (ncon > 1),
 * MINEX_EGRAPH (self loop, duplicate or one-way edge, unequal ewgt) or
 * MINEX_ENOMEM; on error *out is NULL. Writing returns MINEX_OK,
 * MINEX_EINVAL (NULL argument, empty path), MINEX_EIO or MINEX_ENOMEM.
 * @param[in] path the file
 * @param[out] out receives the graph
 * @return See above. */
MINEX_API int minex_graph_read_metis(const char *path, minex_graph **out);
/** Writes graph in METIS format (see minex_graph_read_metis).
 * @param[in] graph the graph
 * @param[in] path the file
 * @return See minex_graph_read_metis. */
MINEX_API int minex_graph_write_metis(const minex_graph *graph,
                                      const char *path);

/** Partition file: one processor id per line (METIS .part). Reading checks
 * there are exactly nvtxs ids, each in [0, nparts) (nparts <= 0: in
 * [0, MINEX_NPROCS_MAX)). *part_out is malloc'ed; free() it. Errors:
 * MINEX_EINVAL, MINEX_EIO, MINEX_EPARSE (not one decimal integer per line,
 * a NUL byte), MINEX_EPART (count or range, naming the line), MINEX_ENOMEM;
 * *part_out is NULL on failure.
 * @param[in] path the file
 * @param[in] nvtxs ids expected
 * @param[in] nparts bound of the ids, or <= 0
 * @param[out] part_out receives the malloc'ed ids
 * @return MINEX_OK or an error code above. */
MINEX_API int minex_part_read(const char *path, int32_t nvtxs, int32_t nparts,
                              int32_t **part_out);
/** Writes a partition file, one id per line.
 * @return MINEX_OK, MINEX_EINVAL (NULL argument, nvtxs < 0, empty path),
 * MINEX_EPART (a negative id, naming it), MINEX_EIO or MINEX_ENOMEM.
 * @param[in] path the file
 * @param[in] nvtxs number of ids
 * @param[in] part the nvtxs ids */
MINEX_API int minex_part_write(const char *path, int32_t nvtxs,
                               const int32_t *part);

/** Configuration XML, validated against the schema minex-config.xsd, which
 * is compiled into the library (a readable $MINEX_SCHEMA_DIR/minex-config.xsd
 * replaces it). Loading returns MINEX_OK, MINEX_EINVAL (NULL argument),
 * MINEX_EIO (file, or an overriding schema, unreadable), MINEX_EPARSE
 * (malformed XML), MINEX_ESCHEMA, MINEX_ECONFIG (unknown or duplicate
 * cluster, bad slowdown, contradicting or missing link, limits, unavailable
 * processor >= P), MINEX_ENOMEM or MINEX_EINTERNAL (libxml2 failed inside
 * the validation); on error *out is NULL. Saving returns MINEX_OK,
 * MINEX_EINVAL (NULL argument, empty path), MINEX_EIO or MINEX_ENOMEM.
 * @param[in] path the XML file
 * @param[out] out receives the configuration
 * @return See above. */
MINEX_API int minex_config_load(const char *path, minex_config **out);
/** Saves config as configuration XML (see minex_config_load).
 * @param[in] config the configuration
 * @param[in] path the XML file
 * @return See minex_config_load. */
MINEX_API int minex_config_save(const minex_config *config, const char *path);
/** Path of the schema file that replaces the built-in one
 * ($MINEX_SCHEMA_DIR/minex-config.xsd when readable; minex_config_load
 * fails with MINEX_EIO when it is not a valid schema), or NULL when the
 * loader uses the built-in copy (the usual case).
 * @return The path, or NULL. */
MINEX_API const char *minex_config_schema_path(void);

/* ----------------------------------------------------------------- meshes */

/** An unstructured mesh: tetrahedra, hexahedra, prisms and pyramids (3D),
 * or triangles and quadrilaterals (2D), of one kind or mixed (one
 * dimension per mesh). Only corner nodes are kept (a second- or
 * higher-order element is stored by its corners, which decide adjacency).
 * Opaque. */
typedef struct minex_mesh minex_mesh;

/** Element kinds; the values of quadrilaterals, hexahedra, prisms and
 * pyramids are VTK's cell types, those of triangles (3) and tetrahedra (4)
 * are not (VTK_TRIANGLE is 5, VTK_TETRA 10). Corner nodes are in VTK's order
 * (VTK_TETRA, VTK_HEXAHEDRON, VTK_WEDGE, VTK_PYRAMID, VTK_TRIANGLE, VTK_QUAD),
 * the order of minex_mesh_create's elems, of every mesh read and of
 * minex_mesh_write_vtk. An element of positive volume has: a
 * tetrahedron's triangle 0-2 counter-clockwise seen from node 3; a
 * hexahedron's face 0-3 counter-clockwise seen from the opposite face
 * 4-7, node 4+i above node i; a pyramid's base 0-3 counter-clockwise seen
 * from its apex 4; a prism's triangle 0-2 clockwise seen from the
 * opposite triangle 3-5 (the normal of 0-2 by the right-hand rule points
 * away from 3-5), node 3+i above node i; a triangle's or quadrilateral's
 * corners counter-clockwise in the x-y plane. Gmsh's and MEDIT's prisms
 * and VTK's Lagrange wedges have triangle 0-2 counter-clockwise seen from
 * 3-5: the readers swap their corners 1, 2 and 4, 5; every other element
 * (VTK's linear and quadratic wedges too) is read in the file's order. */
typedef enum minex_elem_type {
  MINEX_ELEM_MIXED = 1,    /**< minex_mesh_elem_type of a mesh of >1 kind  */
  MINEX_ELEM_TRIANGLE = 3, /**< 3 nodes; 2D dual joins elements by edge    */
  MINEX_ELEM_TETRA = 4,    /**< 4 nodes; 3D dual joins elements by face    */
  MINEX_ELEM_QUAD = 9,     /**< 4 nodes (2D)                               */
  MINEX_ELEM_HEXA = 12,    /**< 8 nodes                                    */
  MINEX_ELEM_PRISM = 13,   /**< 6 nodes (wedge)                            */
  MINEX_ELEM_PYRAMID = 14  /**< 5 nodes                                    */
} minex_elem_type;

/** Corner nodes of an element kind (3, 4, 4, 8, 6, 5); 0 for any other
 * value (MINEX_ELEM_MIXED included).
 * @param[in] type the element kind
 * @return The corner count. */
MINEX_API int minex_elem_nnodes(minex_elem_type type);
/** 3 for tetrahedra, hexahedra, prisms and pyramids, 2 for triangles and
 * quadrilaterals, 0 for any other value.
 * @param[in] type the element kind
 * @return The dimension. */
MINEX_API int minex_elem_dim(minex_elem_type type);
/** "tetrahedron", "hexahedron", ...; "unknown" for any other value.
 * @param[in] type the element kind
 * @return A static string. */
MINEX_API const char *minex_elem_name(minex_elem_type type);

/** Reads a mesh file, its format chosen by content: MEDIT .mesh and .meshb,
 * Gmsh .msh
 * (versions 2 and 4.1, ASCII or binary; 4.0 ASCII), VTK legacy .vtk
 * (ASCII or binary unstructured grid), VTK XML .vtu (ASCII, base64 or raw
 * appended data, zlib-compressed or not). The elements of the highest
 * dimension in the file are kept, every kind of it (a mixed mesh), in
 * file order: element i of the mesh is the i-th volume (or, in a 2D file,
 * surface) element of the file. Lower-dimensional elements (boundary
 * faces, lines, points) are ignored and counted (minex_mesh_ignored). An
 * element type the reader does not know or cannot use (polygons,
 * polyhedra, Gmsh's order-0 or sub-elements) is an error, never dropped.
 * A partition stored in the file (Gmsh v2 partition tags or 4.1
 * partitioned entities; an integer cell array "partition" of a VTK file,
 * as minex_mesh_write_vtk writes) is kept (minex_mesh_file_partition).
 * Errors: MINEX_EINVAL (NULL argument), MINEX_EIO, MINEX_EPARSE (message
 * "path:line: what"), MINEX_EUNSUP, MINEX_ENOMEM; *out is NULL on failure.
 * @param[in] path the mesh file
 * @param[out] out receives the mesh
 * @return See above. */
MINEX_API int minex_mesh_read(const char *path, minex_mesh **out);
/** minex_mesh_read keeping only the elements of one kind (a
 * minex_elem_type other than MINEX_ELEM_MIXED) and dropping every other
 * one knowingly (they count as ignored); MINEX_EPARSE when the file has
 * none of it. 0 is minex_mesh_read. Other values: MINEX_EINVAL. Otherwise
 * the codes of minex_mesh_read; on error *out is NULL.
 * @param[in] path the mesh file
 * @param[in] kind the minex_elem_type to keep, or 0
 * @param[out] out receives the mesh
 * @return See above. */
MINEX_API int minex_mesh_read_kind(const char *path, int kind,
                                   minex_mesh **out);
/** nodes: nnodes*3 coordinates; elems: nelems*n node ids (0-based), n =
 * minex_elem_nnodes(type), type not MINEX_ELEM_MIXED.
 * @return MINEX_OK, MINEX_EINVAL (out or an array NULL, a count < 0, an
 * unknown type, a node id out of range or repeated in an element, a
 * coordinate not finite; naming it) or MINEX_ENOMEM. On error *out is
 * NULL.
 * @param[in] nnodes number of nodes
 * @param[in] coords nnodes * 3 coordinates
 * @param[in] nelems number of elements
 * @param[in] type the kind of every element
 * @param[in] elems nelems * minex_elem_nnodes(type) node ids
 * @param[out] out receives the mesh */
MINEX_API int minex_mesh_create(int32_t nnodes, const double *coords,
                                int32_t nelems, minex_elem_type type,
                                const int32_t *elems, minex_mesh **out);
/** A mesh of several kinds: types[e] is element e's kind, elems holds the
 * elements' corner nodes one after the other (minex_elem_nnodes(types[e])
 * each). All kinds of one dimension. Errors as minex_mesh_create, and
 * MINEX_EINVAL for kinds of two dimensions.
 * @param[in] nnodes number of nodes
 * @param[in] coords nnodes * 3 coordinates
 * @param[in] nelems number of elements
 * @param[in] types kind per element (nelems)
 * @param[in] elems the elements' corner nodes
 * @param[out] out receives the mesh
 * @return The codes of minex_mesh_create. */
MINEX_API int minex_mesh_create_mixed(int32_t nnodes, const double *coords,
                                      int32_t nelems,
                                      const minex_elem_type *types,
                                      const int32_t *elems, minex_mesh **out);
/** Frees the mesh; NULL is a no-op.
 * @param[in] mesh the mesh, or NULL */
MINEX_API void minex_mesh_destroy(minex_mesh *mesh);
/** Accessors; the arrays belong to the mesh. minex_mesh_elem_type is the
 * kind of every element or MINEX_ELEM_MIXED; minex_mesh_elems holds the
 * corner nodes of all elements one after the other.
 * @param[in] mesh the mesh
 * @return The number of nodes. */
MINEX_API int32_t minex_mesh_nnodes(const minex_mesh *mesh);
/** Number of elements.
 * @param[in] mesh the mesh
 * @return The number of elements. */
MINEX_API int32_t minex_mesh_nelems(const minex_mesh *mesh);
/** Kind of every element, or MINEX_ELEM_MIXED.
 * @param[in] mesh the mesh
 * @return The kind. */
MINEX_API minex_elem_type minex_mesh_elem_type(const minex_mesh *mesh);
/** Node coordinates, nnodes * 3 (x, y, z).
 * @param[in] mesh the mesh
 * @return The array, owned by the mesh. */
MINEX_API const double *minex_mesh_coords(const minex_mesh *mesh);
/** Corner nodes of all elements, one after the other.
 * @param[in] mesh the mesh
 * @return The array, owned by the mesh. */
MINEX_API const int32_t *minex_mesh_elems(const minex_mesh *mesh);
/** Element centroid (mean of its corners), xyz[3].
 * @param[in] mesh the mesh
 * @param[in] elem element index
 * @param[out] xyz receives the centroid */
MINEX_API void minex_mesh_centroid(const minex_mesh *mesh, int32_t elem,
                                   double xyz[3]);
/** Kind of element elem (MINEX_ELEM_MIXED when out of range).
 * @param[in] mesh the mesh
 * @param[in] elem element index
 * @return The kind. */
MINEX_API minex_elem_type minex_mesh_elem_kind(const minex_mesh *mesh,
                                               int32_t elem);
/** Corner nodes of element elem; *nnodes (may be NULL) receives their
 * count. NULL (and 0) when elem is out of range.
 * @param[in] mesh the mesh
 * @param[in] elem element index
 * @param[out] nnodes receives the count, or NULL
 * @return The node ids, owned by the mesh, or NULL. */
MINEX_API const int32_t *minex_mesh_elem_nodes(const minex_mesh *mesh,
                                               int32_t elem, int *nnodes);
/** Elements of the file the reader ignored: lower-dimensional elements
 * (boundary faces, lines, points) and, with minex_mesh_read_kind, those
 * of the other kinds. 0 for a mesh not read from a file.
 * @param[in] mesh the mesh
 * @return The count. */
MINEX_API int64_t minex_mesh_ignored(const minex_mesh *mesh);
/** The partition stored in the file (0-based part per element), or NULL
 * when the file holds none.
 * @param[in] mesh the mesh
 * @return The array, owned by the mesh, or NULL. */
MINEX_API const int32_t *minex_mesh_file_partition(const minex_mesh *mesh);
/** Dual graph: elements sharing a face (3D: a triangle face meets only a
 * triangle face, a quadrilateral face a quadrilateral face) or an edge
 * (2D). pwgt, rwgt (per element) and cwgt_fn may be NULL (weights 1); when
 * cwgt_fn is set, each edge's Cwgt is cwgt_fn(e1, e2, ctx), e1 < e2.
 * Returns MINEX_OK, MINEX_EINVAL (mesh or out NULL), MINEX_EPARSE (two
 * elements with the same nodes, a face or edge shared by three elements),
 * MINEX_EGRAPH (a weight or cwgt_fn value not finite and >= 0) or
 * MINEX_ENOMEM. On error *out is NULL. */
typedef double (*minex_cwgt_fn)(int32_t e1, int32_t e2, void *ctx);
/** Dual graph of mesh (see minex_cwgt_fn for the rule and the codes).
 * @param[in] mesh the mesh
 * @param[in] pwgt Pwgt per element, or NULL
 * @param[in] rwgt Rwgt per element, or NULL
 * @param[in] cwgt_fn Cwgt per edge, or NULL
 * @param[in] cwgt_ctx passed to cwgt_fn
 * @param[out] out receives the graph
 * @return The codes given at minex_cwgt_fn. */
MINEX_API int minex_mesh_dual(const minex_mesh *mesh, const double *pwgt,
                              const double *rwgt, minex_cwgt_fn cwgt_fn,
                              void *cwgt_ctx, minex_graph **out);
/** minex_mesh_dual with METIS's ncommon (mpmetis -ncommon): ncommon >= 1
 * joins elements sharing at least ncommon corner nodes (no face test, no
 * non-manifold check); 0 is minex_mesh_dual's face (edge) rule. @return
 * the codes of minex_mesh_dual, and MINEX_EINVAL for ncommon < 0.
 * @param[in] mesh the mesh
 * @param[in] ncommon shared corners that join two elements, or 0
 * @param[in] pwgt Pwgt per element, or NULL
 * @param[in] rwgt Rwgt per element, or NULL
 * @param[in] cwgt_fn Cwgt per edge, or NULL
 * @param[in] cwgt_ctx passed to cwgt_fn
 * @param[out] out receives the graph */
MINEX_API int minex_mesh_dual_ncommon(const minex_mesh *mesh, int ncommon,
                                      const double *pwgt, const double *rwgt,
                                      minex_cwgt_fn cwgt_fn, void *cwgt_ctx,
                                      minex_graph **out);

/** Recursive coordinate bisection of element centroids into nparts parts of
 * equal element count (weights ignored). part has nelems entries.
 * @return MINEX_OK, MINEX_EINVAL (NULL argument, nparts < 1) or
 * MINEX_ENOMEM; on error part is unchanged.
 * @param[in] mesh the mesh
 * @param[in] nparts number of parts, >= 1
 * @param[out] part receives the part per element */
MINEX_API int minex_mesh_partition_rcb(const minex_mesh *mesh, int32_t nparts,
                                       int32_t *part);

/** The cut of minex_mesh_partition_geom. */
typedef enum minex_geom_method {
  MINEX_GEOM_RCB = 0, /**< cut across the longest extent of the centroids   */
  MINEX_GEOM_RIB = 1  /**< cut across the principal axis of inertia        */
} minex_geom_method;
/** Weighted recursive bisection of element centroids (any element kind).
 * wgt (nelems, finite, >= 0; NULL: 1 each) is the weight to balance,
 * target (nparts, finite, >= 0 with a positive sum; NULL: equal) the
 * parts' shares, e.g. the speed 1/Proc of a heterogeneous machine's
 * processors (0 for an unavailable one, which gets nothing): each bisection
 * splits parts [p0, p0+k) into the first k/2 and the rest, by weight in
 * proportion to their targets. Parts that are neighbours in numbering end
 * up neighbours in space, so a cluster's consecutive processors get one
 * region. With wgt and target NULL and method RCB the result is
 * minex_mesh_partition_rcb's. @return MINEX_OK, MINEX_EINVAL (NULL mesh or
 * part, nparts < 1, unknown method, a weight or target out of range,
 * naming it) or MINEX_ENOMEM; on error part is unchanged.
 * @param[in] mesh the mesh
 * @param[in] nparts number of parts, >= 1
 * @param[in] method RCB or RIB
 * @param[in] wgt weight per element, or NULL
 * @param[in] target share per part, or NULL
 * @param[out] part receives the part per element */
MINEX_API int minex_mesh_partition_geom(const minex_mesh *mesh, int32_t nparts,
                                        minex_geom_method method,
                                        const double *wgt, const double *target,
                                        int32_t *part);

/** VTK legacy unstructured grid (ParaView), every element kind, with cell
 * data: partition (new), old, moved (0/1), pwgt, rwgt. Any of
 * old/new/graph may be NULL. Written
 * atomically. @return MINEX_OK, MINEX_EINVAL (mesh or path NULL, empty
 * path, graph's vertex count not the mesh's element count), MINEX_EIO or
 * MINEX_ENOMEM; on error no file is left behind.
 * @param[in] mesh the mesh
 * @param[in] graph its dual graph (the weights written), or NULL
 * @param[in] old old part per element, or NULL
 * @param[in] new_part new part per element, or NULL
 * @param[in] path the file */
MINEX_API int minex_mesh_write_vtk(const minex_mesh *mesh,
                                   const minex_graph *graph, const int32_t *old,
                                   const int32_t *new_part, const char *path);

/** Reads the per-element field name of path, the file mesh was read from
 * (same file, same kind selection), into values (one per element of
 * mesh): Gmsh ASCII $ElementData (the first view whose first string tag
 * is name, one component, values by element tag), VTK legacy CELL_DATA
 * (SCALARS or FIELD array name, one component) or VTK XML CellData
 * (DataArray Name=name, one component), by cell index. Returns MINEX_OK,
 * MINEX_EINVAL (a NULL argument, a file that does not match the mesh),
 * MINEX_EPARSE (no such field, more than one component, an element
 * without a value, a value not finite; naming the file and field),
 * MINEX_EUNSUP (binary Gmsh, MEDIT: no named fields), MINEX_EIO or
 * MINEX_ENOMEM.
 * @param[in] mesh the mesh read from path
 * @param[in] path the mesh file
 * @param[in] name the field's name
 * @param[out] values one value per element of mesh
 * @return MINEX_OK or the error code. */
MINEX_API int minex_mesh_read_field(const minex_mesh *mesh, const char *path,
                                    const char *name, double *values);

/** Writes mesh as Gmsh MSH 4.1 ASCII, every element kind. With new_part, each
 * part is a partitioned entity ($PartitionedEntities, no ghosts), so Gmsh shows
 * the parts (its partition tags are the part ids + 1), and the element
 * views ($ElementData) "partition" (new_part), "old" and "moved" (0/1)
 * hold the ids as the partition files do. Element tags are the mesh's
 * element numbers + 1, node tags its node numbers + 1; the elements go
 * part after part (kind after kind within a part: tetrahedra, hexahedra,
 * prisms, pyramids, triangles, quadrilaterals). Either partition may be NULL.
 * Written atomically. Returns MINEX_OK, MINEX_EINVAL (mesh or path NULL, empty
 * path, no elements, a negative part id, naming the element), MINEX_EIO or
 * MINEX_ENOMEM; on error no file is left behind.
 * @param[in] mesh the mesh
 * @param[in] old old part per element, or NULL
 * @param[in] new_part new part per element, or NULL
 * @param[in] path the file
 * @return MINEX_OK or the error code. */
MINEX_API int minex_mesh_write_gmsh(const minex_mesh *mesh, const int32_t *old,
                                    const int32_t *new_part, const char *path);

/* ------------------------------------------------------------- generator */

/** Structured tetrahedral box (each of nx*ny*nz cubes cut into 6 tetrahedra,
 * the Kuhn subdivision) over the unit cube. @return MINEX_OK, MINEX_EINVAL
 * (out NULL, a count < 1, more than 2^31 - 1 elements or nodes) or
 * MINEX_ENOMEM. On error *out is NULL.
 * @param[in] nx cubes along x
 * @param[in] ny cubes along y
 * @param[in] nz cubes along z
 * @param[out] out receives the mesh */
MINEX_API int minex_gen_box(int32_t nx, int32_t ny, int32_t nz,
                            minex_mesh **out);

/** Refinement weights in a ball (SPEC data/cases convention): elements whose
 * centroid lies within radius of center get Pwgt = factor, Rwgt = factor + 1;
 * others 1 and 1; an edge with a refined end gets Cwgt = cwgt_refined (else
 * 1). Fills pwgt, rwgt (nelems each); returns the refined count in
 * *nrefined (may be NULL). Returns MINEX_OK or MINEX_EINVAL (NULL
 * argument, a ball value not finite or < 0); on error nothing is
 * written. */
typedef struct minex_ball {
  double center[3];    /**< ball centre, mesh coordinates                */
  double radius;       /**< ball radius                                  */
  double factor;       /**< Pwgt inside (e.g. 8 for one 1:8 refinement)  */
  double cwgt_refined; /**< Cwgt of an edge with a refined end (e.g. 4)  */
} minex_ball;
/** Fills the ball's weights (see minex_ball).
 * @param[in] mesh the mesh
 * @param[in] ball the refined ball
 * @param[out] pwgt receives Pwgt per element
 * @param[out] rwgt receives Rwgt per element
 * @param[out] nrefined receives the refined count, or NULL
 * @return MINEX_OK or MINEX_EINVAL. */
MINEX_API int minex_ball_weights(const minex_mesh *mesh, const minex_ball *ball,
                                 double *pwgt, double *rwgt, int32_t *nrefined);
/** Dual graph of mesh weighted by ball (NULL: all weights 1). @return the
 * codes of minex_ball_weights and minex_mesh_dual; on error *out is NULL.
 * @param[in] mesh the mesh
 * @param[in] ball the refined ball, or NULL
 * @param[out] out receives the graph */
MINEX_API int minex_mesh_dual_ball(const minex_mesh *mesh,
                                   const minex_ball *ball, minex_graph **out);

#ifdef __cplusplus
}
#endif
#endif /* MINEX_H */
