#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The shape of the library's code, for docs/design/architecture.md: functions
with 8 or more parameters, functions over 100 lines, and the places
outside src/dist and src/mpi that branch on a communicator (a test of
`->comm`, `.comm` or a `cm` alias). Reads src/ as text (function definitions start in column 0 and
end at the first `}` in column 0). Usage: scripts/code_shape.py [--list]
"""
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
listing = "--list" in sys.argv[1:]
head = re.compile(r"^[A-Za-z_][\w \*]*?\b(\w+)\s*\(", re.M)
many, long_, comm = [], [], []
for d, _, files in sorted(os.walk(root)):
    for f in sorted(files):
        if not f.endswith(".c"):
            continue
        path = os.path.join(d, f)
        rel = os.path.relpath(path, os.path.join(root, ".."))
        lines = open(path, encoding="utf-8").read().split("\n")
        i = 0
        while i < len(lines):
            m = head.match(lines[i])
            if m and not lines[i].startswith(("typedef", "static const",
                                              "#")) and ";" not in lines[i]:
                j = i
                sig = lines[i]
                while "{" not in lines[j] and ";" not in lines[j]:
                    j += 1
                    sig += lines[j]
                if "{" in lines[j] and ";" not in sig.split("{")[0]:
                    args = sig[sig.index("(") + 1:sig.rindex(")")]
                    n = 0 if args.strip() in ("", "void") else args.count(",") + 1
                    k = j
                    while k < len(lines) and lines[k] != "}":
                        k += 1
                    name = "%s:%d %s" % (rel, i + 1, m.group(1))
                    if n >= 8:
                        many.append((n, name))
                    if k - i + 1 > 100:
                        long_.append((k - i + 1, name))
                    i = k
            i += 1
        if not rel.startswith(("src/dist/", "src/mpi/")):
            for ln, text in enumerate(lines):
                code = text.split("/*")[0]
                ref = re.search(r"(?<!ld)(->|\.)comm\b(?!\s*\[)", code)
                alias = re.search(r"\bcm\b", code)
                test = re.search(r"\bif \(|\?|==|!=", code)
                if (ref or alias) and test:
                    comm.append("%s:%d" % (rel, ln + 1))
print("functions with 8 or more parameters: %d" % len(many))
if listing:
    for n, name in sorted(many, reverse=True):
        print("  %2d %s" % (n, name))
print("functions over 100 lines: %d" % len(long_))
if listing:
    for n, name in sorted(long_, reverse=True):
        print("  %4d %s" % (n, name))
print("communicator branches outside src/dist and src/mpi: %d" % len(comm))
if listing:
    for c in comm:
        print("  " + c)
