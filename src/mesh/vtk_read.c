/* SPDX-License-Identifier: GPL-3.0-or-later */
/* VTK legacy reader (SPEC §7): DATASET UNSTRUCTURED_GRID, ASCII or BINARY
 * (big-endian, as the format says), CELLS in the classic layout ("n size",
 * each cell "k i0 .. ik-1") or in 5.1's OFFSETS/CONNECTIVITY. Linear,
 * quadratic and Lagrange cells of the six kinds are kept by their corners;
 * vertices and lines are ignored and counted; any other cell type (pixel,
 * voxel, polygon, polyhedron, strip) is an error. In CELL_DATA, an integer
 * SCALARS or FIELD array "partition" is kept as the file's partition;
 * other data is ignored. The file is read whole, so every count is checked
 * against the bytes left before anything is allocated for it. */
#include "mesh/mesh.h"

#include "core/core.h"
#include "io/io_util.h"

#include <stdlib.h>
#include <string.h>

typedef struct vtk_reader {
  const char *path;
  char *buf;        /* whole file, NUL-terminated   */
  size_t len;       /* bytes                        */
  size_t pos;       /* cursor                       */
  int binary;       /* BINARY data                  */
  int64_t line;     /* line of the last keyword     */
  const char *want; /* cell array to keep in field, or NULL */
  double *field;    /* its ncells values                    */
  int64_t nfield;
} vtk_reader;

#define PATH v->path

/* 1-based line of byte offset pos (for messages). */
static long long line_at(const vtk_reader *v, size_t pos) {
  long long l = 1;
  for (size_t i = 0; i < pos && i < v->len; i++)
    l += v->buf[i] == '\n';
  return l;
}

static int fail(const vtk_reader *v, int code, const char *what,
                const char *field) {
  if (v->binary)
    return core_error(code, "%s:%lld: %s (%s, binary data at offset %zu)", PATH,
                      line_at(v, v->pos), what, field, v->pos);
  return core_error(code, "%s:%lld: %s (%s)", PATH, line_at(v, v->pos), what,
                    field);
}

/* Next line (keyword line) into line[cap]; skips blank lines. 1: read, 0:
 * end of file. */
static int next_line(vtk_reader *v, char *line, size_t cap) {
  for (;;) {
    if (v->pos >= v->len)
      return 0;
    size_t e = v->pos;
    while (e < v->len && v->buf[e] != '\n')
      e++;
    size_t n = e - v->pos;
    if (n >= cap)
      n = cap - 1;
    memcpy(line, v->buf + v->pos, n);
    line[n] = '\0';
    size_t start = v->pos;
    v->pos = e < v->len ? e + 1 : e;
    if (!io_rest_blank(line)) {
      v->line = line_at(v, start);
      return 1;
    }
  }
}

/* Next ASCII token as a NUL-terminated copy; 0 at end of file. */
static int next_token(vtk_reader *v, char *tok, size_t cap) {
  while (v->pos < v->len && (v->buf[v->pos] == ' ' || v->buf[v->pos] == '\t' ||
                             v->buf[v->pos] == '\r' || v->buf[v->pos] == '\n'))
    v->pos++;
  size_t n = 0;
  while (v->pos < v->len && v->buf[v->pos] != ' ' && v->buf[v->pos] != '\t' &&
         v->buf[v->pos] != '\r' && v->buf[v->pos] != '\n') {
    if (n + 1 < cap)
      tok[n++] = v->buf[v->pos];
    v->pos++;
  }
  tok[n] = '\0';
  return n > 0;
}

/* Skips a METADATA block (VTK 8+: INFORMATION, NAME and DATA lines, up to
 * a blank line) after its keyword line. */
static void skip_metadata(vtk_reader *v) {
  while (v->pos < v->len) {
    size_t e = v->pos;
    int blank = 1;
    while (e < v->len && v->buf[e] != '\n') {
      if (v->buf[e] != ' ' && v->buf[e] != '\t' && v->buf[e] != '\r')
        blank = 0;
      e++;
    }
    v->pos = e < v->len ? e + 1 : e;
    if (blank)
      return;
  }
}

