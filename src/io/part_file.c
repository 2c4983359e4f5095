/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Partition files (SPEC §7): one processor id per line, vertex order, the
 * METIS .part layout. Strict reader naming the line at fault; atomic
 * writer. */
#include "core/core.h"
#include "io/io_util.h"

#include <stdlib.h>
#include <string.h>

/* Reads nvtxs ids. Blank lines are ignored; every other line holds one
 * integer. Errors: MINEX_EINVAL (bad arguments), MINEX_EIO, MINEX_EPARSE
 * (a token that is not an integer, or more than one per line), MINEX_EPART
 * (fewer or more ids than nvtxs, a negative id, an id >= nparts when
 * nparts > 0, else >= MINEX_NPROCS_MAX), MINEX_ENOMEM. On error *part_out
 * is NULL. */
int minex_part_read(const char *path, int32_t nvtxs, int32_t nparts,
                    int32_t **part_out) {
  core_error_clear();
  if (part_out != NULL)
    *part_out = NULL; /* on every error, the bad arguments included */
  if (part_out == NULL || path == NULL || nvtxs < 0)
    return core_error(MINEX_EINVAL,
                      "minex_part_read: NULL path or output, "
                      "or nvtxs = %d < 0",
                      (int)nvtxs);
  *part_out = NULL;
  int32_t *part = malloc(sizeof *part * ((size_t)nvtxs + 1));
  if (part == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory for %d ids", path,
                      (int)nvtxs);
  io_reader r;
  int rc = io_reader_open(&r, path);
  int32_t count = 0;
  while (rc == MINEX_OK) {
    int got = io_reader_next(&r);
    if (got <= 0) {
      rc = got;
      break;
    }
    if (io_rest_blank(r.line))
      continue;
    char *end;
    int64_t id;
    if (io_parse_i64(r.line, &end, &id) != 0) {
      rc = core_error(MINEX_EPARSE,
                      "%s:%lld: '%.40s' is not an integer "
                      "processor id",
                      path, (long long)r.lineno, r.line);
    } else if (!io_rest_blank(end)) {
      rc = core_error(MINEX_EPARSE,
                      "%s:%lld: expected one id per line, "
                      "found '%.40s' after it",
                      path, (long long)r.lineno, end);
    } else if (count == nvtxs) {
      rc = core_error(MINEX_EPART, "%s:%lld: more ids than the %d vertices",
                      path, (long long)r.lineno, (int)nvtxs);
    } else if (id < 0) {
      rc = core_error(MINEX_EPART, "%s:%lld: negative processor id %lld", path,
                      (long long)r.lineno, (long long)id);
    } else if (id >= (nparts > 0 ? nparts : MINEX_NPROCS_MAX)) {
      /* without nparts, P is inferred from the largest id: bounded, so
         that one number in a tiny file cannot size gigabytes */
      rc = core_error(MINEX_EPART,
                      "%s:%lld: processor id %lld outside "
                      "[0, %lld)%s",
                      path, (long long)r.lineno, (long long)id,
                      nparts > 0 ? (long long)nparts
                                 : (long long)MINEX_NPROCS_MAX,
                      nparts > 0 ? "" : " (MINEX_NPROCS_MAX)");
    } else {
      part[count++] = (int32_t)id;
    }
  }
  if (rc == MINEX_OK && count < nvtxs)
    rc = core_error(MINEX_EPART,
                    "%s:%lld: file ends after %d ids, the "
                    "graph has %d vertices",
                    path, (long long)r.lineno, (int)count, (int)nvtxs);
  io_reader_close(&r);
  if (rc != MINEX_OK) {
    free(part);
    return rc;
  }
  *part_out = part;
  return MINEX_OK;
}

/* Writes nvtxs ids, one per line, through a temporary file renamed onto
 * path. MINEX_OK, MINEX_EINVAL, MINEX_EPART (a negative id: the file could
 * not be read back) or MINEX_EIO; on failure no file is left behind. */
int minex_part_write(const char *path, int32_t nvtxs, const int32_t *part) {
  core_error_clear();
  if (path == NULL || nvtxs < 0 || (part == NULL && nvtxs > 0))
    return core_error(MINEX_EINVAL,
                      "minex_part_write: NULL path or part, "
                      "or nvtxs = %d < 0",
                      (int)nvtxs);
  for (int32_t v = 0; v < nvtxs; v++)
    if (part[v] < 0)
      return core_error(MINEX_EPART, "minex_part_write: part[%d] = %d < 0",
                        (int)v, (int)part[v]);
  io_atomic af;
  int rc = io_atomic_open(&af, path);
  if (rc != MINEX_OK)
    return rc;
  char buf[1 << 14];
  size_t len = 0;
  int failed = 0;
  for (int32_t v = 0; v < nvtxs && !failed; v++) {
    if (len > sizeof buf - 16) {
      failed = fwrite(buf, 1, len, af.fp) != len;
      len = 0;
    }
    len += (size_t)io_format_double(buf + len, 16, (double)part[v]);
    buf[len++] = '\n';
  }
  if (!failed && len > 0)
    failed = fwrite(buf, 1, len, af.fp) != len;
  if (failed) {
    io_atomic_abort(&af);
    return core_error(MINEX_EIO, "%s: write failed", path);
  }
  return io_atomic_commit(&af);
}
