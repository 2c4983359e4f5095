/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DRUM machine-model XML files (SPEC §4): minex_drum_model_load reads both
 * dialects, minex_drum_model_save writes either one atomically. This file
 * reads the <node> elements and checks their attributes; drum_xml_tree.c
 * checks the tree they form and builds the model; drum_xml_save.c writes.
 *
 *
 * Dialects, told apart by the node types (one file holds one dialect):
 *  - thesis (Faik 2005, Fig. 3.5): type NETWORK_NODE | COMPUTING_NODE;
 *    name = the node number; children = "1;2;" (numbers separated by ';',
 *    trailing ';' optional, blanks allowed, "" or ";" = none) gives the
 *    tree; childrenNum, when present, must equal the number listed;
 *    description = the address, and the name too (the node number as text
 *    when there is no description or it is empty). Extension: host="..."
 *    sets the name explicitly (save writes it only when the name differs
 *    from that default).
 *  - DrumHead (Teresco, Faik, Flaherty 2005, Fig. 7): type NETWORK |
 *    SINGLE_COMPUTING | MULTIPLE_COMPUTING; nodenum = the node number;
 *    parent = the parent's nodenum, -1 at the root (required); name = the
 *    name, IP = the address ("" when absent).
 * Both: the root element is <machinemodel> (numnode, when present, must
 * equal the number of <node> elements); element and attribute names and
 * type values are case-insensitive; unknown attributes (imgx, imgy, ...),
 * the other dialect's attributes (parent in a thesis file, description in
 * a DrumHead one) and child elements of a node (<lbmethod>) are ignored,
 * as are elements other than <node> under <machinemodel>, but a <node>
 * inside a <node> is an error; an attribute given twice under different
 * spellings is an error. IsMonitorable: 1/0/true/false/yes/no, default 1.
 * Node numbers are integers 0..INT32_MAX, kept in file_id. Extensions,
 * all optional: benchmark (b_n, MFLOPS >= 0, default 0), numprocs (m >= 1,
 * default 1; MULTIPLE_COMPUTING requires it, SINGLE_COMPUTING allows only
 * 1), processes (k_n >= 0, default m), bandwidth = capacity = speed
 * (Mbit/s >= 0 of the link to the parent, default 0 = unknown), latency
 * (s >= 0), cpuuse and idle (either one marks the node measured, the other
 * then defaults to 0), traffic (Mbit/s >= 0, any node). benchmark,
 * numprocs, processes, cpuuse and idle are ignored on network nodes.
 * Numbers must fill the whole attribute and be finite.
 * Model order: file order when every node comes after its parent (so
 * load(save(m)) keeps the node indices); otherwise depth-first preorder
 * from the root, children in file order.
 * Errors read "path:line: ..." with the line where the start tag of the
 * element at fault begins (libxml2's own line for malformed XML):
 * MINEX_EIO (unreadable file); MINEX_EPARSE (malformed XML, root element
 * not <machinemodel>, nested <node>, missing or unknown type, mixed
 * dialects, missing or malformed node number, a bad number, boolean or
 * children list, negative values, numprocs < 1 or missing on
 * MULTIPLE_COMPUTING); MINEX_ECONFIG (no nodes, numnode or childrenNum
 * disagreeing with the file, duplicate node numbers, a child or parent
 * that does not exist, a node listed by two parents or twice by one, a
 * computing node with children, a node its own parent, cycles, no root or
 * several roots).
 * Save: node numbers = file_id when all are distinct and >= 0, otherwise
 * the node indices 0..n-1; numbers in the shortest text that reads back
 * to the same double; names and addresses must be UTF-8 without control
 * characters other than tab, LF, CR (MINEX_EINVAL otherwise). */
#include "drum/drum_xml.h"
#include "io/io_util.h"
#include "io/xml_capture.h"

#include "core/hash.h"
#include <errno.h>
#include <float.h>
#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlstring.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------- loading */

static const struct {
  const char *name; /* lower case; matched case-insensitively */
  int slot;
} attr_names[] = {
    {"type", DRUM_ATTR_TYPE},
    {"name", DRUM_ATTR_NAME},
    {"description", DRUM_ATTR_DESCRIPTION},
    {"host", DRUM_ATTR_HOST},
    {"ip", DRUM_ATTR_IP},
    {"nodenum", DRUM_ATTR_NODENUM},
    {"parent", DRUM_ATTR_PARENT},
    {"childrennum", DRUM_ATTR_CHILDRENNUM},
    {"children", DRUM_ATTR_CHILDREN},
    {"ismonitorable", DRUM_ATTR_MONITORABLE},
    {"benchmark", DRUM_ATTR_BENCHMARK},
    {"numprocs", DRUM_ATTR_NUMPROCS},
    {"processes", DRUM_ATTR_PROCESSES},
    {"bandwidth", DRUM_ATTR_BANDWIDTH},
    {"capacity", DRUM_ATTR_BANDWIDTH},
    {"speed", DRUM_ATTR_BANDWIDTH},
    {"latency", DRUM_ATTR_LATENCY},
    {"cpuuse", DRUM_ATTR_CPUUSE},
    {"idle", DRUM_ATTR_IDLE},
    {"traffic", DRUM_ATTR_TRAFFIC},
};

long drum_xml_elem_line(xmlNodePtr el) {
  return el->_private != NULL ? (long)(intptr_t)el->_private : xmlGetLineNo(el);
}

static const char *dialect_name(int d) {
  return d == MINEX_DRUM_DIALECT_THESIS ? "thesis (NETWORK_NODE/"
                                          "COMPUTING_NODE)"
                                        : "DrumHead (NETWORK/SINGLE_"
                                          "COMPUTING/MULTIPLE_COMPUTING)";
}

/* "node 3" once the number is known, "node" before. */
static const char *node_label(const drum_xml_node *r, char *buf, size_t cap) {
  if (r->id >= 0)
    snprintf(buf, cap, "node %ld", (long)r->id);
  else
    snprintf(buf, cap, "node");
  return buf;
}

xmlChar *drum_xml_attr_text(const drum_load *L, const drum_xml_node *r,
                            int slot, int *rc) {
  *rc = MINEX_OK;
  if (r->attr[slot] == NULL)
    return NULL;
  xmlChar *v = xmlNodeGetContent((xmlNodePtr)r->attr[slot]);
  if (v == NULL)
    *rc = core_error(MINEX_ENOMEM, "%s:%ld: out of memory", L->path, r->line);
  return v;
}

static const char *attr_spelling(const drum_xml_node *r, int slot) {
  return (const char *)r->attr[slot]->name;
}

static int parse_whole_i64(const char *s, int64_t *out) {
  char *end = NULL;
  return io_parse_i64(s, &end, out) == 0 && io_rest_blank(end) ? 0 : -1;
}

/* Integer attribute in lo..hi; *given (may be NULL) tells whether present.
 * Absent leaves *out alone. */
static int attr_int(const drum_load *L, const drum_xml_node *r, int slot,
                    int64_t lo, int64_t hi, int32_t *out, int *given) {
  int rc;
  xmlChar *v = drum_xml_attr_text(L, r, slot, &rc);
  if (given)
    *given = v != NULL;
  if (v == NULL)
    return rc;
  int64_t x = 0;
  if (parse_whole_i64((const char *)v, &x) != 0 || x < lo || x > hi) {
    char lab[48];
    rc = core_error(MINEX_EPARSE,
                    "%s:%ld: %s: %s = \"%.40s\" must be an integer in "
                    "%lld..%lld",
                    L->path, r->line, node_label(r, lab, sizeof lab),
                    attr_spelling(r, slot), (const char *)v, (long long)lo,
                    (long long)hi);
  } else {
    *out = (int32_t)x;
  }
  xmlFree(v);
  return rc;
}

/* Finite number >= 0; absent leaves *out alone. */
static int attr_num(const drum_load *L, const drum_xml_node *r, int slot,
                    double *out, int *given) {
  int rc;
  xmlChar *v = drum_xml_attr_text(L, r, slot, &rc);
  if (given)
    *given = v != NULL;
  if (v == NULL)
    return rc;
  double x = 0;
  char *end = NULL;
  const char *why = NULL;
  if (io_parse_double((const char *)v, &end, &x) != 0 || !io_rest_blank(end))
    why = io_number_problem((const char *)v, 1);
  else if (x < 0)
    why = "is negative";
  else if (x > 0 && x < DBL_MIN)
    /* rates and capacities are divided by: 1/x would overflow */
    why = "is subnormal (below 2.2e-308), too small to divide by";
  if (why) {
    char lab[48];
    rc = core_error(MINEX_EPARSE,
                    "%s:%ld: %s: %s = \"%.40s\" %s; a finite number >= 0 "
                    "is expected",
                    L->path, r->line, node_label(r, lab, sizeof lab),
                    attr_spelling(r, slot), (const char *)v, why);
  } else {
    *out = x;
  }
  xmlFree(v);
  return rc;
}

/* Copy of s without surrounding blanks into buf; "" when it does not fit
 * (no value compared against it is empty, so that never matches). */
static const char *trimmed(const char *s, char *buf, size_t cap) {
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
    s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
                   s[n - 1] == '\r'))
    n--;
  if (n >= cap)
    n = 0;
  memcpy(buf, s, n);
  buf[n] = '\0';
  return buf;
}

