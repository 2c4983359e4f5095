/* SPDX-License-Identifier: GPL-3.0-or-later */
/* R simulated ranks in one process (dist_comm over threads): the
 * distributed algorithm of src/dist run and tested without MPI, in every
 * build. Collectives combine in rank order, so a run is deterministic and
 * gives what the MPI layer gives on R ranks. */
#ifndef MINEX_DIST_INPROC_H
#define MINEX_DIST_INPROC_H

#include "core/rename.h"

#include "dist/comm.h"

/* One rank's work: called on its own thread with its communicator; its
 * return value is the rank's code. */
typedef int (*dist_inproc_fn)(const dist_comm *cm, void *arg);

/* Runs fn on nranks threads (rank r gets args[r]) and waits for them;
 * rcs[r] gets rank r's code. MINEX_ENOMEM (or MINEX_EINTERNAL when a
 * thread could not start) before any rank runs; else MINEX_OK. */
int dist_inproc_run(int nranks, dist_inproc_fn fn, void **args, int *rcs);

#endif
