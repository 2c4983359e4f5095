/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex_workspace: the large buffers of a call kept for the next one
 * ("a second call on a graph of the same size allocates nothing
 * large"; ParMETIS keeps its core in the same spirit, wspace.c).
 *
 * The kernel allocates with core_malloc/calloc/realloc/free. While a call
 * runs with a workspace (core_pool_swap on the threads that work for it),
 * every request of CORE_POOL_MIN bytes or more is served from the
 * workspace's free blocks of its size class (four classes per doubling:
 * at most a fifth of a block unused) and given back to them on free, instead
 * of to and from the system. The same sequence of requests -- a call on a
 * graph of the same size, with the same options -- then finds every block
 * it needs; a class with no free block gets a new one. Exact classes, not
 * best fit: a request never takes a block a later request of the same
 * call would need, so the second call's count of new blocks is 0 (with
 * threads, requests of concurrent candidates may interleave differently;
 * see docs/reference/api.md).
 *
 * A pooled block can be freed on any thread, with or without a workspace
 * set there: core_free finds it in one process-wide table (uthash by
 * address) while any workspace holds blocks; without one, core_free is
 * free(). One mutex guards the table and every workspace's lists, held
 * for the list and table work only (zeroing and copying run outside it):
 * large requests are few (hundreds a call), and a free or realloc of a
 * small block never takes it (malloc_usable_size tells it apart: a pooled
 * block has at least CORE_POOL_MIN bytes; glibc, as the rest of the
 * library's platform). */
#include "core.h"
#include "core/hash.h"

#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Requests below this go to malloc: chunk records, per-part tables. */
#define CORE_POOL_MIN ((size_t)64 * 1024)
/* Size classes: 4 per doubling (a block at most 20% larger than its
   request), from CORE_POOL_MIN up to 2^63 bytes (class 188). */
#define CORE_POOL_CLASSES 200

typedef struct pool_block {
  void *p;
  size_t cap;  /* bytes of the block (its class's size)         */
  size_t size; /* bytes the current user asked for              */
  int cls;
  int used;
  minex_workspace *ws;
  struct pool_block *next; /* the workspace's list of its class's free */
  struct pool_block *all;  /* every block of the workspace              */
  UT_hash_handle hh;
} pool_block;

struct minex_workspace {
  pool_block *free_[CORE_POOL_CLASSES];
  pool_block *all;
  atomic_int busy;         /* a call is running with it                 */
  int64_t held, nheld;     /* bytes and blocks held                     */
  int64_t inuse, ninuse;   /* bytes and blocks handed out now           */
  int64_t peak;            /* most bytes handed out at once, this call  */
  int64_t fresh, nfresh;   /* new blocks made by this call              */
  int64_t reused, nreused; /* requests served from a kept block         */
  int64_t calls;
};

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pool_block *pool_table; /* every pooled block, by address   */
static atomic_long pool_count; /* blocks in pool_table              */
static _Thread_local minex_workspace *pool_cur;

minex_workspace *core_pool_swap(minex_workspace *ws) {
  minex_workspace *prev = pool_cur;
  pool_cur = ws;
  return prev;
}

minex_workspace *core_pool_current(void) {
  return pool_cur;
}

/* The class of n bytes (n >= CORE_POOL_MIN) and its size. */
static int pool_class(size_t n, size_t *cap) {
  size_t base = CORE_POOL_MIN;
  int c = 0;
  while (c + 4 < CORE_POOL_CLASSES && base * 2 < n && base <= SIZE_MAX / 4) {
    base *= 2;
    c += 4;
  }
  /* base < n <= 2 base (or n <= base at the first class): quarter steps */
  for (int q = 0; q <= 4; q++) {
    size_t s = base + base / 4 * (size_t)q;
    if (s >= n) {
      *cap = s;
      return c + q;
    }
  }
  *cap = n; /* beyond the table's range: its own size */
  return -1;
}

/* Takes a block of n bytes from ws (lock held): a new one (from calloc
   when zero) or a kept one (*clear set when zero: the caller zeroes it
   once the lock is given back). NULL when the system has no memory. */
static void *pool_take(minex_workspace *ws, size_t n, int zero, int *clear) {
  size_t cap;
  int c = pool_class(n, &cap);
  if (c < 0)
    return NULL; /* beyond 2^63 bytes: no system has it */
  pool_block *b = ws->free_[c];
  if (b != NULL) {
    ws->free_[c] = b->next;
    ws->reused += (int64_t)b->cap;
    ws->nreused++;
    *clear = zero;
  } else {
    b = calloc(1, sizeof *b);
    if (b == NULL)
      return NULL;
    b->p = zero ? calloc(1, cap) : malloc(cap);
    if (b->p == NULL) {
      free(b);
      return NULL;
    }
    int hash_oom = 0;
    HASH_ADD_PTR(pool_table, p, b);
    if (hash_oom) {
      free(b->p);
      free(b);
      return NULL;
    }
    b->cap = cap;
    b->cls = c;
    b->ws = ws;
    b->all = ws->all;
    ws->all = b;
    ws->held += (int64_t)cap;
    ws->nheld++;
    ws->fresh += (int64_t)cap;
    ws->nfresh++;
    atomic_fetch_add(&pool_count, 1);
  }
  b->used = 1;
  b->size = n;
  b->next = NULL;
  ws->inuse += (int64_t)cap;
  ws->ninuse++;
  if (ws->inuse > ws->peak)
    ws->peak = ws->inuse;
  return b->p;
}

/* Gives b back to its workspace (lock held). */
static void pool_give(pool_block *b) {
  minex_workspace *ws = b->ws;
  b->used = 0;
  ws->inuse -= (int64_t)b->cap;
  ws->ninuse--;
  b->next = ws->free_[b->cls];
  ws->free_[b->cls] = b;
}

/* The pooled block at p, or NULL (lock held). */
static pool_block *pool_find(void *p) {
  pool_block *b = NULL;
  HASH_FIND_PTR(pool_table, &p, b);
  return b;
}

/* pool_take under the lock, then the zeroing of a kept block outside. */
static void *pool_take_locked(minex_workspace *ws, size_t n, int zero) {
  int clear = 0;
  pthread_mutex_lock(&pool_mu);
  void *p = pool_take(ws, n, zero, &clear);
  pthread_mutex_unlock(&pool_mu);
  if (clear)
    memset(p, 0, n);
  return p;
}

static void *pool_alloc(size_t n, int zero) {
  minex_workspace *ws = pool_cur;
  if (ws == NULL || n < CORE_POOL_MIN)
    return zero ? calloc(1, n) : malloc(n);
  return pool_take_locked(ws, n, zero);
}

/* 1 when p may be a pooled block: some workspace holds blocks and p's
   block is large enough (small frees and reallocs take no lock). */
static int maybe_pooled(void *p) {
  return atomic_load(&pool_count) > 0 && malloc_usable_size(p) >= CORE_POOL_MIN;
}

void *core_malloc(size_t n) {
  return pool_alloc(n, 0);
}

void *core_calloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size)
    return NULL;
  return pool_alloc(count * size, 1);
}

