/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the MPI test programs share: who we are, a failure count, and
 * CHECK, which prints a failed condition with its rank and line. Each
 * program includes it once (the variables are its own). */
#ifndef MINEX_TEST_MPI_CHECK_H
#define MINEX_TEST_MPI_CHECK_H

#include <stdio.h>

static int rank, size, fails;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "rank %d: %s:%d: ", rank, __FILE__, __LINE__);           \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      fails++;                                                                 \
    }                                                                          \
  } while (0)

#endif
