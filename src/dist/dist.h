/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stage 2 of minex_mpi_repartition (docs/design/distributed.md): the graph
 * moved to the ranks that hold its old parts (part p on its home rank
 * p * size / nparts, the rule of minex_mpi_lists_create), in the per-part
 * layout of the serial library (src/driver/layout.h: the vertices of each
 * old part one block of consecutive ids, in part order, input order
 * inside a part; rows sorted), and the collective operations the core's
 * contraction needs (dist_comm) on a call's communicator. */
#ifndef MINEX_DIST_DIST_H
#define MINEX_DIST_DIST_H

#include "contract/contract.h"
#include "costmodel/costmodel.h"
#include "dist/comm.h"

/* The caller's rows on this rank (ParMETIS's distributed CSR): global ids
 * vtxdist[rank] .. vtxdist[rank+1]-1, their rows xadj/adjncy in global
 * ids, weights NULL = 1 on every rank, old NULL = the vertex's rank. */
typedef struct dist_input {
  const int64_t *vtxdist, *xadj, *adjncy;
  const double *pwgt, *rwgt, *cwgt;
  const int32_t *old;
} dist_input;

/* One rank's share of the graph in layout ids. */
typedef struct dist_part {
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
} dist_part;

/* The home rank of old part p. */
static inline int dist_home_rank(int32_t p, int32_t nparts, int size) {
  return (int)((int64_t)p * size / nparts);
}

/* Collective: the rows of the caller's distribution (vtxdist, each rank's
 * CSR with global ids, weights NULL = 1 on every rank, old NULL = the
 * vertex's rank; all checked before) moved to their parts' home ranks in
 * layout ids. Bytes and messages counted in c. */
int dist_part_create(dist_ctx *c, const dist_input *in, int32_t nparts,
                     dist_part *d);
void dist_part_destroy(dist_part *d);

/* The workspace of one rank of a contraction spread over ranks (comm):
 * d's graph holds this rank's vertices, layout ids goff..goff+n-1 of gn,
 * whole old parts (old[v], in part order over the ranks), rows in layout
 * id order with an end on another rank written 2n + g (ghost g: layout id
 * ghost_gid[g], ascending, on rank ghost_rank[g]; copied). contract_run
 * then makes the merges the whole graph's contract_run makes, this rank's
 * share of them (SPEC §6). MINEX_ENOMEM with a message. */
int contract_ws_create_dist(contract_ws *ws, const dist_part *d,
                            const dist_comm *comm);

/* The contracted graph on every rank (step 3): the current level of w (a
 * contraction spread over the ranks, contract_ws_create_dist), gathered
 * whole in its global ids, rows and records as the serial contraction
 * made them. */
typedef struct dist_coarse {
  minex_graph g;     /* rows in global ids (arrays owned)               */
  contract_attr *at; /* records of its vertices                       */
  contract_ws ws;    /* a frozen workspace of that one level            */
} dist_coarse;

/* Collective: gathers w's current level on every rank into *co. */
int dist_gather_coarse(dist_ctx *c, const contract_ws *w, dist_coarse *co);
/* Collective: gathers level s of w (frozen or rewound) on every rank into
 * co's graph and records (co->ws left empty): the from-scratch candidate's
 * level. */
int dist_gather_level(dist_ctx *c, const contract_ws *w, int32_t s,
                      dist_coarse *co);
void dist_coarse_destroy(dist_coarse *co);

/* The owners and interior flags of the partition of the contracted graph
 * (co's workspace) to the top level of w (frozen), its ghosts' owners
 * included: where the expansion on the ranks starts. Local. */
void dist_from_coarse(contract_ws *w, const dist_coarse *co);

/* The old partition on d's level 0 as w's owners hold it: the old part of
 * every local vertex at 0..n-1 and of every ghost at 2n + g. Local. */
void dist_old_owners(const dist_part *d, int32_t *owner);

/* The cost model of a call: the machine, the options and the unit of the
 * figures (1/unit, dist_unit). */
typedef struct dist_model {
  const minex_config *cfg;
  const minex_options *opt;
  double unit;
} dist_model;

/* Collective: the loads of the old partition under horizon k, every
 * rank's share added up (each processor's figures come from the one rank
 * that holds its old part, so the sum is exact and equal to the serial
 * library's on the whole layout). */
int dist_loads_old(dist_ctx *c, const dist_part *d, const dist_model *m,
                   double k, costmodel_loads *ld);

/* Collective: the loads of partition part (every local id of d's level 0,
 * ghosts at 2n + g) under horizon k, summed part by part as
 * costmodel_loads_create_runs sums them: the serial figures exactly, for
 * any partition (the from-scratch candidate's start). */
int dist_loads_part(dist_ctx *c, const dist_part *d, const dist_model *m,
                    double k, const int32_t *part, costmodel_loads *ld);
/* Collective: costmodel_unit of the whole graph (on the serial layout). */
int dist_unit(dist_ctx *c, const dist_part *d, const minex_config *cfg,
              const minex_options *opt, double *unit);

/* Collective: minex_mpi_repartition's solve in stage 2 (arguments checked
 * before): the new owner of every local vertex into new_part, the metrics
 * on every rank. */
int dist_solve(dist_ctx *c, const dist_input *in, const minex_config *cfg,
               const minex_options *opt, int32_t *new_part,
               minex_metrics *metrics);

#endif
