/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Gmsh .msh binary reader (file-type 1), versions 2.x, 4.0 and 4.1, either
 * byte order (SPEC §7): the whole file in memory, section keywords as text
 * lines, data as raw ints (4 bytes), size_t (8) and doubles (8) of the
 * writer's endianness, found from the int 1 after $MeshFormat. 4.0 differs
 * from 4.1: section and block counts are the writer's unsigned long (8
 * bytes on 64-bit Linux and macOS, 4 on Windows: the size with which the
 * $Nodes blocks end exactly at $EndNodes), there are no min/max tags, block
 * headers put the entity tag before its dimension, node and element tags
 * are ints and each node's tag precedes its coordinates. Every count is
 * checked against the bytes left before it is used. Node tags, element
 * types and partitioned entities as in gmsh.c. */
#include "mesh/gmsh.h"

#include "core/core.h"

#include <stdlib.h>
#include <string.h>

#define PATH g->r.path

#define OFF ((unsigned long long)g->pos)

static int bin_need(gmsh_reader *g, uint64_t n, uint64_t size,
                    const char *what) {
  return mesh_bin_need(PATH, g->pos, g->len, n, size, what);
}

static uint64_t bin_raw(gmsh_reader *g, int size) {
  const unsigned char *p = (const unsigned char *)g->buf + g->pos;
  uint64_t u = 0;
  for (int b = 0; b < size; b++)
    u |= (uint64_t)p[g->swap ? size - 1 - b : b] << (8 * b);
  g->pos += (size_t)size;
  return u;
}

static int64_t bin_int(gmsh_reader *g) { /* 4-byte signed */
  return (int64_t)(int32_t)(uint32_t)bin_raw(g, 4);
}

static uint64_t bin_size(gmsh_reader *g) {
  return bin_raw(g, 8);
}

/* A section or block count: size_t in 4.1, unsigned long in 4.0. */
static uint64_t bin_count(gmsh_reader *g) {
  return bin_raw(g, g->ulong);
}

