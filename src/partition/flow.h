/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The balancing flow on the quotient graph of the processors (SPEC §3
 * "Work that follows the change": the cheap candidate's first step). The
 * processors are the vertices; an edge joins two processors whose parts
 * touch, with a weight w > 0 (how cheaply load crosses it). Given each
 * processor's excess (its load minus its target), the flow is the one
 * that removes every excess and minimises sum f_pq^2 / w_pq (Hu and
 * Blake's least-squares diffusion): f_pq = w_pq (lambda_p - lambda_q)
 * with L lambda = excess, L the weighted Laplacian. It moves no load in a
 * circle and spreads it over parallel routes in proportion to w. */
#ifndef MINEX_PARTITION_FLOW_H
#define MINEX_PARTITION_FLOW_H

#include "core/rename.h"

#include "core/core.h"

/* An edge of the quotient graph: processors p != q, weight w. */
typedef struct partition_qedge {
  int32_t p, q;
  double w;
} partition_qedge;

/* The flow over the ne edges e (flow[i] from e[i].p to e[i].q, negative
 * the other way) for the excess of the nprocs processors. Where a
 * connected component's excess does not sum to 0, its mean is left in
 * place: unrouted[p] (nprocs entries, may be NULL) gets what stays above
 * processor p's target (the same for every processor of the component;
 * 0 for a processor without an edge gets its whole excess). The system is
 * solved densely per component (Cholesky of the Laplacian with one
 * processor grounded: O(s^3) for a component of s processors).
 * MINEX_EINVAL naming the edge or processor at fault (an index out of
 * range, p == q, a weight not finite and positive, an excess not finite),
 * MINEX_ENOMEM. */
int partition_flow(int32_t nprocs, const partition_qedge *e, int64_t ne,
                   const double *excess, double *flow, double *unrouted);

/* The quotient graph of partition part (every vertex's processor in
 * [0, nprocs)) of g: one edge for each pair of processors p < q whose
 * parts share edges, weighted by their Cwgt, in (p, q) order. *edges is
 * allocated with core_malloc (free it with core_free), *ne its length.
 * MINEX_EINVAL naming a vertex whose processor is out of range,
 * MINEX_ENOMEM. */
int partition_quotient(const minex_graph *g, const int32_t *part,
                       int32_t nprocs, partition_qedge **edges, int64_t *ne);

/* Each processor's excess of Pwgt under partition part against the
 * balance of SPEC §2's lower bound: an available processor p's target is
 * sum Pwgt x (1 / Proc(p)) / sum over the available of 1 / Proc, an
 * unavailable one's is 0. excess has cfg->nprocs entries and sums to 0
 * (up to rounding). MINEX_EINVAL naming a vertex whose processor is out
 * of range, MINEX_ENOPROC when no processor is available. */
int partition_excess(const minex_graph *g, const minex_config *cfg,
                     const int32_t *part, double *excess);

/* Moves vertices along the flow (flow[i] over e[i], from partition_flow)
 * in part, in place: the processors taken in the flow's topological order
 * (a processor sends once all it receives is in), each arc from s to t
 * filled with vertices of s next to t, best first by Cwgt to t minus Cwgt
 * to s (ties by id), a moved vertex's neighbours on s becoming candidates,
 * until the Pwgt moved is within half a vertex of the arc's flow. *moved
 * gets the vertices moved. Deterministic. MINEX_EINVAL naming the vertex or
 * edge at fault, MINEX_ENOMEM. */
int partition_flow_moves(const minex_graph *g, int32_t nprocs, int32_t *part,
                         const partition_qedge *e, int64_t ne,
                         const double *flow, int64_t *moved);

#endif
