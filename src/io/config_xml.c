/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Configuration XML (SPEC §1, §7): load validated against the schema
 * schema/minex-config.xsd, compiled into the library (config_schema.h),
 * with libxml2, then semantic checks naming the line; atomic save in the
 * same format so that load(save(c)) == c. */
#include "core/core.h"
#include "io/config_schema.h"
#include "io/io_util.h"
#include "io/xml_capture.h"

#include "core/hash.h"
#include <errno.h>
#include <float.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SCHEMA_FILE "minex-config.xsd"

/* $MINEX_SCHEMA_DIR/minex-config.xsd when that file is readable (it then
 * replaces the built-in schema), else NULL. Returns a thread-local path. */
const char *minex_config_schema_path(void) {
  static _Thread_local char buf[4096];
  const char *dir = getenv("MINEX_SCHEMA_DIR");
  if (dir == NULL || dir[0] == '\0')
    return NULL;
  int n = snprintf(buf, sizeof buf, "%s/%s", dir, SCHEMA_FILE);
  if (n > 0 && (size_t)n < sizeof buf && access(buf, R_OK) == 0)
    return buf;
  return NULL;
}

/* Cluster name -> index, for links. */
typedef struct name_entry {
  const char *name; /* points into the document (xmlChar)          */
  int32_t index;    /* cluster number, document order              */
  int line;         /* where the cluster is declared               */
  UT_hash_handle hh;
} name_entry;

typedef struct config_build {
  const char *path;  /* document path, for messages                 */
  name_entry *names; /* uthash head                                 */
  name_entry *pool;  /* cap entries backing the hash                */
  xmlChar **owned;   /* cap name strings to xmlFree                 */
  int32_t nc, cap;   /* clusters so far, capacity                   */
  int32_t *nprocs;   /* cap processor counts                        */
  double *proc;      /* cap Proc_c                                  */
  double *conn;      /* nc*nc after the clusters, 0 = not given     */
  int *conn_line;    /* nc*nc line of the link that set Conn        */
} config_build;

static int attr_double(config_build *b, xmlNodePtr node, const char *attr,
                       double dflt, double *out) {
  xmlChar *v = xmlGetProp(node, (const xmlChar *)attr);
  if (v == NULL) {
    *out = dflt;
    return MINEX_OK;
  }
  const char *why = NULL;
  if (io_parse_double((const char *)v, NULL, out) != 0)
    why = io_number_problem((const char *)v, 1);
  else if (*out <= 0)
    why = "is not positive";
  else if (*out < DBL_MIN)
    why = "is subnormal (below 2.2e-308)";
  int rc = MINEX_OK;
  if (why)
    rc = core_error(MINEX_ECONFIG,
                    "%s:%ld: %s = \"%.40s\" %s: a finite number > 0 is "
                    "expected",
                    b->path, xmlGetLineNo(node), attr, (const char *)v, why);
  xmlFree(v);
  return rc;
}

static int attr_int(config_build *b, xmlNodePtr node, const char *attr,
                    int64_t *out) {
  xmlChar *v = xmlGetProp(node, (const xmlChar *)attr);
  int rc = MINEX_OK;
  if (v == NULL || io_parse_i64((const char *)v, NULL, out) != 0 || *out < 0 ||
      *out > MINEX_NPROCS_MAX)
    rc = core_error(MINEX_ECONFIG,
                    "%s:%ld: %s = \"%.40s\": must be an "
                    "integer in 0..%d (MINEX_NPROCS_MAX)",
                    b->path, xmlGetLineNo(node), attr, v ? (const char *)v : "",
                    MINEX_NPROCS_MAX);
  xmlFree(v);
  return rc;
}

