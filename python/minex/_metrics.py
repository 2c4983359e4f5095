# SPDX-License-Identifier: GPL-3.0-or-later
"""The scores of a partition (minex_metrics, SPEC §2) as a dataclass, and
its ctypes mirror, made from the dataclass's fields in the order of
include/minex.h (the import checks the mirror's size against the
library's minex_metrics, and the tests compare the fields with the
header)."""

from __future__ import annotations

import ctypes
import dataclasses
from ctypes import c_double, c_int, c_int32, c_int64
from dataclasses import dataclass, field
from typing import Any, Dict


def _f(ctype, doc: str):
    return field(metadata={"ctype": ctype, "doc": doc})


@dataclass(frozen=True)
class Metrics:
    """Every field of ``minex_metrics`` (include/minex.h, SPEC §2), for the
    new partition. Loads are in the graph's weight units scaled by
    slowdowns; sums over processors are over available processors only.
    The fields from ``coarse_nvtxs`` on (but ``navailable``) are filled by
    :func:`minex.repartition` only and are 0 from :func:`minex.evaluate`."""

    max_qwgt: float = _f(c_double, "MaxQwgt: largest Qwgt^p over the "
                         "available processors")
    min_qwgt: float = _f(c_double, "MinQwgt: smallest, empty processors "
                         "included")
    qwgt_tot: float = _f(c_double, "QwgtTot: sum of Qwgt^p")
    load_imb: float = _f(c_double, "LoadImb = P_avail * MaxQwgt / QwgtTot "
                         "(0 if empty)")
    min_var: float = _f(c_double, "MinVar = sum_p (Qwgt^p - MinQwgt)^2")
    lower_bound: float = _f(c_double, "LB = sum Pwgt / sum over available "
                            "p of 1/Proc_c(p)")
    max_wgt: float = _f(c_double, "largest Wgt^p (processing only)")
    max_comm: float = _f(c_double, "largest Comm^p")
    max_remap: float = _f(c_double, "MaxRemap: largest Remap^p under the "
                          "charging mode")
    steady_max: float = _f(c_double, "SteadyMax: largest Qwgt^p with "
                           "Remap = 0 and k = 1")
    horizon_time: float = _f(c_double, "T_k = MaxRemap + k * SteadyMax")
    cut_edges: int = _f(c_int64, "undirected edges whose ends differ")
    cut_weight: float = _f(c_double, "sum of Cwgt over those edges (no "
                           "slowdowns)")
    moved: int = _f(c_int64, "vertices with new[v] != old[v]")
    total_v: float = _f(c_double, "TotalV: sum of Rwgt over moved "
                        "vertices")
    max_v: float = _f(c_double, "MaxV: max_p of Rwgt sent plus received "
                      "by p")
    stranded: int = _f(c_int64, "vertices whose new owner is unavailable")
    navailable: int = _f(c_int32, "P_avail")
    coarse_nvtxs: int = _f(c_int32, "vertices left after the contraction")
    coarse_moves: int = _f(c_int64, "moves made on the contracted graph")
    expand_moves: int = _f(c_int64, "moves made during expansion")
    returned_old: int = _f(c_int, "1: the result was worse, old was "
                           "returned")
    scratch_used: int = _f(c_int, "1: the from-scratch candidate was kept")
    seconds_contract: float = _f(c_double, "wall time of the shared "
                                 "contraction, s")
    seconds_partition: float = _f(c_double, "the kept candidate's coarse "
                                  "partition, s")
    seconds_expand: float = _f(c_double, "the kept candidate's expansion "
                               "and refinement, s")
    seconds: float = _f(c_double, "wall time of the whole C call, s")
    throttle_used: float = _f(c_double, "ThroTTle of the call (the chosen "
                              "one under throttle_auto)")
    horizon_used: float = _f(c_double, "horizon the kept partition was "
                             "optimised under")
    start_nvtxs: int = _f(c_int32, "vertices of the graph the kept "
                          "candidate's rule started on")
    candidates: int = _f(c_int32, "candidate partitions compared")
    seconds_diffusive: float = _f(c_double, "wall time of the diffusive "
                                  "run under k, s")
    seconds_ladder: float = _f(c_double, "of the ladder's runs together, s")
    seconds_scratch: float = _f(c_double, "of the from-scratch candidate, "
                                "s")
    seconds_refine: float = _f(c_double, "of the refinement passes of "
                               "every candidate together, s")
    seconds_candidates: float = _f(c_double, "wall time of all the "
                                   "candidates together, s")
    threads_used: int = _f(c_int32, "OpenMP threads of the call")
    seconds_parallel: float = _f(c_double, "wall time in the parallel "
                                 "regions, s")
    seconds_parallel_work: float = _f(c_double, "sum of those regions' "
                                      "units' times, s")
    seconds_parallel_span: float = _f(c_double, "sum over the regions of "
                                      "their largest unit, s")
    imbalance: float = _f(c_double, "with a load bound: max over "
                          "processors of load / target")
    bound_excess: float = _f(c_double, "with a load bound: the load "
                             "outside the bounds")
    bound_status: int = _f(c_int, "0 no bound, 1 met, 2 missed")

    def as_dict(self) -> Dict[str, Any]:
        """The fields as a dict, in the order of minex_metrics."""
        return dataclasses.asdict(self)


class CMetrics(ctypes.Structure):
    """ctypes mirror of minex_metrics (same fields, same order, so the same
    native layout)."""

    _fields_ = [(f.name, f.metadata["ctype"])
                for f in dataclasses.fields(Metrics)]


def from_c(m: CMetrics) -> Metrics:
    return Metrics(**{name: getattr(m, name) for name, _ in m._fields_})
