/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DRUM machine-model XML, reading (the format is described at the top of
 * drum_xml.c): the tree formed by the <node> elements read there, parent
 * links, one root, no cycle, and the model built from it in model order. */
#include "drum/drum_xml.h"

#include "core/hash.h"
#include <libxml/tree.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- tree */

/* Node with this number, or NULL. */
static drum_xml_node *find_id(const drum_load *L, int32_t id) {
  drum_xml_node *e = NULL;
  HASH_FIND(hh, L->by_id, &id, sizeof id, e);
  return e;
}

/* Indexes the nodes by number and sets each node's parent. */
static int link_nodes(drum_load *L) {
  for (int32_t i = 0; i < L->n; i++) {
    drum_xml_node *r = &L->nodes[i], *old = find_id(L, r->id);
    if (old != NULL)
      return core_error(MINEX_ECONFIG,
                        "%s:%ld: duplicate node number %ld (first on line "
                        "%ld)",
                        L->path, r->line, (long)r->id, old->line);
    int hash_oom = 0;
    HASH_ADD(hh, L->by_id, id, sizeof r->id, r);
    if (hash_oom)
      return core_error(MINEX_ENOMEM, "%s: out of memory", L->path);
  }
  for (int32_t i = 0; i < L->n; i++) {
    drum_xml_node *r = &L->nodes[i];
    if (L->dialect == MINEX_DRUM_DIALECT_THESIS) {
      for (int32_t k = 0; k < r->nkids; k++) {
        drum_xml_node *c = find_id(L, r->kids[k]);
        if (c == NULL)
          return core_error(MINEX_ECONFIG,
                            "%s:%ld: node %ld lists child %ld, which does "
                            "not exist",
                            L->path, r->line, (long)r->id, (long)r->kids[k]);
        if (c == r)
          return core_error(MINEX_ECONFIG,
                            "%s:%ld: node %ld lists itself as its child "
                            "(a cycle)",
                            L->path, r->line, (long)r->id);
        if (c->parent == i)
          return core_error(MINEX_ECONFIG,
                            "%s:%ld: node %ld lists child %ld twice", L->path,
                            r->line, (long)r->id, (long)c->id);
        if (c->parent >= 0)
          return core_error(MINEX_ECONFIG,
                            "%s:%ld: node %ld lists child %ld, which node "
                            "%ld (line %ld) lists already: a node has one "
                            "parent",
                            L->path, r->line, (long)r->id, (long)c->id,
                            (long)L->nodes[c->parent].id, c->parent_line);
        c->parent = i;
        c->parent_line = r->line;
      }
    } else if (r->parent_id >= 0) {
      drum_xml_node *p = find_id(L, r->parent_id);
      if (p == NULL)
        return core_error(MINEX_ECONFIG,
                          "%s:%ld: node %ld: parent %ld does not exist",
                          L->path, r->line, (long)r->id, (long)r->parent_id);
      if (p == r)
        return core_error(MINEX_ECONFIG,
                          "%s:%ld: node %ld is its own parent (a cycle)",
                          L->path, r->line, (long)r->id);
      if (p->type != MINEX_DRUM_NETWORK)
        return core_error(MINEX_ECONFIG,
                          "%s:%ld: node %ld: parent %ld (line %ld) is a "
                          "computing node; only network nodes have children",
                          L->path, r->line, (long)r->id, (long)p->id, p->line);
      r->parent = (int32_t)(p - L->nodes);
    }
  }
  return MINEX_OK;
}

