/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The version of the library itself, against the headers' (minex.h). */
#include "core.h"

const char *minex_version(void) {
  return MINEX_VERSION_STRING;
}

unsigned minex_version_hex(void) {
  return MINEX_VERSION_HEX;
}
