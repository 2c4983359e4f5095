/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Gain and dMinVar of one move, exact, in O(deg v + touched * log P)
 * (SPEC §3 "Gain", "MinVar"; paper §3.3). */
#include "costmodel/costmodel.h"

#include <math.h>
#include <string.h>

static inline void touch(costmodel_scratch *s, int32_t p) {
  if (s->stamp[p] != s->cur_stamp) {
    s->stamp[p] = s->cur_stamp;
    s->dwgt[p] = s->dcomm[p] = s->dremap[p] = 0;
    s->touched[s->ntouched++] = p;
  }
}

/* Smallest Qwgt among available processors not touched by the current
 * move: a pruned descent of the min tree, O(touched * log P). */
static void min_untouched(const costmodel_loads *ld, const costmodel_scratch *s,
                          int32_t node, double *best) {
  if (ld->tree[node] >= *best)
    return;
  if (node >= ld->tsize) {
    if (s->stamp[node - ld->tsize] != s->cur_stamp)
      *best = ld->tree[node];
    return;
  }
  int32_t a = 2 * node, b = 2 * node + 1;
  if (ld->tree[b] < ld->tree[a]) {
    int32_t t = a;
    a = b;
    b = t;
  }
  min_untouched(ld, s, a, best);
  min_untouched(ld, s, b, best);
}

static inline void finish_move(const costmodel_loads *ld, costmodel_scratch *s,
                               int32_t q, double ref, costmodel_move *out);

/* eval_move's first half: the move's deltas per touched processor into
   s (touched, in the order they are first touched; dwgt, dcomm, dremap) */
static inline void move_deltas(const costmodel_loads *ld, costmodel_scratch *s,
                               const costmodel_vertex *v, int32_t q) {
  const minex_config *cf = ld->cfg;
  const int32_t *cl = cf->cluster;
  size_t C = (size_t)cf->nclusters;
  const double *K = cf->conn;
  if (++s->cur_stamp == INT32_MAX) {
    memset(s->stamp, 0, sizeof(int32_t) * (size_t)ld->nprocs);
    s->cur_stamp = 1;
  }
  s->ntouched = 0;
  int32_t p = v->cur, o = v->old;
  size_t cp = (size_t)cl[p], cq = (size_t)cl[q];
  touch(s, p);
  touch(s, q);
  /* weights into the loads' unit first (exact: a power of two) */
  double u = ld->unit, pw = v->pwgt * u;
  s->dwgt[p] -= pw * cf->proc[cp];
  s->dwgt[q] += pw * cf->proc[cq];
  for (int32_t i = 0; i < v->nnbr; i++) {
    int32_t r = v->nbr[i].owner;
    double c = v->nbr[i].cwgt * u;
    size_t cr = (size_t)cl[r];
    /* edges to r's vertices: cut before unless r == p, after unless r == q;
       both ends pay Comm (SPEC §2) */
    if (r == p) {
      s->dcomm[p] += c * K[cp * C + cq];
      s->dcomm[q] += c * K[cq * C + cp];
    } else if (r == q) {
      s->dcomm[p] -= c * K[cp * C + cq];
      s->dcomm[q] -= c * K[cq * C + cp];
    } else {
      s->dcomm[p] -= c * K[cp * C + cr];
      s->dcomm[q] += c * K[cq * C + cr];
      /* r itself only changes when its links to p and q differ: leaving
         it untouched then is exact and keeps the move's footprint small */
      double dr = c * (K[cr * C + cq] - K[cr * C + cp]);
      if (dr != 0) {
        touch(s, r);
        s->dcomm[r] += dr;
      }
    }
  }
  size_t co = (size_t)cl[o];
  double rw = v->rwgt * u;
  double rp = p != o ? rw * K[co * C + cp] : 0;
  double rq = q != o ? rw * K[co * C + cq] : 0;
  if (ld->mode != MINEX_REMAP_SENDER) {
    s->dremap[p] -= rp;
    s->dremap[q] += rq;
  }
  if (ld->mode != MINEX_REMAP_RECEIVER) {
    touch(s, o);
    s->dremap[o] += rq - rp;
  }
}

