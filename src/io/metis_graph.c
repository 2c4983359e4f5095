/* SPDX-License-Identifier: GPL-3.0-or-later */
/* METIS graph files (SPEC §7): reader with full validation naming the line
 * at fault, and an atomic writer. fmt digits "vsize vwgt ewgt" map to Rwgt,
 * Pwgt, Cwgt; a missing weight is 1. */
#include "core/core.h"
#include "io/io_util.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct metis_reader {
  io_reader r;     /* the file, with its line counter                */
  int has_vsize;   /* fmt digit 1: Rwgt column present               */
  int has_vwgt;    /* fmt digit 2: Pwgt column present               */
  int has_ewgt;    /* fmt digit 3: Cwgt after each neighbour         */
  int32_t n;       /* vertices declared by the header                */
  int64_t m;       /* undirected edges declared by the header        */
  int64_t hline;   /* line of the header                             */
  int32_t nread;   /* vertex lines read so far                       */
  int32_t vcap;    /* capacity of the per-vertex arrays              */
  int64_t nadj;    /* adjacency entries read so far                  */
  int64_t acap;    /* capacity of adjncy / cwgt                      */
  int64_t *xadj;   /* vcap+1 offsets                                 */
  int64_t *vline;  /* vcap: file line of each vertex (for messages)  */
  double *pwgt;    /* vcap, when has_vwgt                            */
  double *rwgt;    /* vcap, when has_vsize                           */
  int32_t *adjncy; /* acap, 0-based neighbour ids                    */
  double *cwgt;    /* acap, when has_ewgt                            */
} metis_reader;

static const char *skip_blank(const char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' || *s == '\f')
    s++;
  return s;
}

/* Length of the token at s, capped for messages. */
static int token_len(const char *s) {
  int n = 0;
  while (s[n] && s[n] != ' ' && s[n] != '\t' && n < 40)
    n++;
  return n;
}

static int read_error(const metis_reader *mr, int err, const char *what,
                      const char *tok) {
  if (tok)
    return core_error(err, "%s:%lld: %s '%.*s'", mr->r.path,
                      (long long)mr->r.lineno, what, token_len(tok), tok);
  return core_error(err, "%s:%lld: %s", mr->r.path, (long long)mr->r.lineno,
                    what);
}

/* Fast path for the common token, a plain unsigned decimal integer of at
 * most 18 digits followed by a blank or the end of the line. Returns 0 and
 * advances *s, or -1 (nothing consumed) for anything else, which the
 * callers hand to the strict strtoll/strtod parsers. */
static int fast_uint(const char **s, int64_t *out) {
  const char *t = *s;
  int64_t v = 0;
  int n = 0;
  while (*t >= '0' && *t <= '9' && n < 18) {
    v = 10 * v + (*t++ - '0');
    n++;
  }
  if (n == 0 || (*t != '\0' && *t != ' ' && *t != '\t' && *t != '\r' &&
                 *t != '\v' && *t != '\f'))
    return -1;
  *s = t;
  *out = v;
  return 0;
}

/* Parses one weight at *s (integer fast path, else any finite double). */
static int parse_weight(metis_reader *mr, const char **s, const char *what,
                        double *w) {
  const char *t = skip_blank(*s);
  if (*t == '\0') {
    char msg[96];
    snprintf(msg, sizeof msg, "vertex %d: missing %s", (int)mr->nread + 1,
             what);
    return read_error(mr, MINEX_EPARSE, msg, NULL);
  }
  int64_t iv;
  if (fast_uint(&t, &iv) == 0) {
    *w = (double)iv;
    *s = t;
    return MINEX_OK;
  }
  char *end;
  if (io_parse_double(t, &end, w) != 0) {
    char msg[96];
    snprintf(msg, sizeof msg, "%s %s:", what, io_number_problem(t, 1));
    return read_error(mr, MINEX_EPARSE, msg, t);
  }
  if (*w < 0) {
    char msg[96];
    snprintf(msg, sizeof msg, "%s must be >= 0:", what);
    return read_error(mr, MINEX_EPARSE, msg, t);
  }
  if (*w == 0) /* "-0" is read as 0: the writer writes 0, the graph holds
                  no negative zero (found by fuzz_metis_graph) */
    *w = 0.0;
  *s = end;
  return MINEX_OK;
}

