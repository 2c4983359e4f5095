/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The min-heap of vertex moves with a handle per vertex (paper §3.4). */
#include "partition/partition.h"

#include <stdlib.h>
#include <string.h>

int partition_heap_create(partition_heap *h, int32_t nids, int32_t nslots) {
  memset(h, 0, sizeof *h);
  size_t n = (size_t)(nids > 0 ? nids : 1);
  size_t m = (size_t)(nslots > 0 ? nslots : 1);
  h->id = core_malloc(sizeof(int32_t) * m);
  h->key = core_malloc(sizeof(double) * m);
  h->forced = core_malloc(m);
  h->pos = core_malloc(sizeof(int32_t) * n);
  if (!h->id || !h->key || !h->forced || !h->pos) {
    partition_heap_destroy(h);
    return core_error(MINEX_ENOMEM, "move heap: out of memory");
  }
  for (size_t i = 0; i < n; i++)
    h->pos[i] = -1;
  h->cap = (int32_t)n;
  h->nslots = (int32_t)m;
  return MINEX_OK;
}

void partition_heap_destroy(partition_heap *h) {
  core_free(h->id);
  core_free(h->key);
  core_free(h->forced);
  core_free(h->pos);
  memset(h, 0, sizeof *h);
}

/* Order: forced first, then smaller Gain, then smaller id (determinism). */
static inline int before(const partition_heap *h, int32_t a, int32_t b) {
  if (h->forced[a] != h->forced[b])
    return h->forced[a] > h->forced[b];
  if (h->key[a] != h->key[b])
    return h->key[a] < h->key[b];
  return h->id[a] < h->id[b];
}

static inline void swap_slots(partition_heap *h, int32_t a, int32_t b) {
  int32_t ia = h->id[a], ib = h->id[b];
  double k = h->key[a];
  char f = h->forced[a];
  h->id[a] = ib;
  h->key[a] = h->key[b];
  h->forced[a] = h->forced[b];
  h->id[b] = ia;
  h->key[b] = k;
  h->forced[b] = f;
  h->pos[ib] = a;
  h->pos[ia] = b;
}

static void sift_up(partition_heap *h, int32_t i) {
  while (i > 0) {
    int32_t parent = (i - 1) / 2;
    if (!before(h, i, parent))
      break;
    swap_slots(h, i, parent);
    i = parent;
  }
}

static void sift_down(partition_heap *h, int32_t i) {
  for (;;) {
    int32_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->size && before(h, l, m))
      m = l;
    if (r < h->size && before(h, r, m))
      m = r;
    if (m == i)
      return;
    swap_slots(h, i, m);
    i = m;
  }
}

void partition_heap_set(partition_heap *h, int32_t id, double key, int forced) {
  int32_t i = h->pos[id];
  if (i < 0) {
    i = h->size++;
    h->id[i] = id;
    h->pos[id] = i;
  }
  h->key[i] = key;
  h->forced[i] = (char)(forced != 0);
  sift_up(h, i);
  sift_down(h, h->pos[id]);
}

void partition_heap_remove(partition_heap *h, int32_t id) {
  int32_t i = h->pos[id];
  if (i < 0)
    return;
  int32_t last = --h->size;
  if (i != last) {
    swap_slots(h, i, last);
    h->pos[id] = -1;
    int32_t moved = h->id[i];
    sift_up(h, i);
    sift_down(h, h->pos[moved]);
  } else {
    h->pos[id] = -1;
  }
}

int32_t partition_heap_pop(partition_heap *h) {
  if (h->size == 0)
    return -1;
  int32_t id = h->id[0];
  partition_heap_remove(h, id);
  return id;
}

int partition_heap_precedes_top(const partition_heap *h, double key,
                                int forced) {
  if (h->size == 0)
    return 1;
  if ((forced != 0) != (h->forced[0] != 0))
    return forced != 0;
  return key <= h->key[0];
}

int partition_heap_check(const partition_heap *h) {
  for (int32_t i = 0; i < h->size; i++) {
    if (h->pos[h->id[i]] != i)
      return core_error(MINEX_EINTERNAL,
                        "move heap: handle of id %d is %d, "
                        "slot is %d",
                        (int)h->id[i], (int)h->pos[h->id[i]], (int)i);
    if (i > 0 && before(h, i, (i - 1) / 2))
      return core_error(MINEX_EINTERNAL,
                        "move heap: slot %d precedes its "
                        "parent",
                        (int)i);
  }
  int32_t present = 0;
  for (int32_t x = 0; x < h->cap; x++)
    if (h->pos[x] >= 0) {
      present++;
      if (h->pos[x] >= h->size || h->id[h->pos[x]] != x)
        return core_error(MINEX_EINTERNAL,
                          "move heap: id %d has a dangling "
                          "handle",
                          (int)x);
    }
  if (present != h->size)
    return core_error(MINEX_EINTERNAL,
                      "move heap: %d handles for %d "
                      "entries",
                      (int)present, (int)h->size);
  return MINEX_OK;
}
