/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Error codes, their names and the per-thread last-error message. */
#include "core.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#include <stdio.h>
#include <string.h>
#include <time.h>

static _Thread_local char last_error[1024];

const char *minex_strerror(int err) {
  switch (err) {
#define MINEX_STRERROR_(name, code, msg)                                       \
  case code:                                                                   \
    return msg;
    MINEX_ERRNO_MAP(MINEX_STRERROR_)
#undef MINEX_STRERROR_
  }
  return "unknown error";
}

const char *minex_err_name(int err) {
  switch (err) {
#define MINEX_ERRNAME_(name, code, msg)                                        \
  case code:                                                                   \
    return "MINEX_" #name;
    MINEX_ERRNO_MAP(MINEX_ERRNAME_)
#undef MINEX_ERRNAME_
  }
  return "MINEX_UNKNOWN";
}

const char *minex_last_error(void) {
  return last_error;
}

int core_error(int err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return err;
}

void core_error_clear(void) {
  last_error[0] = '\0';
}

void core_error_prefix(const char *fmt, ...) {
  char prefix[512], old[sizeof last_error];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  memcpy(old, last_error, sizeof old);
  size_t n = strlen(prefix);
  if (n > sizeof last_error - 3)
    n = sizeof last_error - 3;
  memcpy(last_error, prefix, n);
  memcpy(last_error + n, ": ", 2);
  size_t room = sizeof last_error - n - 3, len = strlen(old);
  if (len > room)
    len = room;
  memcpy(last_error + n + 2, old, len);
  last_error[n + 2 + len] = '\0';
}

int core_thread_num(void) {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

double core_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int core_check_part(const char *what, int32_t nvtxs, const int32_t *part,
                    int32_t nprocs) {
  if (part == NULL)
    return core_error(MINEX_EINVAL, "%s: NULL partition array", what);
  for (int32_t v = 0; v < nvtxs; v++)
    if (part[v] < 0 || part[v] >= nprocs)
      return core_error(MINEX_EPART,
                        "%s: vertex %d has owner %d, outside [0, %d)", what,
                        (int)v, (int)part[v], (int)nprocs);
  return MINEX_OK;
}
