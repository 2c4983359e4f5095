/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Private to sims/adapt.c and sims/adapt_refine.c (MinEX paper §2.1, §2.2):
 * the error helpers, the split codes, the forest's layout and the state of
 * an adaptation pass, which sim_adapt_check also uses for its recount. */
#ifndef MINEX_SIM_ADAPT_INTERNAL_H
#define MINEX_SIM_ADAPT_INTERNAL_H

#include "adapt.h"

#include <stdint.h>

/* ----------------------------------------------------------------- errors */

/* Sets sim_last_error() from printf format and returns rc (adapt.c). */
int sim_error(int rc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Empties sim_last_error(): every sim_ entry point starts with it. */
void sim_error_clear(void);

/* ------------------------------------------------------------ split codes */

/* Split codes of a tree node (one byte in the preorder stream). */
enum {
  SPLIT_LEAF = 0, /* no children                                       */
  SPLIT_EDGE = 1, /* 1..6: 1:2 bisection of edge code-1 (2 children)   */
  SPLIT_FACE = 7, /* 7..10: 1:4 of the face opposite vertex code-7     */
  SPLIT_RED = 11, /* 1:8, Bey's red refinement                          */
  SPLIT_NCODES = 12
};

/* kids[code][c][j]: point (0..9) that is vertex j of child c. */
typedef int8_t split_table[SPLIT_NCODES][8][4];

/* Fills kids for every split code (adapt_refine.c). */
void sim_split_table_fill(split_table kids);
/* Children of a node split by code: 0, 2, 4 or 8. */
int sim_split_nchildren(int code);

/* ------------------------------------------------------------ the forest */

struct sim_adapt {
  sim_adapt_params p; /* parameters, validated                        */
  int32_t nroots;     /* mesh elements                                */
  int32_t step;       /* adaptations made, 0..nsteps                  */
  int32_t scale;      /* 2^depth: barycentric coordinates' unit       */
  /* Each root's nodes are taken in ascending global node id ("sorted
   * local" order), so that a point shared by two roots is computed from
   * the same terms in the same order on both sides (see point_2d in
   * adapt_refine.c). */
  uint8_t (*perm)[4];   /* perm[r][i]: mesh-local index of sorted node i */
  double (*xy)[4][2];   /* sorted nodes' sweep and across coordinates,
                           divided by scale                             */
  double centre_across; /* cylinder centre along the third coordinate   */
  double sweep_min;     /* bounding box along sweep: min and extent     */
  double sweep_len;
  double r2; /* squared cylinder radius (mesh units)         */
  /* Face adjacency of the roots (the mesh's dual), CSR both directions. */
  int64_t *xadj;       /* nroots+1 offsets                             */
  int32_t *adjncy;     /* neighbours, sorted                           */
  uint8_t *face_here;  /* per entry v->w: v's sorted-local face on w   */
  uint8_t *face_there; /* per entry v->w: w's sorted-local face on v   */
  /* The trees of the roots held: root r's preorder codes are tree[tree_at[r]
   * .. tree_at[r] + elements[r]), one byte per element; a root not held
   * has elements[r] = 0 and no stream. An adaptation writes the streams
   * end to end in root order; sim_adapt_tree_unpack appends one, and a
   * dropped root leaves a hole up to the next adaptation (or the next
   * growth of the buffer, which compacts). */
  uint8_t *tree;
  int64_t *tree_at;  /* nroots: start of each held root's stream       */
  int64_t tree_used; /* bytes of tree in use: streams and holes       */
  int64_t tree_cap;  /* bytes allocated in tree, >= 1                 */
  int32_t nheld;     /* roots held (elements[r] > 0)                  */
  /* Per-root counts after the last adaptation (sorted-local faces); all 0
   * for a root not held. */
  int64_t *leaves;
  int64_t *elements;
  int64_t (*faces)[4];
  uint8_t *depth;
  int64_t total_leaves;   /* over the roots held */
  int64_t total_elements; /* over the roots held */
  split_table kids;       /* children of each split code */
};

/* ------------------------------------------------------- one adaptation */

typedef int32_t lam4[4][4]; /* lam[vertex][root node]: barycentric * 2^depth */

/* State of one adaptation pass, root after root. */
typedef struct walk {
  const sim_adapt *a;
  const double (*xy)[2]; /* this root's sorted nodes, scaled by 1/2^depth */
  double cs, ca;         /* cylinder centre (sweep, across) this step     */
  const uint8_t *in;     /* cursor in the old preorder stream             */
  uint8_t *out;          /* new stream of all roots, grown on demand      */
  int64_t len, cap;      /* bytes written (= elements so far) / allocated */
  int64_t limit;         /* max_elements: the bound on len                */
  /* Counts of the current root: */
  int64_t leaves;   /* leaves                                      */
  int64_t elements; /* tree nodes                                  */
  int64_t faces[4]; /* leaf triangles on each sorted-local face    */
  int depth;        /* largest leaf level                          */
  int rc;           /* first failure; the pass then stops          */
} walk;

/* Vertices kid[c] of the children of node v split by code. */
void sim_children_of(const walk *w, int code, lam4 v, lam4 *kid);
/* Vertices of a root: lambda_i of node i is 2^depth, the others 0. */
void sim_root_lambda(const sim_adapt *a, lam4 v);

#endif /* MINEX_SIM_ADAPT_INTERNAL_H */