static int attr_bool(const drum_load *L, const drum_xml_node *r, int slot,
                     int *out) {
  int rc;
  xmlChar *v = drum_xml_attr_text(L, r, slot, &rc);
  if (v == NULL)
    return rc;
  char buf[8];
  const char *t = trimmed((const char *)v, buf, sizeof buf);
  static const char *yes[] = {"1", "true", "yes"}, *no[] = {"0", "false", "no"};
  int val = -1;
  for (int k = 0; k < 3; k++) {
    if (xmlStrcasecmp((const xmlChar *)t, (const xmlChar *)yes[k]) == 0)
      val = 1;
    if (xmlStrcasecmp((const xmlChar *)t, (const xmlChar *)no[k]) == 0)
      val = 0;
  }
  if (val < 0) {
    char lab[48];
    rc = core_error(MINEX_EPARSE,
                    "%s:%ld: %s: %s = \"%.40s\" must be 1, 0, true, false, "
                    "yes or no",
                    L->path, r->line, node_label(r, lab, sizeof lab),
                    attr_spelling(r, slot), (const char *)v);
  } else {
    *out = val;
  }
  xmlFree(v);
  return rc;
}

/* Thesis children list "1;2;" into r->kids. */
static int parse_children(const drum_load *L, drum_xml_node *r) {
  int rc;
  xmlChar *v = drum_xml_attr_text(L, r, DRUM_ATTR_CHILDREN, &rc);
  if (v == NULL)
    return rc;
  const char *s = (const char *)v;
  size_t len = strlen(s);
  r->kids = malloc(sizeof *r->kids * (len / 2 + 1));
  if (r->kids == NULL) {
    xmlFree(v);
    return core_error(MINEX_ENOMEM, "%s:%ld: out of memory", L->path, r->line);
  }
  char lab[48];
  node_label(r, lab, sizeof lab);
  char tok[64];
  const char *p = s;
  int any = !io_rest_blank(s) && strcmp(trimmed(s, tok, sizeof tok), ";") != 0;
  while (any && rc == MINEX_OK) {
    const char *semi = strchr(p, ';');
    size_t n = semi ? (size_t)(semi - p) : strlen(p);
    char *item = malloc(n + 1);
    if (item == NULL) {
      rc = core_error(MINEX_ENOMEM, "%s:%ld: out of memory", L->path, r->line);
      break;
    }
    memcpy(item, p, n);
    item[n] = '\0';
    int last = semi == NULL || io_rest_blank(semi + 1);
    int64_t x = 0;
    if (io_rest_blank(item)) { /* a final ';' ended the loop before */
      rc = core_error(MINEX_EPARSE,
                      "%s:%ld: %s: children = \"%.60s\" has an empty entry",
                      L->path, r->line, lab, s);
    } else if (parse_whole_i64(item, &x) != 0 || x < 0 || x > INT32_MAX) {
      rc = core_error(MINEX_EPARSE,
                      "%s:%ld: %s: children = \"%.60s\": \"%.40s\" is not a "
                      "node number (integer 0..%d)",
                      L->path, r->line, lab, s, item, INT32_MAX);
    } else {
      r->kids[r->nkids++] = (int32_t)x;
    }
    free(item);
    if (last)
      break;
    p = semi + 1;
  }
  xmlFree(v);
  return rc;
}

