/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DRUM machine-model XML, writing (the format and the choices are
 * described at the top of drum_xml.c, the reader): either dialect,
 * atomically, so that minex_drum_model_load(save(m)) gives m back. */
#include "drum/drum.h"
#include "io/io_util.h"

#include <libxml/xmlstring.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------------- saving */

/* MINEX_EINVAL unless s can be written into an XML attribute. */
static int check_text(const char *s, int32_t i, const char *what) {
  if (!xmlCheckUTF8((const unsigned char *)s))
    return core_error(MINEX_EINVAL,
                      "minex_drum_model_save: node %ld: %s is not valid "
                      "UTF-8",
                      (long)i, what);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
      return core_error(MINEX_EINVAL,
                        "minex_drum_model_save: node %ld: %s holds control "
                        "character 0x%02x, which XML cannot hold",
                        (long)i, what, (unsigned)*p);
  return MINEX_OK;
}

/* Writes s escaped for a double-quoted attribute value; tab, LF and CR as
 * character references so that attribute normalisation keeps them. */
static void put_escaped(FILE *fp, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '&':
      fputs("&amp;", fp);
      break;
    case '<':
      fputs("&lt;", fp);
      break;
    case '>':
      fputs("&gt;", fp);
      break;
    case '"':
      fputs("&quot;", fp);
      break;
    case '\t':
      fputs("&#9;", fp);
      break;
    case '\n':
      fputs("&#10;", fp);
      break;
    case '\r':
      fputs("&#13;", fp);
      break;
    default:
      fputc(*s, fp);
    }
  }
}

static void put_num(FILE *fp, const char *attr, double x) {
  char buf[48];
  io_format_double(buf, sizeof buf, x);
  fprintf(fp, " %s=\"%s\"", attr, buf);
}

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* Node numbers to write: the file ids when distinct and >= 0, else the
 * indices. */
static int32_t *save_ids(const minex_drum_model *m) {
  if (m->n <= 0)
    return NULL;
  size_t n = (size_t)m->n;
  int32_t *ids = malloc(sizeof *ids * n), *sorted = malloc(sizeof *ids * n);
  if (ids == NULL || sorted == NULL) {
    free(ids), free(sorted);
    return NULL;
  }
  for (size_t i = 0; i < n; i++)
    ids[i] = sorted[i] = m->nodes[i].file_id;
  qsort(sorted, n, sizeof *sorted, cmp_i32);
  int ok = sorted[0] >= 0;
  for (size_t i = 1; i < n && ok; i++)
    ok = sorted[i] != sorted[i - 1];
  free(sorted);
  if (!ok)
    for (size_t i = 0; i < n; i++)
      ids[i] = (int32_t)i;
  return ids;
}

/* Attributes beyond the dialect's own, shared by both dialects. */
static void put_extensions(FILE *fp, const minex_drum_node *nd, int thesis) {
  if (nd->type == MINEX_DRUM_COMPUTING) {
    put_num(fp, "benchmark", nd->benchmark);
    if (thesis || nd->ncpus != 1)
      fprintf(fp, " numprocs=\"%ld\"", (long)nd->ncpus);
    fprintf(fp, " processes=\"%ld\"", (long)nd->nprocs);
  }
  if (nd->parent >= 0 || nd->capacity != 0)
    put_num(fp, "bandwidth", nd->capacity);
  if (nd->latency != 0)
    put_num(fp, "latency", nd->latency);
  if (nd->type == MINEX_DRUM_COMPUTING && nd->measured) {
    put_num(fp, "cpuuse", nd->cpu_use);
    put_num(fp, "idle", nd->idle);
  }
  if (nd->traffic != 0)
    put_num(fp, "traffic", nd->traffic);
}

static void save_thesis(FILE *fp, const minex_drum_model *m, const int32_t *ids,
                        const int32_t *kid_start, const int32_t *kids) {
  fprintf(fp, "<machinemodel numnode=\"%ld\">\n", (long)m->n);
  for (int32_t i = 0; i < m->n; i++) {
    const minex_drum_node *nd = &m->nodes[i];
    int32_t nk = kid_start[i + 1] - kid_start[i];
    fprintf(fp, "<node type=\"%s\" name=\"%ld\" description=\"",
            nd->type == MINEX_DRUM_NETWORK ? "NETWORK_NODE" : "COMPUTING_NODE",
            (long)ids[i]);
    put_escaped(fp, nd->address);
    fprintf(fp, "\" childrenNum=\"%ld\" children=\"", (long)nk);
    for (int32_t k = kid_start[i]; k < kid_start[i + 1]; k++)
      fprintf(fp, "%ld;", (long)ids[kids[k]]);
    fprintf(fp, "%s\" IsMonitorable=\"%d\"", nk == 0 ? ";" : "",
            nd->monitorable ? 1 : 0);
    /* the reader derives the name from description or the number; state
       it only when it is something else */
    char idtext[16];
    snprintf(idtext, sizeof idtext, "%ld", (long)ids[i]);
    const char *dflt = nd->address[0] ? nd->address : idtext;
    if (strcmp(nd->name, dflt) != 0) {
      fputs(" host=\"", fp);
      put_escaped(fp, nd->name);
      fputc('"', fp);
    }
    put_extensions(fp, nd, 1);
    fputs("/>\n", fp);
  }
  fputs("</machinemodel>\n", fp);
}

