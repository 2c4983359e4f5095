/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every peer driver of bench/peers shares: the command line, reading
 * the case (graph, configuration, old partition) through MinEX's public
 * API, the timer around the peer's library call, relabelling a from-scratch
 * partition for the largest overlap with the old one, and writing the new
 * partition with one JSON line on stdout.
 *
 * Command line of every driver:
 *   peer_TOOL GRAPH --old OLD.part --config CFG.xml --method M
 *             [--param X] [--seed S] -o NEW.part
 * Output on stdout, one line:
 *   {"tool": "...", "method": "...", "param": X, "seconds": T}
 * where T is the wall time of the peer's library calls only (not reading or
 * writing files). Exit 0 on success, 1 when a call failed (stderr says
 * which), 2 on a bad command line. */
#ifndef MINEX_PEERS_COMMON_H
#define MINEX_PEERS_COMMON_H

#include "minex.h"

#include <stdint.h>

typedef struct peers_case {
  const char *tool;        /* driver name, for messages and JSON           */
  const char *graph_path;  /* GRAPH                                        */
  const char *old_path;    /* --old                                        */
  const char *config_path; /* --config                                     */
  const char *out_path;    /* -o                                           */
  const char *method;      /* --method (driver-specific)                   */
  double param;            /* --param, NAN when not given                  */
  uint64_t seed;           /* --seed (default 1)                           */
  minex_graph *g;          /* the graph (Pwgt, Rwgt, Cwgt)                 */
  minex_config *cfg;       /* the machine                                  */
  int32_t *old;            /* old partition, nvtxs entries in [0, P)       */
  int32_t nvtxs;           /* vertices                                     */
  int32_t nprocs;          /* P                                            */
} peers_case;

/* Parses argv and reads the case. Returns 0, or prints the problem and
 * returns the exit status (1 a file failed to load, 2 bad command line).
 * usage is printed for --help (exit status 0 is returned as -1). */
int peers_case_load(peers_case *c, const char *tool, const char *usage,
                    int argc, char **argv);
void peers_case_free(peers_case *c);

/* Wall clock in seconds (monotonic). */
double peers_now(void);

/* Relabels the parts of part (ids in [0, P)) so that the Rwgt of the
 * vertices whose label equals their old owner is as large as possible,
 * greedily as ParMETIS's remapping does: overlaps in decreasing order, a
 * pair taken when both its new part and its old owner are still free.
 * Only parts with the same class (class_of[p], e.g. the cluster, or the
 * processing slowdown) are swapped, so target sizes stay with the
 * processors they were made for; class_of NULL means one class.
 * Returns 0, or 1 on out of memory (message on stderr). */
int peers_relabel(const peers_case *c, const int32_t *class_of, int32_t *part);

/* Checks part (every id in [0, P)), writes it to c->out_path and prints
 * the JSON line. Returns the exit status (0 or 1). */
int peers_finish(const peers_case *c, const int32_t *part, double seconds);

#endif
