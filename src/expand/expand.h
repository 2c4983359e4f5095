/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Graph expansion (SPEC §3 "Expansion", paper §3.7): undo the merges in
 * reverse stack order and re-test each restored vertex with the partition
 * rule; after a move, its border neighbours are tested too. */
#ifndef MINEX_EXPAND_H
#define MINEX_EXPAND_H

#include "core/rename.h"

#include "partition/partition.h"

/* Expands ws back to the fine graph. Each restored pair may trigger at
 * most budget further tests of neighbours. */
int expand_run(partition_ctx *pc, int32_t budget);

/* The same in synchronous rounds (SPEC §3 "Parallel execution"): the
 * merges of a level are undone together; the restored vertices are
 * tested against the frozen owners and loads on the context's threads
 * (partition_scan), and the moves found applied in (forced, Gain, id)
 * order, each re-tested against the loads the ones before it left; the
 * neighbours of the vertices moved are the next round's tests, at most
 * budget rounds per level. The result does not depend on the threads. */
int expand_rounds(partition_ctx *pc, int32_t budget);

#endif
