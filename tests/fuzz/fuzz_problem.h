/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A small valid repartitioning problem made from fuzz bytes, shared by the
 * harnesses of the API (fuzz_repartition.c, fuzz_threads.c): a graph of
 * <= 200 vertices with symmetric edges and finite weights, scaled by
 * factors from 1e-300 to 1e60 (tiny and huge totals); a configuration of
 * <= 16 processors in <= 4 clusters, Proc from 1 to 1e12 (speed ratios up
 * to 1e12), Conn from 0.5 to 1e6, some processors unavailable; an old
 * partition; and every option, the horizon (1 to 1000) and the rules
 * beyond the paper among them. The same bytes give the same problem. */
#ifndef MINEX_FUZZ_PROBLEM_H
#define MINEX_FUZZ_PROBLEM_H

#include <minex.h>

#include <stddef.h>
#include <stdint.h>

typedef struct fuzz_problem {
  int32_t n;             /* vertices                                   */
  minex_graph *g;        /* the graph                                  */
  minex_config *cfg;     /* the machine                                */
  minex_options opt;     /* the options                                */
  int32_t *old;          /* [n] old owners                             */
  int all_old_available; /* every old owner is available               */
} fuzz_problem;

/* Makes the problem the bytes describe (bytes past the end read as 0). */
void fuzz_problem_make(const uint8_t *data, size_t size, fuzz_problem *p);
void fuzz_problem_free(fuzz_problem *p);

/* Runs minex_repartition with stdout and stderr (the file descriptors and
 * the stdio streams) sent to a temporary file, and fails the run
 * (FUZZ_REQUIRE) when anything was written there: the library never
 * prints (SPEC §3). Returns minex_repartition's code. */
int fuzz_repartition_silent(const fuzz_problem *p, int32_t *new_part,
                            minex_metrics *m);

/* The guarantees of minex_repartition on problem pb (SPEC §3): nothing is
 * printed; MINEX_ENOPROC when no processor is available, else MINEX_OK,
 * every vertex on an available processor, the metrics equal to a fresh
 * minex_evaluate of the output, MaxQwgt(new) <= MaxQwgt(old) when every
 * old owner is available, and the same output from a second call.
 * FUZZ_REQUIRE fails the run otherwise. */
void fuzz_problem_check(const fuzz_problem *pb);

#endif
