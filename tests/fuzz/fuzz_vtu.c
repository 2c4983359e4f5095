/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness of the VTK XML .vtu reader (src/mesh/vtu.c): ASCII, base64
 * inline and appended, raw appended, zlib-compressed data arrays. Any
 * input is rejected with a reader error or gives a mesh that passes
 * mesh_check and whose dual graphs are built (or refused as non-manifold,
 * MINEX_EPARSE). */
#include "fuzz_util.h"

#include "mesh/mesh.h"

#include <minex.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_write_tmp(data, size);
  fuzz_mesh_read_kind(mesh_read_vtu, path, 0);
  return 0;
}
