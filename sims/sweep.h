/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Parameter sweeps of the MinEX paper (§4, Tables 1-4): grids of
 * configurations of the adaptive-mesh experiment, run in parallel (threads
 * of one process, and MPI ranks in sweep_mpi.c), written as CSV, tables
 * laid out like the paper's, and gnuplot plots. */
#ifndef MINEX_SWEEP_H
#define MINEX_SWEEP_H

#include "sim.h"

#include <stddef.h>
#include <stdint.h>

/* One configuration of a sweep. */
typedef struct sweep_spec {
  int32_t table;     /* SWEEP_T1 ... SWEEP_T4                         */
  int32_t P, C;      /* processors, clusters                         */
  double I;          /* interconnect slowdown                        */
  double alpha;      /* latency tolerance                            */
  double throttle;   /* ThroTTle (ignored when throttle_auto)        */
  int throttle_auto; /* 1: --throttle auto                           */
  int partition;     /* 0: no partitioning (Table 4)                 */
  int default_rules; /* 1: the library's default rules (refinement,
                        ladder, from-scratch candidate as their AUTO
                        settings choose) instead of the paper's alone;
                        sweep_specs sets 0                           */
} sweep_spec;

enum {
  SWEEP_T1 = 1,    /* ThroTTle {0,1,4,16,32,64,128,inf} x C 1..8,
                      P 32, I 3, alpha 1; plus auto per C            */
  SWEEP_T1LOG = 5, /* ThroTTle 10^-3 .. 10^3 (13 values) x C 1..8     */
  SWEEP_T2 = 2,    /* I {3,10,100,1000} x C 1..8 x alpha {0,1}, P 32,
                      ThroTTle 64                                     */
  SWEEP_T3 = 3,    /* P 2..2048 x C {1,8} x alpha {0,1}, I 3,
                      ThroTTle 2P; plus auto                          */
  SWEEP_T4 = 4     /* as T3 without partitioning                      */
};

/* Parses "1", "1log", "2", "3", "4" into SWEEP_T*; -1 if unknown. */
int32_t sweep_table_parse(const char *name);
/* File-name stem of a table: "table1", "table1log", ... */
const char *sweep_table_name(int32_t table);

/* The configurations of a table (malloc'ed, *n of them). */
int sweep_specs(int32_t table, sweep_spec **specs, int32_t *n);

/* Per configuration the sweep keeps SWEEP_NSUM summary values and
 * SWEEP_NSTEPF values per step, as doubles (one flat record, so that MPI
 * can reduce them). */
enum {
  SWEEP_SUM_TOTAL,
  SWEEP_SUM_LOADIMB,
  SWEEP_SUM_SECONDS,
  SWEEP_SUM_CUT,
  SWEEP_SUM_TOTALV,
  SWEEP_SUM_MOVED,
  SWEEP_SUM_HORIZON, /* sum over the steps of T_k (SPEC §2)          */
  SWEEP_SUM_DONE,
  SWEEP_NSUM
};
enum {
  SWEEP_ST_MAXQ,
  SWEEP_ST_MINQ,
  SWEEP_ST_QTOT,
  SWEEP_ST_LOADIMB,
  SWEEP_ST_CUT,
  SWEEP_ST_CUTW,
  SWEEP_ST_MOVED,
  SWEEP_ST_TOTALV,
  SWEEP_ST_THROTTLE,
  SWEEP_ST_SECONDS,
  SWEEP_ST_LEAVES,
  SWEEP_NSTEPF
};
static inline int64_t sweep_record_size(int32_t nsteps) {
  return SWEEP_NSUM + (int64_t)SWEEP_NSTEPF * nsteps;
}

/* The ThroTTle configuration s ran with, for progress lines: "64", "inf",
 * or for --throttle auto "auto (T)" with T the ThroTTle the last of the
 * record's nsteps adaptations chose. */
void sweep_throttle_label(const sweep_spec *s, const double *rec,
                          int32_t nsteps, char *buf, size_t size);

/* The options of a configuration: the library's defaults with seed, alpha
 * and ThroTTle of the spec, and paper_exact unless the spec asks for the
 * default rules (the sweeps reproduce the paper's Tables 1-4 with its rules
 * alone; minex sweep --rules default runs the library's defaults). */
void sweep_options(const sweep_spec *s, uint64_t seed, minex_options *opt);

/* Runs the specs i with i % nranks == rank on `threads` threads (>= 1)
 * and fills their records in results (n records of sweep_record_size,
 * other records untouched). mesh gives the initial partition of each P
 * (RCB of the root elements). progress (may be NULL) is called after each
 * configuration, from the worker threads under a lock. Deterministic: a
 * record depends on its spec, the workload and the seed only. */
typedef void (*sweep_progress_fn)(const sweep_spec *s, const double *rec,
                                  int32_t done, int32_t todo, void *ctx);
int sweep_run(const sim_workload *w, const minex_mesh *mesh,
              const sweep_spec *specs, int32_t n, uint64_t seed, int32_t rank,
              int32_t nranks, int32_t threads, double *results,
              sweep_progress_fn progress, void *ctx);

/* Writes DIR/<name>.csv (one row per configuration), DIR/<name>_steps.csv
 * (one row per configuration and step), DIR/<name>.md (the table laid
 * out like the paper's) and the gnuplot data and script DIR/<name>.gp.
 * Each file is written atomically. */
int sweep_write(const char *dir, int32_t table, const sweep_spec *specs,
                int32_t n, int32_t nsteps, const double *results);

/* Renders DIR/<name>.gp with gnuplot (PNG and SVG), and the combined
 * MaxQwgt-against-P plot when tables 3 and 4 are both in dir. Returns
 * MINEX_OK, or MINEX_EIO when gnuplot is missing or fails (the scripts
 * stay for later). */
int sweep_plot(const char *dir, int32_t table);

/* Writes `text` to path atomically (temp file in the same directory, then
 * rename): a failure never leaves a truncated file. */
int sweep_write_file(const char *path, const char *text, size_t len);

/* Runs gnuplot on script (its directory as the working directory). */
int sweep_gnuplot(const char *dir, const char *script);

#endif
