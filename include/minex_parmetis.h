/* SPDX-License-Identifier: GPL-3.0-or-later */
/** @file
 * MinEX behind ParMETIS_V3_AdaptiveRepart's argument list (docs/guide/mpi.md,
 * "From ParMETIS"): a ParMETIS user switches by renaming one call. Link
 * libminex_mpi. No ParMETIS header or library is needed. */
#ifndef MINEX_PARMETIS_H
#define MINEX_PARMETIS_H

#include <mpi.h>

#include "minex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ParMETIS's types and return values (docs/reference/parmetis.md), for a
 * code that includes this header instead of parmetis.h. When metis.h or
 * parmetis.h is included first (METIS_VER_MAJOR defined), theirs are used
 * and nothing is defined here; include them before this header, never
 * after (METIS_OK is an enumerator there, a macro here). Define
 * MINEX_PARMETIS_NO_TYPES to get none of them.
 *   idx_t   int32_t, or int64_t when IDXTYPEWIDTH is 64 (as METIS's build
 *           option; -DIDXTYPEWIDTH=64 on the command line)
 *   real_t  float, or double when REALTYPEWIDTH is 64
 * minex_ParMETIS_V3_AdaptiveRepart (below) is the entry of those widths. */
#if defined(METIS_VER_MAJOR)
#define MINEX_IDXTYPEWIDTH IDXTYPEWIDTH   /**< idx_t's width, 32 or 64 */
#define MINEX_REALTYPEWIDTH REALTYPEWIDTH /**< real_t's width, 32 or 64 */
#else
#if defined(IDXTYPEWIDTH)
#define MINEX_IDXTYPEWIDTH IDXTYPEWIDTH /**< idx_t's width, 32 or 64 */
#else
#define MINEX_IDXTYPEWIDTH 32 /**< idx_t's width, 32 or 64 */
#endif
#if defined(REALTYPEWIDTH)
#define MINEX_REALTYPEWIDTH REALTYPEWIDTH /**< real_t's width, 32 or 64 */
#else
#define MINEX_REALTYPEWIDTH 32 /**< real_t's width, 32 or 64 */
#endif
#if !defined(MINEX_PARMETIS_NO_TYPES)
#if MINEX_IDXTYPEWIDTH == 32
typedef int32_t idx_t; /**< ParMETIS's index type (IDXTYPEWIDTH 32) */
#elif MINEX_IDXTYPEWIDTH == 64
typedef int64_t idx_t; /**< ParMETIS's index type (IDXTYPEWIDTH 64) */
#else
#error "IDXTYPEWIDTH must be 32 or 64"
#endif
#if MINEX_REALTYPEWIDTH == 32
typedef float real_t;  /**< ParMETIS's real type (REALTYPEWIDTH 32) */
#elif MINEX_REALTYPEWIDTH == 64
typedef double real_t; /**< ParMETIS's real type (REALTYPEWIDTH 64) */
#else
#error "REALTYPEWIDTH must be 32 or 64"
#endif
#ifndef METIS_OK
#define METIS_OK 1              /**< METIS's success code */
#define METIS_ERROR_INPUT (-2)  /**< METIS's bad-input code */
#define METIS_ERROR_MEMORY (-3) /**< METIS's out-of-memory code */
#define METIS_ERROR (-4)        /**< METIS's other-failure code */
#endif
#endif /* !MINEX_PARMETIS_NO_TYPES */
#endif /* !METIS_VER_MAJOR */

/** Return codes, with METIS's values (METIS_OK, METIS_ERROR_INPUT, ...);
 * the MinEX error and its message stay readable through
 * minex_parmetis_last_error() and minex_last_error(). */
#define MINEX_PARMETIS_OK 1
#define MINEX_PARMETIS_ERROR_INPUT (-2)  /**< METIS_ERROR_INPUT: bad input */
#define MINEX_PARMETIS_ERROR_MEMORY (-3) /**< METIS_ERROR_MEMORY */
#define MINEX_PARMETIS_ERROR (-4)        /**< METIS_ERROR: any other error */

/** options[3] (options[0] = 1) as ParMETIS's PARMETIS_PSR_*: coupled, the
 * vertices' current owner is their rank (only when nparts equals the
 * number of ranks); uncoupled, part[] holds the current owners on input. */
#define MINEX_PARMETIS_PSR_COUPLED 1
#define MINEX_PARMETIS_PSR_UNCOUPLED 2 /**< part[] holds the owners */

