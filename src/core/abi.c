/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The binary interface by name (minex_abi_get), for bindings that load the
 * library without its headers. */
#include "core.h"

#include <limits.h>
#include <string.h>

typedef struct abi_entry {
  const char *name;
  int64_t value;
} abi_entry;

static const abi_entry entries[] = {
    {"xadj_bits", (int64_t)(sizeof(int64_t) * CHAR_BIT)},
    {"adjncy_bits", (int64_t)(sizeof(int32_t) * CHAR_BIT)},
    {"part_bits", (int64_t)(sizeof(int32_t) * CHAR_BIT)},
    {"real_bits", (int64_t)(sizeof(double) * CHAR_BIT)},
    {"int_bits", (int64_t)(sizeof(int) * CHAR_BIT)},
    {"options_size", (int64_t)sizeof(minex_options)},
    {"metrics_size", (int64_t)sizeof(minex_metrics)},
    {"version_hex", (int64_t)MINEX_VERSION_HEX},
};
#define NENTRIES ((int)(sizeof entries / sizeof entries[0]))

const char *minex_abi_name(int i) {
  return i >= 0 && i < NENTRIES ? entries[i].name : NULL;
}

int minex_abi_get(const char *name, int64_t *value) {
  core_error_clear();
  if (name == NULL || value == NULL)
    return core_error(MINEX_EINVAL, "minex_abi_get: %s is NULL",
                      name == NULL ? "name" : "value");
  for (int i = 0; i < NENTRIES; i++)
    if (strcmp(entries[i].name, name) == 0) {
      *value = entries[i].value;
      return MINEX_OK;
    }
  return core_error(MINEX_EINVAL, "minex_abi_get: no entry '%s'", name);
}
