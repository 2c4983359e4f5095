/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex_parmetis.h's types (docs/reference/parmetis.md): with metis.h
 * included first (MINEX_TEST_WITH_METIS_H) they are METIS's, and
 * minex_ParMETIS_V3_AdaptiveRepart is the entry of METIS's widths; without
 * it, IDXTYPEWIDTH and REALTYPEWIDTH (command line) choose them. Fails to
 * compile when the header clashes with metis.h or picks the wrong entry. */
#ifdef MINEX_TEST_WITH_METIS_H
#include <metis.h>
#endif
#include "minex_parmetis.h"

#include <stdio.h>
#include <string.h>

typedef int (*entry_fn)(idx_t *, idx_t *, idx_t *, idx_t *, idx_t *, idx_t *,
                        idx_t *, idx_t *, idx_t *, idx_t *, real_t *, real_t *,
                        real_t *, idx_t *, idx_t *, idx_t *, MPI_Comm *);

_Static_assert(sizeof(idx_t) * 8 == MINEX_IDXTYPEWIDTH, "idx_t width");
_Static_assert(sizeof(real_t) * 8 == MINEX_REALTYPEWIDTH, "real_t width");
_Static_assert(METIS_OK == MINEX_PARMETIS_OK, "METIS_OK");
_Static_assert(METIS_ERROR_INPUT == MINEX_PARMETIS_ERROR_INPUT, "INPUT");
_Static_assert(METIS_ERROR_MEMORY == MINEX_PARMETIS_ERROR_MEMORY, "MEMORY");
_Static_assert(METIS_ERROR == MINEX_PARMETIS_ERROR, "ERROR");

int main(void) {
  entry_fn f = minex_ParMETIS_V3_AdaptiveRepart; /* types must match */
  entry_fn want = NULL;
#if MINEX_IDXTYPEWIDTH == 64 && MINEX_REALTYPEWIDTH == 32
  want = (entry_fn)minex_parmetis_adaptive_repart64f;
#elif MINEX_IDXTYPEWIDTH == 64
  want = (entry_fn)minex_parmetis_adaptive_repart64;
#elif MINEX_REALTYPEWIDTH == 64
  want = (entry_fn)minex_parmetis_adaptive_repart32d;
#else
  want = (entry_fn)minex_parmetis_adaptive_repart;
#endif
  if (f != want) {
    fprintf(stderr,
            "minex_ParMETIS_V3_AdaptiveRepart is not the entry of "
            "idx_t %d, real_t %d bits\n",
            MINEX_IDXTYPEWIDTH, MINEX_REALTYPEWIDTH);
    return 1;
  }
  return 0;
}
