/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The adaptive-mesh workload of the MinEX paper (§2.1, §2.2): a tetrahedral
 * mesh whose elements are the roots of refinement trees, adapted nsteps
 * times by a cylinder moving across the domain (3D_TAG-style edge marking,
 * 1:2 / 1:4 / 1:8 splits, coarsening one level per step in its wake), and
 * after each adaptation the dual graph of the roots weighted by the trees:
 * Pwgt = leaves, Rwgt = all tree elements, Cwgt = leaf faces on the shared
 * root face. The model and its parameters are documented in
 * docs/design/workload.md. Public MinEX API only (minex.h). */
#ifndef MINEX_SIM_ADAPT_H
#define MINEX_SIM_ADAPT_H

#include "minex.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Message of the last failure of a sim_ function in this thread, naming the
 * function and what was wrong ("sim_adapt_create: the mesh has triangles;
 * the refinement model needs tetrahedra"); a failing MinEX call's own
 * message is included. Empty string after a success. Never NULL. */
const char *sim_last_error(void);
/* Sets the message sim_last_error() returns (vprintf format, truncated to
 * 1023 bytes) and returns rc: the hook for the other sims/ modules, so
 * that every sim_ function reports through the same buffer. */
int sim_error_vset(int rc, const char *fmt, va_list ap);

/* ------------------------------------------------------------ parameters */

/* The largest supported refinement depth: a tree holds at most
 * (8^(depth+1) - 1) / 7 elements. */
#define SIM_ADAPT_MAX_DEPTH 10

/* Parameters of the workload; sim_adapt_defaults fills the paper's run.
 * Positions are fractions of the mesh's bounding box (the box of the nodes
 * used by elements): along coordinate c, f stands for min_c + f * L_c. */
typedef struct sim_adapt_params {
  int32_t nsteps;     /* adaptations, >= 1 (default 9, the paper's)          */
  int32_t depth;      /* maximum refinement level of a tree, 0..MAX_DEPTH;
                         a root is level 0 (default 3, calibrated)           */
  double radius;      /* cylinder radius as a fraction of L_sweep, >= 0
                         (default 0.143, calibrated: see docs/design/workload.md)  */
  int32_t iterations; /* horizon k (SPEC §2): solver iterations each
                        adaptation's partition must last, in [1,
                        MINEX_ITERATIONS_MAX]; sim_run and the sweep hand
                        it to the repartitioner (options.iterations) and
                        score under it. The graphs' Pwgt and Cwgt are per
                        iteration (default 1: the paper's model)          */
  int32_t axis;       /* coordinate (0 x, 1 y, 2 z) the cylinder axis is
                         parallel to; the cylinder spans the whole domain
                         along it (default 2)                                */
  int32_t sweep;      /* coordinate the cylinder moves along, != axis
                         (default 0)                                         */
  double sweep_from;  /* centre path along sweep: adaptation k = 1..nsteps  */
  double sweep_to;    /* puts the centre at sweep_from + (k - 0.5) / nsteps
                         * (sweep_to - sweep_from), constant velocity
                         (defaults 0 and 1: across the whole box)            */
  double across;      /* centre position along the third coordinate
                         (default 0.5, the middle)                           */
  int64_t max_elements; /* limit on the tree elements of all roots at any
                           step; a step that would exceed it fails with
                           MINEX_EINVAL (default 2^27)                      */
} sim_adapt_params;

/* Fills the defaults above. p must not be NULL. */
void sim_adapt_defaults(sim_adapt_params *p);

/* ------------------------------------------------- the adapting forest */

/* The refinement trees of the root elements it holds (every root unless
 * some were dropped: see "The roots a forest holds" below) and their state
 * after the adaptations made so far. Opaque. */
typedef struct sim_adapt sim_adapt;

/* Starts the forest on mesh (tetrahedra only; the mesh is not kept): every
 * element a root without children, adaptation 0. p NULL means the
 * defaults. Returns MINEX_OK, MINEX_EINVAL (NULL argument, a triangle or
 * empty mesh, a parameter out of range, a bounding box of zero extent
 * along sweep), MINEX_EPARSE (the mesh's dual fails: a non-manifold face)
 * or MINEX_ENOMEM; *out is NULL on failure. */
int sim_adapt_create(const minex_mesh *mesh, const sim_adapt_params *p,
                     sim_adapt **out);
/* Frees the forest; NULL is a no-op. */
void sim_adapt_destroy(sim_adapt *a);

/* Makes adaptation k = sim_adapt_step_count(a) + 1: coarsens, then
 * refines, for the cylinder at its k-th position (docs/design/workload.md), the
 * trees of the roots the forest holds; the others are left alone (the
 * step count advances all the same). A root's new tree depends on its
 * old tree, its geometry and k only, so a root adapted in any forest gets
 * the same tree as in one holding every root. Returns MINEX_OK,
 * MINEX_EINVAL (all nsteps adaptations made already, or the held trees
 * would exceed max_elements) or MINEX_ENOMEM; on failure the forest stays
 * as it was. */
int sim_adapt_step(sim_adapt *a);

/* Adaptations made so far (0 after create). */
int32_t sim_adapt_step_count(const sim_adapt *a);
/* Number of roots (the mesh's elements). */
int32_t sim_adapt_nroots(const sim_adapt *a);
/* Leaves and elements (all tree nodes, roots included) over the roots
 * held. */
int64_t sim_adapt_leaves(const sim_adapt *a);
int64_t sim_adapt_elements(const sim_adapt *a);

/* One root's tree now. Face f is the root's face opposite its f-th node in
 * the mesh's element order (minex_mesh_elems). */
typedef struct sim_root_stats {
  int64_t leaves;   /* leaves of the tree (1 for an unrefined root)        */
  int64_t elements; /* nodes of the tree, the root included                */
  int32_t depth;    /* largest leaf level (0 for an unrefined root)        */
  int64_t faces[4]; /* leaf triangles tiling root face f, from this side   */
  int32_t nbr[4];   /* root across face f, or -1 on the boundary           */
} sim_root_stats;

/* Fills *st for a root held, in [0, nroots). MINEX_OK or MINEX_EINVAL
 * (NULL argument, root out of range or not held). */
int sim_adapt_root(const sim_adapt *a, int32_t root, sim_root_stats *st);

/* Dual graph of the roots weighted by the trees now: Pwgt_v =
 * leaves(v), Rwgt_v = elements(v), and for roots v, w sharing a face
 * Cwgt_vw = max(faces of v on it, faces of w on it) (a shared face
 * tiled differently from its two sides is communicated at the finer
 * tiling). Returns MINEX_OK, MINEX_EINVAL (NULL argument, or a root not
 * held: the graph needs every tree) or MINEX_ENOMEM. */
int sim_adapt_graph(const sim_adapt *a, minex_graph **out);

/* Verifies the forest: every held tree well-formed (known split codes,
 * children of 1:2 and 1:4 splits are leaves, no split at level depth, the
 * stream exactly one tree, inside the forest's buffer), the stored
 * per-root counts (leaves, elements, depth, face tilings of 1..4^depth
 * triangles; all 0 for a root not held) and the totals equal a recount.
 * MINEX_OK or MINEX_EINTERNAL with a message naming the root. */
int sim_adapt_check(const sim_adapt *a);

/* ------------------------------------------- the roots a forest holds */

/* A distributed code holds each root's tree on one process only: each
 * process creates the forest on the whole mesh (the roots' geometry and
 * adjacency, O(roots)), drops the trees of the roots it does not hold, and
 * adapts the rest with sim_adapt_step. When a root moves to another
 * process its tree moves with it: the bytes of sim_adapt_tree_pack, given
 * there to sim_adapt_tree_unpack at the same step count; the sender drops
 * it. The bytes are the tree's preorder split codes, one per element
 * (sim_adapt_tree_size = elements, the root's Rwgt), the same in every
 * forest: a forest's trees equal those of one holding every root (see
 * sim_adapt_step). sim_adapt_create's forest holds every root. */

/* 1 when the forest holds root's tree, 0 otherwise (root out of range, a
 * NULL). */
int sim_adapt_holds(const sim_adapt *a, int32_t root);
/* Bytes of root's tree (its elements); 0 when not held. */
size_t sim_adapt_tree_size(const sim_adapt *a, int32_t root);
/* Copies root's tree (sim_adapt_tree_size bytes) to buf, of len bytes; the
 * forest keeps it. MINEX_OK or MINEX_EINVAL (NULL argument, root out of
 * range or not held, len too small). */
int sim_adapt_tree_pack(const sim_adapt *a, int32_t root, void *buf,
                        size_t len);
/* Drops root's tree: the forest no longer holds it, its counts leave the
 * totals. O(1) (its bytes are reclaimed at the next adaptation).
 * MINEX_OK or MINEX_EINVAL (NULL, root out of range or not held). */
int sim_adapt_tree_drop(sim_adapt *a, int32_t root);
/* Makes the forest hold root with the tree in buf[0 .. len), bytes of
 * sim_adapt_tree_pack (from a forest on the same mesh and parameters, at
 * the same step count): they are validated and counted as sim_adapt_check
 * does (a known split code per byte, no split at the depth limit, the
 * children of 1:2 and 1:4 splits leaves, exactly one tree in len bytes).
 * O(len) amortised. Returns MINEX_OK, MINEX_EINVAL (NULL argument, root
 * out of range or held already, len 0, malformed bytes, or the held trees
 * would exceed max_elements; the message names the root and, for
 * malformed bytes, the offset of the first bad one) or MINEX_ENOMEM; on
 * failure the forest is unchanged. */
int sim_adapt_tree_unpack(sim_adapt *a, int32_t root, const void *buf,
                          size_t len);

/* Children of a node whose 6 edges (01, 02, 03, 12, 13, 23, bit i for the
 * i-th) are marked as in mask (0..63): 1 (no mark: a leaf), 2 (one edge:
 * 1:2 bisection), 4 (2 or 3 edges of one face: 1:4 on that face) or 8
 * (anything else: 1:8). -1 for a mask out of range. */
int sim_split_children(unsigned mask);

/* ------------------------------------------------------------- workload */

/* The dual graphs of all nsteps adaptations of one run, built once and
 * reused. Refinement changes the weights, never the roots' adjacency, so
 * the workload keeps one graph (the topology) and each adaptation's
 * weights; sim_workload_graph gives adaptation k's graph. */
typedef struct sim_workload {
  sim_adapt_params params;  /* the parameters it was built with           */
  int32_t nsteps;           /* number of adaptations                       */
  minex_graph *graph;       /* the roots' dual graph: the topology of every
                               adaptation (its weights: the last one's)    */
  double **pwgt;            /* nsteps x nroots: Pwgt after adaptation k at
                               k-1                                         */
  double **rwgt;            /* the same for Rwgt                           */
  double **cwgt;            /* nsteps x adjncy entries: Cwgt, in the
                               graph's adjncy order                        */
  int64_t *leaves;          /* total leaf elements after each adaptation   */
  int64_t *elements;        /* total tree elements after each adaptation   */
  int64_t initial_elements; /* the mesh's elements (leaves before step 1)  */
  double seconds;           /* wall time of building the workload          */
} sim_workload;

/* Runs all p->nsteps adaptations of mesh (p NULL: defaults) and keeps the
 * dual graph after each. out is overwritten (not freed first). Returns the
 * codes of sim_adapt_create / sim_adapt_step / sim_adapt_graph; on failure
 * out is left empty (sim_workload_free on it is a no-op). */
int sim_workload_build(const minex_mesh *mesh, const sim_adapt_params *p,
                       sim_workload *out);
/* Frees what out holds and zeroes it; NULL is a no-op. */
void sim_workload_free(sim_workload *w);

/* Roots (vertices of every adaptation's dual graph). */
int32_t sim_workload_nvtxs(const sim_workload *w);

/* Adaptation k's dual graph (k = 0 .. nsteps-1) in *g. With *g NULL a new
 * graph is made (a copy of the workload's; the caller frees it with
 * minex_graph_destroy); otherwise *g must be one made so, and only its
 * weights are replaced (minex_graph_set_weights: O(V + E), no re-sort, no
 * re-validation of the topology). MINEX_OK, MINEX_EINVAL (k out of range,
 * NULL argument), MINEX_ENOMEM; on error *g is as it was. */
int sim_workload_graph(const sim_workload *w, int32_t k, minex_graph **g);

#ifdef __cplusplus
}
#endif
#endif /* MINEX_SIM_ADAPT_H */
