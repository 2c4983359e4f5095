#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the relative links of the Markdown files of the source tree:
every [text](target) whose target is a path (not a URL) names a file or
folder that exists, and every #anchor names a heading of its file (the
anchor GitHub makes of it: lower case, punctuation dropped, spaces to
hyphens, -1, -2 ... for repeats).

Usage: doc_links.py [--root DIR] [FILE.md ...]
(default files: every .md file under the root, without build trees,
hidden folders and tests/docs/fixtures). Exit status 0 when every link
resolves, 1 otherwise, with one line per broken link.
"""

import argparse
import os
import re
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
SKIP_DIRS = {"tests/docs/fixtures"}


def slug(text):
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def scan(path):
    """The links (line, target) and the anchors of one Markdown file."""
    links, anchors, seen = [], set(), {}
    in_fence = None
    with open(path, encoding="utf-8") as fp:
        for no, line in enumerate(fp, 1):
            m = FENCE.match(line)
            if m:
                if in_fence is None:
                    in_fence = m.group(1)[0]
                elif m.group(1)[0] == in_fence:
                    in_fence = None
                continue
            if in_fence:
                continue
            h = HEADING.match(line)
            if h:
                s = slug(h.group(1))
                n = seen.get(s, 0)
                seen[s] = n + 1
                anchors.add(s if n == 0 else f"{s}-{n}")
            for t in LINK.findall(re.sub(r"`[^`]*`", "", line)):
                links.append((no, t))
    return links, anchors


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--root", default=root)
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    files = [os.path.abspath(f) for f in a.files]
    if not files:
        for d, dirs, fs in os.walk(root):
            rel = os.path.relpath(d, root)
            dirs[:] = [x for x in dirs if not x.startswith((".", "build"))
                       and os.path.normpath(os.path.join(rel, x))
                       not in SKIP_DIRS]
            files += [os.path.join(d, f) for f in fs if f.endswith(".md")]
    cache, bad, count = {}, 0, 0
    for f in sorted(files):
        links, _ = cache.setdefault(f, scan(f))
        for no, t in links:
            if re.match(r"^[a-zA-Z][\w+.-]*:", t):
                continue  # a URL or mailto:
            count += 1
            path, _, anchor = t.partition("#")
            target = os.path.normpath(os.path.join(os.path.dirname(f), path)) \
                if path else f
            where = f"{os.path.relpath(f, root)}:{no}"
            if not os.path.exists(target):
                print(f"{where}: {t}: no such file")
                bad += 1
                continue
            if anchor and target.endswith(".md"):
                if target not in cache:
                    cache[target] = scan(target)
                if anchor not in cache[target][1]:
                    print(f"{where}: {t}: no heading #{anchor} in "
                          f"{os.path.relpath(target, root)}")
                    bad += 1
    print(f"doc_links: {count} relative links in {len(files)} files, "
          f"{bad} broken")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
