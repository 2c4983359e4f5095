/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal layout of the measured feedback (Watts et al. 1998, §2), for
 * its check function and the tests that corrupt it on purpose. */
#ifndef MINEX_POLICY_FEEDBACK_H
#define MINEX_POLICY_FEEDBACK_H

#include "core/rename.h"

#include "core/core.h"

struct minex_feedback {
  int32_t nprocs; /* processors, >= 1                            */
  int32_t window; /* steps remembered per processor, [1, 2^20]   */
  minex_feedback_estimator est; /* median or time-weighted ratio   */
  double *load;   /* nprocs x window ring of loads               */
  double *secs;   /* ... and times                               */
  int32_t *count; /* samples held per processor (<= window)      */
  int32_t *next;  /* ring position of the next sample            */
};

/* Verifies the sizes, the estimator, the ring positions (count in
 * [0, window], next == count until the ring is full) and that every held
 * sample is finite and positive; MINEX_EINTERNAL with a message. */
int policy_feedback_check(const minex_feedback *f);

#endif
