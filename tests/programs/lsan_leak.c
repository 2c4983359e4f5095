/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Leaks on purpose after MPI_Init, for tests/programs/lsan_check.sh: with
 * tests/lsan.supp in force, LeakSanitizer must still report this leak (and
 * only suppress the one inside MPI_Init). MPI only, no MinEX. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

void *volatile lsan_leak_sink; /* the only pointer to the block, then lost */

/* noinline: the frame the report must name */
__attribute__((noinline)) static void lsan_leak_on_purpose(void) {
  char *p = malloc(4242);
  if (p != NULL)
    memset(p, 1, 4242);
  lsan_leak_sink = p;
  lsan_leak_sink = NULL;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  lsan_leak_on_purpose();
  MPI_Finalize();
  return 0;
}
