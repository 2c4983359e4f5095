/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stage 2 of minex_mpi_repartition (docs/mpi.md "Stage 2"): the graph
 * moved to the ranks that hold its old parts (part p on its home rank
 * p * size / nparts, the rule of minex_mpi_lists_create), in the per-part
 * layout of the serial library (src/driver/layout.h: the vertices of each
 * old part one block of consecutive ids, in part order, input order
 * inside a part; rows sorted), and the collective operations the core's
 * contraction needs (contract_comm) on a call's communicator. */
#ifndef MINEX_MPI_DIST_H
#define MINEX_MPI_DIST_H

#include "contract/contract.h"
#include "mpi/mpi_comm.h"

/* One rank's share of the graph in layout ids. */
typedef struct mx_dist {
  int32_t nparts;
  int64_t *first;   /* nparts + 1: first layout id of each old part     */
  int32_t plo, phi; /* the old parts held here: plo .. phi-1           */
  int64_t goff, gn; /* layout ids goff .. goff+n-1 here, of gn         */
  minex_graph g;    /* rows of those vertices: layout id - goff, a
                       vertex of another rank (ghost g) as 2n + g;
                       sorted by layout id (arrays owned)            */
  int32_t *old;     /* n: old part                                     */
  int64_t *input;   /* n: global id in the caller's numbering          */
  int32_t nghost;
  int64_t *ghost_gid; /* nghost: layout ids of the ghosts, ascending */
  int32_t *ghost_rank;
} mx_dist;

/* The home rank of old part p. */
static inline int mx_home_rank(int32_t p, int32_t nparts, int size) {
  return (int)((int64_t)p * size / nparts);
}

/* Collective: the rows of the caller's distribution (vtxdist, each rank's
 * CSR with global ids, weights NULL = 1 on every rank, old NULL = the
 * vertex's rank; all checked before) moved to their parts' home ranks in
 * layout ids. Bytes and messages counted in c. */
int mx_dist_create(mx_comm *c, const int64_t *vtxdist, const int64_t *xadj,
                   const int64_t *adjncy, const double *pwgt,
                   const double *rwgt, const double *cwgt, const int32_t *old,
                   int32_t nparts, mx_dist *d);
void mx_dist_destroy(mx_dist *d);

/* The contraction's collective operations on c (cc->ctx = c). */
void mx_contract_comm(mx_comm *c, contract_comm *cc);

#endif
