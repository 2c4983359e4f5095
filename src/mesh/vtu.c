/* SPDX-License-Identifier: GPL-3.0-or-later */
/* VTK XML unstructured grid (.vtu) reader (SPEC §7), through libxml2: one
 * Piece, DataArrays "ascii", "binary" (base64 inline) or "appended" (raw
 * or base64 AppendedData), either byte order, UInt32 or UInt64 headers,
 * uncompressed or vtkZLibDataCompressor (zlib's uncompress, block by
 * block). The raw appended bytes are not XML, so the document handed to
 * libxml2 is the file cut at the '_' that starts them. Points, the cells'
 * connectivity, offsets and types, and an integer CellData array
 * "partition" are read; cells go through the legacy reader's rules
 * (mesh_vtk_cells). Every size is checked against what the Piece announces
 * before anything is allocated or inflated. */
#include "mesh/mesh.h"

#include "core/core.h"
#include "io/io_util.h"
#include "io/xml_capture.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct vtu_reader {
  const char *path;
  char *buf;        /* whole file                                  */
  size_t len;       /* its size                                    */
  const char *app;  /* appended data after '_', or NULL            */
  size_t app_len;   /* bytes from app to the end of the file       */
  int app_base64;   /* AppendedData encoding="base64"              */
  int big;          /* byte_order="BigEndian"                      */
  int hsize;        /* header_type: 4 (UInt32) or 8 (UInt64)       */
  int zlib;         /* compressor="vtkZLibDataCompressor"          */
  const char *want; /* CellData array to keep in field, or NULL   */
  double *field;    /* its ncells values                          */
  int64_t nfield;
} vtu_reader;

#define PATH v->path

static int line_of(const xmlNode *n) {
  return n ? (int)xmlGetLineNo(n) : 0;
}

/* The text directly inside n (its own text nodes, not its children's:
 * VTK puts InformationKey elements inside a DataArray), malloc'ed. */
static char *own_text(const xmlNode *n) {
  size_t len = 0;
  for (const xmlNode *c = n->children; c; c = c->next)
    if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) &&
        c->content)
      len += strlen((const char *)c->content);
  char *t = malloc(len + 1);
  if (t == NULL)
    return NULL;
  len = 0;
  for (const xmlNode *c = n->children; c; c = c->next)
    if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) &&
        c->content) {
      size_t l = strlen((const char *)c->content);
      memcpy(t + len, c->content, l);
      len += l;
    }
  t[len] = '\0';
  return t;
}

/* An attribute as a C string (NULL when absent); xmlFree it. */
static char *attr(const xmlNode *n, const char *name) {
  return (char *)xmlGetProp(n, (const xmlChar *)name);
}

static int attr_is(const xmlNode *n, const char *name, const char *value) {
  char *a = attr(n, name);
  int is = a != NULL && strcmp(a, value) == 0;
  xmlFree(a);
  return is;
}

static const xmlNode *child(const xmlNode *n, const char *name) {
  for (const xmlNode *c = n ? n->children : NULL; c != NULL; c = c->next)
    if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, name) == 0)
      return c;
  return NULL;
}

/* Size and kind of a DataArray type. */
static int type_of(const char *t, int *real, int *sgn) {
  static const struct {
    const char *name;
    int size, real, sgn;
  } types[] = {{"Int8", 1, 0, 1},   {"UInt8", 1, 0, 0},  {"Int16", 2, 0, 1},
               {"UInt16", 2, 0, 0}, {"Int32", 4, 0, 1},  {"UInt32", 4, 0, 0},
               {"Int64", 8, 0, 1},  {"UInt64", 8, 0, 0}, {"Float32", 4, 1, 1},
               {"Float64", 8, 1, 1}};
  for (size_t i = 0; t != NULL && i < sizeof types / sizeof types[0]; i++)
    if (strcmp(t, types[i].name) == 0) {
      *real = types[i].real;
      *sgn = types[i].sgn;
      return types[i].size;
    }
  return -1;
}

