/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared helpers of the fuzz harnesses (tests/fuzz): the readers take a
 * path, so each input is written to one temporary file per process; a
 * property that fails stops the run with FUZZ_REQUIRE (abort, so that
 * libFuzzer and ctest both see a crash). */
#ifndef MINEX_FUZZ_UTIL_H
#define MINEX_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

struct minex_mesh;

/* The libFuzzer entry point, defined once per harness. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes data to this process's temporary file (created on first use in
 * $TMPDIR or /tmp, removed at exit) and returns its path; aborts when the
 * file cannot be written (a harness failure, not an input's). */
const char *fuzz_write_tmp(const uint8_t *data, size_t size);

/* Prints what failed and where, with minex_last_error(), then aborts. */
void fuzz_fail(const char *file, int line, const char *what);
#define FUZZ_REQUIRE(cond)                                                     \
  do {                                                                         \
    if (!(cond))                                                               \
      fuzz_fail(__FILE__, __LINE__, #cond);                                    \
  } while (0)

/* Error codes a reader may return for a malformed input: anything else
 * (EINVAL, EINTERNAL, ...) is a defect. */
int fuzz_reader_error_ok(int rc);

/* Reads path with read and kind selection kind (0: automatic): either a
 * reader error and no mesh, or a mesh of the selected kind that passes
 * mesh_check and whose dual graph is built (or refused as non-manifold,
 * MINEX_EPARSE). */
void fuzz_mesh_read_kind(int (*read)(const char *, int, struct minex_mesh **),
                         const char *path, int kind);

#endif
