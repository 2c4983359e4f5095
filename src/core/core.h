/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal definitions shared by the library's folders: the layouts of the
 * opaque objects and the error-reporting helpers. */
#ifndef MINEX_CORE_H
#define MINEX_CORE_H

#include "core/rename.h"

#include "minex.h"

#include <stdarg.h>
#include <stddef.h>

struct minex_graph {
  int32_t nvtxs;   /* |V|                                              */
  int64_t *xadj;   /* nvtxs+1 offsets into adjncy                      */
  int32_t *adjncy; /* neighbours, each row sorted ascending            */
  double *pwgt;    /* Pwgt_v >= 0, processing cost                     */
  double *rwgt;    /* Rwgt_v >= 0, remapping cost                      */
  double *cwgt;    /* Cwgt per adjncy entry, same both directions      */
};

struct minex_config {
  int32_t nclusters;    /* C                                             */
  int32_t nprocs;       /* P = sum of cluster sizes                      */
  int32_t navail;       /* processors marked available                   */
  int32_t *csize;       /* nclusters processor counts                    */
  int32_t *cfirst;      /* nclusters+1: first processor of each cluster  */
  double *proc;         /* nclusters Proc_c > 0                          */
  double *conn;         /* nclusters^2 Conn(c,d) > 0, symmetric          */
  int32_t *cluster;     /* nprocs: cluster of each processor             */
  unsigned char *avail; /* nprocs: 1 available, 0 not                  */
};

/* Frees a graph's arrays (a graph held in another struct) and zeroes it. */
void core_graph_free_arrays(minex_graph *g);

/* Records a formatted message as this thread's last error and returns err,
 * so failures read `return core_error(MINEX_EGRAPH, "...", ...);`. */
int core_error(int err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Clears the last-error message (called at the start of public calls). */
void core_error_clear(void);
/* Prepends "prefix: " to the current last-error message. */
void core_error_prefix(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* The kernel's allocations (pool.c): malloc, calloc, realloc and free,
 * with requests of 64 KiB and more served from the calling thread's
 * workspace when one is set (core_pool_swap). core_free and core_realloc
 * take any pointer of these four or of malloc, on any thread. */
void *core_malloc(size_t n);
void *core_calloc(size_t count, size_t size);
void *core_realloc(void *p, size_t n);
void core_free(void *p);
/* Sets the calling thread's workspace (NULL: none) and returns the one it
 * replaces, which the caller restores when done. */
minex_workspace *core_pool_swap(minex_workspace *ws);
minex_workspace *core_pool_current(void);
/* The start and end of a call with options.workspace = ws (NULL: no-ops):
 * begin refuses a workspace another call is using; end reports blocks
 * still handed out (a library bug) as MINEX_EINTERNAL naming fn. */
int core_pool_begin(minex_workspace *ws, const char *fn);
int core_pool_end(minex_workspace *ws, const char *fn);

/* Monotonic wall clock in seconds. */
double core_wtime(void);

/* The calling thread's number in the current OpenMP team (0 outside one,
 * or without OpenMP): which worker's scratch a parallel loop uses. */
int core_thread_num(void);

/* What the parallel regions of a call cost (projection to more
 * cores): the wall time spent inside them, the sum of their units' times
 * (chunks, blocks of tests: the work) and the sum over the regions of
 * their largest unit (the span, which no number of threads shortens). */
typedef struct core_par {
  double wall, work, span;
} core_par;

/* qsort's comparison of int64_t values. */
static inline int core_i64_cmp(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The first entry of a[0..n-1] (ascending) that is >= key; n when none. */
static inline int64_t core_lower_i64(const int64_t *a, int64_t n, int64_t key) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (a[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static inline void core_par_add(core_par *to, const core_par *from) {
  to->wall += from->wall;
  to->work += from->work;
  to->span += from->span;
}

/* Checks a partition array: every owner in [0, nprocs). */
int core_check_part(const char *what, int32_t nvtxs, const int32_t *part,
                    int32_t nprocs);

/* Validates option values; MINEX_EINVAL naming the field. */
int core_check_options(const minex_options *options);
/* The value options as "name=value ..." into buf (at most len bytes, cut
 * short when longer); returns the whole length, as snprintf. */
size_t core_options_format(const minex_options *options, char *buf, size_t len);
/* A hash of every option that changes the result (the MPI layer's check
 * that the ranks agree): the value options, whether qwgt_fn is set, the
 * throttle candidates. */
uint64_t core_options_hash(const minex_options *options);

#endif