/* Exactly one root, and every node reachable from it (no cycle). */
static int check_tree(drum_load *L, int32_t *root) {
  *root = -1;
  for (int32_t i = 0; i < L->n; i++) {
    if (L->nodes[i].parent >= 0)
      continue;
    if (*root >= 0)
      return core_error(MINEX_ECONFIG,
                        "%s:%ld: node %ld has no parent, nor has node %ld "
                        "(line %ld): a model has exactly one root",
                        L->path, L->nodes[i].line, (long)L->nodes[i].id,
                        (long)L->nodes[*root].id, L->nodes[*root].line);
    *root = i;
  }
  if (*root < 0)
    return core_error(MINEX_ECONFIG,
                      "%s:%ld: no root: every node has a parent, so the "
                      "parents form a cycle",
                      L->path, drum_xml_elem_line(L->root));
  /* 0 unseen, 1 on the current walk up, 2 leads to the root */
  unsigned char *state = calloc((size_t)L->n, 1);
  if (state == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", L->path);
  int rc = MINEX_OK;
  for (int32_t s = 0; s < L->n && rc == MINEX_OK; s++) {
    int32_t v = s;
    while (v >= 0 && state[v] == 0) {
      state[v] = 1;
      v = L->nodes[v].parent;
    }
    if (v >= 0 && state[v] == 1) {
      /* v is on a cycle: describe it from its first member in the file */
      int32_t first = v;
      for (int32_t w = L->nodes[v].parent; w != v; w = L->nodes[w].parent)
        if (w < first)
          first = w;
      char desc[200];
      size_t len =
          (size_t)snprintf(desc, sizeof desc, "%ld", (long)L->nodes[first].id);
      int32_t w = first;
      for (int k = 0; k < 12; k++) {
        w = L->nodes[w].parent;
        len += (size_t)snprintf(desc + len, sizeof desc - len, " -> %ld",
                                (long)L->nodes[w].id);
        if (w == first || len >= sizeof desc - 24)
          break;
      }
      if (w != first)
        snprintf(desc + len, sizeof desc - len, " -> ...");
      rc = core_error(MINEX_ECONFIG,
                      "%s:%ld: the nodes form a cycle, each the parent of "
                      "the one before: %s",
                      L->path, L->nodes[first].line, desc);
    }
    for (int32_t w = s; w >= 0 && state[w] == 1; w = L->nodes[w].parent)
      state[w] = 2;
  }
  free(state);
  return rc;
}

/* Order in which the nodes enter the model (see the top of drum_xml.c). */
static int model_order(drum_load *L, int32_t root, int32_t *order) {
  int in_order = 1;
  for (int32_t i = 0; i < L->n; i++)
    if (L->nodes[i].parent >= i)
      in_order = 0;
  if (in_order) {
    for (int32_t i = 0; i < L->n; i++)
      order[i] = i;
    return MINEX_OK;
  }
  for (int32_t i = 0; i < L->n; i++)
    L->nodes[i].first_child = L->nodes[i].next_sibling = -1;
  for (int32_t i = L->n - 1; i >= 0; i--) { /* prepend: file order */
    int32_t p = L->nodes[i].parent;
    if (p >= 0) {
      L->nodes[i].next_sibling = L->nodes[p].first_child;
      L->nodes[p].first_child = i;
    }
  }
  int32_t *stack = malloc(sizeof *stack * (size_t)L->n);
  if (stack == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", L->path);
  int32_t top = 0, k = 0;
  stack[top++] = root;
  while (top > 0) {
    int32_t v = stack[--top];
    order[k++] = v;
    /* push children in reverse so the first listed comes out first */
    int32_t nc = 0;
    for (int32_t c = L->nodes[v].first_child; c >= 0;
         c = L->nodes[c].next_sibling)
      stack[top + nc++] = c;
    for (int32_t a = 0, b = nc - 1; a < b; a++, b--) {
      int32_t t = stack[top + a];
      stack[top + a] = stack[top + b];
      stack[top + b] = t;
    }
    top += nc;
  }
  free(stack);
  return MINEX_OK;
}

/* Adds node r to the model with its strings and values. */
static int add_to_model(drum_load *L, drum_xml_node *r, minex_drum_model *m) {
  int rc = MINEX_OK;
  xmlChar *name = NULL, *address = NULL;
  char idtext[16];
  snprintf(idtext, sizeof idtext, "%ld", (long)r->id);
  const char *nm;
  if (L->dialect == MINEX_DRUM_DIALECT_THESIS) {
    address = drum_xml_attr_text(L, r, DRUM_ATTR_DESCRIPTION, &rc);
    if (rc == MINEX_OK)
      name = drum_xml_attr_text(L, r, DRUM_ATTR_HOST, &rc);
    nm = name                    ? (const char *)name
         : address && address[0] ? (const char *)address
                                 : idtext;
  } else {
    name = drum_xml_attr_text(L, r, DRUM_ATTR_NAME, &rc);
    if (rc == MINEX_OK)
      address = drum_xml_attr_text(L, r, DRUM_ATTR_IP, &rc);
    nm = name ? (const char *)name : "";
  }
  int32_t parent = r->parent < 0 ? -1 : L->nodes[r->parent].index;
  if (rc == MINEX_OK)
    rc = minex_drum_add_node(m, r->type, parent, nm, &r->index);
  if (rc == MINEX_OK)
    rc = drum_set_strings(m, r->index, nm, (const char *)address);
  xmlFree(name);
  xmlFree(address);
  if (rc != MINEX_OK)
    goto done;
  m->nodes[r->index].file_id = r->id;
  m->nodes[r->index].monitorable = r->monitorable;
  rc = minex_drum_set_link(m, r->index, r->bandwidth, r->latency);
  if (rc == MINEX_OK && r->type == MINEX_DRUM_COMPUTING) {
    rc = minex_drum_set_benchmark(m, r->index, r->benchmark);
    if (rc == MINEX_OK)
      rc = minex_drum_set_cpus(m, r->index, r->ncpus, r->nprocs);
    if (rc == MINEX_OK && (r->has_cpuuse || r->has_idle))
      rc = minex_drum_set_measured(m, r->index, r->cpuuse, r->idle, r->traffic);
  }
  if (rc == MINEX_OK && r->has_traffic)
    rc = minex_drum_set_traffic(m, r->index, r->traffic);
done:
  if (rc != MINEX_OK && rc != MINEX_ENOMEM)
    core_error_prefix("%s:%ld", L->path, r->line);
  return rc;
}

int drum_xml_build_model(drum_load *L, minex_drum_model **out) {
  int32_t root = -1;
  int rc = link_nodes(L);
  if (rc == MINEX_OK)
    rc = check_tree(L, &root);
  if (rc != MINEX_OK)
    return rc;
  int32_t *order = malloc(sizeof *order * (size_t)L->n);
  if (order == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", L->path);
  rc = model_order(L, root, order);
  minex_drum_model *m = NULL;
  if (rc == MINEX_OK)
    rc = minex_drum_model_create(&m);
  for (int32_t k = 0; k < L->n && rc == MINEX_OK; k++)
    rc = add_to_model(L, &L->nodes[order[k]], m);
  free(order);
  if (rc != MINEX_OK) {
    minex_drum_model_destroy(m);
    return rc;
  }
  *out = m;
  return MINEX_OK;
}