static int add_cluster(config_build *b, xmlNodePtr node) {
  long line = xmlGetLineNo(node);
  /* Conn is nc x nc: refuse before it is allocated */
  if (b->nc >= MINEX_NCLUSTERS_MAX)
    return core_error(MINEX_ECONFIG,
                      "%s:%ld: more than %d clusters "
                      "(MINEX_NCLUSTERS_MAX)",
                      b->path, line, MINEX_NCLUSTERS_MAX);
  if (b->nc == b->cap) {
    int32_t cap = b->cap ? 2 * b->cap : 8;
    /* the hash points into pool: rebuild it after moving the pool */
    name_entry *pool = malloc(sizeof *pool * (size_t)cap);
    xmlChar **owned = realloc(b->owned, sizeof *owned * (size_t)cap);
    if (owned)
      b->owned = owned;
    int32_t *np = realloc(b->nprocs, sizeof *np * (size_t)cap);
    if (np)
      b->nprocs = np;
    double *pr = realloc(b->proc, sizeof *pr * (size_t)cap);
    if (pr)
      b->proc = pr;
    if (!pool || !owned || !np || !pr) {
      free(pool);
      return core_error(MINEX_ENOMEM, "%s: out of memory", b->path);
    }
    /* a new table over the new pool; the old one stays whole until the
       new one is complete */
    name_entry *fresh = NULL;
    int hash_oom = 0;
    for (int32_t c = 0; c < b->nc && !hash_oom; c++) {
      pool[c] = b->pool[c];
      HASH_ADD_KEYPTR(hh, fresh, pool[c].name, strlen(pool[c].name), &pool[c]);
    }
    if (hash_oom) {
      HASH_CLEAR(hh, fresh);
      free(pool);
      return core_error(MINEX_ENOMEM, "%s: out of memory", b->path);
    }
    HASH_CLEAR(hh, b->names);
    b->names = fresh;
    free(b->pool);
    b->pool = pool;
    b->cap = cap;
  }
  xmlChar *name = xmlGetProp(node, (const xmlChar *)"name");
  if (name == NULL)
    return core_error(MINEX_ECONFIG, "%s:%ld: cluster without a name", b->path,
                      line);
  name_entry *old = NULL;
  HASH_FIND_STR(b->names, (const char *)name, old);
  if (old) {
    xmlFree(name);
    return core_error(MINEX_ECONFIG,
                      "%s:%ld: duplicate cluster name '%s' "
                      "(first declared on line %d)",
                      b->path, line, old->name, old->line);
  }
  int64_t np;
  double proc;
  int rc = attr_int(b, node, "procs", &np);
  if (rc == MINEX_OK)
    rc = attr_double(b, node, "proc-slowdown", 1.0, &proc);
  if (rc != MINEX_OK) {
    xmlFree(name);
    return rc;
  }
  b->owned[b->nc] = name;
  name_entry *e = &b->pool[b->nc];
  e->name = (const char *)name;
  e->index = b->nc;
  e->line = (int)line;
  int hash_oom = 0;
  HASH_ADD_KEYPTR(hh, b->names, e->name, strlen(e->name), e);
  if (hash_oom) {
    xmlFree(name);
    return core_error(MINEX_ENOMEM, "%s: out of memory", b->path);
  }
  b->nprocs[b->nc] = (int32_t)np;
  b->proc[b->nc] = proc;
  b->nc++;
  return MINEX_OK;
}

static int find_cluster(config_build *b, xmlNodePtr node, const char *attr,
                        int32_t *out) {
  xmlChar *v = xmlGetProp(node, (const xmlChar *)attr);
  name_entry *e = NULL;
  if (v)
    HASH_FIND_STR(b->names, (const char *)v, e);
  int rc = MINEX_OK;
  if (e == NULL)
    rc =
        core_error(MINEX_ECONFIG,
                   "%s:%ld: link %s=\"%.60s\" names no "
                   "declared cluster",
                   b->path, xmlGetLineNo(node), attr, v ? (const char *)v : "");
  else
    *out = e->index;
  xmlFree(v);
  return rc;
}

static int add_link(config_build *b, xmlNodePtr node) {
  int32_t c = 0, d = 0;
  double s;
  int rc = find_cluster(b, node, "from", &c);
  if (rc == MINEX_OK)
    rc = find_cluster(b, node, "to", &d);
  if (rc == MINEX_OK)
    rc = attr_double(b, node, "slowdown", NAN, &s);
  if (rc != MINEX_OK)
    return rc;
  size_t cd = (size_t)c * (size_t)b->nc + (size_t)d;
  size_t dc = (size_t)d * (size_t)b->nc + (size_t)c;
  if (b->conn[cd] != 0 && b->conn[cd] != s)
    return core_error(MINEX_ECONFIG,
                      "%s:%ld: link %s-%s slowdown %g "
                      "contradicts %g given on line %d",
                      b->path, xmlGetLineNo(node), b->pool[c].name,
                      b->pool[d].name, s, b->conn[cd], b->conn_line[cd]);
  b->conn[cd] = b->conn[dc] = s;
  b->conn_line[cd] = b->conn_line[dc] = (int)xmlGetLineNo(node);
  return MINEX_OK;
}