/** ParMETIS_V3_AdaptiveRepart with ParMETIS's default types (idx_t =
 * int32_t, real_t = float), same order and meaning of the arguments:
 * @param[in] vtxdist,xadj,adjncy the distributed graph
 * @param[in] numflag        0: C numbering, 1: Fortran numbering of
 *                          vtxdist, xadj, adjncy and part
 * @param[in] vwgt,adjwgt,wgtflag Pwgt and Cwgt (wgtflag 0 none, 1 adjwgt only,
 *                          2 vwgt only, 3 both; a missing one means 1)
 * @param[in] vsize          Rwgt, the data that moves (NULL: 1)
 * @param[in] ncon           must be 1 (MinEX has one processing weight)
 * @param[in] nparts,tpwgts P processors; tpwgts[p] (ncon = 1, so nparts
 *                          entries; NULL: equal) the share of processor p:
 *                          MinEX models a processor of share s as a
 *                          processing slowdown (1/nparts)/s (normalised to
 *                          the sum of tpwgts), consecutive processors of
 *                          equal share forming a cluster, every link Conn
 *                          = 1; a share of 0 makes p unavailable (it gets
 *                          nothing)
 * @param[in] ubvec          NULL (no bound) or ubvec[0] >= 1: the bound
 *                          on every processor's vwgt sum relative to its
 *                          target tpwgts[p] * (sum of vwgt), as ParMETIS
 *                          reads it (options.max_imbalance, docs/SPEC.md
 *                          §3 "Load bounds"); MinEX still minimises its
 *                          objective (T_k) among the partitions within the
 *                          bound. When no partition within it is found
 *                          the call returns MINEX_PARMETIS_OK with the
 *                          closest one found, and
 *                          minex_parmetis_last_imbalance() says so
 * @param[in] itr            communication vs redistribution, in [1e-6, 1e6]:
 *                          itr >= 1 is the horizon k = round(itr) solver
 *                          iterations (SPEC §2, T_k = MaxRemap + k
 *                          SteadyMax); itr < 1 is k = 1 with every vsize
 *                          divided by itr (T_itr up to a factor, exactly
 *                          when alpha = 0)
 * @param[in] options        NULL or options[0] = 0: defaults; options[0] = 1:
 *                          options[1] (debug level) ignored, options[2] the
 *                          seed, options[3] MINEX_PARMETIS_PSR_*
 * @param[out] edgecut       the weighted cut of the new partition (sum
 *                          of adjwgt over cut edges, each counted once); a
 *                          cut that does not fit idx_t fails the call
 *                          (MINEX_PARMETIS_ERROR_INPUT, MINEX_EUNSUP)
 * @param[in,out] part      the new owner of each local vertex (in,
 *                          uncoupled: the current owner)
 * @param[in] comm           the communicator, the same valid one on every
 *                          rank (a rank with MPI_COMM_NULL returns at once
 *                          while the others wait in MPI_Comm_dup)
 * @return MINEX_PARMETIS_OK or one of the errors above (collectively:
 * every rank the same; the message names these arguments, in numflag's
 * numbering). */
MINEX_API int minex_parmetis_adaptive_repart(
    int32_t *vtxdist, int32_t *xadj, int32_t *adjncy, int32_t *vwgt,
    int32_t *vsize, int32_t *adjwgt, int32_t *wgtflag, int32_t *numflag,
    int32_t *ncon, int32_t *nparts, float *tpwgts, float *ubvec, float *itr,
    int32_t *options, int32_t *edgecut, int32_t *part, MPI_Comm *comm);

/** The same with 64-bit ids and double weights (ParMETIS built with
 * IDXTYPEWIDTH 64, REALTYPEWIDTH 64).
 * @param[in]
 *     vtxdist,xadj,adjncy,vwgt,vsize,adjwgt,wgtflag,numflag,ncon,nparts,tpwgts,ubvec,itr,options
 *     as minex_parmetis_adaptive_repart
 * @param[out] edgecut,part as minex_parmetis_adaptive_repart
 * @param[in] comm as minex_parmetis_adaptive_repart
 * @return The codes of minex_parmetis_adaptive_repart. */
MINEX_API int minex_parmetis_adaptive_repart64(
    int64_t *vtxdist, int64_t *xadj, int64_t *adjncy, int64_t *vwgt,
    int64_t *vsize, int64_t *adjwgt, int64_t *wgtflag, int64_t *numflag,
    int64_t *ncon, int64_t *nparts, double *tpwgts, double *ubvec, double *itr,
    int64_t *options, int64_t *edgecut, int64_t *part, MPI_Comm *comm);