/* Grows the per-vertex arrays to at least want entries (doubling), never
 * beyond the header's n. */
static int grow_vertices(metis_reader *mr, int64_t want) {
  int64_t cap = mr->vcap < 1024 ? 1024 : 2 * (int64_t)mr->vcap;
  if (cap < want)
    cap = want;
  if (cap > mr->n)
    cap = mr->n > 0 ? mr->n : 1;
  size_t c = (size_t)cap;
  int64_t *x = realloc(mr->xadj, sizeof *x * (c + 1));
  if (x)
    mr->xadj = x;
  int64_t *l = realloc(mr->vline, sizeof *l * c);
  if (l)
    mr->vline = l;
  double *p = mr->has_vwgt ? realloc(mr->pwgt, sizeof *p * c) : NULL;
  if (p)
    mr->pwgt = p;
  double *r = mr->has_vsize ? realloc(mr->rwgt, sizeof *r * c) : NULL;
  if (r)
    mr->rwgt = r;
  if (!x || !l || (mr->has_vwgt && !p) || (mr->has_vsize && !r))
    return core_error(MINEX_ENOMEM, "%s: out of memory for %lld vertices",
                      mr->r.path, (long long)cap);
  mr->vcap = (int32_t)cap;
  return MINEX_OK;
}

/* Grows adjncy/cwgt to at least want entries, never beyond 2m: reaching
 * that bound means the vertex lines hold more entries than the header. */
static int grow_adjacency(metis_reader *mr, int64_t want) {
  if (mr->acap >= 2 * mr->m) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "more adjacency entries than the %lld the "
             "header's edge count %lld allows (line %lld)",
             (long long)(2 * mr->m), (long long)mr->m, (long long)mr->hline);
    return read_error(mr, MINEX_EPARSE, msg, NULL);
  }
  int64_t cap = mr->acap < 4096 ? 4096 : 2 * mr->acap;
  if (cap < want)
    cap = want;
  if (cap > 2 * mr->m)
    cap = 2 * mr->m;
  size_t c = (size_t)cap;
  int32_t *a = realloc(mr->adjncy, sizeof *a * c);
  if (a)
    mr->adjncy = a;
  double *w = mr->has_ewgt ? realloc(mr->cwgt, sizeof *w * c) : NULL;
  if (w)
    mr->cwgt = w;
  if (!a || (mr->has_ewgt && !w))
    return core_error(MINEX_ENOMEM,
                      "%s: out of memory for %lld adjacency "
                      "entries",
                      mr->r.path, (long long)cap);
  mr->acap = cap;
  return MINEX_OK;
}

/* The mesh format a first line starts with (a common mistake: a mesh
 * where a graph is expected), or NULL. */