/* Scalar types: size in bytes, 1 when real. */
static int type_size(const char *t, int *real) {
  static const struct {
    const char *name;
    int size, real;
  } types[] = {{"float", 4, 1},
               {"double", 8, 1},
               {"int", 4, 0},
               {"unsigned_int", 4, 0},
               {"long", 8, 0},
               {"unsigned_long", 8, 0},
               {"vtktypeint64", 8, 0},
               {"vtktypeuint64", 8, 0},
               {"vtktypeint32", 4, 0},
               {"short", 2, 0},
               {"unsigned_short", 2, 0},
               {"char", 1, 0},
               {"unsigned_char", 1, 0},
               {"bit", 0, 0}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (strcmp(t, types[i].name) == 0) {
      *real = types[i].real;
      return types[i].size;
    }
  return -1;
}

/* Big-endian binary value of size bytes. */
static void be_read(const unsigned char *p, int size, int real, int sgn,
                    double *d, int64_t *i) {
  uint64_t u = 0;
  for (int b = 0; b < size; b++)
    u = (u << 8) | p[b];
  if (real && size == 4) {
    uint32_t w = (uint32_t)u;
    float f;
    memcpy(&f, &w, 4);
    *d = f;
  } else if (real) {
    memcpy(d, &u, 8);
  } else {
    if (sgn && size < 8 && (u >> (size * 8 - 1)) & 1)
      u |= ~(uint64_t)0 << (size * 8);
    *i = (int64_t)u;
    *d = (double)*i;
  }
}

/* Reads n values of type t (ASCII tokens or big-endian binary). Either
 * dst (doubles) or idst (integers) is set. */
static int read_values(vtk_reader *v, const char *t, int64_t n, double *dst,
                       int64_t *idst, const char *field) {
  int real = 0, size = type_size(t, &real);
  if (size <= 0)
    return fail(v, MINEX_EUNSUP, "data type not read", field);
  if (!real && dst != NULL && idst == NULL)
    real = 0; /* integers into doubles are fine */
  if (real && idst != NULL)
    return fail(v, MINEX_EPARSE, "real numbers where integers are expected",
                field);
  int sgn = strncmp(t, "unsigned", 8) != 0 && strcmp(t, "vtktypeuint64") != 0;
  if (v->binary) {
    /* the data starts after the keyword line's newline */
    if ((uint64_t)n > (v->len - v->pos) / (uint64_t)size)
      return fail(v, MINEX_EPARSE,
                  "the count exceeds the bytes left in the file", field);
    for (int64_t k = 0; k < n; k++) {
      double d = 0;
      int64_t i = 0;
      be_read((const unsigned char *)v->buf + v->pos + k * size, size, real,
              sgn, &d, &i);
      if (dst)
        dst[k] = d;
      if (idst)
        idst[k] = i;
    }
    v->pos += (size_t)(n * size);
    return MINEX_OK;
  }
  /* ASCII: each value takes at least two bytes ("0 ") but the last */
  if ((uint64_t)n > (v->len - v->pos) / 2 + 1)
    return fail(v, MINEX_EPARSE,
                "the count exceeds what the rest of the file can hold", field);
  char tok[64];
  for (int64_t k = 0; k < n; k++) {
    if (!next_token(v, tok, sizeof tok))
      return fail(v, MINEX_EPARSE, "end of file: fewer values than the count",
                  field);
    int bad = real || idst == NULL ? io_parse_double(tok, NULL, &dst[k])
                                   : io_parse_i64(tok, NULL, &idst[k]);
    if (bad != 0)
      return core_error(MINEX_EPARSE, "%s:%lld: bad number '%.40s' in %s", PATH,
                        line_at(v, v->pos), tok, field);
  }
  return MINEX_OK;
}

int mesh_vtk_cell_kind(int64_t t, int *lower) {
  *lower = 0;
  switch (t) {
  case 1:
  case 2:
  case 3:
  case 4:
  case 21:
  case 35:
  case 68:
    *lower = 1;
    return 0;
  case 5:
  case 22:
  case 34:
  case 69:
    return MINEX_ELEM_TRIANGLE;
  case 9:
  case 23:
  case 28:
  case 70:
    return MINEX_ELEM_QUAD;
  case 10:
  case 24:
  case 71:
    return MINEX_ELEM_TETRA;
  case 12:
  case 25:
  case 29:
  case 33:
  case 72:
    return MINEX_ELEM_HEXA;
  case 13:
  case 26:
  case 32:
  case 73:
    return MINEX_ELEM_PRISM;
  case 14:
  case 27:
  case 74:
    return MINEX_ELEM_PYRAMID;
  default:
    return -1;
  }
}

/* Skips the newline left after binary data. */
static void skip_eol(vtk_reader *v) {
  while (v->pos < v->len && (v->buf[v->pos] == '\n' || v->buf[v->pos] == '\r' ||
                             v->buf[v->pos] == ' '))
    v->pos++;
}

/* One cell array of ncomp x ntup values of type t: kept as *part when it
 * is an integer "partition" of one component per cell, else read past. */
static int cell_array(vtk_reader *v, const char *name, const char *t,
                      int64_t ncomp, int64_t ntup, int64_t ncells,
                      int64_t **part) {
  int real = 0;
  if (type_size(t, &real) <= 0)
    return fail(v, MINEX_EUNSUP, "data type not read", name);
  if (ncomp > 64 || ntup > (int64_t)v->len)
    return fail(v, MINEX_EPARSE, "count out of range", name);
  int64_t n = ncomp * ntup;
  int64_t *vals = malloc(sizeof *vals * (size_t)(n + 1));
  double *dv = malloc(sizeof *dv * (size_t)(n + 1));
  int rc = MINEX_OK;
  if (vals == NULL || dv == NULL)
    rc = core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
  else
    rc = read_values(v, t, n, dv, real ? NULL : vals, name);
  if (rc == MINEX_OK && v->want != NULL && strcmp(name, v->want) == 0 &&
      v->field == NULL) {
    for (int64_t i = 0; !real && i < n; i++)
      dv[i] = (double)vals[i]; /* an integer array read as integers */
    if (ncomp != 1 || ntup != ncells)
      rc = fail(v, MINEX_EPARSE,
                "an element field needs one component per cell", name);
    else
      v->field = dv, v->nfield = ntup, dv = NULL;
  }
  free(dv);
  if (rc == MINEX_OK && strcmp(name, "partition") == 0 && !real && ncomp == 1 &&
      ntup == ncells && *part == NULL) {
    for (int64_t i = 0; i < ncells && rc == MINEX_OK; i++)
      if (vals[i] < 0 || vals[i] > INT32_MAX)
        rc = fail(v, MINEX_EPARSE, "partition value outside [0, 2^31)",
                  "partition");
    *part = vals;
    vals = NULL;
  }
  free(vals);
  if (rc == MINEX_OK && v->binary)
    skip_eol(v);
  return rc;
}

int mesh_vtk_cells(const char *path, int64_t line, const mesh_vtk_cellset *cs,
                   mesh_lists *lists) {
  const int64_t *offs = cs->offs, *conn = cs->conn, *types = cs->types,
                *part = cs->part;
  int64_t npts = cs->npts;
  for (int64_t i = 0; i < cs->ncells; i++) {
    int lower;
    int k = mesh_vtk_cell_kind(types[i], &lower);
    if (lower) {
      lists->lower++;
      continue;
    }
    if (k < 0)
      return core_error(MINEX_EUNSUP,
                        "%s:%lld: cell types: cell %lld has VTK cell type "
                        "%lld, which is not read (only tetrahedra, "
                        "hexahedra, wedges, pyramids, triangles, quads of "
                        "any order, vertices and lines); no cell is dropped "
                        "silently",
                        path, (long long)line, (long long)i,
                        (long long)types[i]);
    int nc = minex_elem_nnodes((minex_elem_type)k);
    int64_t lo = offs[i], hi = offs[i + 1];
    if (lo < 0 || hi < lo || hi - lo < nc || hi > cs->nconn)
      return core_error(MINEX_EPARSE,
                        "%s: cell %lld (VTK type %lld) has %lld nodes, "
                        "fewer than its %d corners, or its offsets are out "
                        "of range",
                        path, (long long)i, (long long)types[i],
                        (long long)(hi - lo), nc);
    int32_t en[8];
    for (int j = 0; j < nc; j++) {
      int64_t id = conn[lo + j];
      if (id < 0 || id >= npts)
        return core_error(MINEX_EPARSE,
                          "%s: cell %lld: point id %lld outside [0, %lld)",
                          path, (long long)i, (long long)id, (long long)npts);
      en[j] = (int32_t)id;
      for (int t = 0; t < j; t++)
        if (en[t] == en[j])
          return core_error(MINEX_EPARSE, "%s: cell %lld repeats point %lld",
                            path, (long long)i, (long long)id);
    }
    if (part != NULL && (part[i] < 0 || part[i] > INT32_MAX))
      return core_error(MINEX_EPARSE,
                        "%s: cell %lld: partition %lld outside [0, 2^31)", path,
                        (long long)i, (long long)part[i]);
    if (types[i] == 73) /* VTK_LAGRANGE_WEDGE: Gmsh's corner order */
      mesh_prism_to_vtk(en);
    int rc = mesh_list_add(lists, (minex_elem_type)k, en,
                           part ? (int32_t)part[i] : -1);
    if (rc != MINEX_OK)
      return rc;
  }
  return MINEX_OK;
}

/* The sections read so far; the arrays are malloc'ed, NULL until read. */
typedef struct vtk_data {
  int64_t npts, ncells; /* -1 until POINTS, CELLS                    */
  double *coords;       /* 3 npts coordinates                        */
  int64_t *offs;        /* ncells + 1 offsets into conn              */
  int64_t *conn;        /* nconn point ids                           */
  int64_t *types;       /* ncells VTK cell types                     */
  int64_t *part;        /* ncells partitions (CELL_DATA), or NULL    */
  int64_t nconn;        /* point ids of all cells                    */
  int64_t types_line;   /* line of CELL_TYPES, for messages          */
} vtk_data;

static void vtk_data_free(vtk_data *d) {
  free(d->coords);
  free(d->offs);
  free(d->conn);
  free(d->types);
  free(d->part);
}

/* Version line, title, ASCII|BINARY, DATASET UNSTRUCTURED_GRID. */
static int read_header(vtk_reader *v) {
  char line[256], a[64];
  if (!next_line(v, line, sizeof line) || strncmp(line, "# vtk", 5) != 0)
    return core_error(MINEX_EPARSE, "%s:1: not a VTK legacy file", PATH);
  /* the title may be empty: it is the whole next line */
  while (v->pos < v->len && v->buf[v->pos] != '\n')
    v->pos++;
  v->pos += v->pos < v->len;
  if (!next_line(v, line, sizeof line))
    return core_error(MINEX_EPARSE,
                      "%s:%lld: end of file inside the header: the file is "
                      "truncated",
                      PATH, line_at(v, v->len));
  if (strncmp(line, "BINARY", 6) == 0)
    v->binary = 1;
  else if (strncmp(line, "ASCII", 5) != 0)
    return core_error(MINEX_EPARSE, "%s:%lld: ASCII or BINARY expected", PATH,
                      (long long)v->line);
  if (!next_line(v, line, sizeof line) || sscanf(line, "DATASET %63s", a) != 1)
    return core_error(MINEX_EPARSE, "%s:%lld: DATASET expected", PATH,
                      (long long)v->line);
  if (strcmp(a, "UNSTRUCTURED_GRID") != 0)
    return core_error(MINEX_EUNSUP,
                      "%s:%lld: DATASET %s: only UNSTRUCTURED_GRID is read",
                      PATH, (long long)v->line, a);
  return MINEX_OK;
}

/* POINTS n type. */
static int read_points(vtk_reader *v, vtk_data *d, int64_t n,
                       const char *type) {
  if (d->npts >= 0 || n < 0 || n > INT32_MAX)
    return fail(v, MINEX_EPARSE, "second POINTS or count outside [0, 2^31)",
                "POINTS");
  if ((uint64_t)n * 3 > v->len)
    return fail(v, MINEX_EPARSE,
                "the count exceeds what the rest of the file can hold",
                "POINTS");
  d->coords = malloc(sizeof *d->coords * (size_t)(3 * n + 1));
  if (d->coords == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
  d->npts = n;
  return read_values(v, type, 3 * n, d->coords, NULL, "POINTS");
}

/* 5.1's OFFSETS (noffs values of type otype, the line already read) and
 * CONNECTIVITY (nconn values). */
static int read_cells_51(vtk_reader *v, vtk_data *d, int64_t noffs,
                         int64_t nconn, const char *otype) {
  char l2[256], b[64];
  if (noffs < 1)
    return fail(v, MINEX_EPARSE, "offset count < 1", "CELLS");
  int64_t *offs = d->offs = malloc(sizeof *d->offs * (size_t)noffs);
  d->conn = malloc(sizeof *d->conn * (size_t)(nconn + 1));
  if (offs == NULL || d->conn == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
  int rc = read_values(v, otype, noffs, NULL, offs, "OFFSETS");
  if (rc != MINEX_OK)
    return rc;
  if (v->binary)
    skip_eol(v);
  if (!next_line(v, l2, sizeof l2) || sscanf(l2, "CONNECTIVITY %63s", b) != 1)
    return fail(v, MINEX_EPARSE, "CONNECTIVITY expected", "CELLS");
  if ((rc = read_values(v, b, nconn, NULL, d->conn, "CONNECTIVITY")) !=
      MINEX_OK)
    return rc;
  d->ncells = noffs - 1;
  d->nconn = nconn;
  if (offs[0] != 0 || offs[noffs - 1] != nconn)
    return fail(v, MINEX_EPARSE,
                "offsets must run from 0 to the "
                "connectivity size",
                "OFFSETS");
  for (int64_t i = 0; i + 1 < noffs; i++)
    if (offs[i + 1] < offs[i])
      return fail(v, MINEX_EPARSE, "offsets decrease", "OFFSETS");
  return MINEX_OK;
}

/* Classic CELLS: n cells in size integers "k i0 .. ik-1", compacted in
 * place into offsets and connectivity. */
static int read_cells_classic(vtk_reader *v, vtk_data *d, int64_t n,
                              int64_t size) {
  int64_t *raw = d->conn = malloc(sizeof *raw * (size_t)(size + 1));
  int64_t *offs = d->offs = malloc(sizeof *offs * (size_t)(n + 1));
  if (raw == NULL || offs == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
  int rc = read_values(v, "int", size, NULL, raw, "CELLS");
  if (rc != MINEX_OK)
    return rc;
  int64_t p = 0, q = 0;
  for (int64_t i = 0; i < n; i++) {
    if (p >= size || raw[p] < 0 || raw[p] > size - p - 1)
      return fail(v, MINEX_EPARSE,
                  "cell node counts disagree with the CELLS size", "CELLS");
    int64_t k = raw[p++];
    offs[i] = q;
    memmove(raw + q, raw + p, sizeof *raw * (size_t)k);
    q += k;
    p += k;
  }
  if (p != size)
    return fail(v, MINEX_EPARSE, "CELLS size larger than its cells", "CELLS");
  offs[n] = q;
  d->ncells = n;
  d->nconn = q;
  return MINEX_OK;
}

/* CELLS n1 n2, in either layout. */
static int read_cells(vtk_reader *v, vtk_data *d, int64_t n1, int64_t n2) {
  if (d->ncells >= 0 || d->offs != NULL || n1 < 0 || n2 < 0 ||
      n1 > (int64_t)v->len || n2 > (int64_t)v->len)
    return fail(v, MINEX_EPARSE, "second CELLS or count out of range", "CELLS");
  /* 5.1: "CELLS noffsets nconn" then OFFSETS and CONNECTIVITY */
  size_t save = v->pos;
  char l2[256], a[64];
  if (next_line(v, l2, sizeof l2) && sscanf(l2, "OFFSETS %63s", a) == 1)
    return read_cells_51(v, d, n1, n2, a);
  v->pos = save;
  return read_cells_classic(v, d, n1, n2);
}

/* CELL_TYPES n. */
static int read_cell_types(vtk_reader *v, vtk_data *d, int64_t n) {
  if (d->types != NULL || d->ncells < 0 || n != d->ncells)
    return fail(v, MINEX_EPARSE,
                "CELL_TYPES before CELLS, twice, or its count is not "
                "the cell count",
                "CELL_TYPES");
  d->types_line = v->line;
  d->types = malloc(sizeof *d->types * (size_t)(n + 1));
  if (d->types == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
  return read_values(v, "int", n, NULL, d->types, "CELL_TYPES");
}

/* The nfield arrays of a CELL_DATA FIELD. */
static int read_field(vtk_reader *v, vtk_data *d, int64_t nfield) {
  int rc = MINEX_OK;
  for (int64_t f = 0; f < nfield && rc == MINEX_OK; f++) {
    int64_t ncomp, ntup;
    char l2[256], a[64], b[64];
    if (!next_line(v, l2, sizeof l2) ||
        sscanf(l2, "%63s %lld %lld %63s", a, (long long *)&ncomp,
               (long long *)&ntup, b) != 4 ||
        ncomp < 1 || ntup < 0)
      return fail(v, MINEX_EPARSE, "'name components tuples type' expected",
                  "FIELD");
    rc = cell_array(v, a, b, ncomp, ntup, d->ncells, &d->part);
  }
  return rc;
}

/* CELL_DATA n: SCALARS blocks and FIELD arrays; anything else ends the
 * reading. line[cap] holds the last line read (for the caller's
 * messages). */
static int read_cell_data(vtk_reader *v, vtk_data *d, int64_t n, char *line,
                          size_t cap) {
  char a[64], b[64], c[64];
  if (d->types == NULL || n != d->ncells)
    return fail(v, MINEX_EPARSE, "CELL_DATA count is not the cell count",
                "CELL_DATA");
  int rc = MINEX_OK, got = 0;
  while (rc == MINEX_OK && next_line(v, line, cap)) {
    got = 1;
    int64_t nfield = 0;
    if (strncmp(line, "METADATA", 8) == 0) {
      skip_metadata(v);
      continue;
    }
    int nf = sscanf(line, "SCALARS %63s %63s %63s", a, b, c);
    if (nf >= 2) {
      if (nf == 3 && strcmp(c, "1") != 0)
        break;
      size_t save = v->pos;
      char l2[256];
      if (next_line(v, l2, sizeof l2) && strncmp(l2, "LOOKUP_TABLE", 12) != 0)
        v->pos = save;
      rc = cell_array(v, a, b, 1, d->ncells, d->ncells, &d->part);
    } else if (sscanf(line, "FIELD %63s %lld", a, (long long *)&nfield) == 2 &&
               nfield >= 0) {
      rc = read_field(v, d, nfield);
    } else {
      break;
    }
  }
  /* the header announces cell data: the file ends where it should begin */
  if (rc == MINEX_OK && !got)
    rc = core_error(MINEX_EPARSE,
                    "%s:%lld: end of file after CELL_DATA, before its "
                    "arrays: the file is truncated",
                    PATH, line_at(v, v->len));
  return rc;
}

/* One keyword line of the body; *stop when the reading ends after it. */
static int read_section(vtk_reader *v, vtk_data *d, char *line, size_t cap,
                        int *stop) {
  int64_t n1 = 0, n2 = 0;
  char a[64];
  if (sscanf(line, "POINTS %lld %63s", (long long *)&n1, a) == 2)
    return read_points(v, d, n1, a);
  if (sscanf(line, "CELLS %lld %lld", (long long *)&n1, (long long *)&n2) == 2)
    return read_cells(v, d, n1, n2);
  if (sscanf(line, "CELL_TYPES %lld", (long long *)&n1) == 1)
    return read_cell_types(v, d, n1);
  if (sscanf(line, "CELL_DATA %lld", (long long *)&n1) == 1) {
    *stop = 1;
    return read_cell_data(v, d, n1, line, cap);
  }
  if (strncmp(line, "METADATA", 8) == 0) {
    skip_metadata(v);
    return MINEX_OK;
  }
  if (strncmp(line, "POINT_DATA", 10) == 0 || strncmp(line, "FIELD", 5) == 0) {
    *stop = 1; /* data we do not use: the rest is ignored */
    return MINEX_OK;
  }
  return core_error(MINEX_EPARSE, "%s:%lld: unexpected line '%.40s'", PATH,
                    (long long)v->line, line);
}

static int parse(vtk_reader *v, int kind, minex_mesh **out) {
  char line[256];
  vtk_data d = {.npts = -1, .ncells = -1};
  mesh_lists lists = {0};
  int rc = read_header(v), stop = 0;
  if (rc != MINEX_OK)
    return rc;
  while (rc == MINEX_OK && !stop && next_line(v, line, sizeof line)) {
    rc = read_section(v, &d, line, sizeof line, &stop);
    if (rc == MINEX_OK && !stop && v->binary)
      skip_eol(v);
  }
  if (rc == MINEX_OK && (d.npts < 0 || d.types == NULL)) {
    const char *sec = d.npts < 0     ? "POINTS"
                      : d.ncells < 0 ? "CELLS"
                                     : "CELL_TYPES";
    if (v->pos >= v->len)
      rc = core_error(MINEX_EPARSE,
                      "%s:%lld: end of file without a %s section: the file "
                      "is truncated",
                      PATH, line_at(v, v->len), sec);
    else
      rc = core_error(MINEX_EPARSE, "%s:%lld: no %s section before '%.40s'",
                      PATH, (long long)v->line, sec, line);
  }
  if (rc == MINEX_OK) {
    mesh_vtk_cellset cs = {d.npts,  d.ncells, d.offs, d.conn,
                           d.nconn, d.types,  d.part};
    rc = mesh_vtk_cells(PATH, d.types_line, &cs, &lists);
  }
  if (rc != MINEX_OK) {
    vtk_data_free(&d);
    mesh_list_free(&lists);
    return rc;
  }
  double *coords = d.coords;
  d.coords = NULL; /* adopted by the mesh */
  vtk_data_free(&d);
  return mesh_list_finish(PATH, &lists, kind, (int32_t)d.npts, coords, out);
}

int mesh_read_vtk_field(const char *path, const char *name, double **vals,
                        int64_t *n) {
  vtk_reader v0 = {0}, *v = &v0;
  v->path = path;
  v->want = name;
  int rc = mesh_load_file(path, &v->buf, &v->len);
  if (rc != MINEX_OK)
    return rc;
  locale_t prev = io_locale_c();
  minex_mesh *m = NULL;
  rc = parse(v, 0, &m);
  io_locale_restore(prev);
  free(v->buf);
  minex_mesh_destroy(m);
  if (rc == MINEX_OK && v->field == NULL)
    rc = core_error(MINEX_EPARSE,
                    "%s: no CELL_DATA array '%s' (SCALARS or FIELD; element "
                    "fields are cell data)",
                    path, name);
  if (rc != MINEX_OK) {
    free(v->field);
    return rc;
  }
  *vals = v->field;
  *n = v->nfield;
  return MINEX_OK;
}

int mesh_read_vtk(const char *path, int kind, minex_mesh **out) {
  *out = NULL;
  vtk_reader v0 = {0}, *v = &v0;
  v->path = path;
  int rc = mesh_load_file(path, &v->buf, &v->len);
  if (rc != MINEX_OK)
    return rc;
  locale_t prev = io_locale_c();
  rc = parse(v, kind, out);
  io_locale_restore(prev);
  free(v->buf);
  return rc;
}