/* Node type and dialect from the type attribute. */
static int parse_type(drum_load *L, drum_xml_node *r, int *multiple) {
  int rc;
  xmlChar *v = drum_xml_attr_text(L, r, DRUM_ATTR_TYPE, &rc);
  if (v == NULL)
    return rc != MINEX_OK ? rc
                          : core_error(MINEX_EPARSE,
                                       "%s:%ld: node without a type "
                                       "attribute",
                                       L->path, r->line);
  static const struct {
    const char *name;
    int dialect;
    minex_drum_node_type type;
    int multiple;
  } types[] = {
      {"NETWORK_NODE", MINEX_DRUM_DIALECT_THESIS, MINEX_DRUM_NETWORK, 0},
      {"COMPUTING_NODE", MINEX_DRUM_DIALECT_THESIS, MINEX_DRUM_COMPUTING, 0},
      {"NETWORK", MINEX_DRUM_DIALECT_DRUMHEAD, MINEX_DRUM_NETWORK, 0},
      {"SINGLE_COMPUTING", MINEX_DRUM_DIALECT_DRUMHEAD, MINEX_DRUM_COMPUTING,
       0},
      {"MULTIPLE_COMPUTING", MINEX_DRUM_DIALECT_DRUMHEAD, MINEX_DRUM_COMPUTING,
       1},
  };
  char buf[32];
  const char *t = trimmed((const char *)v, buf, sizeof buf);
  int k = 0, nt = (int)(sizeof types / sizeof *types);
  while (k < nt &&
         xmlStrcasecmp((const xmlChar *)t, (const xmlChar *)types[k].name) != 0)
    k++;
  if (k == nt) {
    rc = core_error(MINEX_EPARSE,
                    "%s:%ld: unknown node type \"%.40s\" (expected "
                    "NETWORK_NODE, COMPUTING_NODE, NETWORK, "
                    "SINGLE_COMPUTING or MULTIPLE_COMPUTING)",
                    L->path, r->line, (const char *)v);
  } else if (L->dialect < 0) {
    L->dialect = types[k].dialect;
    L->dialect_line = r->line;
  } else if (L->dialect != types[k].dialect) {
    rc = core_error(MINEX_EPARSE,
                    "%s:%ld: node type \"%.40s\" belongs to the %s dialect, "
                    "but the node on line %ld is in the %s dialect: a file "
                    "holds one dialect",
                    L->path, r->line, (const char *)v,
                    dialect_name(types[k].dialect), L->dialect_line,
                    dialect_name(L->dialect));
  }
  if (rc == MINEX_OK) {
    r->type = types[k].type;
    *multiple = types[k].multiple;
  }
  xmlFree(v);
  return rc;
}