void core_free(void *p) {
  if (p == NULL)
    return;
  if (maybe_pooled(p)) {
    pthread_mutex_lock(&pool_mu);
    pool_block *b = pool_find(p);
    if (b != NULL) {
      /* a block given back twice (a caller's bug) stays in the pool
         rather than reaching free() while the pool holds it */
      if (b->used)
        pool_give(b);
      pthread_mutex_unlock(&pool_mu);
      return;
    }
    pthread_mutex_unlock(&pool_mu);
  }
  free(p);
}

void *core_realloc(void *p, size_t n) {
  if (p == NULL)
    return core_malloc(n);
  if (maybe_pooled(p)) {
    pthread_mutex_lock(&pool_mu);
    pool_block *b = pool_find(p);
    if (b != NULL) {
      if (!b->used || n <= b->cap) { /* (!used: a caller's bug) */
        if (b->used)
          b->size = n;
        pthread_mutex_unlock(&pool_mu);
        return b->used ? p : NULL;
      }
      /* a larger block of the same workspace, the contents copied
         outside the lock; this block is the caller's until then */
      minex_workspace *ws = b->ws;
      size_t size = b->size;
      pthread_mutex_unlock(&pool_mu);
      void *q = pool_take_locked(ws, n, 0);
      if (q == NULL)
        return NULL;
      memcpy(q, p, size);
      core_free(p);
      return q;
    }
    pthread_mutex_unlock(&pool_mu);
  }
  minex_workspace *ws = pool_cur;
  if (ws == NULL || n < CORE_POOL_MIN)
    return realloc(p, n);
  /* a small buffer grown large: into the workspace */
  size_t old = malloc_usable_size(p);
  void *q = pool_take_locked(ws, n, 0);
  if (q == NULL)
    return NULL;
  memcpy(q, p, old < n ? old : n);
  free(p);
  return q;
}

