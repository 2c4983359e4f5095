/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DRUM machine-model XML reading, shared by drum_xml.c (the <node>
 * elements and their attributes, the entry point) and drum_xml_tree.c
 * (the tree they form, the model). Internal. */
#ifndef MINEX_COSTMODEL_DRUM_XML_H
#define MINEX_COSTMODEL_DRUM_XML_H

#include "core/rename.h"

#include "drum/drum.h"

#include "core/hash.h"
#include <libxml/tree.h>
#include <stdint.h>

/* Attributes the reader knows; aliases share a slot. */
enum {
  DRUM_ATTR_TYPE,
  DRUM_ATTR_NAME,
  DRUM_ATTR_DESCRIPTION,
  DRUM_ATTR_HOST,
  DRUM_ATTR_IP,
  DRUM_ATTR_NODENUM,
  DRUM_ATTR_PARENT,
  DRUM_ATTR_CHILDRENNUM,
  DRUM_ATTR_CHILDREN,
  DRUM_ATTR_MONITORABLE,
  DRUM_ATTR_BENCHMARK,
  DRUM_ATTR_NUMPROCS,
  DRUM_ATTR_PROCESSES,
  DRUM_ATTR_BANDWIDTH,
  DRUM_ATTR_LATENCY,
  DRUM_ATTR_CPUUSE,
  DRUM_ATTR_IDLE,
  DRUM_ATTR_TRAFFIC,
  DRUM_ATTR_COUNT
};

/* One <node> element as read, before the tree is checked. */
typedef struct drum_xml_node {
  xmlNodePtr el; /* the element                                */
  long line;     /* its line                                   */
  xmlAttrPtr attr[DRUM_ATTR_COUNT]; /* known attributes, NULL when absent */
  int32_t id; /* node number, -1 until read                 */
  minex_drum_node_type type;
  int32_t parent;    /* file position of the parent, -1: none      */
  int32_t parent_id; /* DrumHead parent attribute (-1 root)        */
  long parent_line;  /* thesis: line of the node listing this one  */
  int32_t *kids;     /* thesis: child numbers as listed            */
  int32_t nkids;     /* their count                                */
  int monitorable;   /* IsMonitorable                              */
  double benchmark, bandwidth, latency, cpuuse, idle, traffic;
  int has_cpuuse, has_idle, has_traffic;
  int32_t ncpus, nprocs; /* m and k_n of a computing node              */
  int32_t first_child;   /* file-order child list, for the DFS order   */
  int32_t next_sibling;
  int32_t index;     /* index in the model, -1 until added         */
  UT_hash_handle hh; /* node number -> node                        */
} drum_xml_node;

/* One minex_drum_model_load call. */
typedef struct drum_load {
  const char *path;     /* for messages                                  */
  xmlNodePtr root;      /* <machinemodel>                                */
  int dialect;          /* minex_drum_dialect, -1 before the first node  */
  long dialect_line;    /* line of the node that fixed the dialect       */
  drum_xml_node *nodes; /* n nodes in file order                         */
  int32_t n;
  drum_xml_node *by_id; /* uthash head                                   */
} drum_load;

/* Line where the start tag of el begins, noted by start_element in
 * drum_xml.c (xmlGetLineNo gives the line where the attributes end). */
long drum_xml_elem_line(xmlNodePtr el);

/* Text of attribute slot (xmlFree it), or NULL when absent. *rc becomes
 * MINEX_ENOMEM if libxml2 cannot copy it. */
xmlChar *drum_xml_attr_text(const drum_load *L, const drum_xml_node *r,
                            int slot, int *rc);

/* Links the nodes read into L, checks that they form one tree (one root,
 * no cycle) and builds the model from them in model order into *out.
 * Returns MINEX_OK or the first error (MINEX_ECONFIG for a bad tree) with
 * a "path:line: ..." message; *out is set only on success. The caller
 * frees L->nodes, their kids and the L->by_id index. */
int drum_xml_build_model(drum_load *L, minex_drum_model **out);

#endif