static const char *mesh_kind(const char *s) {
  static const struct {
    const char *prefix, *kind;
  } known[] = {{"MeshVersionFormatted", "MEDIT"},
               {"$MeshFormat", "Gmsh"},
               {"# vtk DataFile", "legacy VTK"},
               {"<?xml", "XML (VTU?)"},
               {"<VTKFile", "VTU"}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (strncmp(s, known[i].prefix, strlen(known[i].prefix)) == 0)
      return known[i].kind;
  return NULL;
}

/* Header "n m [fmt [ncon]]" at s (line already known to be non-blank). */
static int parse_header(metis_reader *mr, const char *s) {
  int64_t n, m, ncon = 1;
  char *end;
  mr->hline = mr->r.lineno;
  if (io_parse_i64(s, &end, &n) != 0 || n < 0 || n >= INT32_MAX) {
    const char *kind = mesh_kind(skip_blank(s));
    if (kind != NULL)
      return core_error(MINEX_EPARSE,
                        "%s:%lld: a %s mesh, not a METIS graph: read it as "
                        "a mesh (minex_mesh_read; --mesh on the command "
                        "line)",
                        mr->r.path, (long long)mr->r.lineno, kind);
    return read_error(mr, MINEX_EPARSE,
                      "header: vertex count must be an "
                      "integer in 0..2^31-2, got",
                      skip_blank(s));
  }
  s = end;
  if (io_parse_i64(s, &end, &m) != 0 || m < 0 || m > INT64_MAX / 4)
    return read_error(mr, MINEX_EPARSE,
                      "header: edge count must be a "
                      "non-negative integer, got",
                      *skip_blank(s) ? skip_blank(s) : "(nothing)");
  s = skip_blank(end);
  if (*s) {
    int len = 0;
    while (s[len] == '0' || s[len] == '1')
      len++;
    const char *after = skip_blank(s + len);
    if (len == 0 || len > 3 || (s[len] && after == s + len))
      return read_error(mr, MINEX_EPARSE,
                        "header: fmt must be up to 3 "
                        "digits 0/1 (vsize vwgt ewgt), got",
                        s);
    mr->has_ewgt = s[len - 1] == '1';
    mr->has_vwgt = len >= 2 && s[len - 2] == '1';
    mr->has_vsize = len >= 3 && s[len - 3] == '1';
    s = after;
    if (*s) {
      if (io_parse_i64(s, &end, &ncon) != 0 || ncon < 1)
        return read_error(mr, MINEX_EPARSE,
                          "header: ncon must be a "
                          "positive integer, got",
                          s);
      if (ncon > 1)
        return read_error(mr, MINEX_EUNSUP,
                          "header: multi-constraint "
                          "vertex weights are not supported, ncon =",
                          s);
      s = skip_blank(end);
      if (*s)
        return read_error(mr, MINEX_EPARSE, "header: unexpected token", s);
    }
  }
  mr->n = (int32_t)n;
  mr->m = m;
  /* Size the arrays once from the header, so that big graphs are not
   * copied by repeated growth; a valid file has a line per vertex and at
   * least two bytes per adjacency entry, so the file size caps what a
   * bogus header can make us allocate. */
  struct stat st;
  if (fstat(fileno(mr->r.fp), &st) == 0 && S_ISREG(st.st_mode)) {
    int64_t size = (int64_t)st.st_size;
    int64_t vc = n < size + 1 ? n : size + 1;
    int64_t ac = 2 * m < size / 2 + 1 ? 2 * m : size / 2 + 1;
    int rc;
    if (vc > 1024 && (rc = grow_vertices(mr, vc)) != MINEX_OK)
      return rc;
    if (ac > 4096 && (rc = grow_adjacency(mr, ac)) != MINEX_OK)
      return rc;
  }
  return MINEX_OK;
}

/* One vertex line: [vsize] [vwgt] then neighbour [ewgt] pairs. */
static int parse_vertex(metis_reader *mr, const char *s) {
  int rc;
  if (mr->nread == mr->vcap && (rc = grow_vertices(mr, 0)) != MINEX_OK)
    return rc;
  int32_t v = mr->nread;
  mr->xadj[v] = mr->nadj;
  mr->vline[v] = mr->r.lineno;
  if (mr->has_vsize &&
      (rc = parse_weight(mr, &s, "vsize (Rwgt)", &mr->rwgt[v])) != MINEX_OK)
    return rc;
  if (mr->has_vwgt &&
      (rc = parse_weight(mr, &s, "vwgt (Pwgt)", &mr->pwgt[v])) != MINEX_OK)
    return rc;
  for (;;) {
    s = skip_blank(s);
    if (*s == '\0')
      break;
    const char *end = s;
    char *slow_end;
    int64_t w;
    if (fast_uint(&end, &w) == 0)
      ; /* the common case: end is past the digits */
    else if (io_parse_i64(s, &slow_end, &w) == 0)
      end = slow_end;
    else {
      char msg[96];
      snprintf(msg, sizeof msg, "neighbour id %s:", io_number_problem(s, 0));
      return read_error(mr, MINEX_EPARSE, msg, s);
    }
    if (w < 1 || w > mr->n) {
      char msg[96];
      snprintf(msg, sizeof msg,
               "vertex %d: neighbour id outside 1..%d:", (int)v + 1,
               (int)mr->n);
      return read_error(mr, MINEX_EPARSE, msg, s);
    }
    if (w - 1 == v) {
      char msg[64];
      snprintf(msg, sizeof msg, "vertex %d: self loop", (int)v + 1);
      return read_error(mr, MINEX_EGRAPH, msg, NULL);
    }
    s = end;
    if (mr->nadj == mr->acap && (rc = grow_adjacency(mr, 0)) != MINEX_OK)
      return rc;
    mr->adjncy[mr->nadj] = (int32_t)(w - 1);
    if (mr->has_ewgt) {
      double *cw = &mr->cwgt[mr->nadj];
      if (*skip_blank(s) == '\0') {
        char msg[96];
        snprintf(msg, sizeof msg,
                 "vertex %d: neighbour %lld has no ewgt "
                 "(Cwgt)",
                 (int)v + 1, (long long)w);
        return read_error(mr, MINEX_EPARSE, msg, NULL);
      }
      if ((rc = parse_weight(mr, &s, "ewgt (Cwgt)", cw)) != MINEX_OK)
        return rc;
    }
    mr->nadj++;
  }
  mr->nread++;
  return MINEX_OK;
}

static int row_cmp(const void *a, const void *b) {
  const int32_t *x = a, *y = b; /* (id, index) pairs: by id, then index */
  if (x[0] != y[0])
    return (x[0] > y[0]) - (x[0] < y[0]);
  return (x[1] > y[1]) - (x[1] < y[1]);
}

/* After minex_graph_create refused the graph: finds the first vertex line
 * with a duplicate or unmatched edge, in the file's 1-based ids. Only runs
 * on failure, so the fast path pays nothing for the line numbers. */
static void diagnose(const metis_reader *mr) {
  int32_t n = mr->n;
  const int64_t *x = mr->xadj;
  int32_t(*pairs)[2] = malloc(sizeof *pairs * (size_t)(mr->nadj + 1));
  if (pairs == NULL) {
    core_error_prefix("%s", mr->r.path);
    return;
  }
  for (int32_t v = 0; v < n; v++) {
    for (int64_t j = x[v]; j < x[v + 1]; j++) {
      pairs[j][0] = mr->adjncy[j];
      pairs[j][1] = (int32_t)(j - x[v]);
    }
    qsort(pairs + x[v], (size_t)(x[v + 1] - x[v]), sizeof *pairs, row_cmp);
  }
  for (int32_t v = 0; v < n; v++)
    for (int64_t j = x[v] + 1; j < x[v + 1]; j++)
      if (pairs[j][0] == pairs[j - 1][0]) {
        core_error(MINEX_EGRAPH,
                   "%s:%lld: vertex %d lists neighbour %d "
                   "twice",
                   mr->r.path, (long long)mr->vline[v], (int)v + 1,
                   (int)pairs[j][0] + 1);
        free(pairs);
        return;
      }
  for (int32_t v = 0; v < n; v++)
    for (int64_t j = x[v]; j < x[v + 1]; j++) {
      int32_t w = pairs[j][0];
      int64_t lo = x[w], hi = x[w + 1] - 1, hit = -1;
      while (lo <= hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (pairs[mid][0] == v) {
          hit = mid;
          break;
        }
        if (pairs[mid][0] < v)
          lo = mid + 1;
        else
          hi = mid - 1;
      }
      if (hit < 0) {
        core_error(MINEX_EGRAPH,
                   "%s:%lld: edge %d-%d has no reverse edge "
                   "(vertex %d, line %lld, does not list %d)",
                   mr->r.path, (long long)mr->vline[v], (int)v + 1, (int)w + 1,
                   (int)w + 1, (long long)mr->vline[w], (int)v + 1);
        free(pairs);
        return;
      }
      if (mr->cwgt) {
        double a = mr->cwgt[x[v] + pairs[j][1]];
        double b = mr->cwgt[x[w] + pairs[hit][1]];
        if (a != b) {
          core_error(MINEX_EGRAPH,
                     "%s:%lld: edge %d-%d has ewgt %g here "
                     "but %g on line %lld",
                     mr->r.path, (long long)mr->vline[v], (int)v + 1,
                     (int)w + 1, a, b, (long long)mr->vline[w]);
          free(pairs);
          return;
        }
      }
    }
  free(pairs);
  core_error_prefix("%s", mr->r.path);
}

static void reader_free(metis_reader *mr) {
  io_reader_close(&mr->r);
  free(mr->xadj);
  free(mr->vline);
  free(mr->pwgt);
  free(mr->rwgt);
  free(mr->adjncy);
  free(mr->cwgt);
}

static int read_body(metis_reader *mr) {
  int rc, have_header = 0;
  while ((rc = io_reader_next(&mr->r)) == 1) {
    const char *s = skip_blank(mr->r.line);
    if (*s == '%')
      continue;
    if (!have_header) {
      if (*s == '\0') /* blank lines before the header are tolerated */
        continue;
      if ((rc = parse_header(mr, s)) != MINEX_OK)
        return rc;
      have_header = 1;
    } else if (mr->nread < mr->n) {
      /* a blank line here is an isolated vertex without weights */
      if ((rc = parse_vertex(mr, s)) != MINEX_OK)
        return rc;
    } else if (*s != '\0') {
      char msg[96];
      snprintf(msg, sizeof msg,
               "extra line after the %d vertex lines:", (int)mr->n);
      return read_error(mr, MINEX_EPARSE, msg, s);
    }
  }
  if (rc < 0)
    return rc;
  if (!have_header)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: no header line \"n m [fmt "
                      "[ncon]]\"",
                      mr->r.path, (long long)mr->r.lineno);
  if (mr->nread < mr->n)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: file ends after %d of %d "
                      "vertex lines (truncated?)",
                      mr->r.path, (long long)mr->r.lineno, (int)mr->nread,
                      (int)mr->n);
  if (mr->nadj != 2 * mr->m)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: header declares %lld edges "
                      "but the vertex lines list %lld adjacency entries "
                      "(%lld expected, each edge twice)",
                      mr->r.path, (long long)mr->hline, (long long)mr->m,
                      (long long)mr->nadj, (long long)(2 * mr->m));
  if (mr->vcap == 0 && (rc = grow_vertices(mr, 0)) != MINEX_OK)
    return rc; /* n = 0: xadj still needs its one entry */
  mr->xadj[mr->n] = mr->nadj;
  return MINEX_OK;
}