/** minex_parmetis_adaptive_repart with 64-bit ids and float weights
 * (IDXTYPEWIDTH 64, REALTYPEWIDTH 32: how Debian's and most distributions'
 * 64-bit METIS and ParMETIS builds are configured); the arguments as
 * there.
 * @param[in] vtxdist as minex_parmetis_adaptive_repart's
 * @param[in] xadj as there
 * @param[in] adjncy as there
 * @param[in] vwgt as there
 * @param[in] vsize as there
 * @param[in] adjwgt as there
 * @param[in] wgtflag as there
 * @param[in] numflag as there
 * @param[in] ncon as there
 * @param[in] nparts as there
 * @param[in] tpwgts as there
 * @param[in] ubvec as there
 * @param[in] itr as there
 * @param[in] options as there
 * @param[out] edgecut as there
 * @param[in,out] part as there
 * @param[in] comm as there
 * @return MINEX_PARMETIS_OK or an error code, as there. */
MINEX_API int minex_parmetis_adaptive_repart64f(
    int64_t *vtxdist, int64_t *xadj, int64_t *adjncy, int64_t *vwgt,
    int64_t *vsize, int64_t *adjwgt, int64_t *wgtflag, int64_t *numflag,
    int64_t *ncon, int64_t *nparts, float *tpwgts, float *ubvec, float *itr,
    int64_t *options, int64_t *edgecut, int64_t *part, MPI_Comm *comm);

/** minex_parmetis_adaptive_repart with 32-bit ids and double weights
 * (IDXTYPEWIDTH 32, REALTYPEWIDTH 64); the arguments as there.
 * @param[in] vtxdist as minex_parmetis_adaptive_repart's
 * @param[in] xadj as there
 * @param[in] adjncy as there
 * @param[in] vwgt as there
 * @param[in] vsize as there
 * @param[in] adjwgt as there
 * @param[in] wgtflag as there
 * @param[in] numflag as there
 * @param[in] ncon as there
 * @param[in] nparts as there
 * @param[in] tpwgts as there
 * @param[in] ubvec as there
 * @param[in] itr as there
 * @param[in] options as there
 * @param[out] edgecut as there
 * @param[in,out] part as there
 * @param[in] comm as there
 * @return MINEX_PARMETIS_OK or an error code, as there. */
MINEX_API int minex_parmetis_adaptive_repart32d(
    int32_t *vtxdist, int32_t *xadj, int32_t *adjncy, int32_t *vwgt,
    int32_t *vsize, int32_t *adjwgt, int32_t *wgtflag, int32_t *numflag,
    int32_t *ncon, int32_t *nparts, double *tpwgts, double *ubvec, double *itr,
    int32_t *options, int32_t *edgecut, int32_t *part, MPI_Comm *comm);

/** @def minex_ParMETIS_V3_AdaptiveRepart
 * The entry of idx_t and real_t (IDXTYPEWIDTH, REALTYPEWIDTH): the call a
 * ParMETIS code makes, ParMETIS_V3_AdaptiveRepart, renamed. */
#if MINEX_IDXTYPEWIDTH == 64 && MINEX_REALTYPEWIDTH == 64
#define minex_ParMETIS_V3_AdaptiveRepart minex_parmetis_adaptive_repart64
#elif MINEX_IDXTYPEWIDTH == 64
#define minex_ParMETIS_V3_AdaptiveRepart minex_parmetis_adaptive_repart64f
#elif MINEX_REALTYPEWIDTH == 64
#define minex_ParMETIS_V3_AdaptiveRepart minex_parmetis_adaptive_repart32d
#else
#define minex_ParMETIS_V3_AdaptiveRepart minex_parmetis_adaptive_repart
#endif

/** The load balance of the calling thread's last successful
 * minex_parmetis_adaptive_repart* (docs/reference/parmetis.md).
 * @param[out] imbalance the largest vwgt sum of a processor divided by its
 *                       target tpwgts[p] * (sum of vwgt) (each vertex weighs
 *                       1 without vwgt; 1: perfect balance; 0 before the
 *                       first call); may be NULL
 * @param[out] met       1 when every processor is within ubvec[0] times its
 *                       target, 0 when ubvec was given and no such partition
 *                       was found (the closest found was returned, with
 *                       METIS_OK), -1 when ubvec was NULL; may be NULL */
MINEX_API void minex_parmetis_last_imbalance(double *imbalance, int *met);

/** The MinEX code (MINEX_OK, MINEX_EGRAPH, ...) of the calling thread's
 * last minex_parmetis_adaptive_repart*; its message is minex_last_error().
 * @return The code. */
MINEX_API int minex_parmetis_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* MINEX_PARMETIS_H */
