/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The per-part layout of a call (SPEC §3 "Parallel execution"): the graph
 * renumbered so that the vertices of each old part are one block of
 * consecutive ids, in part order, keeping the input order inside a part.
 * Contraction merges same-owner pairs only, so each block is contracted
 * on its own (src/contract), in its own block of memory. */
#ifndef MINEX_LAYOUT_H
#define MINEX_LAYOUT_H

#include "core/rename.h"

#include "core/core.h"

typedef struct layout {
  minex_graph g;  /* the graph in layout ids (arrays owned; rows sorted) */
  int32_t *old;   /* old owner of each layout id                         */
  int32_t *perm;  /* layout id of each input vertex                      */
  int32_t *first; /* nprocs + 1: first layout id of each old part        */
} layout;

/* The layout of g under old (nprocs parts), built on nthreads threads;
 * MINEX_ENOMEM with a message. */
int layout_create(layout *lay, const minex_graph *g, const int32_t *old,
                  int32_t nprocs, int nthreads);
void layout_destroy(layout *lay);

/* in[perm[v]] into out[v] for every input vertex v: a partition in layout
 * ids back to input ids (in and out may not overlap). */
void layout_to_input(const layout *lay, const int32_t *in, int32_t *out);

#endif