/* Reads a METIS graph. Errors: MINEX_EIO (cannot open/read), MINEX_EPARSE
 * (syntax, counts, ids, weights), MINEX_EUNSUP (ncon > 1), MINEX_EGRAPH
 * (self loop, duplicate or one-way edge, unequal ewgt), MINEX_ENOMEM; the
 * message is "path:line: what" with the file's 1-based vertex ids. */
int minex_graph_read_metis(const char *path, minex_graph **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_graph_read_metis: out is NULL");
  *out = NULL;
  metis_reader mr;
  memset(&mr, 0, sizeof mr);
  int rc = io_reader_open(&mr.r, path);
  if (rc == MINEX_OK)
    rc = read_body(&mr);
  if (rc == MINEX_OK) {
    rc = minex_graph_create(mr.n, mr.xadj, mr.adjncy, mr.pwgt, mr.rwgt, mr.cwgt,
                            out);
    if (rc == MINEX_EGRAPH)
      diagnose(&mr);
    else if (rc != MINEX_OK)
      core_error_prefix("%s", path);
  }
  reader_free(&mr);
  return rc;
}

/* ---------------------------------------------------------------- writer */

typedef struct out_buf {
  io_atomic af; /* target file                                 */
  char buf[1 << 16];
  size_t len; /* bytes pending in buf                        */
  int failed; /* a fwrite came short                         */
} out_buf;

