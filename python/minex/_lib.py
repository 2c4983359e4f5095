# SPDX-License-Identifier: GPL-3.0-or-later
"""Loading libminex, its ABI check and the ctypes prototypes.

The library is found, in this order, at

1. the path in the environment variable ``MINEX_LIBRARY`` (only there: a
   library that fails to load or to pass the check is an error, not a
   reason to look elsewhere);
2. ``ctypes.util.find_library("minex")`` (the system's library path);
3. the prefix the package is installed in: the first ``lib/libminex.so.N``
   of the directories above the package (PREFIX/lib for the package in a
   virtual environment PREFIX/VENV, in ``pip install --target
   PREFIX/lib/python`` or ``--prefix PREFIX``), then ``sys.prefix/lib``.

Every call goes through ``ctypes.CDLL``, which releases the GIL for the
duration of the call.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from ctypes import (POINTER, c_char_p, c_double, c_int, c_int32, c_int64,
                    c_uint64, c_void_p)
from typing import Callable, Dict, List, Optional

# The version of the package, that of the C library it is written for
# (project(VERSION) of CMakeLists.txt; pyproject.toml reads it from here):
# the library's major version must be this one, and before 1.0 the minor
# as well (the ABI may change between 0.x minor versions, docs/reference/api.md).
__version__ = "0.1.0"
PACKAGE_VERSION = tuple(int(x) for x in __version__.split("."))

# What the package assumes of the binary interface (minex_abi_get). The
# sizes of minex_options and minex_metrics are checked against the
# package's own: the options buffer is allocated at the size the library
# reports, and minex_metrics is mirrored field by field (_metrics.py).
EXPECTED_WIDTHS = {
    "xadj_bits": 64,
    "adjncy_bits": 32,
    "part_bits": 32,
    "real_bits": 8 * ctypes.sizeof(c_double),
    "int_bits": 8 * ctypes.sizeof(c_int),
}


class LibraryError(ImportError):
    """The MinEX C library cannot be found, cannot be loaded, or is not the
    binary interface this package is written for."""


def _prefix_candidates() -> List[str]:
    """libminex in the lib/ directories of the prefixes above the package:
    the package in PREFIX/lib/python/minex (pip install --target
    PREFIX/lib/python), PREFIX/lib/pythonX.Y/site-packages/minex (pip
    --prefix, or a virtual environment in PREFIX/VENV) finds
    PREFIX/lib/libminex.so.N; then sys.prefix/lib."""
    here = os.path.dirname(os.path.abspath(__file__))  # .../minex
    dirs = []
    up = here
    for _ in range(6):
        up = os.path.dirname(up)
        dirs.append(os.path.join(up, "lib"))
    dirs.append(os.path.join(sys.prefix, "lib"))
    names = ["libminex.so.%d" % PACKAGE_VERSION[0], "libminex.so"]
    seen, out = set(), []
    for d in dirs:
        for n in names:
            p = os.path.normpath(os.path.join(d, n))
            if p not in seen:
                seen.add(p)
                out.append(p)
    return out


def find_library() -> str:
    """The path (or soname) of the library to load, by the rule above."""
    env = os.environ.get("MINEX_LIBRARY")
    if env:
        return env
    name = ctypes.util.find_library("minex")
    if name:
        return name
    tried = _prefix_candidates()
    for p in tried:
        if os.path.isfile(p):
            return p
    raise LibraryError(
        "minex: libminex not found: MINEX_LIBRARY is not set, "
        "ctypes.util.find_library('minex') found nothing, and none of "
        + ", ".join(tried) + " exists; install MinEX (cmake --install) "
        "or set MINEX_LIBRARY to the path of libminex.so")


def check_abi(get: Callable[[str], Optional[int]], path: str,
              options_size: Optional[int],
              metrics_size: int) -> Dict[str, Optional[int]]:
    """Compares the library's binary interface (get(name) is its
    minex_abi_get, None for a missing entry) with the package's; raises
    LibraryError naming every difference. options_size None skips that
    entry (the buffer is allocated at the library's size, any size > 0
    will do); metrics_size is the size of the package's mirror of
    minex_metrics."""
    got: Dict[str, Optional[int]] = {}
    bad = []
    for name, want in EXPECTED_WIDTHS.items():
        v = get(name)
        got[name] = v
        if v != want:
            bad.append("%s = %s (the package needs %d)" % (name, v, want))
    v = get("metrics_size")
    got["metrics_size"] = v
    if v != metrics_size:
        bad.append("metrics_size = %s (the package's minex_metrics has %d "
                   "bytes)" % (v, metrics_size))
    v = get("options_size")
    got["options_size"] = v
    if v is None or v <= 0 or (options_size is not None and
                               v != options_size):
        bad.append("options_size = %s" % v)
    v = get("version_hex")
    got["version_hex"] = v
    if v is None:
        bad.append("version_hex missing")
    else:
        major, minor = (v >> 16) & 0xFF, (v >> 8) & 0xFF
        ok = major == PACKAGE_VERSION[0] and (
            major > 0 or minor == PACKAGE_VERSION[1])
        if not ok:
            bad.append("version %d.%d.%d (the package is for %d.%d.x)" %
                       (major, minor, v & 0xFF, PACKAGE_VERSION[0],
                        PACKAGE_VERSION[1]))
    if bad:
        raise LibraryError("minex: %s is not the MinEX library this package "
                           "is written for: %s" % (path, "; ".join(bad)))
    return got


def _proto(lib, name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_P = c_void_p  # arrays and opaque objects: passed as addresses
_PP = POINTER(c_void_p)  # out-parameters of the constructors


def declare(lib, metrics_type) -> None:
    """Sets restype and argtypes of every function the package calls."""
    pm = POINTER(metrics_type)
    d = [
        ("minex_version", c_char_p),
        ("minex_version_hex", ctypes.c_uint),
        ("minex_strerror", c_char_p, c_int),
        ("minex_err_name", c_char_p, c_int),
        ("minex_last_error", c_char_p),
        ("minex_abi_get", c_int, c_char_p, POINTER(c_int64)),
        ("minex_abi_name", c_char_p, c_int),
        # graph
        ("minex_graph_create", c_int, c_int32, _P, _P, _P, _P, _P, _PP),
        ("minex_graph_destroy", None, _P),
        ("minex_graph_nvtxs", c_int32, _P),
        ("minex_graph_nedges", c_int64, _P),
        ("minex_graph_xadj", _P, _P),
        ("minex_graph_adjncy", _P, _P),
        ("minex_graph_pwgt", _P, _P),
        ("minex_graph_rwgt", _P, _P),
        ("minex_graph_cwgt", _P, _P),
        ("minex_graph_set_weights", c_int, _P, _P, _P, _P),
        ("minex_graph_read_metis", c_int, c_char_p, _PP),
        ("minex_graph_write_metis", c_int, _P, c_char_p),
        # configuration
        ("minex_config_create", c_int, c_int32, _P, _P, _P, _PP),
        ("minex_config_create_uniform", c_int, c_int32, _PP),
        ("minex_config_destroy", None, _P),
        ("minex_config_set_available", c_int, _P, c_int32, c_int),
        ("minex_config_nclusters", c_int32, _P),
        ("minex_config_nprocs", c_int32, _P),
        ("minex_config_navailable", c_int32, _P),
        ("minex_config_cluster_nprocs", c_int32, _P, c_int32),
        ("minex_config_cluster_of", c_int32, _P, c_int32),
        ("minex_config_proc_slowdown", c_double, _P, c_int32),
        ("minex_config_conn", c_double, _P, c_int32, c_int32),
        ("minex_config_is_available", c_int, _P, c_int32),
        ("minex_config_load", c_int, c_char_p, _PP),
        ("minex_config_save", c_int, _P, c_char_p),
        # options
        ("minex_options_init", None, _P),
        ("minex_options_set", c_int, _P, c_char_p, c_double),
        ("minex_options_get", c_int, _P, c_char_p, POINTER(c_double)),
        ("minex_options_name", c_char_p, c_int),
        # evaluation, repartitioning, partitioning
        ("minex_evaluate", c_int, _P, _P, _P, _P, _P, pm),
        ("minex_evaluate_procs", c_int, _P, _P, _P, _P, _P, _P, _P, _P, _P),
        ("minex_repartition", c_int, _P, _P, _P, _P, _P, pm),
        ("minex_partition_graph", c_int, _P, _P, c_uint64, _P),
        # partition files
        ("minex_part_read", c_int, c_char_p, c_int32, c_int32, _PP),
        ("minex_part_write", c_int, c_char_p, c_int32, _P),
        # meshes
        ("minex_elem_nnodes", c_int, c_int),
        ("minex_elem_name", c_char_p, c_int),
        ("minex_mesh_read", c_int, c_char_p, _PP),
        ("minex_mesh_read_kind", c_int, c_char_p, c_int, _PP),
        ("minex_mesh_destroy", None, _P),
        ("minex_mesh_nnodes", c_int32, _P),
        ("minex_mesh_nelems", c_int32, _P),
        ("minex_mesh_elem_type", c_int, _P),
        ("minex_mesh_elem_kind", c_int, _P, c_int32),
        ("minex_mesh_coords", _P, _P),
        ("minex_mesh_elems", _P, _P),
        ("minex_mesh_centroid", None, _P, c_int32, POINTER(c_double * 3)),
        ("minex_mesh_ignored", c_int64, _P),
        ("minex_mesh_file_partition", _P, _P),
        ("minex_mesh_dual_ncommon", c_int, _P, c_int, _P, _P, _P, _P, _PP),
    ]
    for entry in d:
        _proto(lib, entry[0], entry[1], *entry[2:])


def load(metrics_type):
    """Loads the library, checks its ABI and declares the prototypes.
    Returns (CDLL, path, abi values)."""
    path = find_library()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise LibraryError("minex: cannot load %s: %s" % (path, e)) from None
    try:
        abi_get = lib.minex_abi_get
    except AttributeError:
        raise LibraryError(
            "minex: %s has no minex_abi_get: not a MinEX library, or one "
            "older than this package (%d.%d)" %
            (path, PACKAGE_VERSION[0], PACKAGE_VERSION[1])) from None
    abi_get.restype = c_int
    abi_get.argtypes = [c_char_p, POINTER(c_int64)]

    def get(name: str) -> Optional[int]:
        v = c_int64(-1)
        return v.value if abi_get(name.encode(), ctypes.byref(v)) == 0 \
            else None

    abi = check_abi(get, path, None, ctypes.sizeof(metrics_type))
    declare(lib, metrics_type)
    return lib, path, abi
