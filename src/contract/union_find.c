/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Union/Find with merge and lookup (paper Fig. 2) and neighbour gathering
 * over stale edge ends. */
#include "contract/contract.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Fig. 2's lookup as path halving: every id on the path is pointed at its
 * grandparent, so chains shrink as they are walked. Iterative, so long
 * merge chains cannot overflow the stack. Merges are never undone while
 * contracting, so a shortcut stays an ancestor. */
int32_t contract_find_slow(contract_ws *ws, int32_t x) {
  contract_node *nd = ws->nd;
  while (nd[x].par != x) {
    int32_t p = nd[x].par;
    nd[x].par = nd[p].par;
    x = p;
  }
  return x;
}

/* The table for a gather of more than CONTRACT_ACC_SCAN ends. */
void contract_acc_table(contract_ws *ws, int64_t ends) {
  int32_t bits = 4;
  /* at most 2n distinct keys: the full table is never more than half
     full */
  while (((int64_t)1 << bits) < 2 * ends && bits < ws->slot_max)
    bits++;
  ws->slot_bits = bits;
  if (bits > ws->slot_used)
    ws->slot_used = bits;
  if (++ws->stamp == INT32_MAX) {
    for (int64_t i = 0; i < ((int64_t)1 << ws->slot_used); i++)
      ws->slot[i].stamp = 0;
    ws->stamp = 1;
  }
}

int32_t contract_gather(contract_ws *ws, int32_t x) {
  const int32_t *adj;
  const double *cw;
  int64_t len;
  int32_t cnt = 0;
  contract_edges(ws, x, &adj, &cw, &len);
  contract_acc_begin(ws, len);
  if (ws->parent == NULL) /* contracting: the common case */
    for (int64_t j = 0; j < len; j++) {
      int32_t r = contract_find_uf(ws, adj[j]);
      if (r != x)
        contract_acc_add(ws, r, cw[j], &cnt);
    }
  else
    for (int64_t j = 0; j < len; j++) {
      int32_t r = contract_find(ws, adj[j]);
      if (r != x)
        contract_acc_add(ws, r, cw[j], &cnt);
    }
  return cnt;
}