static void out_flush(out_buf *o) {
  if (o->len > 0 && fwrite(o->buf, 1, o->len, o->af.fp) != o->len)
    o->failed = 1;
  o->len = 0;
}

static void out_weight(out_buf *o, double w, int space) {
  if (o->len > sizeof o->buf - 64)
    out_flush(o);
  if (space)
    o->buf[o->len++] = ' ';
  o->len += (size_t)io_format_double(o->buf + o->len, 40, w);
}

static int all_one(const double *w, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (w[i] != 1.0)
      return 0;
  return 1;
}

/* Writes graph in METIS format with the minimal fmt: a weight column is
 * written only when some weight of that kind differs from 1 (so unit
 * graphs get the plain "n m" header METIS tools expect; fmt, when present,
 * is three digits, e.g. "011"). Integral weights are written as integers;
 * others in the shortest form that reads back exactly (METIS itself only
 * reads integers; minex_graph_read_metis reads both). Written to a
 * temporary file and renamed: MINEX_OK, MINEX_EINVAL or MINEX_EIO, and on
 * failure no file is left behind. */
int minex_graph_write_metis(const minex_graph *graph, const char *path) {
  core_error_clear();
  if (graph == NULL || path == NULL)
    return core_error(MINEX_EINVAL, "minex_graph_write_metis: graph or path "
                                    "is NULL");
  int32_t n = graph->nvtxs;
  int64_t nadj = graph->xadj[n];
  int vsize = !all_one(graph->rwgt, n), vwgt = !all_one(graph->pwgt, n);
  int ewgt = !all_one(graph->cwgt, nadj);
  out_buf *o = malloc(sizeof *o);
  if (o == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", path);
  o->len = 0;
  o->failed = 0;
  int rc = io_atomic_open(&o->af, path);
  if (rc != MINEX_OK) {
    free(o);
    return rc;
  }
  if (vsize || vwgt || ewgt)
    o->len = (size_t)snprintf(o->buf, 96, "%d %lld %d%d%d\n", (int)n,
                              (long long)(nadj / 2), vsize, vwgt, ewgt);
  else
    o->len = (size_t)snprintf(o->buf, 96, "%d %lld\n", (int)n,
                              (long long)(nadj / 2));
  for (int32_t v = 0; v < n && !o->failed; v++) {
    int space = 0;
    if (vsize)
      out_weight(o, graph->rwgt[v], space++);
    if (vwgt)
      out_weight(o, graph->pwgt[v], space++);
    for (int64_t j = graph->xadj[v]; j < graph->xadj[v + 1]; j++) {
      out_weight(o, (double)graph->adjncy[j] + 1, space++);
      if (ewgt)
        out_weight(o, graph->cwgt[j], 1);
    }
    if (o->len > sizeof o->buf - 64)
      out_flush(o);
    o->buf[o->len++] = '\n';
  }
  out_flush(o);
  if (o->failed) {
    io_atomic_abort(&o->af);
    free(o);
    return core_error(MINEX_EIO, "%s: write failed", path);
  }
  rc = io_atomic_commit(&o->af);
  free(o);
  return rc;
}
