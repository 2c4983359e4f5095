/* SPDX-License-Identifier: GPL-3.0-or-later */
/** @file
 * MinEX resource model: DRUM-style machine model, Linux monitors, LU
 * benchmark, and the slowdowns they give the cost model (SPEC §4).
 *
 * A machine model is a tree (Faik's thesis, ch. 3; Teresco, Faik, Flaherty
 * 2005): network nodes (routers, switches) inside, computing nodes (single
 * CPU or SMP) at the leaves. Each node but the root has a link to its
 * parent with a capacity (Mbit/s) and optionally a latency. Computing
 * nodes carry a benchmark rate b_n (MFLOPS), m CPUs and k_n application
 * processes, and, once monitored, the processes' CPU use and the CPUs'
 * idle time. From these the library derives DRUM's node powers and the
 * MinEX slowdowns Proc_c and Conn(c,d): one cluster per computing node that
 * runs application processes, in the order of the model's nodes. */
#ifndef MINEX_DRUM_H
#define MINEX_DRUM_H

#include "minex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ the model */

/** A machine model: a tree of network and computing nodes. Opaque. */
typedef struct minex_drum_model minex_drum_model;

/** Kind of a node of the model. */
typedef enum minex_drum_node_type {
  MINEX_DRUM_NETWORK = 0,  /**< router or switch: an inner node           */
  MINEX_DRUM_COMPUTING = 1 /**< single- or multi-processor computing node */
} minex_drum_node_type;

/** Dialect of a machine-model XML file. */
typedef enum minex_drum_dialect {
  MINEX_DRUM_DIALECT_THESIS = 0,  /**< <node type="NETWORK_NODE" childrenNum=
                                     children="1;2;" ...> (Faik Fig. 3.5) */
  MINEX_DRUM_DIALECT_DRUMHEAD = 1 /**< <node type="SINGLE_COMPUTING"
                                     nodenum= parent= ...> (CiSE Fig. 7)  */
} minex_drum_dialect;

/** One node as the application sees it. Strings belong to the model. */
typedef struct minex_drum_node {
  minex_drum_node_type type; /**< network or computing node             */
  int32_t parent;      /**< index of the parent node, -1 at the root       */
  const char *name;    /**< name (host name), "" if none                   */
  const char *address; /**< IP address or description, "" if none         */
  int32_t file_id;     /**< the node's number in the file (nodenum/name)   */
  int monitorable;     /**< the file's isMonitorable flag                  */
  /* link to the parent (ignored at the root) */
  double capacity; /**< C_i, Mbit/s; 0: unknown                        */
  double latency;  /**< seconds; 0: none                               */
  double traffic;  /**< measured rx+tx rate on the link, Mbit/s        */
  /* computing nodes */
  double benchmark; /**< b_n, MFLOPS; 0: unknown                        */
  int32_t ncpus;    /**< m, CPUs of the node (>= 1)                     */
  int32_t nprocs;   /**< k_n, application processes on the node (>= 0) */
  int measured;     /**< 1: cpu_use and idle below were measured        */
  double cpu_use;   /**< sum_j u_{n,j}: CPUs used by the k_n processes  */
  double idle;      /**< sum_t i_t: idle CPUs (0..m)                    */
  /* derived by minex_drum_compute_powers */
  double proc_power; /**< p_n: k_n b_n (u + i) at a leaf, sum of children */
  double comm_power; /**< c_n: available bandwidth, sum of children      */
  double power;      /**< power_n, the root's is 1                        */
  double rate;       /**< b_n (u + i): effective rate of one process     */
} minex_drum_node;

/** Empty model; add nodes parents first. @return MINEX_OK, MINEX_EINVAL
 * (out NULL) or MINEX_ENOMEM. On error *out is NULL.
 * @param[out] out receives the model */
MINEX_API int minex_drum_model_create(minex_drum_model **out);
/** Frees the model; NULL is a no-op.
 * @param[in] model the model, or NULL */
MINEX_API void minex_drum_model_destroy(minex_drum_model *model);
/** Adds a node (parent -1 for the root, which must come first and be the
 * only one) and returns its index in *index (may be NULL). A computing
 * node starts with ncpus = nprocs = 1, benchmark 0 (unknown).
 * @return MINEX_OK, MINEX_EINVAL (model NULL, unknown type, a root that is
 * not first or not alone, a parent out of range or computing, too many
 * nodes) or MINEX_ENOMEM; on error the model and *index are unchanged. In
 * a MINEX_CHECKS build also MINEX_EINTERNAL (the model failed its check
 * after the node was added: the node and *index are there).
 * @param[in,out] model the model
 * @param[in] type network or computing node
 * @param[in] parent index of the parent, -1 for the root
 * @param[in] name host name, or NULL
 * @param[out] index receives the new node's index, or NULL */
