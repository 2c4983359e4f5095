/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The golden corpus shared by tests/driver/test_golden.c (minex_repartition),
 * tests/mpi/test_golden_mpi.c (minex_mpi_repartition) and
 * tests/dist/test_golden_inproc.c (dist_solve on in-process ranks): the
 * inputs of data/ turned into repartitioning problems, the machines, the
 * option sets, the case lists, the rows of a rank in the ranks' even blocks
 * of global ids, and the golden file's line (a hash of new_part and every
 * deterministic metric, doubles in %a so that any bit shows). Public API
 * only, so that the plain MPI program can use it too. */
#ifndef MINEX_TEST_GOLDEN_H
#define MINEX_TEST_GOLDEN_H

#include "minex.h"

#include <stddef.h>
#include <stdint.h>

typedef enum golden_input {
  GOLDEN_4ELT,      /* graphs/4elt.graph, weights and old made here */
  GOLDEN_PERFUSION, /* meshes/perfusion_micro3d.mesh, ball, RCB     */
  GOLDEN_CUBE_MESH, /* meshes/cube_big_tetra.mesh, another ball, RCB */
  GOLDEN_CUBE_CASE, /* cases/cube_ball_p16: graph.graph and old.part */
  GOLDEN_NINPUTS
} golden_input;

typedef enum golden_machine {
  GOLDEN_UNIFORM,     /* one cluster, Proc = Conn = 1                      */
  GOLDEN_HETERO,      /* 3 clusters, different Proc, Conn and diagonals    */
  GOLDEN_HETERO_GONE, /* GOLDEN_HETERO with processors 1 and P-2 unavailable */
  GOLDEN_NMACHINES
} golden_machine;

typedef enum golden_optset {
  GOLDEN_K1,                /* the defaults: horizon 1                   */
  GOLDEN_K10,               /* horizon 10: ladder, refinement, scratch   */
  GOLDEN_K100,              /* horizon 100                               */
  GOLDEN_ALPHA05,           /* alpha 0.5 (ladder under AUTO)             */
  GOLDEN_ROUNDS_OFF,        /* rounds OFF at horizon 10: heap passes     */
  GOLDEN_SCRATCH_ON,        /* the from-scratch candidate at horizon 1   */
  GOLDEN_LADDER_ON,         /* the ladder at horizon 1                   */
  GOLDEN_PAPER_EXACT,       /* the paper's rules alone                   */
  GOLDEN_THROTTLE_AUTO,     /* the built-in ThroTTle candidates          */
  GOLDEN_CLUSTER_LEVELS_ON, /* cluster levels on every level             */
  GOLDEN_TUNED, /* every tuning field away from its default, horizon 4 */
  GOLDEN_THROTTLE_LIST, /* user ThroTTle candidates, remap BOTH, k = 10 */
  GOLDEN_NOPTSETS
} golden_optset;

/* One case: an input on a machine under an option set. */
typedef struct golden_case {
  golden_input input;
  golden_machine machine;
  golden_optset optset;
} golden_case;

extern const golden_case golden_serial_cases[];
extern const int golden_nserial_cases;
extern const golden_case golden_mpi_cases[];
extern const int golden_nmpi_cases;

const char *golden_input_name(golden_input in);
const char *golden_machine_name(golden_machine m);
const char *golden_optset_name(golden_optset o);
/* "input/machine/optset", the case's id in the golden file. */
void golden_case_id(const golden_case *c, char *buf, size_t len);

/* A loaded input: the graph, its old partition and P. */
typedef struct golden_problem {
  golden_input input;
  minex_graph *graph;
  int32_t *old;
  int32_t nparts;
} golden_problem;

/* Loads input from data_dir (the repository's data/). Returns MINEX_OK or
 * the failing call's code, with a message in err. */
int golden_load(golden_input in, const char *data_dir, golden_problem *p,
                char *err, size_t errlen);
void golden_problem_free(golden_problem *p);

/* One rank's rows of p's graph spread over size ranks in even blocks of
 * global ids (vtxdist[q] = n q / size), as minex_mpi_repartition and
 * dist_solve take them: ParMETIS's distributed CSR with global ids. */
typedef struct golden_rows {
  int64_t *vtxdist;           /* size + 1, the same on every rank         */
  int64_t first, nlocal;      /* global ids first .. first + nlocal - 1   */
  int64_t *xadj, *adjncy;     /* nlocal + 1 offsets, the rows' global ids */
  double *pwgt, *rwgt, *cwgt; /* the rows' weights (copies)               */
  const int32_t *old;         /* p->old + first (not owned)               */
} golden_rows;

/* Rank rank's rows of p on size ranks. Returns MINEX_OK or MINEX_ENOMEM
 * (r freed then). */
int golden_rows_make(const golden_problem *p, int rank, int size,
                     golden_rows *r);
void golden_rows_free(golden_rows *r);

/* The machine of P processors. Returns the code of minex_config_create. */
int golden_config(golden_machine m, int32_t nparts, minex_config **out);
/* minex_options_init, then the option set's fields. */
void golden_options(golden_optset o, minex_options *opt);
/* Case c on p: its id (idlen bytes), its machine and its options. On a
 * failure of golden_config its message, naming the case, goes to err. */
int golden_case_setup(const golden_case *c, const golden_problem *p, char *id,
                      size_t idlen, minex_config **cfg, minex_options *opt,
                      char *err, size_t errlen);

/* 64-bit FNV-1a of the owners, each as 4 bytes, least significant first. */
uint64_t golden_fnv1a(const int32_t *part, int32_t n);

/* The golden line of a result: id, then key=value fields separated by one
 * blank: the hash, then the metrics (no times, no thread count). */
#define GOLDEN_LINE_MAX 2048
void golden_format(char *buf, size_t len, const char *id, const int32_t *part,
                   int32_t n, const minex_metrics *m);

/* A golden file read into memory: its entries' ids and lines. */
typedef struct golden_file {
  int n;
  char **id, **line;
} golden_file;

/* Reads path ('#' lines and blank lines skipped). Returns MINEX_OK,
 * MINEX_EIO, MINEX_EPARSE (a malformed line or an id twice) or
 * MINEX_ENOMEM, with a message in err. */
int golden_file_read(const char *path, golden_file *f, char *err,
                     size_t errlen);
void golden_file_free(golden_file *f);
/* The line of id, or NULL. */
const char *golden_file_find(const golden_file *f, const char *id);

/* Writes to out, one per line, the fields of want and got that differ
 * ("field: golden X (decimal) now Y (decimal)"); returns their number. */
int golden_diff(const char *want, const char *got, char *out, size_t len);

#endif