/* ------------------------------------------------------------ public */

int minex_workspace_create(minex_workspace **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_workspace_create: out is NULL");
  minex_workspace *ws = calloc(1, sizeof *ws);
  if (ws == NULL)
    return core_error(MINEX_ENOMEM, "minex_workspace_create: out of memory");
  atomic_init(&ws->busy, 0);
  *out = ws;
  return MINEX_OK;
}

/* Removes ws's blocks from the pool (lock held): the free ones are freed;
   those in use (used = 1; only after a library bug) are left to their
   holder as plain malloc blocks, which core_free will then free(). */
static void pool_drop(minex_workspace *ws, int used) {
  pool_block **link = &ws->all;
  while (*link != NULL) {
    pool_block *b = *link;
    if (b->used != used) {
      link = &b->all;
      continue;
    }
    *link = b->all;
    HASH_DEL(pool_table, b);
    atomic_fetch_sub(&pool_count, 1);
    ws->held -= (int64_t)b->cap;
    ws->nheld--;
    if (used) {
      ws->inuse -= (int64_t)b->cap;
      ws->ninuse--;
    } else {
      free(b->p);
    }
    free(b);
  }
  if (!used)
    memset(ws->free_, 0, sizeof ws->free_);
}

/* Frees ws's blocks that are not in use (all of them between calls). */
static void pool_drop_free(minex_workspace *ws) {
  pthread_mutex_lock(&pool_mu);
  pool_drop(ws, 0);
  pthread_mutex_unlock(&pool_mu);
}

void minex_workspace_destroy(minex_workspace *ws) {
  if (ws == NULL)
    return;
  /* (documented: not during a call with it; should one still hold a
     block, it becomes that holder's plain malloc block) */
  pthread_mutex_lock(&pool_mu);
  pool_drop(ws, 0);
  pool_drop(ws, 1);
  pthread_mutex_unlock(&pool_mu);
  free(ws);
}

int minex_workspace_trim(minex_workspace *ws) {
  core_error_clear();
  if (ws == NULL)
    return core_error(MINEX_EINVAL, "minex_workspace_trim: ws is NULL");
  int expected = 0;
  if (!atomic_compare_exchange_strong(&ws->busy, &expected, 1))
    return core_error(MINEX_EINVAL, "minex_workspace_trim: the workspace is "
                                    "in use by a running call");
  pool_drop_free(ws);
  atomic_store(&ws->busy, 0);
  return MINEX_OK;
}

int minex_workspace_get_stats(const minex_workspace *ws,
                              minex_workspace_stats *out) {
  core_error_clear();
  if (ws == NULL || out == NULL)
    return core_error(MINEX_EINVAL, "minex_workspace_get_stats: %s is NULL",
                      ws == NULL ? "ws" : "out");
  pthread_mutex_lock(&pool_mu);
  out->bytes_held = ws->held;
  out->blocks_held = ws->nheld;
  out->bytes_peak = ws->peak;
  out->bytes_new = ws->fresh;
  out->blocks_new = ws->nfresh;
  out->bytes_reused = ws->reused;
  out->blocks_reused = ws->nreused;
  out->calls = ws->calls;
  pthread_mutex_unlock(&pool_mu);
  return MINEX_OK;
}

int core_pool_begin(minex_workspace *ws, const char *fn) {
  if (ws == NULL)
    return MINEX_OK;
  int expected = 0;
  if (!atomic_compare_exchange_strong(&ws->busy, &expected, 1))
    return core_error(MINEX_EINVAL,
                      "%s: options.workspace is in use by another call (a "
                      "workspace serves one call at a time)",
                      fn);
  pthread_mutex_lock(&pool_mu);
  ws->peak = ws->inuse;
  ws->fresh = ws->nfresh = ws->reused = ws->nreused = 0;
  ws->calls++;
  pthread_mutex_unlock(&pool_mu);
  return MINEX_OK;
}

int core_pool_end(minex_workspace *ws, const char *fn) {
  if (ws == NULL)
    return MINEX_OK;
  pthread_mutex_lock(&pool_mu);
  int64_t left = ws->ninuse;
  if (left != 0) /* a library bug: the blocks leave the workspace */
    pool_drop(ws, 1);
  pthread_mutex_unlock(&pool_mu);
  atomic_store(&ws->busy, 0);
  if (left != 0)
    return core_error(MINEX_EINTERNAL,
                      "%s: %lld blocks of the workspace still in use at the "
                      "end of the call",
                      fn, (long long)left);
  return MINEX_OK;
}
