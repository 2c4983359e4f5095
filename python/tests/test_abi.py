# SPDX-License-Identifier: GPL-3.0-or-later
"""The import checks the library's binary interface: the loaded library
reports the widths the package passes arrays in, its minex_metrics is the
package's mirror (compared here field by field with include/minex.h),
and a library that differs, or is no MinEX library, is refused with a
clear error."""

import ctypes
import ctypes.util
import os
import re
import subprocess
import sys

import pytest

import minex
from minex import _lib, _metrics


def header_struct(root, name):
    """(type, field) of each member of a typedef struct in minex.h."""
    with open(os.path.join(root, "include", "minex.h")) as f:
        text = f.read()
    body = re.search(r"typedef struct %s \{(.*?)\} %s;" % (name, name), text,
                     re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    out = []
    for decl in body.split(";"):
        decl = " ".join(decl.split())
        if decl:
            ctype, field = decl.rsplit(" ", 1)
            out.append((ctype, field))
    return out


def test_metrics_mirror_is_the_header_struct(root):
    ctypes_of = {"double": ctypes.c_double, "int64_t": ctypes.c_int64,
                 "int32_t": ctypes.c_int32, "int": ctypes.c_int}
    want = [(f, ctypes_of[t]) for t, f in header_struct(root,
                                                        "minex_metrics")]
    assert _metrics.CMetrics._fields_ == want
    assert ctypes.sizeof(_metrics.CMetrics) == minex.abi()["metrics_size"]


def test_library_reports_the_package_widths():
    a = minex.abi()
    assert (a["xadj_bits"], a["adjncy_bits"], a["part_bits"],
            a["real_bits"]) == (64, 32, 32, 64)
    assert a["options_size"] > 0 and a["path"] == minex.library_path
    assert minex.version() == minex.__version__
    assert a["version_hex"] == int(minex._core.lib.minex_version_hex())


def good_abi():
    return dict(minex.abi())


@pytest.mark.parametrize("key,value,fragment", [
    ("xadj_bits", 32, "xadj_bits = 32 (the package needs 64)"),
    ("adjncy_bits", 64, "adjncy_bits = 64"),
    ("real_bits", 32, "real_bits = 32"),
    ("metrics_size", 288, "metrics_size = 288"),
    ("version_hex", 0x000200, "version 0.2.0"),
    ("version_hex", 0x010100, "version 1.1.0"),
    ("options_size", None, "options_size = None"),
])
def test_a_different_abi_is_refused(key, value, fragment):
    values = good_abi()
    values[key] = value
    with pytest.raises(_lib.LibraryError) as info:
        _lib.check_abi(values.get, "libfake.so", None,
                       ctypes.sizeof(_metrics.CMetrics))
    assert "libfake.so is not the MinEX library" in str(info.value)
    assert fragment in str(info.value)
    assert isinstance(info.value, ImportError)


def test_the_real_abi_passes():
    values = good_abi()
    got = _lib.check_abi(values.get, "x", values["options_size"],
                         ctypes.sizeof(_metrics.CMetrics))
    assert got["xadj_bits"] == 64


def import_with(root, library, cwd):
    env = dict(os.environ, MINEX_LIBRARY=library,
               PYTHONPATH=os.path.join(root, "python"))
    return subprocess.run([sys.executable, "-c", "import minex"], env=env,
                          capture_output=True, text=True, cwd=cwd)


def test_import_refuses_a_library_that_is_not_minex(root, tmp_path):
    libm = ctypes.util.find_library("m")
    r = import_with(root, libm, tmp_path)
    assert r.returncode != 0
    assert "LibraryError" in r.stderr
    assert "has no minex_abi_get: not a MinEX library" in r.stderr


def test_import_refuses_a_missing_library(root, tmp_path):
    r = import_with(root, str(tmp_path / "libminex.so"), tmp_path)
    assert r.returncode != 0
    assert "cannot load %s" % (tmp_path / "libminex.so") in r.stderr


def test_import_finds_the_library_in_the_prefix(root, tmp_path):
    """Without MINEX_LIBRARY (and no libminex on the system path), a
    package in PREFIX/lib/python loads PREFIX/lib/libminex.so.0."""
    if ctypes.util.find_library("minex"):
        pytest.skip("a libminex on the system path comes first")
    pkg = tmp_path / "lib" / "python"
    pkg.mkdir(parents=True)
    os.symlink(os.path.join(root, "python", "minex"), pkg / "minex")
    lib = os.path.realpath(minex.library_path)
    os.symlink(lib, tmp_path / "lib" / "libminex.so.0")
    env = {k: v for k, v in os.environ.items() if k != "MINEX_LIBRARY"}
    env["PYTHONPATH"] = str(pkg)
    r = subprocess.run([sys.executable, "-c",
                        "import minex; print(minex.library_path)"],
                       env=env, capture_output=True, text=True,
                       cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(tmp_path / "lib" / "libminex.so.0")


def test_package_version_is_the_project_version(root):
    with open(os.path.join(root, "CMakeLists.txt")) as f:
        m = re.search(r"project\(minex VERSION (\d+\.\d+\.\d+)", f.read())
    assert minex.__version__ == m.group(1)