/* Reads one <node> element into r (values only; the tree comes later). */
static int parse_node(drum_load *L, drum_xml_node *r) {
  for (xmlAttrPtr a = r->el->properties; a != NULL; a = a->next)
    for (size_t k = 0; k < sizeof attr_names / sizeof *attr_names; k++) {
      if (xmlStrcasecmp(a->name, (const xmlChar *)attr_names[k].name) != 0)
        continue;
      int s = attr_names[k].slot;
      if (r->attr[s] != NULL)
        return core_error(
            MINEX_EPARSE, "%s:%ld: attribute %s given twice (also as %s)",
            L->path, r->line, (const char *)a->name, attr_spelling(r, s));
      r->attr[s] = a;
    }
  for (xmlNodePtr c = r->el->children; c != NULL; c = c->next)
    if (c->type == XML_ELEMENT_NODE &&
        xmlStrcasecmp(c->name, (const xmlChar *)"node") == 0)
      return core_error(MINEX_EPARSE,
                        "%s:%ld: <node> inside the <node> of line %ld: nodes "
                        "are children of <machinemodel>, the tree is given "
                        "by children/parent attributes",
                        L->path, drum_xml_elem_line(c), r->line);
  int multiple = 0;
  int rc = parse_type(L, r, &multiple);
  if (rc != MINEX_OK)
    return rc;
  int thesis = L->dialect == MINEX_DRUM_DIALECT_THESIS;
  int id_slot = thesis ? DRUM_ATTR_NAME : DRUM_ATTR_NODENUM, given = 0;
  rc = attr_int(L, r, id_slot, 0, INT32_MAX, &r->id, &given);
  if (rc == MINEX_OK && !given)
    rc = core_error(MINEX_EPARSE,
                    "%s:%ld: node without a node number (attribute %s)",
                    L->path, r->line, thesis ? "name" : "nodenum");
  char lab[48];
  node_label(r, lab, sizeof lab);
  if (rc == MINEX_OK && thesis) {
    int32_t count = 0;
    rc = parse_children(L, r);
    if (rc == MINEX_OK)
      rc = attr_int(L, r, DRUM_ATTR_CHILDRENNUM, 0, INT32_MAX, &count, &given);
    if (rc == MINEX_OK && r->nkids > 0 && r->type == MINEX_DRUM_COMPUTING)
      rc = core_error(MINEX_ECONFIG,
                      "%s:%ld: computing %s has children; only network "
                      "nodes have children",
                      L->path, r->line, lab);
    if (rc == MINEX_OK && given && count != r->nkids)
      rc = core_error(MINEX_ECONFIG,
                      "%s:%ld: %s: childrenNum = %ld but children lists %ld "
                      "nodes",
                      L->path, r->line, lab, (long)count, (long)r->nkids);
  } else if (rc == MINEX_OK) {
    rc = attr_int(L, r, DRUM_ATTR_PARENT, -1, INT32_MAX, &r->parent_id, &given);
    if (rc == MINEX_OK && !given)
      rc = core_error(MINEX_EPARSE,
                      "%s:%ld: %s has no parent attribute (-1 for the root)",
                      L->path, r->line, lab);
  }
  if (rc == MINEX_OK)
    rc = attr_bool(L, r, DRUM_ATTR_MONITORABLE, &r->monitorable);
  if (rc == MINEX_OK)
    rc = attr_num(L, r, DRUM_ATTR_BANDWIDTH, &r->bandwidth, NULL);
  if (rc == MINEX_OK)
    rc = attr_num(L, r, DRUM_ATTR_LATENCY, &r->latency, NULL);
  if (rc == MINEX_OK)
    rc = attr_num(L, r, DRUM_ATTR_TRAFFIC, &r->traffic, &r->has_traffic);
  if (rc != MINEX_OK || r->type != MINEX_DRUM_COMPUTING)
    return rc;
  rc = attr_num(L, r, DRUM_ATTR_BENCHMARK, &r->benchmark, NULL);
  if (rc == MINEX_OK)
    rc = attr_num(L, r, DRUM_ATTR_CPUUSE, &r->cpuuse, &r->has_cpuuse);
  if (rc == MINEX_OK)
    rc = attr_num(L, r, DRUM_ATTR_IDLE, &r->idle, &r->has_idle);
  if (rc == MINEX_OK)
    rc = attr_int(L, r, DRUM_ATTR_NUMPROCS, 1, MINEX_NPROCS_MAX, &r->ncpus,
                  &given);
  if (rc == MINEX_OK && !thesis && multiple && !given)
    rc = core_error(MINEX_EPARSE,
                    "%s:%ld: MULTIPLE_COMPUTING %s needs numprocs (its "
                    "number of CPUs)",
                    L->path, r->line, lab);
  if (rc == MINEX_OK && !thesis && !multiple && r->ncpus != 1)
    rc = core_error(MINEX_EPARSE,
                    "%s:%ld: SINGLE_COMPUTING %s with numprocs = %ld; use "
                    "MULTIPLE_COMPUTING for several CPUs",
                    L->path, r->line, lab, (long)r->ncpus);
  r->nprocs = r->ncpus;
  if (rc == MINEX_OK)
    rc = attr_int(L, r, DRUM_ATTR_PROCESSES, 0, MINEX_NPROCS_MAX, &r->nprocs,
                  NULL);
  return rc;
}