static uint64_t get_uint(const unsigned char *p, int size, int big) {
  uint64_t u = 0;
  for (int b = 0; b < size; b++)
    u |= (uint64_t)p[big ? size - 1 - b : b] << (8 * b);
  return u;
}

/* Decodes base64 text s[0, n) — one or more padded streams one after the
 * other (VTK encodes a header and its data apart), blanks ignored, ending
 * at the end or at a '<' — into out (room for n / 4 * 3 + 3 bytes).
 * Returns the bytes written or -1 on a bad character. */
static int64_t b64_decode(const char *s, size_t n, unsigned char *out) {
  size_t o = 0;
  int q[4], nq = 0;
  for (size_t i = 0; i < n && s[i] != '<'; i++) {
    unsigned char c = (unsigned char)s[i];
    int val;
    if (c >= 'A' && c <= 'Z')
      val = c - 'A';
    else if (c >= 'a' && c <= 'z')
      val = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      val = c - '0' + 52;
    else if (c == '+')
      val = 62;
    else if (c == '/')
      val = 63;
    else if (c == '=')
      val = -1;
    else if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
      continue;
    else
      return -1;
    q[nq++] = val;
    if (nq < 4)
      continue;
    nq = 0;
    if (q[0] < 0 || q[1] < 0 || (q[2] < 0 && q[3] >= 0))
      return -1;
    out[o++] = (unsigned char)(q[0] << 2 | q[1] >> 4);
    if (q[2] >= 0)
      out[o++] = (unsigned char)((q[1] & 15) << 4 | q[2] >> 2);
    if (q[3] >= 0)
      out[o++] = (unsigned char)((q[2] & 3) << 6 | q[3]);
  }
  return nq == 0 ? (int64_t)o : -1;
}

/* The bytes one array's payload is read from, and the array for
 * messages. */
typedef struct vtu_src {
  const xmlNode *da; /* the DataArray                            */
  const char *name;  /* its role: Points, offsets, ...           */
  const char *s;     /* bytes (base64 text before decoding)      */
  size_t len;        /* bytes at s                               */
  size_t pos;        /* bytes taken                              */
} vtu_src;

/* Copies the next n bytes of the (decoded) source into dst. */
static int take(const vtu_reader *v, vtu_src *in, void *dst, size_t n,
                const char *what) {
  if (n > in->len - in->pos)
    return core_error(MINEX_EPARSE,
                      "%s:%d: DataArray %s: %s: %zu bytes past the end of "
                      "the data",
                      PATH, line_of(in->da), in->name, what, n);
  memcpy(dst, in->s + in->pos, n);
  in->pos += n;
  return MINEX_OK;
}

/* Uncompressed: a header with the byte count, then the data into
 * out[want]; hdr has room for the header. */
static int payload_plain(const vtu_reader *v, vtu_src *in, size_t want,
                         unsigned char *hdr, unsigned char *out) {
  int rc = take(v, in, hdr, (size_t)v->hsize, "header");
  if (rc != MINEX_OK)
    return rc;
  uint64_t nbytes = get_uint(hdr, v->hsize, v->big);
  if (nbytes != want)
    return core_error(MINEX_EPARSE,
                      "%s:%d: DataArray %s holds %llu bytes, %zu expected "
                      "from the Piece's counts",
                      PATH, line_of(in->da), in->name,
                      (unsigned long long)nbytes, want);
  return take(v, in, out, want, "data");
}

/* vtkZLibDataCompressor: a header (nblocks, block size, last block size,
 * compressed sizes), then the blocks, each inflated into out[want]; hdr
 * has room for the first three header values. */