MINEX_API int minex_drum_add_node(minex_drum_model *model,
                                  minex_drum_node_type type, int32_t parent,
                                  const char *name, int32_t *index);
/** Number of nodes of the model (0 for NULL).
 * @param[in] model the model
 * @return The count. */
MINEX_API int32_t minex_drum_nnodes(const minex_drum_model *model);
/** Node i, or NULL when out of range. The pointer is valid until the next
 * call that changes the model.
 * @param[in] model the model
 * @param[in] i node index
 * @return The node, or NULL. */
MINEX_API const minex_drum_node *minex_drum_get(const minex_drum_model *model,
                                                int32_t i);
/** Index of the node with this name or address, or -1.
 * @param[in] model the model
 * @param[in] name name or address
 * @return The index, or -1. */
MINEX_API int32_t minex_drum_find(const minex_drum_model *model,
                                  const char *name);
/** Setters; each checks its arguments (model not NULL, node in range and,
 * but for set_link and set_traffic, computing; values finite and >= 0,
 * ncpus in [1, MINEX_NPROCS_MAX], nprocs in [0, MINEX_NPROCS_MAX]) and
 * returns MINEX_OK or MINEX_EINVAL naming the one at fault; on error the
 * node is unchanged.
 * @param[in,out] model the model
 * @param[in] node node index
 * @param[in] capacity_mbps link capacity, Mbit/s
 * @param[in] latency_s link latency, s
 * @return MINEX_OK or MINEX_EINVAL. */
MINEX_API int minex_drum_set_link(minex_drum_model *model, int32_t node,
                                  double capacity_mbps, double latency_s);
/** Benchmark rate b_n of a computing node, MFLOPS (see the setters).
 * @param[in,out] model the model
 * @param[in] node node index
 * @param[in] mflops the rate
 * @return MINEX_OK or MINEX_EINVAL. */
MINEX_API int minex_drum_set_benchmark(minex_drum_model *model, int32_t node,
                                       double mflops);
/** CPUs m and application processes k_n of a computing node.
 * @param[in,out] model the model
 * @param[in] node node index
 * @param[in] ncpus CPUs m
 * @param[in] nprocs application processes k_n
 * @return MINEX_OK or MINEX_EINVAL. */
MINEX_API int minex_drum_set_cpus(minex_drum_model *model, int32_t node,
                                  int32_t ncpus, int32_t nprocs);
/** Dynamic state of a computing node (the monitors' reading): cpu_use =
 * sum of the application processes' CPU shares, idle = sum of the CPUs'
 * idle fractions, traffic = rx+tx rate on its link in Mbit/s.
 * @param[in,out] model the model
 * @param[in] node node index
 * @param[in] cpu_use CPUs used by the processes
 * @param[in] idle idle CPUs
 * @param[in] traffic_mbps link traffic, Mbit/s
 * @return MINEX_OK or MINEX_EINVAL. */
MINEX_API int minex_drum_set_measured(minex_drum_model *model, int32_t node,
                                      double cpu_use, double idle,
                                      double traffic_mbps);
/** Traffic on the link of any node (network nodes included), Mbit/s.
 * @param[in,out] model the model
 * @param[in] node node index
 * @param[in] traffic_mbps link traffic, Mbit/s
 * @return MINEX_OK or MINEX_EINVAL. */
MINEX_API int minex_drum_set_traffic(minex_drum_model *model, int32_t node,
                                     double traffic_mbps);

/** Reads either dialect (detected from the node types), attribute names
 * case-insensitive. Errors (MINEX_EPARSE, MINEX_ECONFIG) name the file and
 * line: malformed XML, unknown node types, missing or duplicate node
 * numbers, a childrenNum that disagrees with children, a child or parent
 * that does not exist, a node with two parents, cycles, no or several
 * roots, a computing node with children, negative or non-numeric values.
 * @return MINEX_OK, MINEX_EINVAL (NULL argument), MINEX_EIO, MINEX_EPARSE,
 * MINEX_ECONFIG, MINEX_ENOMEM or, in a MINEX_CHECKS build,
 * MINEX_EINTERNAL. On error *out is NULL.
 * @param[in] path the XML file
 * @param[out] out receives the model */
MINEX_API int minex_drum_model_load(const char *path, minex_drum_model **out);
/** Writes the model atomically (temporary file, then rename), in the chosen
 * dialect, with benchmark, CPU counts, link capacities and, for measured
 * nodes, the measurements, so that load(save(m)) == m. @return MINEX_OK,
 * MINEX_EINVAL (NULL argument, empty path, unknown dialect, a model
 * without nodes, a name or address that cannot be written), MINEX_EIO or
 * MINEX_ENOMEM; on error no file is left behind.
 * @param[in] model the model
 * @param[in] path the XML file
 * @param[in] dialect the dialect written */