/* Walks the validated document and builds the configuration. */
static int build_config(config_build *b, xmlNodePtr root, minex_config **out) {
  int rc = MINEX_OK;
  double dflt = NAN;
  int has_dflt =
      xmlHasProp(root, (const xmlChar *)"default-link-slowdown") != NULL;
  if (has_dflt)
    rc = attr_double(b, root, "default-link-slowdown", NAN, &dflt);
  xmlNodePtr node = root->children;
  for (; rc == MINEX_OK && node; node = node->next)
    if (node->type == XML_ELEMENT_NODE &&
        xmlStrEqual(node->name, (const xmlChar *)"cluster"))
      rc = add_cluster(b, node);
  if (rc != MINEX_OK)
    return rc;
  size_t nc = (size_t)b->nc;
  b->conn = calloc(nc * nc, sizeof *b->conn);
  b->conn_line = calloc(nc * nc, sizeof *b->conn_line);
  if (b->conn == NULL || b->conn_line == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", b->path);
  for (node = root->children; rc == MINEX_OK && node; node = node->next)
    if (node->type == XML_ELEMENT_NODE &&
        xmlStrEqual(node->name, (const xmlChar *)"link"))
      rc = add_link(b, node);
  for (size_t c = 0; rc == MINEX_OK && c < nc; c++)
    for (size_t d = c; rc == MINEX_OK && d < nc; d++) {
      if (b->conn[c * nc + d] != 0)
        continue;
      if (c != d && !has_dflt)
        rc = core_error(MINEX_ECONFIG,
                        "%s:%ld: no link between clusters "
                        "'%s' and '%s', and no default-link-slowdown",
                        b->path, xmlGetLineNo(root), b->pool[c].name,
                        b->pool[d].name);
      b->conn[c * nc + d] = b->conn[d * nc + c] = c == d ? 1.0 : dflt;
    }
  if (rc != MINEX_OK)
    return rc;
  rc = minex_config_create(b->nc, b->nprocs, b->proc, b->conn, out);
  if (rc != MINEX_OK) {
    core_error_prefix("%s:%ld", b->path, xmlGetLineNo(root));
    return rc;
  }
  for (node = root->children; rc == MINEX_OK && node; node = node->next) {
    if (node->type != XML_ELEMENT_NODE ||
        !xmlStrEqual(node->name, (const xmlChar *)"unavailable"))
      continue;
    int64_t p;
    rc = attr_int(b, node, "proc", &p);
    if (rc == MINEX_OK && p >= minex_config_nprocs(*out))
      rc = core_error(MINEX_ECONFIG,
                      "%s:%ld: unavailable proc %lld outside "
                      "[0, %d)",
                      b->path, xmlGetLineNo(node), (long long)p,
                      (int)minex_config_nprocs(*out));
    if (rc == MINEX_OK)
      rc = minex_config_set_available(*out, (int32_t)p, 0);
  }
  if (rc != MINEX_OK) {
    minex_config_destroy(*out);
    *out = NULL;
  }
  return rc;
}

static void build_free(config_build *b) {
  HASH_CLEAR(hh, b->names);
  for (int32_t c = 0; c < b->nc; c++)
    xmlFree(b->owned[c]);
  free(b->owned);
  free(b->pool);
  free(b->nprocs);
  free(b->proc);
  free(b->conn);
  free(b->conn_line);
}

/* Parses and schema-validates path. MINEX_EIO (unreadable file or schema),
 * MINEX_EPARSE (malformed XML), MINEX_ESCHEMA (schema violation), each
 * with the line libxml2 reports. */
static int load_document(const char *path, io_xml_capture *cap,
                         xmlDocPtr *doc) {
  const char *xsd = minex_config_schema_path(); /* NULL: the built-in one */
  if (access(path, R_OK) != 0) {
    char why[128] = "";
    strerror_r(errno, why, sizeof why);
    return core_error(MINEX_EIO, "%s: cannot open for reading: %s", path, why);
  }
  xmlParserCtxtPtr pctx = xmlNewParserCtxt();
  if (pctx == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", path);
  *doc = xmlCtxtReadFile(pctx, path, NULL,
                         XML_PARSE_NONET | XML_PARSE_NOERROR |
                             XML_PARSE_NOWARNING);
  if (*doc == NULL && cap->count == 0) {
    /* libxml2 versions that do not route parser errors through the
     * global handler still keep the last one in the context */
    io_xml_capture_error(cap, xmlCtxtGetLastError(pctx));
  }
  xmlFreeParserCtxt(pctx);
  if (*doc == NULL)
    return core_error(MINEX_EPARSE, "%s:%d: malformed XML: %s", path, cap->line,
                      cap->count ? cap->msg : "cannot parse");
  io_xml_capture scap;
  memset(&scap, 0, sizeof scap);
  xmlSchemaParserCtxtPtr sp =
      xsd ? xmlSchemaNewParserCtxt(xsd)
          : xmlSchemaNewMemParserCtxt((const char *)io_config_schema,
                                      (int)io_config_schema_len);
  xmlSchemaPtr schema = NULL;
  if (sp) {
    xmlSchemaSetParserStructuredErrors(sp, io_xml_capture_error, &scap);
    schema = xmlSchemaParse(sp);
    xmlSchemaFreeParserCtxt(sp);
  }
  if (schema == NULL)
    return core_error(MINEX_EIO, "%s:%d: cannot load the schema: %s",
                      xsd ? xsd : "built-in " SCHEMA_FILE, scap.line,
                      scap.count ? scap.msg : "unknown error");
  xmlSchemaValidCtxtPtr vc = xmlSchemaNewValidCtxt(schema);
  int rc = MINEX_OK;
  if (vc == NULL) {
    rc = core_error(MINEX_ENOMEM, "%s: out of memory", path);
  } else {
    cap->count = 0;
    xmlSchemaSetValidStructuredErrors(vc, io_xml_capture_error, cap);
    int v = xmlSchemaValidateDoc(vc, *doc);
    if (v > 0)
      rc = core_error(MINEX_ESCHEMA, "%s:%d: %s", path, cap->line,
                      cap->count ? cap->msg : "schema violation");
    else if (v < 0)
      rc = core_error(MINEX_EINTERNAL,
                      "%s: libxml2 schema validation "
                      "failed internally",
                      path);
    xmlSchemaFreeValidCtxt(vc);
  }
  xmlSchemaFree(schema);
  return rc;
}

/* Loads a configuration. Errors: MINEX_EINVAL, MINEX_EIO, MINEX_EPARSE
 * (malformed XML), MINEX_ESCHEMA (violates minex-config.xsd), MINEX_ECONFIG
 * (unknown or duplicate cluster name, slowdown <= 0 or not finite,
 * contradicting links, missing link without default-link-slowdown,
 * unavailable processor >= P, no processor at all), MINEX_ENOMEM; every
 * message reads "path:line: what". libxml2 never prints: its errors are
 * captured into the message. */
int minex_config_load(const char *path, minex_config **out) {
  core_error_clear();
  if (out != NULL)
    *out = NULL; /* on every error, the bad arguments included */
  if (out == NULL || path == NULL)
    return core_error(MINEX_EINVAL, "minex_config_load: NULL path or out");
  *out = NULL;
  xmlInitParser();
  /* route anything libxml2 reports through the global (thread-local)
   * handler into cap as well, and restore the caller's handler after */
  io_xml_capture cap;
  io_xml_capture_begin(&cap);
  /* libxml2's schema types read xs:double values with sscanf: in the "C"
     locale, whatever the host program's LC_NUMERIC */
  locale_t prev = io_locale_c();
  xmlDocPtr doc = NULL;
  int rc = load_document(path, &cap, &doc);
  if (rc == MINEX_OK) {
    config_build b;
    memset(&b, 0, sizeof b);
    b.path = path;
    rc = build_config(&b, xmlDocGetRootElement(doc), out);
    build_free(&b);
  }
  xmlFreeDoc(doc);
  io_locale_restore(prev);
  io_xml_capture_end(&cap);
  return rc;
}

/* Saves config in the format minex_config_load reads: clusters named c0,
 * c1, ... in order, every link (c <= d) given explicitly, unavailable
 * processors listed; numbers in the shortest form that reads back exactly.
 * Atomic: MINEX_OK, MINEX_EINVAL or MINEX_EIO, and no file on failure. */
int minex_config_save(const minex_config *config, const char *path) {
  core_error_clear();
  if (config == NULL || path == NULL)
    return core_error(MINEX_EINVAL, "minex_config_save: NULL config or "
                                    "path");
  io_atomic af;
  int rc = io_atomic_open(&af, path);
  if (rc != MINEX_OK)
    return rc;
  FILE *fp = af.fp;
  char num[48];
  fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
              "<!-- MinEX configuration (SPEC 1), schema minex-config.xsd "
              "-->\n<minex-config version=\"1\">\n");
  int32_t nc = config->nclusters;
  for (int32_t c = 0; c < nc; c++) {
    io_format_double(num, sizeof num, config->proc[c]);
    fprintf(fp,
            "  <cluster name=\"c%d\" procs=\"%d\" proc-slowdown=\"%s\"/>"
            "\n",
            (int)c, (int)config->csize[c], num);
  }
  for (int32_t c = 0; c < nc; c++)
    for (int32_t d = c; d < nc; d++) {
      io_format_double(num, sizeof num,
                       config->conn[(size_t)c * (size_t)nc + (size_t)d]);
      fprintf(fp, "  <link from=\"c%d\" to=\"c%d\" slowdown=\"%s\"/>\n", (int)c,
              (int)d, num);
    }
  for (int32_t p = 0; p < config->nprocs; p++)
    if (!config->avail[p])
      fprintf(fp, "  <unavailable proc=\"%d\"/>\n", (int)p);
  fprintf(fp, "</minex-config>\n");
  return io_atomic_commit(&af);
}
