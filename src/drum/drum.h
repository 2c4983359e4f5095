/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal layout of the DRUM machine model (SPEC §4). */
#ifndef MINEX_DRUM_DRUM_H
#define MINEX_DRUM_DRUM_H

#include "core/rename.h"

#include "core/core.h"
#include "minex_drum.h"

struct minex_drum_model {
  int32_t n;              /* nodes                                        */
  int32_t cap;            /* allocated entries of nodes                   */
  minex_drum_node *nodes; /* node i; parents come before children; name
                             and address are owned (malloc'd) strings    */
};

/* Sets the strings of node i (copies; NULL means ""). */
int drum_set_strings(minex_drum_model *m, int32_t i, const char *name,
                     const char *address);

/* Checks node index i of m for the function `what`. */
int drum_check_node(const minex_drum_model *m, int32_t i, const char *what);

/* Verifies the model: n <= cap, one root (node 0, parent -1), parents
 * before children and of network type (computing nodes are leaves),
 * known types, strings set, ncpus >= 1, nprocs >= 0, link and
 * benchmark values finite and >= 0; MINEX_EINTERNAL with a message. */
int drum_model_check(const minex_drum_model *m);

#endif