MINEX_API int minex_drum_model_save(const minex_drum_model *model,
                                    const char *path,
                                    minex_drum_dialect dialect);

/* ------------------------------------------------- powers and slowdowns */

/** How minex_drum_compute_powers weighs the model; minex_drum_options_init
 * fills the defaults. */
typedef struct minex_drum_options {
  double w_comm;        /**< weight of communication power in [0,1]
                           (w_cpu = 1 - w_comm); default 0               */
  double min_available; /**< floor of the available bandwidth, as a share
                           of the capacity (default 0.01): a saturated
                           link stays usable but very slow               */
  double latency_bytes; /**< > 0: Conn includes latency for messages of
                           this many bytes: Conn = B_ref/B +
                           L * B_ref / (8 * bytes * 1e-6) (L in s, B in
                           Mbit/s); 0 (default): bandwidth only           */
  double intra_conn;    /**< Conn(c,c) of processes on one node (shared
                           memory); default 1                            */
} minex_drum_options;

/** Fills the defaults above.
 * @param[out] options the options to fill */
MINEX_API void minex_drum_options_init(minex_drum_options *options);

/** DRUM powers (Faik §3.1.2): p_n and c_n at the leaves, sums inside, and
 * power_n = pp_n (w_comm c_n / sum_siblings c + w_cpu p_n / sum_siblings p),
 * root 1. Without measurements a process gets u + i = 1 (dedicated).
 * Results are stored in the nodes (proc_power, comm_power, power, rate).
 * options may be NULL (defaults). @return MINEX_OK, MINEX_EINVAL (model
 * NULL, an option out of range), MINEX_ECONFIG (no nodes, no computing
 * node, a benchmark rating on some computing nodes but not all) or
 * MINEX_ENOMEM; on error the nodes are unchanged.
 * @param[in,out] model the model
 * @param[in] options the options, or NULL */
MINEX_API int minex_drum_compute_powers(minex_drum_model *model,
                                        const minex_drum_options *options);
/** MinEX configuration from the model (computes the powers first): one
 * cluster per computing node with nprocs > 0, in node order, n_c = k_n,
 * Proc_c = max r / r_c, Conn(c,d) = B_ref / B(c,d) with B(c,d) the smallest
 * available bandwidth on the tree path and B_ref the largest B over pairs
 * of distinct clusters. cluster_node (may be NULL; length >= the number of
 * computing nodes) receives the model node of each cluster.
 * @return the codes of minex_drum_compute_powers, MINEX_EINVAL (out NULL),
 * MINEX_ECONFIG (no computing node runs a process, more than
 * MINEX_NCLUSTERS_MAX such nodes or MINEX_NPROCS_MAX processes, a node
 * without processing power) or
 * MINEX_ENOMEM. On error *out is NULL and cluster_node unchanged; the
 * nodes' powers are already computed when a later step fails.
 * @param[in,out] model the model (its powers are computed)
 * @param[in] options the options, or NULL
 * @param[out] out receives the configuration
 * @param[out] cluster_node receives the model node of each cluster, or NULL */
MINEX_API int minex_drum_config(minex_drum_model *model,
                                const minex_drum_options *options,
                                minex_config **out, int32_t *cluster_node);

/* --------------------------------------------------------- the monitors */

/** One node's readings over a monitoring period (Faik §3.1.1, app. A). */
typedef struct minex_drum_sample {
  double seconds;       /**< length of the period                          */
  int32_t ncpus;        /**< CPUs the process may run on (affinity), m     */
  int32_t ncpus_online; /**< CPUs listed in /proc/stat                     */
  double cpu_use;       /**< CPUs used by this process (utime+stime per
                           second), the monitor thread's own time removed */
  double idle;          /**< sum over the process's CPUs of idle fraction   */
  double idle_all;      /**< the same over all CPUs                        */
  double rx_mbps;       /**< received, Mbit/s, all non-loopback interfaces  */
  double tx_mbps;       /**< sent, Mbit/s                                  */
  double capacity_mbps; /**< sum of /sys/class/net/IF/speed over them
                           (0: unknown)                                  */
  double mem_total_mib; /**< /proc/meminfo MemTotal                        */
  double mem_available_mib; /**< MemAvailable                               */
  double loadavg[3]; /**< /proc/loadavg 1, 5, 15 minutes                */
  int32_t nsamples;  /**< periodic samples taken                        */
  double cpu_use_sd; /**< standard deviation of cpu_use over the samples */
  double idle_sd;    /**< ... and of idle                               */
} minex_drum_sample;

