/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The contraction's steps among ranks (src/dist/contract.c), called by
 * src/contract on every workspace: with ws->comm NULL (one process) each
 * is the serial step or nothing. */
#ifndef MINEX_DIST_CONTRACT_H
#define MINEX_DIST_CONTRACT_H

#include "core/rename.h"

#include "contract/chunk.h"
#include "contract/contract.h"

/* The steps of a workspace spread over ranks (src/dist/rounds.c): the
 * distributed rounds, and no rank-local checks. */
extern const contract_layout dist_layout;

/* The global numbering of level L's merges (K here) and of the next level
 * N (A vertices here), and N's ghosts (map[2 nb + g]: the id in N of ghost
 * g's representative). rc: this rank's state before (a failure: nothing
 * is renumbered, the agreed failure returned). Collective; in one process
 * it only sets N's gnbase. */
int dist_ghost_renumber(contract_ws *ws, contract_level *L, contract_level *N,
                        int32_t K, int32_t A, int rc);
/* v[0..n-1] summed over the ranks (collective); nothing in one process. */
int dist_sum_or(const dist_comm *cm, int64_t *v, int n);
/* The targets of this rank's chunks, shared among every rank's chunks in
 * rank order as contract_chunk_targets shares them in one process (which
 * it is when cm is NULL). Collective. */
int dist_chunk_targets(const dist_comm *cm, contract_chunk *ch, int32_t nch,
                       int64_t target);

#endif