/* costmodel_eval_move_in, and with a reference (ref not NaN) the
   dMinVar of costmodel_eval_move_ref */
static inline void eval_move(const costmodel_loads *ld, costmodel_scratch *s,
                             const costmodel_vertex *v, int32_t q, double ref,
                             costmodel_move *out) {
  move_deltas(ld, s, v, q);
  finish_move(ld, s, q, ref, out);
}

/* eval_move's second half: from the deltas in s (touched, dwgt, dcomm,
   dremap) and the loads, the move's Qwgt after per touched processor
   (s->qnew), Gain, max_to, max_after and dMinVar (about ref when ref is
   not NaN). */
static inline void finish_move(const costmodel_loads *ld, costmodel_scratch *s,
                               int32_t q, double ref, costmodel_move *out) {
  const minex_config *cf = ld->cfg;
  double gain = 0, s1_old = 0, min_t = INFINITY, max_t = 0;
  int32_t n_t = 0;
  for (int32_t i = 0; i < s->ntouched; i++) {
    int32_t x = s->touched[i];
    double qn =
        costmodel_qwgt(ld, ld->wgt[x] + s->dwgt[x], ld->comm[x] + s->dcomm[x],
                       ld->remap[x] + s->dremap[x]);
    s->qnew[i] = qn;
    if (x == q)
      out->max_to = qn;
    if (!cf->avail[x])
      continue;
    gain += qn - ld->qwgt[x];
    s1_old += ld->qwgt[x];
    n_t++;
    if (qn < min_t)
      min_t = qn;
    if (qn > max_t)
      max_t = qn;
  }
  out->to = q;
  out->gain = gain;
  out->max_after = max_t;
  if (!isnan(ref)) {
    /* the spread of the touched loads about a fixed reference: what the
       loads of this move's processors alone decide */
    double dmv = 0;
    for (int32_t i = 0; i < s->ntouched; i++) {
      int32_t x = s->touched[i];
      if (!cf->avail[x])
        continue;
      double a = s->qnew[i] - ref, b = ld->qwgt[x] - ref;
      dmv += a * a - b * b;
    }
    out->dmin_var = dmv;
    return;
  }
  /* dMinVar from the touched terms and, for the untouched processors, the
     closed form of their shift when the minimum moves from m to m2; this
     avoids the cancellation of S2 - 2 m S1 + P m^2 on large loads. */
  double m = ld->tree[1], m2 = min_t;
  int32_t k = 0;
  while (k < ld->nlow && s->stamp[ld->low[k]] == s->cur_stamp)
    k++;
  if (k < ld->nlow) {
    double u = ld->qwgt[ld->low[k]]; /* least untouched load */
    if (u < m2)
      m2 = u;
  } else if (ld->nlow == COSTMODEL_NLOW) {
    min_untouched(ld, s, 1, &m2); /* only loads below min_t matter */
  }
  double dmv = 0;
  for (int32_t i = 0; i < s->ntouched; i++) {
    int32_t x = s->touched[i];
    if (!cf->avail[x])
      continue;
    double a = s->qnew[i] - m2, b = ld->qwgt[x] - m;
    dmv += a * a - b * b;
  }
  int32_t n_u = ld->navail - n_t;
  if (n_u > 0 && m != m2)
    dmv += (m - m2) * (2.0 * (ld->qwgt_tot - s1_old) - n_u * (m + m2));
  out->dmin_var = dmv;
}

void costmodel_eval_move_in(const costmodel_loads *ld, costmodel_scratch *s,
                            const costmodel_vertex *v, int32_t q,
                            costmodel_move *out) {
  eval_move(ld, s, v, q, NAN, out);
}

void costmodel_eval_move_ref(const costmodel_loads *ld, costmodel_scratch *s,
                             const costmodel_vertex *v, int32_t q, double ref,
                             costmodel_move *out) {
  eval_move(ld, s, v, q, ref, out);
}