static double bin_double(gmsh_reader *g) {
  uint64_t u = bin_raw(g, 8);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* Next text line into line[cap], skipping blank ones; 0 at end of file. */
static int bin_line(gmsh_reader *g, char *line, size_t cap) {
  for (;;) {
    if (g->pos >= g->len)
      return 0;
    size_t e = g->pos;
    while (e < g->len && g->buf[e] != '\n')
      e++;
    size_t n = e - g->pos < cap - 1 ? e - g->pos : cap - 1;
    memcpy(line, g->buf + g->pos, n);
    line[n] = '\0';
    if (n > 0 && line[n - 1] == '\r')
      line[n - 1] = '\0';
    g->pos = e < g->len ? e + 1 : e;
    if (!io_rest_blank(line))
      return 1;
  }
}

/* Expects the line end (after binary data) then the keyword end. */
static int bin_end(gmsh_reader *g, const char *end) {
  char line[128];
  size_t at = g->pos;
  if (!bin_line(g, line, sizeof line) || strncmp(line, end, strlen(end)) != 0)
    return core_error(MINEX_EPARSE,
                      "%s: offset %llu: %s expected: the section "
                      "holds more (or less) data than its counts say",
                      PATH, (unsigned long long)at, end);
  return MINEX_OK;
}

static int bin_check_node_tag(gmsh_reader *g, int64_t tag) {
  if (tag < 1)
    return core_error(MINEX_EPARSE,
                      "%s: offset %llu: node tag %lld: tags "
                      "must be >= 1",
                      PATH, OFF, (long long)tag);
  return MINEX_OK;
}

static int bin_coord(gmsh_reader *g, int64_t i) {
  for (int d = 0; d < 3; d++)
    g->coords[3 * i + d] = bin_double(g);
  return MINEX_OK;
}

/* 1 when the 4.0 $Nodes section at g's cursor, read with unsigned longs of
 * ul bytes, ends exactly at $EndNodes (g is a copy: only its cursor moves).
 * Every count is bounded by the bytes left, as in bin_nodes. */
static int v40_nodes_fit(gmsh_reader *t, int ul) {
  if (t->len - t->pos < 2 * (size_t)ul)
    return 0;
  uint64_t nb = bin_raw(t, ul);
  bin_raw(t, ul);
  for (uint64_t b = 0; b < nb; b++) {
    if (t->len - t->pos < 12 + (size_t)ul)
      return 0;
    bin_int(t);
    int64_t dim = bin_int(t), param = bin_int(t);
    uint64_t cnt = bin_raw(t, ul);
    uint64_t rec = 28 + (param && dim > 0 && dim <= 3 ? 8 * (uint64_t)dim : 0);
    if (cnt > (t->len - t->pos) / rec)
      return 0;
    t->pos += (size_t)(cnt * rec);
  }
  while (t->pos < t->len && (t->buf[t->pos] == '\n' || t->buf[t->pos] == '\r'))
    t->pos++;
  return t->len - t->pos >= 9 && memcmp(t->buf + t->pos, "$EndNodes", 9) == 0;
}

static int bin_nodes(gmsh_reader *g) {
  if (g->nnodes >= 0)
    return core_error(MINEX_EPARSE, "%s: offset %llu: second $Nodes", PATH,
                      OFF);
  int rc;
  int64_t cap_t = 0, cap_x = 0;
  char line[128];
  if (g->major == 2) {
    int64_t n;
    if (!bin_line(g, line, sizeof line) || io_parse_i64(line, NULL, &n) != 0 ||
        n < 0 || n > INT32_MAX)
      return core_error(MINEX_EPARSE,
                        "%s: offset %llu: node count (0 to 2^31) "
                        "expected after $Nodes",
                        PATH, OFF);
    if ((rc = bin_need(g, (uint64_t)n, 28, "$Nodes")) != MINEX_OK ||
        (rc = gmsh_reserve_nodes(g, n + 1, &cap_t, &cap_x, n + 1)) != MINEX_OK)
      return rc;
    for (int64_t i = 0; i < n; i++) {
      g->tags[i] = bin_int(g);
      if ((rc = bin_check_node_tag(g, g->tags[i])) != MINEX_OK)
        return rc;
      bin_coord(g, i);
    }
    g->nnodes = n;
  } else {
    int v40 = g->minor == 0, nh = v40 ? 2 : 4;
    gmsh_reader probe = *g;
    g->ulong = 8;
    if (v40 && !v40_nodes_fit(&probe, 8) &&
        (probe = *g, v40_nodes_fit(&probe, 4)))
      g->ulong = 4;
    uint64_t bh = 12 + (uint64_t)g->ulong; /* block header bytes */
    if ((rc = bin_need(g, (uint64_t)nh, (uint64_t)g->ulong, "$Nodes header")) !=
        MINEX_OK)
      return rc;
    uint64_t nb = bin_count(g), total = bin_count(g);
    if (!v40)
      bin_size(g), bin_size(g); /* min and max tags */
    if (total > INT32_MAX ||
        (rc = bin_need(g, total, v40 ? 28 : 32, "$Nodes")) != MINEX_OK ||
        (rc = bin_need(g, nb, bh, "$Nodes blocks")) != MINEX_OK)
      return rc != MINEX_OK ? rc
                            : core_error(MINEX_EPARSE,
                                         "%s: offset %llu: node count %llu "
                                         "outside [0, 2^31)",
                                         PATH, OFF, (unsigned long long)total);
    if ((rc = gmsh_reserve_nodes(g, (int64_t)total + 1, &cap_t, &cap_x,
                                 (int64_t)total + 1)) != MINEX_OK)
      return rc;
    uint64_t n = 0;
    for (uint64_t b = 0; b < nb; b++) {
      if ((rc = bin_need(g, 1, bh, "a node block header")) != MINEX_OK)
        return rc;
      int64_t dim = bin_int(g), etag = bin_int(g);
      int64_t param = bin_int(g);
      uint64_t cnt = bin_count(g);
      if (v40)
        dim = etag; /* 4.0: entity tag, then dimension */
      int extra = param ? (int)(dim > 0 && dim <= 3 ? dim : 0) : 0;
      if (cnt > total - n)
        return core_error(MINEX_EPARSE,
                          "%s: offset %llu: node block of %llu "
                          "nodes exceeds the %llu announced",
                          PATH, OFF, (unsigned long long)cnt,
                          (unsigned long long)total);
      if ((rc = bin_need(g, cnt, 8 * (3 + (uint64_t)extra) + (v40 ? 4 : 8),
                         "a node block")) != MINEX_OK)
        return rc;
      for (uint64_t i = 0; v40 && i < cnt; i++) { /* tag x y z [u v w] */
        g->tags[n + i] = bin_int(g);
        if ((rc = bin_check_node_tag(g, g->tags[n + i])) != MINEX_OK)
          return rc;
        bin_coord(g, (int64_t)(n + i));
        g->pos += (size_t)(8 * extra);
      }
      for (uint64_t i = 0; !v40 && i < cnt; i++) {
        uint64_t t = bin_size(g);
        g->tags[n + i] = t > INT64_MAX ? -1 : (int64_t)t;
        if ((rc = bin_check_node_tag(g, g->tags[n + i])) != MINEX_OK)
          return rc;
      }
      for (uint64_t i = 0; !v40 && i < cnt; i++) {
        bin_coord(g, (int64_t)(n + i));
        g->pos += (size_t)(8 * extra);
      }
      n += cnt;
    }
    if (n != total)
      return core_error(MINEX_EPARSE,
                        "%s: offset %llu: node blocks hold %llu "
                        "nodes, the header says %llu",
                        PATH, OFF, (unsigned long long)n,
                        (unsigned long long)total);
    g->nnodes = (int64_t)total;
  }
  if ((rc = bin_end(g, "$EndNodes")) != MINEX_OK)
    return rc;
  return gmsh_build_map(g, 0);
}

/* One element: tag, nn node ids of size isz bytes (4 or 8). */
static int bin_element(gmsh_reader *g, int64_t etag, int kind, int nn, int isz,
                       int32_t part) {
  int k = kind == G_LOWER ? 0 : minex_elem_nnodes((minex_elem_type)kind);
  int32_t en[8];
  for (int i = 0; i < nn; i++) {
    int64_t tag = isz == 4 ? bin_int(g) : (int64_t)bin_size(g);
    if (i >= k)
      continue;
    int32_t idx = gmsh_lookup(g, tag);
    if (idx < 0)
      return core_error(MINEX_EPARSE,
                        "%s: offset %llu: element %lld: node tag "
                        "%lld is not in $Nodes",
                        PATH, OFF, (long long)etag, (long long)tag);
    for (int j = 0; j < i; j++)
      if (en[j] == idx)
        return core_error(MINEX_EPARSE,
                          "%s: offset %llu: element %lld repeats "
                          "node %lld",
                          PATH, OFF, (long long)etag, (long long)tag);
    en[i] = idx;
  }
  if (kind == G_LOWER) {
    g->lists.lower++;
    return MINEX_OK;
  }
  if (kind == MINEX_ELEM_PRISM)
    mesh_prism_to_vtk(en);
  return mesh_list_add_id(&g->lists, (minex_elem_type)kind, en, part, etag);
}

static int bin_elements(gmsh_reader *g) {
  if (g->nnodes < 0)
    return core_error(MINEX_EPARSE, "%s: offset %llu: $Elements before $Nodes",
                      PATH, OFF);
  int rc;
  char line[128];
  g->has_elements = 1;
  if (g->major == 2) {
    int64_t total, n = 0;
    if (!bin_line(g, line, sizeof line) ||
        io_parse_i64(line, NULL, &total) != 0 || total < 0)
      return core_error(MINEX_EPARSE,
                        "%s: offset %llu: element count expected "
                        "after $Elements",
                        PATH, OFF);
    if ((rc = bin_need(g, (uint64_t)total, 12, "$Elements")) != MINEX_OK)
      return rc;
    while (n < total) {
      if ((rc = bin_need(g, 1, 12, "an element block header")) != MINEX_OK)
        return rc;
      int64_t type = bin_int(g), cnt = bin_int(g), ntags = bin_int(g);
      int kind = 0, nn = 0;
      if ((rc = gmsh_type_of(g, type, &kind, &nn)) != MINEX_OK)
        return rc;
      if (cnt < 0 || cnt > total - n || ntags < 0 || ntags > 1000)
        return core_error(MINEX_EPARSE,
                          "%s: offset %llu: element block of %lld "
                          "elements with %lld tags: the counts disagree",
                          PATH, OFF, (long long)cnt, (long long)ntags);
      if ((rc = bin_need(g, (uint64_t)cnt, 4 * (uint64_t)(1 + ntags + nn),
                         "an element block")) != MINEX_OK)
        return rc;
      for (int64_t i = 0; i < cnt; i++) {
        int64_t etag = bin_int(g), tags[4] = {0, 0, 0, 0};
        for (int64_t t = 0; t < ntags; t++) {
          int64_t v = bin_int(g);
          if (t < 4)
            tags[t] = v;
        }
        int32_t part = ntags >= 4 && tags[2] >= 1 && tags[3] >= 1
                           ? (int32_t)(tags[3] - 1)
                           : -1;
        if ((rc = bin_element(g, etag, kind, nn, 4, part)) != MINEX_OK)
          return rc;
      }
      n += cnt;
    }
  } else {
    int v40 = g->minor == 0, isz = v40 ? 4 : 8;
    uint64_t bh = 12 + (uint64_t)g->ulong; /* block header bytes */
    if ((rc = bin_need(g, v40 ? 2 : 4, (uint64_t)g->ulong,
                       "$Elements header")) != MINEX_OK)
      return rc;
    uint64_t nb = bin_count(g), total = bin_count(g), n = 0;
    if (!v40)
      bin_size(g), bin_size(g); /* min and max tags */
    if ((rc = bin_need(g, total, 2 * (uint64_t)isz, "$Elements")) != MINEX_OK ||
        (rc = bin_need(g, nb, bh, "$Elements blocks")) != MINEX_OK)
      return rc;
    for (uint64_t b = 0; b < nb; b++) {
      if ((rc = bin_need(g, 1, bh, "an element block header")) != MINEX_OK)
        return rc;
      int64_t dim = bin_int(g), etag = bin_int(g), type = bin_int(g);
      uint64_t cnt = bin_count(g);
      int kind = 0, nn = 0;
      if (v40) { /* 4.0: entity tag, then dimension */
        int64_t t = dim;
        dim = etag, etag = t;
      }
      if (cnt > total - n)
        return core_error(MINEX_EPARSE,
                          "%s: offset %llu: element block of %llu "
                          "elements exceeds the %llu announced",
                          PATH, OFF, (unsigned long long)cnt,
                          (unsigned long long)total);
      if (cnt > 0 && (rc = gmsh_type_of(g, type, &kind, &nn)) != MINEX_OK)
        return rc;
      if ((rc = bin_need(g, cnt, (uint64_t)isz * (uint64_t)(1 + nn),
                         "an element block")) != MINEX_OK)
        return rc;
      int32_t part = gmsh_entity_part(g, dim, etag);
      for (uint64_t i = 0; i < cnt; i++) {
        int64_t et = v40 ? bin_int(g) : (int64_t)bin_size(g);
        if ((rc = bin_element(g, et, kind, nn, isz, part)) != MINEX_OK)
          return rc;
      }
      n += cnt;
    }
    if (n != total)
      return core_error(MINEX_EPARSE,
                        "%s: offset %llu: element blocks hold %llu "
                        "elements, the header says %llu",
                        PATH, OFF, (unsigned long long)n,
                        (unsigned long long)total);
  }
  return bin_end(g, "$EndElements");
}

/* $PartitionedEntities in binary: as partitioned_entities. */
static int bin_partitioned(gmsh_reader *g) {
  int rc;
  int64_t cap = 0;
  if (g->pents != NULL)
    return core_error(MINEX_EPARSE, "%s: second $PartitionedEntities", PATH);
  if ((rc = bin_need(g, 2, 8, "$PartitionedEntities")) != MINEX_OK)
    return rc;
  bin_size(g);
  uint64_t nghost = bin_size(g), n[4];
  if ((rc = bin_need(g, nghost, 8, "ghost entities")) != MINEX_OK)
    return rc;
  g->pos += (size_t)(8 * nghost);
  if ((rc = bin_need(g, 4, 8, "entity counts")) != MINEX_OK)
    return rc;
  for (int d = 0; d < 4; d++)
    n[d] = bin_size(g);
  for (int dim = 0; dim < 4; dim++)
    for (uint64_t i = 0; i < n[dim]; i++) {
      if ((rc = bin_need(g, 1, 20, "a partitioned entity")) != MINEX_OK)
        return rc;
      int64_t tag = bin_int(g);
      bin_int(g), bin_int(g);
      uint64_t np = bin_size(g);
      if ((rc = bin_need(g, np, 4, "partition tags")) != MINEX_OK)
        return rc;
      int64_t first = np > 0 ? bin_int(g) : -1;
      g->pos += (size_t)(4 * (np > 0 ? np - 1 : 0));
      int nbox = dim == 0 ? 3 : 6;
      if ((rc = bin_need(g, 1, 8 * (uint64_t)nbox + 8, "an entity")) !=
          MINEX_OK)
        return rc;
      g->pos += (size_t)(8 * nbox);
      uint64_t nphys = bin_size(g);
      if ((rc = bin_need(g, nphys, 4, "physical tags")) != MINEX_OK)
        return rc;
      g->pos += (size_t)(4 * nphys);
      if (dim > 0) {
        if ((rc = bin_need(g, 1, 8, "bounding entities")) != MINEX_OK)
          return rc;
        uint64_t nbd = bin_size(g);
        if ((rc = bin_need(g, nbd, 4, "bounding entities")) != MINEX_OK)
          return rc;
        g->pos += (size_t)(4 * nbd);
      }
      if (dim >= 2 && first >= 1) {
        if ((rc = mesh_reserve((void **)&g->pents, &cap, g->npents + 1,
                               INT64_MAX, sizeof *g->pents)) != MINEX_OK)
          return rc;
        g->pents[g->npents++] =
            (part_entity){dim, (int)tag, (int32_t)(first - 1)};
      }
    }
  if (g->pents == NULL && (g->pents = malloc(sizeof *g->pents)) == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
  return bin_end(g, "$EndPartitionedEntities");
}

/* Skips a section of unknown layout up to its "$EndName" line. */
static int bin_skip(gmsh_reader *g, const char *name) {
  char end[128];
  snprintf(end, sizeof end, "\n$End%.100s", name + 1);
  size_t n = strlen(end);
  for (size_t i = g->pos; i + n <= g->len; i++)
    if (g->buf[i] == '\n' && memcmp(g->buf + i, end, n) == 0) {
      g->pos = i + 1;
      char line[128];
      bin_line(g, line, sizeof line);
      return MINEX_OK;
    }
  return core_error(MINEX_EPARSE,
                    "%s: offset %llu: end of file inside %s: the section "
                    "is truncated",
                    PATH, OFF, name);
}

int gmsh_parse_binary(gmsh_reader *g) {
  int rc = mesh_load_file(PATH, &g->buf, &g->len);
  if (rc != MINEX_OK)
    return rc;
  g->pos = g->bin_start;
  if ((rc = bin_need(g, 1, 4, "the endianness word")) != MINEX_OK)
    return rc;
  uint32_t one = (uint32_t)bin_raw(g, 4);
  if (one == 0x01000000u)
    g->swap = 1;
  else if (one != 1)
    return core_error(MINEX_EPARSE,
                      "%s: offset %llu: the int 1 after $MeshFormat reads "
                      "%u in either byte order",
                      PATH, OFF - 4, (unsigned)one);
  if ((rc = bin_end(g, "$EndMeshFormat")) != MINEX_OK)
    return rc;
  char line[128];
  while (bin_line(g, line, sizeof line)) {
    size_t len = strcspn(line, " \t");
    line[len] = '\0';
    if (strcmp(line, "$Nodes") == 0)
      rc = bin_nodes(g);
    else if (strcmp(line, "$Elements") == 0)
      rc = bin_elements(g);
    else if (strcmp(line, "$PartitionedEntities") == 0 && g->major == 4 &&
             g->minor == 1)
      rc = bin_partitioned(g);
    else if (line[0] == '$' && strncmp(line, "$End", 4) != 0)
      rc = bin_skip(g, line);
    else
      rc = core_error(MINEX_EPARSE,
                      "%s: offset %llu: unexpected '%.40s' outside any "
                      "section",
                      PATH, OFF, line);
    if (rc != MINEX_OK)
      return rc;
  }
  if (g->nnodes < 0)
    return core_error(MINEX_EPARSE,
                      "%s: offset %llu: end of file without a $Nodes "
                      "section: the file is truncated",
                      PATH, OFF);
  if (!g->has_elements)
    return core_error(MINEX_EPARSE,
                      "%s: offset %llu: no elements: end of file without an "
                      "$Elements section (the file is truncated)",
                      PATH, OFF);
  return MINEX_OK;
}