/** A monitor of this process's node (Linux /proc and /sys). Opaque. */
typedef struct minex_drum_monitor minex_drum_monitor;

/** A monitor of this process. root: file-system root under which proc/ and
 * sys/ are read ("/" or NULL for the live system; a directory of recorded
 * files in tests). frequency: samples per second, in [1e-6, 1000].
 * @return MINEX_OK, MINEX_EINVAL (out NULL, frequency out of range) or
 * MINEX_ENOMEM. On error *out is NULL.
 * @param[in] root file-system root, or NULL
 * @param[in] frequency samples per second
 * @param[out] out receives the monitor */
MINEX_API int minex_drum_monitor_create(const char *root, double frequency,
                                        minex_drum_monitor **out);
/** Starts the background thread (takes the first snapshot). @return
 * MINEX_OK, MINEX_EINVAL (monitor NULL or running), MINEX_EIO or
 * MINEX_EPARSE (the files under root), MINEX_ENOMEM (also: no resources
 * for the thread) or MINEX_EIO (the thread cannot be created otherwise);
 * on error the monitor is left not started.
 * @param[in,out] monitor the monitor */
MINEX_API int minex_drum_monitor_start(minex_drum_monitor *monitor);
/** Readings from start until now (or until stop). Works while running.
 * @return MINEX_OK, MINEX_EINVAL (NULL argument, never started),
 * MINEX_EIO, MINEX_EPARSE or MINEX_ENOMEM (reading the files now); on
 * error *sample is unchanged.
 * @param[in,out] monitor the monitor
 * @param[out] sample receives the readings */
MINEX_API int minex_drum_monitor_read(minex_drum_monitor *monitor,
                                      minex_drum_sample *sample);
/** Stops and joins the thread (takes a last snapshot). @return MINEX_OK
 * (also when not running), MINEX_EINVAL (monitor NULL) or the first error
 * the thread met (MINEX_EIO, MINEX_EPARSE, MINEX_ENOMEM, its message
 * kept); the thread is stopped either way.
 * @param[in,out] monitor the monitor */
MINEX_API int minex_drum_monitor_stop(minex_drum_monitor *monitor);
/** Stops if running, then frees; NULL is a no-op.
 * @param[in] monitor the monitor, or NULL */
MINEX_API void minex_drum_monitor_destroy(minex_drum_monitor *monitor);

/** Readings between two moments without a thread: reads the files under
 * root now, and again after `seconds` (sleeping in between). @return
 * MINEX_OK, MINEX_EINVAL (sample NULL, seconds outside [0, 1e6]),
 * MINEX_EIO, MINEX_EPARSE or MINEX_ENOMEM; on error *sample is
 * unchanged.
 * @param[in] root file-system root, or NULL
 * @param[in] seconds time between the two readings
 * @param[out] sample receives the readings */
MINEX_API int minex_drum_probe(const char *root, double seconds,
                               minex_drum_sample *sample);

/** Writes a sample into computing node `node` of a model: cpu_use, idle
 * (counted over the node's process CPUs), traffic = rx + tx; ncpus from the
 * sample when the node has none; the link's capacity from the sample when
 * it is unknown. @return MINEX_OK or MINEX_EINVAL (NULL argument, node out
 * of range or a network node, a reading negative or not finite, rx + tx
 * overflowing, ncpus beyond MINEX_NPROCS_MAX); on error the node is
 * unchanged.
 * @param[in,out] model the model
 * @param[in] node computing node index
 * @param[in] sample the readings */
MINEX_API int minex_drum_apply_sample(minex_drum_model *model, int32_t node,
                                      const minex_drum_sample *sample);

/** LINPACK-like benchmark: LU factorisation (GSL, partial pivoting) and
 * solve of random n x n systems, repeated for at least min_seconds;
 * MFLOPS = (2/3 n^3 + 2 n^2) per solve / time. Checks the residual.
 * @return MINEX_OK, MINEX_EINVAL (mflops NULL, n outside [1, 10000],
 * min_seconds not finite and >= 0), MINEX_ENOMEM or MINEX_EINTERNAL (a
 * singular system, a GSL failure, a residual too large). On error
 * *mflops is 0 (unless mflops is NULL).
 * @param[in] n system size
 * @param[in] min_seconds least run time
 * @param[in] seed random seed of the systems
 * @param[out] mflops receives the rate */
MINEX_API int minex_drum_benchmark(int32_t n, double min_seconds, uint64_t seed,
                                   double *mflops);

#ifdef __cplusplus
}
#endif

#endif