void costmodel_move_deltas(const costmodel_loads *ld, costmodel_scratch *s,
                           const costmodel_vertex *v, int32_t q) {
  move_deltas(ld, s, v, q);
}

void costmodel_finish_move_ref(const costmodel_loads *ld, costmodel_scratch *s,
                               int32_t q, double ref, costmodel_move *out) {
  finish_move(ld, s, q, ref, out);
}

double costmodel_receiver_qwgt(const costmodel_loads *ld,
                               const costmodel_vertex *v, int32_t q) {
  /* q's entries of costmodel_eval_move_in, the same sums in the same
     order, so that the result is the same double */
  const minex_config *cf = ld->cfg;
  const int32_t *cl = cf->cluster;
  size_t C = (size_t)cf->nclusters;
  const double *K = cf->conn;
  int32_t p = v->cur, o = v->old;
  size_t cp = (size_t)cl[p], cq = (size_t)cl[q];
  double u = ld->unit, pw = v->pwgt * u;
  double dw = 0, dc = 0, dr = 0;
  dw += pw * cf->proc[cq];
  for (int32_t i = 0; i < v->nnbr; i++) {
    int32_t r = v->nbr[i].owner;
    double c = v->nbr[i].cwgt * u;
    if (r == p)
      dc += c * K[cq * C + cp];
    else if (r == q)
      dc -= c * K[cq * C + cp];
    else
      dc += c * K[cq * C + (size_t)cl[r]];
  }
  size_t co = (size_t)cl[o];
  double rw = v->rwgt * u;
  double rp = p != o ? rw * K[co * C + cp] : 0;
  double rq = q != o ? rw * K[co * C + cq] : 0;
  if (ld->mode != MINEX_REMAP_SENDER)
    dr += rq;
  if (ld->mode != MINEX_REMAP_RECEIVER && o == q)
    dr += rq - rp;
  return costmodel_qwgt(ld, ld->wgt[q] + dw, ld->comm[q] + dc,
                        ld->remap[q] + dr);
}

void costmodel_apply_sums(costmodel_loads *ld) {
  for (int32_t i = 0; i < ld->mv.ntouched; i++) {
    int32_t x = ld->mv.touched[i];
    ld->wgt[x] += ld->mv.dwgt[x];
    ld->comm[x] += ld->mv.dcomm[x];
    ld->remap[x] += ld->mv.dremap[x];
    ld->qwgt[x] = ld->mv.qnew[i];
  }
  ld->mv.ntouched = 0;
}

void costmodel_apply(costmodel_loads *ld) {
  for (int32_t i = 0; i < ld->mv.ntouched; i++) {
    int32_t x = ld->mv.touched[i];
    if (ld->cfg->avail[x]) {
      double d = ld->mv.qnew[i] - ld->qwgt[x];
      ld->qwgt_tot += d;
      ld->qwgt_tot_mag += fabs(d) + fabs(ld->qwgt_tot);
      costmodel_tree_set(ld, x, ld->mv.qnew[i]);
    }
  }
  /* the least-loaded list changes only if a member changed or another
     processor became lighter than its last member */
  int rebuild = 0;
  for (int32_t i = 0; i < ld->mv.ntouched && !rebuild; i++) {
    int32_t x = ld->mv.touched[i];
    if (!ld->cfg->avail[x])
      continue;
    for (int32_t k = 0; k < ld->nlow; k++)
      rebuild |= ld->low[k] == x;
    rebuild |= ld->nlow == COSTMODEL_NLOW &&
               (ld->mv.qnew[i] < ld->qwgt[ld->low[ld->nlow - 1]] ||
                (ld->mv.qnew[i] == ld->qwgt[ld->low[ld->nlow - 1]] &&
                 x < ld->low[ld->nlow - 1]));
  }
  costmodel_apply_sums(ld); /* Wgt, Comm, Remap, Qwgt; the scratch emptied */
  if (rebuild)
    costmodel_low_rebuild(ld);
}