static int payload_zlib(const vtu_reader *v, vtu_src *in, size_t want,
                        unsigned char *hdr, unsigned char *out) {
  size_t hs = (size_t)v->hsize;
  int rc = take(v, in, hdr, 3 * hs, "compression header");
  if (rc != MINEX_OK)
    return rc;
  uint64_t nb = get_uint(hdr, v->hsize, v->big),
           bs = get_uint(hdr + hs, v->hsize, v->big),
           last = get_uint(hdr + 2 * hs, v->hsize, v->big);
  uint64_t total = nb == 0 ? 0 : (nb - 1) * bs + (last ? last : bs);
  if (nb > want + 1 || bs == 0 || (nb > 0 && total != want) ||
      (nb == 0 && want != 0))
    return core_error(MINEX_EPARSE,
                      "%s:%d: DataArray %s: compression header (%llu "
                      "blocks of %llu bytes) disagrees with the %zu bytes "
                      "expected",
                      PATH, line_of(in->da), in->name, (unsigned long long)nb,
                      (unsigned long long)bs, want);
  unsigned char *sizes = malloc(hs * (size_t)nb + 1), *raw = NULL;
  if (sizes == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
  rc = take(v, in, sizes, hs * (size_t)nb, "block sizes");
  size_t o = 0;
  for (uint64_t b = 0; rc == MINEX_OK && b < nb; b++) {
    uint64_t cs = get_uint(sizes + b * hs, v->hsize, v->big);
    if (cs > v->len) {
      rc = core_error(MINEX_EPARSE,
                      "%s:%d: DataArray %s: block %llu of %llu "
                      "compressed bytes exceeds the file",
                      PATH, line_of(in->da), in->name, (unsigned long long)b,
                      (unsigned long long)cs);
      break;
    }
    free(raw);
    raw = malloc((size_t)cs + 1);
    if (raw == NULL) {
      rc = core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
      break;
    }
    if ((rc = take(v, in, raw, (size_t)cs, "compressed block")) != MINEX_OK)
      break;
    uLongf dlen = (uLongf)(b + 1 < nb ? bs : (last ? last : bs));
    uLongf expect = dlen;
    if (uncompress(out + o, &dlen, raw, (uLong)cs) != Z_OK || dlen != expect)
      rc = core_error(MINEX_EPARSE,
                      "%s:%d: DataArray %s: block %llu does not inflate "
                      "to its %lu bytes (zlib)",
                      PATH, line_of(in->da), in->name, (unsigned long long)b,
                      (unsigned long)expect);
    o += dlen;
  }
  free(raw);
  free(sizes);
  return rc;
}

/* The binary payload of one array (header and data): in->s is the
 * element's base64 text (base64) or the appended section from the array's
 * offset. Fills *data (malloc'ed) with exactly want bytes of decoded,
 * inflated values. */
static int binary_payload(vtu_reader *v, vtu_src *in, int base64, size_t want,
                          unsigned char **data) {
  int rc = MINEX_OK;
  unsigned char *hdr = NULL, *out = NULL, *dec = NULL;
  *data = NULL;
  if (base64) { /* decode it all: at most 3/4 of the text's bytes */
    dec = malloc(in->len / 4 * 3 + 4);
    if (dec == NULL)
      return core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
    int64_t got = b64_decode(in->s, in->len, dec);
    if (got < 0) {
      free(dec);
      return core_error(MINEX_EPARSE, "%s:%d: DataArray %s: bad base64 data",
                        PATH, line_of(in->da), in->name);
    }
    in->s = (const char *)dec;
    in->len = (size_t)got;
  }
  out = malloc(want + 1);
  hdr = malloc(3 * (size_t)v->hsize);
  if (out == NULL || hdr == NULL)
    rc = core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
  else if (!v->zlib)
    rc = payload_plain(v, in, want, hdr, out);
  else
    rc = payload_zlib(v, in, want, hdr, out);
  free(hdr);
  free(dec);
  if (rc != MINEX_OK) {
    free(out);
    out = NULL;
  }
  *data = out;
  return rc;
}

/* The values of an ascii DataArray: doubles into dst when idst is NULL
 * (the caller refuses reals for idst), else integers into idst. */
static int read_ascii(vtu_reader *v, const xmlNode *da, int64_t count,
                      double *dst, int64_t *idst, const char *name) {
  char *text = own_text(da);
  if (text == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
  int rc = MINEX_OK;
  char *s = text;
  locale_t prev = io_locale_c();
  for (int64_t k = 0; k < count && rc == MINEX_OK; k++) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
      s++;
    char *end = s;
    int bad = idst == NULL ? io_parse_double(s, &end, &dst[k])
                           : io_parse_i64(s, &end, &idst[k]);
    if (bad)
      rc = core_error(MINEX_EPARSE,
                      "%s:%d: DataArray %s: value %lld missing or not a "
                      "number",
                      PATH, line_of(da), name, (long long)k + 1);
    s = end;
  }
  io_locale_restore(prev);
  if (rc == MINEX_OK && !io_rest_blank(s))
    rc = core_error(MINEX_EPARSE,
                    "%s:%d: DataArray %s: more values than the %lld "
                    "expected",
                    PATH, line_of(da), name, (long long)count);
  free(text);
  return rc;
}

/* Reads DataArray da of count values into dst (doubles) or idst
 * (integers; reals refused). */
static int read_array(vtu_reader *v, const xmlNode *da, int64_t count,
                      double *dst, int64_t *idst, const char *name) {
  char *type = attr(da, "type"), *format = attr(da, "format");
  int real = 0, sgn = 1, size = type_of(type, &real, &sgn), rc = MINEX_OK;
  unsigned char *bytes = NULL;
  char *text = NULL;
  if (size < 0) {
    rc = core_error(MINEX_EUNSUP, "%s:%d: DataArray %s: type '%.20s' not read",
                    PATH, line_of(da), name, type ? type : "(none)");
    goto done;
  }
  if (real && idst != NULL) {
    rc = core_error(MINEX_EPARSE,
                    "%s:%d: DataArray %s: type %s where integers are "
                    "expected",
                    PATH, line_of(da), name, type);
    goto done;
  }
  if (format == NULL || strcmp(format, "ascii") == 0) {
    rc = read_ascii(v, da, count, dst, idst, name);
    goto done;
  }
  size_t want = (size_t)count * (size_t)size;
  if (strcmp(format, "binary") == 0) {
    if ((text = own_text(da)) == NULL) {
      rc = core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
    } else {
      vtu_src in = {da, name, text, strlen(text), 0};
      rc = binary_payload(v, &in, 1, want, &bytes);
    }
  } else if (strcmp(format, "appended") == 0) {
    char *off = attr(da, "offset");
    int64_t o = -1;
    if (off == NULL || io_parse_i64(off, NULL, &o) != 0 || o < 0 ||
        v->app == NULL || (uint64_t)o > v->app_len) {
      rc = core_error(MINEX_EPARSE,
                      "%s:%d: DataArray %s: appended data without a valid "
                      "offset or AppendedData section",
                      PATH, line_of(da), name);
    } else {
      vtu_src in = {da, name, v->app + o, v->app_len - (size_t)o, 0};
      rc = binary_payload(v, &in, v->app_base64, want, &bytes);
    }
    xmlFree(off);
  } else {
    rc =
        core_error(MINEX_EUNSUP, "%s:%d: DataArray %s: format '%.20s' not read",
                   PATH, line_of(da), name, format);
  }
  for (int64_t k = 0; rc == MINEX_OK && k < count; k++) {
    uint64_t u = get_uint(bytes + k * size, size, v->big);
    double d;
    int64_t i;
    if (real && size == 4) {
      uint32_t w = (uint32_t)u;
      float f;
      memcpy(&f, &w, 4);
      d = f;
    } else if (real) {
      memcpy(&d, &u, 8);
    } else {
      if (sgn && size < 8 && (u >> (size * 8 - 1)) & 1)
        u |= ~(uint64_t)0 << (size * 8);
      i = (int64_t)u;
      d = (double)i;
      if (idst)
        idst[k] = i;
    }
    if (dst)
      dst[k] = d;
  }
done:
  free(bytes);
  free(text);
  xmlFree(type);
  xmlFree(format);
  return rc;
}

static const xmlNode *named_array(const xmlNode *parent, const char *name) {
  for (const xmlNode *c = parent ? parent->children : NULL; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE &&
        strcmp((const char *)c->name, "DataArray") == 0 &&
        attr_is(c, "Name", name))
      return c;
  return NULL;
}

static int count_attr(vtu_reader *v, const xmlNode *n, const char *name,
                      int64_t *out) {
  char *a = attr(n, name);
  int bad = a == NULL || io_parse_i64(a, NULL, out) != 0 || *out < 0 ||
            *out > INT32_MAX || (uint64_t)*out > v->len * 8;
  xmlFree(a);
  if (bad)
    return core_error(MINEX_EPARSE, "%s:%d: Piece: %s missing or out of range",
                      PATH, line_of(n), name);
  return MINEX_OK;
}

/* The root element VTKFile of an UnstructuredGrid: its byte order,
 * header type and compressor into v. */
static int read_root(vtu_reader *v, const xmlNode *root) {
  if (root == NULL || strcmp((const char *)root->name, "VTKFile") != 0)
    return core_error(MINEX_EPARSE, "%s:%d: root element VTKFile expected",
                      PATH, line_of(root));
  if (!attr_is(root, "type", "UnstructuredGrid"))
    return core_error(MINEX_EUNSUP,
                      "%s:%d: VTKFile type is not UnstructuredGrid: only "
                      "unstructured grids are read",
                      PATH, line_of(root));
  v->big = attr_is(root, "byte_order", "BigEndian");
  v->hsize = attr_is(root, "header_type", "UInt64") ? 8 : 4;
  char *comp = attr(root, "compressor");
  v->zlib = comp != NULL && strcmp(comp, "vtkZLibDataCompressor") == 0;
  int rc = MINEX_OK;
  if (comp != NULL && !v->zlib)
    rc = core_error(MINEX_EUNSUP,
                    "%s:%d: compressor %.40s: only vtkZLibDataCompressor "
                    "is read",
                    PATH, line_of(root), comp);
  xmlFree(comp);
  return rc;
}

/* The one Piece of root's UnstructuredGrid into *piece. */
static int find_piece(const vtu_reader *v, const xmlNode *root,
                      const xmlNode **piece) {
  const xmlNode *grid = child(root, "UnstructuredGrid");
  *piece = child(grid, "Piece");
  if (*piece == NULL)
    return core_error(MINEX_EPARSE, "%s:%d: no UnstructuredGrid/Piece", PATH,
                      line_of(grid ? grid : root));
  for (const xmlNode *c = (*piece)->next; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE &&
        strcmp((const char *)c->name, "Piece") == 0)
      return core_error(MINEX_EUNSUP,
                        "%s:%d: a second Piece: only one-piece files are "
                        "read",
                        PATH, line_of(c));
  return MINEX_OK;
}

static int parse_doc(vtu_reader *v, xmlDocPtr doc, int kind, minex_mesh **out) {
  const xmlNode *root = xmlDocGetRootElement(doc), *piece = NULL;
  double *coords = NULL;
  int64_t *conn = NULL, *offs = NULL, *types = NULL, *part = NULL;
  mesh_lists lists = {0};
  int rc = read_root(v, root);
  if (rc == MINEX_OK)
    rc = find_piece(v, root, &piece);
  if (rc != MINEX_OK)
    return rc;
  int64_t npts, ncells;
  if ((rc = count_attr(v, piece, "NumberOfPoints", &npts)) != MINEX_OK ||
      (rc = count_attr(v, piece, "NumberOfCells", &ncells)) != MINEX_OK)
    return rc;
  const xmlNode *pts = child(child(piece, "Points"), "DataArray");
  const xmlNode *cells = child(piece, "Cells");
  const xmlNode *dconn = named_array(cells, "connectivity"),
                *doffs = named_array(cells, "offsets"),
                *dtypes = named_array(cells, "types");
  if (pts == NULL || dconn == NULL || doffs == NULL || dtypes == NULL)
    return core_error(MINEX_EPARSE,
                      "%s:%d: Piece needs Points and Cells with the "
                      "DataArrays connectivity, offsets and types",
                      PATH, line_of(piece));
  char *nc = attr(pts, "NumberOfComponents");
  int three = nc == NULL || strcmp(nc, "3") == 0;
  xmlFree(nc);
  if (!three)
    return core_error(MINEX_EPARSE, "%s:%d: Points: 3 components expected",
                      PATH, line_of(pts));
  coords = malloc(sizeof *coords * (size_t)(3 * npts + 1));
  offs = malloc(sizeof *offs * (size_t)(ncells + 1));
  types = malloc(sizeof *types * (size_t)(ncells + 1));
  if (coords == NULL || offs == NULL || types == NULL) {
    rc = core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
    goto done;
  }
  offs[0] = 0;
  if ((rc = read_array(v, pts, 3 * npts, coords, NULL, "Points")) ||
      (rc = read_array(v, doffs, ncells, NULL, offs + 1, "offsets")) ||
      (rc = read_array(v, dtypes, ncells, NULL, types, "types")))
    goto done;
  for (int64_t i = 0; i < ncells; i++)
    if (offs[i + 1] < offs[i] || offs[i + 1] > (int64_t)v->len * 8) {
      rc = core_error(MINEX_EPARSE,
                      "%s:%d: offsets: value %lld decreases or "
                      "is out of range",
                      PATH, line_of(doffs), (long long)i + 1);
      goto done;
    }
  int64_t nconn = offs[ncells];
  conn = malloc(sizeof *conn * (size_t)(nconn + 1));
  if (conn == NULL) {
    rc = core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
    goto done;
  }
  if ((rc = read_array(v, dconn, nconn, NULL, conn, "connectivity")))
    goto done;
  const xmlNode *dpart = named_array(child(piece, "CellData"), "partition");
  if (dpart != NULL) {
    part = malloc(sizeof *part * (size_t)(ncells + 1));
    if (part == NULL) {
      rc = core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
      goto done;
    }
    if ((rc = read_array(v, dpart, ncells, NULL, part, "partition")))
      goto done;
  }
  if (v->want != NULL) {
    const xmlNode *df = named_array(child(piece, "CellData"), v->want);
    char *ncomp = df ? attr(df, "NumberOfComponents") : NULL;
    int one = ncomp == NULL || strcmp(ncomp, "1") == 0;
    xmlFree(ncomp);
    if (df == NULL) {
      rc = core_error(MINEX_EPARSE,
                      "%s:%d: no CellData DataArray Name=\"%s\" (element "
                      "fields are cell arrays)",
                      PATH, line_of(piece), v->want);
      goto done;
    }
    if (!one) {
      rc = core_error(MINEX_EPARSE,
                      "%s:%d: CellData \"%s\": one component expected", PATH,
                      line_of(df), v->want);
      goto done;
    }
    v->field = malloc(sizeof *v->field * (size_t)(ncells + 1));
    if (v->field == NULL) {
      rc = core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
      goto done;
    }
    v->nfield = ncells;
    if ((rc = read_array(v, df, ncells, v->field, NULL, v->want)))
      goto done;
  }
  mesh_vtk_cellset cs = {npts, ncells, offs, conn, nconn, types, part};
  rc = mesh_vtk_cells(PATH, line_of(dtypes), &cs, &lists);
done:
  free(offs);
  free(conn);
  free(types);
  free(part);
  if (rc != MINEX_OK) {
    free(coords);
    mesh_list_free(&lists);
    return rc;
  }
  return mesh_list_finish(PATH, &lists, kind, (int32_t)npts, coords, out);
}

/* Whether buf[0, len) ends with "</AppendedData>", blanks, "</VTKFile>"
 * and blanks, the first tag at or after from; *end: its offset. */
static int appended_end(const char *buf, size_t len, size_t from, size_t *end) {
  static const char tag[] = "</AppendedData>", doc[] = "</VTKFile>";
  size_t nt = sizeof tag - 1, nd = sizeof doc - 1, e = len;
  while (e > from && (buf[e - 1] == ' ' || buf[e - 1] == '\t' ||
                      buf[e - 1] == '\r' || buf[e - 1] == '\n'))
    e--;
  if (e < from + nd || memcmp(buf + e - nd, doc, nd) != 0)
    return 0;
  e -= nd;
  while (e > from && (buf[e - 1] == ' ' || buf[e - 1] == '\t' ||
                      buf[e - 1] == '\r' || buf[e - 1] == '\n'))
    e--;
  if (e < from + nt || memcmp(buf + e - nt, tag, nt) != 0)
    return 0;
  *end = e - nt;
  return 1;
}

static int read_vtu(const char *path, int kind, minex_mesh **out,
                    vtu_reader *v);

int mesh_read_vtu(const char *path, int kind, minex_mesh **out) {
  vtu_reader v0 = {0};
  return read_vtu(path, kind, out, &v0);
}

int mesh_read_vtu_field(const char *path, const char *name, double **vals,
                        int64_t *n) {
  vtu_reader v0 = {0};
  v0.want = name;
  minex_mesh *m = NULL;
  int rc = read_vtu(path, 0, &m, &v0);
  minex_mesh_destroy(m);
  if (rc != MINEX_OK) {
    free(v0.field);
    return rc;
  }
  *vals = v0.field;
  *n = v0.nfield;
  return MINEX_OK;
}

static int read_vtu(const char *path, int kind, minex_mesh **out,
                    vtu_reader *v) {
  *out = NULL;
  v->path = path;
  int rc = mesh_load_file(path, &v->buf, &v->len);
  if (rc != MINEX_OK)
    return rc;
  /* cut at the raw appended data: the XML is what comes before it */
  size_t xml_len = v->len;
  char *tail = strstr(v->buf, "<AppendedData");
  char *xml = NULL;
  if (tail != NULL) {
    char *gt = strchr(tail, '>');
    char *us = gt ? strchr(gt, '_') : NULL;
    if (gt == NULL || us == NULL) {
      size_t at = (size_t)(tail - v->buf);
      free(v->buf);
      return core_error(MINEX_EPARSE,
                        "%s: offset %zu: AppendedData without its '_' "
                        "marker: the file is truncated or malformed",
                        path, at);
    }
    v->app = us + 1;
    /* the raw bytes are no XML, so libxml2 cannot see the file's end:
       it must close the section and the document, or it is truncated */
    size_t end = 0;
    if (!appended_end(v->buf, v->len, (size_t)(v->app - v->buf), &end)) {
      free(v->buf);
      return core_error(MINEX_EPARSE,
                        "%s: offset %zu: end of file inside AppendedData, "
                        "without '</AppendedData>' and '</VTKFile>': the "
                        "file is truncated",
                        path, v->len);
    }
    v->app_len = end - (size_t)(v->app - v->buf);
    size_t taglen = (size_t)(gt + 1 - tail);
    for (size_t i = 0; i + 6 <= taglen; i++)
      v->app_base64 |= memcmp(tail + i, "base64", 6) == 0;
    static const char close[] = "</AppendedData></VTKFile>";
    xml_len = (size_t)(gt + 1 - v->buf);
    xml = malloc(xml_len + sizeof close);
    if (xml == NULL) {
      free(v->buf);
      return core_error(MINEX_ENOMEM, "%s: out of memory", path);
    }
    memcpy(xml, v->buf, xml_len);
    memcpy(xml + xml_len, close, sizeof close);
    xml_len += sizeof close - 1;
  }
  if (xml_len > INT32_MAX) {
    free(xml);
    free(v->buf);
    return core_error(MINEX_EUNSUP, "%s: XML part above 2 GB", path);
  }
  io_xml_capture cap;
  io_xml_capture_begin(&cap);
  xmlDocPtr doc = xmlReadMemory(xml ? xml : v->buf, (int)xml_len, path, NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR |
                                    XML_PARSE_NOWARNING | XML_PARSE_HUGE);
  if (doc == NULL)
    rc = core_error(MINEX_EPARSE, "%s:%d: malformed XML: %s", path, cap.line,
                    cap.count ? cap.msg : "cannot parse");
  else
    rc = parse_doc(v, doc, kind, out);
  io_xml_capture_end(&cap);
  xmlFreeDoc(doc);
  free(xml);
  free(v->buf);
  return rc;
}
