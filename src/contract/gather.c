/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The edge accumulator and neighbour gathering over stale edge ends. */
#include "contract/contract.h"

#include <stdlib.h>
#include <string.h>

int contract_acc_reserve(contract_acc *acc, int64_t ends) {
  if (ends < 1)
    ends = 1;
  if (ends > acc->cap) {
    int64_t cap = acc->cap + acc->cap / 2;
    cap = cap > ends ? cap : ends;
    int32_t *l = core_realloc(acc->list, sizeof(int32_t) * (size_t)cap);
    if (l == NULL)
      return core_error(MINEX_ENOMEM,
                        "contraction: out of memory for a "
                        "gather of %lld ends",
                        (long long)ends);
    acc->list = l;
    double *a = core_realloc(acc->lacc, sizeof(double) * (size_t)cap);
    if (a == NULL)
      return core_error(MINEX_ENOMEM,
                        "contraction: out of memory for a "
                        "gather of %lld ends",
                        (long long)ends);
    acc->lacc = a;
    acc->cap = cap;
  }
  int32_t bits = acc->slot_max > 4 ? acc->slot_max : 4;
  while (((int64_t)1 << bits) < 2 * ends + 2)
    bits++;
  if (acc->slot == NULL || bits > acc->slot_max) {
    /* zeroed pages: stamps start at 0, and small gathers never touch most
       of the table */
    contract_slot *t = core_calloc((size_t)1 << bits, sizeof(contract_slot));
    if (t == NULL)
      return core_error(MINEX_ENOMEM,
                        "contraction: out of memory for a "
                        "gather of %lld ends",
                        (long long)ends);
    core_free(acc->slot);
    acc->slot = t;
    acc->slot_max = bits;
    acc->slot_used = 0;
    acc->stamp = 0;
  }
  return MINEX_OK;
}

void contract_acc_free(contract_acc *acc) {
  core_free(acc->list);
  core_free(acc->lacc);
  core_free(acc->slot);
  memset(acc, 0, sizeof *acc);
}

/* The table for a gather of more than CONTRACT_ACC_SCAN ends. */
void contract_acc_table(contract_acc *acc, int64_t ends) {
  int32_t bits = 4;
  /* the reserve made the full table at least twice the ends */
  while (((int64_t)1 << bits) < 2 * ends && bits < acc->slot_max)
    bits++;
  acc->slot_bits = bits;
  if (bits > acc->slot_used)
    acc->slot_used = bits;
  if (++acc->stamp == INT32_MAX) {
    for (int64_t i = 0; i < ((int64_t)1 << acc->slot_used); i++)
      acc->slot[i].stamp = 0;
    acc->stamp = 1;
  }
}

int32_t contract_gather(contract_ws *ws, int32_t x) {
  const int32_t *adj;
  const double *cw;
  int64_t len;
  int32_t cnt = 0;
  contract_edges(ws, x, &adj, &cw, &len);
  contract_acc_begin(&ws->acc, len);
  for (int64_t j = 0; j < len; j++) {
    int32_t r = contract_find(ws, adj[j]);
    if (r != x)
      contract_acc_add(&ws->acc, r, cw[j], &cnt);
  }
  return cnt;
}
