/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The distributed benchmark case of bench_mpi, bench_dist and
 * peer_zoltan_mpi (and their memory figures): the gen
 * case of bench_repart (a refined-ball tet box of about N elements, P = 64
 * processors in 4 clusters, Proc 1, 1, 2, 2, Conn 1 inside and 10 between,
 * the old partition from RCB), numbered part by part, rank r of size
 * holding parts [r P / size, (r+1) P / size), as an application holds
 * them. Public API only and no MPI: each program calls it with its rank. */
#ifndef MINEX_BENCH_DIST_CASE_H
#define MINEX_BENCH_DIST_CASE_H

#include "minex.h"

#define DIST_P 64
#define DIST_CLUSTERS 4

/* Processing slowdown of each cluster. */
extern const double dist_proc[DIST_CLUSTERS];

typedef struct dist_case {
  /* the whole case, on every rank (graph ids) */
  minex_graph *g;         /* the dual graph                                  */
  int32_t *old_all;       /* its old partition                               */
  int32_t *newid;         /* each vertex's id in the part-by-part numbering  */
  int64_t vd[DIST_P + 1]; /* vtxdist of that numbering                 */
  /* this rank's rows, in that numbering */
  int64_t first, nloc;
  int64_t *xadj, *adj;
  double *pw, *rw, *cw;
  int32_t *old;
} dist_case;

/* Builds the case for rank of size (size <= DIST_P). MINEX_OK, or a
 * MinEX error with minex_last_error() (MINEX_ENOMEM: "out of memory"). */
int dist_case_make(int64_t elements, int rank, int size, dist_case *c);
/* Frees the whole-case arrays (g, old_all, newid), keeping the rows. */
void dist_case_drop_whole(dist_case *c);
/* Frees everything. */
void dist_case_free(dist_case *c);
/* The machine of the case. */
int dist_case_config(minex_config **cfg);

/* kB of a /proc/self/status line ("VmHWM:", "VmRSS:"), -1 if absent. */
long dist_status_kb(const char *key);
/* Resets VmHWM to the current RSS (Linux >= 4.0); 0 on success. */
int dist_reset_peak(void);

#endif