static void save_drumhead(FILE *fp, const minex_drum_model *m,
                          const int32_t *ids) {
  fputs("<machinemodel>\n", fp);
  for (int32_t i = 0; i < m->n; i++) {
    const minex_drum_node *nd = &m->nodes[i];
    const char *type = nd->type == MINEX_DRUM_NETWORK ? "NETWORK"
                       : nd->ncpus == 1               ? "SINGLE_COMPUTING"
                                                      : "MULTIPLE_COMPUTING";
    fprintf(fp, "<node type=\"%s\" nodenum=\"%ld\" name=\"", type,
            (long)ids[i]);
    put_escaped(fp, nd->name);
    fputs("\" IP=\"", fp);
    put_escaped(fp, nd->address);
    fprintf(fp, "\" isMonitorable=\"%s\" parent=\"%ld\"",
            nd->monitorable ? "true" : "false",
            nd->parent < 0 ? -1L : (long)ids[nd->parent]);
    put_extensions(fp, nd, 0);
    fputs("/>\n", fp);
  }
  fputs("</machinemodel>\n", fp);
}

int minex_drum_model_save(const minex_drum_model *model, const char *path,
                          minex_drum_dialect dialect) {
  core_error_clear();
  if (model == NULL || path == NULL)
    return core_error(MINEX_EINVAL,
                      "minex_drum_model_save: NULL model or path");
  if (dialect != MINEX_DRUM_DIALECT_THESIS &&
      dialect != MINEX_DRUM_DIALECT_DRUMHEAD)
    return core_error(MINEX_EINVAL, "minex_drum_model_save: unknown dialect %d",
                      (int)dialect);
  if (model->n == 0)
    return core_error(MINEX_EINVAL, "minex_drum_model_save: the model has no "
                                    "nodes");
  for (int32_t i = 0; i < model->n; i++) {
    int rc = check_text(model->nodes[i].name, i, "name");
    if (rc == MINEX_OK)
      rc = check_text(model->nodes[i].address, i, "address");
    if (rc != MINEX_OK)
      return rc;
  }
  size_t n = (size_t)model->n;
  int32_t *ids = save_ids(model);
  int32_t *kid_start = calloc(n + 1, sizeof *kid_start);
  int32_t *kids = malloc(sizeof *kids * n), *fill = malloc(sizeof *fill * n);
  if (ids == NULL || kid_start == NULL || kids == NULL || fill == NULL) {
    free(ids), free(kid_start), free(kids), free(fill);
    return core_error(MINEX_ENOMEM, "%s: out of memory", path);
  }
  /* children of each node in index order (CSR) */
  for (size_t i = 0; i < n; i++)
    if (model->nodes[i].parent >= 0)
      kid_start[model->nodes[i].parent + 1]++;
  for (size_t i = 0; i < n; i++)
    kid_start[i + 1] += kid_start[i];
  memcpy(fill, kid_start, sizeof *fill * n);
  for (size_t i = 0; i < n; i++)
    if (model->nodes[i].parent >= 0)
      kids[fill[model->nodes[i].parent]++] = (int32_t)i;
  io_atomic af;
  int rc = io_atomic_open(&af, path);
  if (rc == MINEX_OK) {
    fprintf(af.fp,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<!-- DRUM machine model written by MinEX (%s dialect) "
            "-->\n",
            dialect == MINEX_DRUM_DIALECT_THESIS ? "thesis" : "DrumHead");
    if (dialect == MINEX_DRUM_DIALECT_THESIS)
      save_thesis(af.fp, model, ids, kid_start, kids);
    else
      save_drumhead(af.fp, model, ids);
    rc = io_atomic_commit(&af);
  }
  free(ids), free(kid_start), free(kids), free(fill);
  return rc;
}
