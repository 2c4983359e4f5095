/* SPDX-License-Identifier: GPL-3.0-or-later */
/* uthash with a failed allocation reported instead of exit(-1):
 * a HASH_ADD that runs out of memory leaves the table as it was and sets
 * hash_oom, a variable the caller declares (int hash_oom = 0) in the
 * scope of the HASH_ADD. Include this header instead of <uthash.h>. */
#ifndef MINEX_CORE_HASH_H
#define MINEX_CORE_HASH_H

#include "core/rename.h"

#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(elt) ((void)(elt), hash_oom = 1)
#include <uthash.h>

#endif