/* Reads the <node> elements under L->root into L->nodes, checking the root
 * element and its numnode attribute. */
static int read_nodes(drum_load *L) {
  long root_line = drum_xml_elem_line(L->root);
  if (xmlStrcasecmp(L->root->name, (const xmlChar *)"machinemodel") != 0)
    return core_error(MINEX_EPARSE,
                      "%s:%ld: root element <%.40s> is not <machinemodel>",
                      L->path, root_line, (const char *)L->root->name);
  xmlNodePtr el;
  for (el = L->root->children; el != NULL; el = el->next)
    if (el->type == XML_ELEMENT_NODE &&
        xmlStrcasecmp(el->name, (const xmlChar *)"node") == 0)
      L->n++;
  if (L->n == 0)
    return core_error(MINEX_ECONFIG, "%s:%ld: <machinemodel> holds no nodes",
                      L->path, root_line);
  L->nodes = calloc((size_t)L->n, sizeof *L->nodes);
  if (L->nodes == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", L->path);
  int32_t i = 0;
  int rc = MINEX_OK;
  for (el = L->root->children; el != NULL && rc == MINEX_OK; el = el->next) {
    if (el->type != XML_ELEMENT_NODE ||
        xmlStrcasecmp(el->name, (const xmlChar *)"node") != 0)
      continue;
    drum_xml_node *r = &L->nodes[i++];
    r->el = el;
    r->line = drum_xml_elem_line(el);
    r->id = r->parent_id = r->parent = r->index = -1;
    r->monitorable = 1;
    r->ncpus = r->nprocs = 1;
    rc = parse_node(L, r);
  }
  if (rc != MINEX_OK)
    return rc;
  for (xmlAttrPtr a = L->root->properties; a != NULL; a = a->next) {
    if (xmlStrcasecmp(a->name, (const xmlChar *)"numnode") != 0)
      continue;
    xmlChar *v = xmlNodeGetContent((xmlNodePtr)a);
    int64_t x = -1;
    if (v == NULL || parse_whole_i64((const char *)v, &x) != 0 || x < 0)
      rc = core_error(MINEX_EPARSE,
                      "%s:%ld: numnode = \"%.40s\" must be an integer >= 0",
                      L->path, root_line, v ? (const char *)v : "");
    else if (x != L->n)
      rc = core_error(MINEX_ECONFIG,
                      "%s:%ld: numnode = %lld but the file holds %ld nodes",
                      L->path, root_line, (long long)x, (long)L->n);
    xmlFree(v);
    if (rc != MINEX_OK)
      return rc;
  }
  return MINEX_OK;
}

/* SAX2 start of an element: builds the node as usual, then notes in its
 * _private the line of the tag's '<'. The parser stands after the
 * attributes here; they hold no raw '<', so the nearest one before is the
 * tag's (falls back to xmlGetLineNo when the buffer no longer holds it). */
static void start_element(void *ctx, const xmlChar *localname,
                          const xmlChar *prefix, const xmlChar *uri,
                          int nb_namespaces, const xmlChar **namespaces,
                          int nb_attributes, int nb_defaulted,
                          const xmlChar **attributes) {
  xmlParserCtxtPtr ctxt = ctx;
  xmlSAX2StartElementNs(ctx, localname, prefix, uri, nb_namespaces, namespaces,
                        nb_attributes, nb_defaulted, attributes);
  xmlParserInputPtr in = ctxt->input;
  if (ctxt->node == NULL || in == NULL || in->cur == NULL || in->base == NULL)
    return;
  long line = in->line;
  for (const xmlChar *p = in->cur; p > in->base;) {
    if (*--p == '<') {
      if (line > 0)
        ctxt->node->_private = (void *)(intptr_t)line;
      return;
    }
    if (*p == '\n')
      line--;
  }
}

int minex_drum_model_load(const char *path, minex_drum_model **out) {
  core_error_clear();
  if (out != NULL)
    *out = NULL; /* on every error, the bad arguments included */
  if (out == NULL || path == NULL)
    return core_error(MINEX_EINVAL, "minex_drum_model_load: NULL path or out");
  *out = NULL;
  if (access(path, R_OK) != 0) {
    char why[128] = "";
    strerror_r(errno, why, sizeof why);
    return core_error(MINEX_EIO, "%s: cannot open for reading: %s", path, why);
  }
  xmlInitParser();
  /* capture what libxml2 reports and restore the caller's handler after */
  io_xml_capture cap;
  io_xml_capture_begin(&cap);
  int rc = MINEX_OK;
  xmlDocPtr doc = NULL;
  xmlParserCtxtPtr pctx = xmlCreateFileParserCtxt(path);
  if (pctx == NULL) {
    rc = core_error(MINEX_EIO, "%s: cannot open for reading", path);
  } else {
    xmlCtxtUseOptions(pctx, XML_PARSE_NONET | XML_PARSE_NOERROR |
                                XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES);
    pctx->sax->startElementNs = start_element;
    xmlParseDocument(pctx);
    doc = pctx->myDoc;
    pctx->myDoc = NULL;
    if (!pctx->wellFormed) {
      if (cap.count == 0)
        io_xml_capture_error(&cap, xmlCtxtGetLastError(pctx));
      xmlFreeDoc(doc);
      doc = NULL;
    }
    xmlFreeParserCtxt(pctx);
    if (doc == NULL || xmlDocGetRootElement(doc) == NULL)
      rc = core_error(MINEX_EPARSE, "%s:%d: malformed XML: %s", path, cap.line,
                      cap.count ? cap.msg : "cannot parse");
  }
  if (rc == MINEX_OK) {
    drum_load L;
    memset(&L, 0, sizeof L);
    L.path = path;
    L.root = xmlDocGetRootElement(doc);
    L.dialect = -1;
    rc = read_nodes(&L);
    if (rc == MINEX_OK)
      rc = drum_xml_build_model(&L, out);
#ifdef MINEX_CHECKS
    if (rc == MINEX_OK && (rc = drum_model_check(*out)) != MINEX_OK) {
      minex_drum_model_destroy(*out);
      *out = NULL;
    }
#endif
    HASH_CLEAR(hh, L.by_id);
    for (int32_t i = 0; L.nodes != NULL && i < L.n; i++)
      free(L.nodes[i].kids);
    free(L.nodes);
  }
  xmlFreeDoc(doc);
  io_xml_capture_end(&cap);
  return rc;
}
