#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs every shell command block of README.md and docs/**/*.md, as a user
would: in a scratch copy of the source tree (a fresh clone: data/,
docs/examples/, tests/data/ are there), block after block in the order of
the file, with what one block exports or cd's into kept for the next.

Every fence must name its language. Blocks in sh, bash or shell run, and
any non-zero exit fails; blocks in other languages (c, xml, text, ...) are
counted and not run. A shell block that cannot run in a test is marked by
an HTML comment on the line right before its fence, giving the reason:

    <!-- no-test: the 30-minute peer benchmark -->

The report lists every marked block with its reason and ends with the
counts, so that nothing is skipped silently.

The set-up file (README.md) must set itself up: its set-up block builds and
installs MinEX and puts it on PATH, and the blocks after it run with what
that block did; no directory holding a `minex` is left on the PATH it
starts with. Every other file runs as after that set-up: the build tree
under test (--build) is installed into install/ of the scratch copy, where
scripts/demo.sh installs, and install/bin is put on PATH.

Usage: doc_commands.py [--build DIR] [--work DIR] [--keep] [--list]
                       [--setup FILE] [FILE.md ...]
(default files: README.md and every .md under docs/ of the source tree
this script is in). Exit status 0 when every block ran and passed, 1 otherwise.
"""

import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

SHELLS = {"sh", "bash", "shell"}
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
MARK = re.compile(r"^\s*<!--\s*no-test\s*:(?P<reason>.*?)-->\s*$")
MARK_LOOSE = re.compile(r"^\s*<!--\s*no-test", re.I)


class Block:
    """One fenced block: file, line of the opening fence, language, text,
    and the reason of its no-test mark (None when unmarked)."""

    def __init__(self, path, line, lang, text, reason):
        self.path = path
        self.line = line
        self.lang = lang
        self.text = text
        self.reason = reason

    def where(self):
        return f"{self.path}:{self.line}"

    def first_line(self):
        for ln in self.text.splitlines():
            if ln.strip():
                return ln.strip()
        return ""


def parse(path, rel):
    """The fenced blocks of one Markdown file, and the errors found (a fence
    without a language, a mark without a reason or without a shell block
    after it, an unclosed fence)."""
    with open(path, encoding="utf-8") as fp:
        lines = fp.read().split("\n")
    blocks, errors = [], []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            if MARK_LOOSE.search(lines[i]):
                mm = MARK.match(lines[i])
                nxt = lines[i + 1] if i + 1 < len(lines) else ""
                fm = FENCE.match(nxt)
                if mm is None:
                    errors.append(f"{rel}:{i + 1}: malformed mark (write "
                                  f"<!-- no-test: REASON -->)")
                elif not mm.group("reason").strip():
                    errors.append(f"{rel}:{i + 1}: no-test mark without a "
                                  f"reason")
                elif fm is None:
                    errors.append(f"{rel}:{i + 1}: no-test mark not right "
                                  f"before a fence")
            i += 1
            continue
        indent, fence = m.group("indent"), m.group("fence")
        info = m.group("info").strip()
        lang = info.split()[0].lower() if info else ""
        start = i
        body = []
        i += 1
        closed = False
        close = re.compile(r"^[ \t]*" + re.escape(fence[0]) + "{" +
                           str(len(fence)) + r",}[ \t]*$")
        while i < len(lines):
            if close.match(lines[i]):
                closed = True
                break
            ln = lines[i]
            body.append(ln[len(indent):] if ln.startswith(indent) else ln)
            i += 1
        i += 1
        if not closed:
            errors.append(f"{rel}:{start + 1}: fence never closed")
            break
        reason = None
        if start > 0:
            mm = MARK.match(lines[start - 1])
            if mm and mm.group("reason").strip():
                reason = mm.group("reason").strip()
        if not lang:
            errors.append(f"{rel}:{start + 1}: fence without a language "
                          f"(sh for commands, text for anything else)")
            continue
        if reason is not None and lang not in SHELLS:
            errors.append(f"{rel}:{start + 1}: no-test mark on a {lang} "
                          f"block (only shell blocks run)")
        blocks.append(Block(rel, start + 1, lang, "\n".join(body) + "\n",
                            reason))
    return blocks, errors


def source_files(root):
    """The files of a clone: what git tracks or would track (untracked files
    not ignored), or without git every file but build trees and .git."""
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"], check=True, capture_output=True).stdout
        files = [f for f in out.decode().split("\0") if f]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(root):
        reld = os.path.relpath(d, root)
        if reld == ".":
            dirs[:] = [x for x in dirs if not x.startswith("build") and
                       x not in (".git", "install", "out")]
        for n in names:
            files.append(os.path.normpath(os.path.join(reld, n)))
    return files


def make_scratch(root, files, scratch):
    if os.path.exists(scratch):
        shutil.rmtree(scratch)
    os.makedirs(scratch)
    for f in files:
        src = os.path.join(root, f)
        if not os.path.isfile(src):  # deleted but still in the index
            continue
        dst = os.path.join(scratch, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)


def run_block(block, scratch, state, log, timeout):
    """Runs one block with bash in scratch after the state the previous
    blocks left (exports, working directory); returns (exit status, s)."""
    script = os.path.join(scratch, ".doc_block.sh")
    with open(script, "w", encoding="utf-8") as fp:
        fp.write(f"# {block.where()}\n")
        fp.write(f'[ ! -f "{state}" ] || source "{state}"\n')
        fp.write("set -eo pipefail\n")
        fp.write(block.text)
        fp.write(f'\n{{ export -p; printf "cd -- %q\\n" "$PWD"; }} '
                 f'>"{state}"\n')
    t0 = time.monotonic()
    with open(log, "wb") as out:
        p = subprocess.Popen(["bash", script], cwd=scratch,
                             stdin=subprocess.DEVNULL, stdout=out,
                             stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            out.write(f"\n[doc_commands: killed after {timeout} s]\n".encode())
            rc = -1
    return rc, time.monotonic() - t0


def tail(path, n):
    with open(path, "rb") as fp:
        lines = fp.read().decode(errors="replace").splitlines()
    return "\n".join(lines[-n:])


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", help="Markdown files (default: "
                    "README.md and every .md under docs/)")
    ap.add_argument("--root", default=root, help="source tree (default: "
                    "the one this script is in)")
    ap.add_argument("--build", help="build tree installed for the files "
                    "other than the set-up file (needed when one runs)")
    ap.add_argument("--setup", default="README.md", help="the file that "
                    "sets itself up (default README.md)")
    ap.add_argument("--work", help="scratch folder (default: a new one "
                    "under /tmp); removed unless --keep or a block failed")
    ap.add_argument("--keep", action="store_true", help="keep the scratch "
                    "folder")
    ap.add_argument("--list", action="store_true", help="list the blocks "
                    "and what would happen to them, run nothing")
    ap.add_argument("--timeout", type=float, default=900, help="seconds "
                    "per block (default 900)")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    if a.files:
        rels = [os.path.relpath(os.path.abspath(f), root) for f in a.files]
    else:
        docs = os.path.join(root, "docs")
        rels = ["README.md"] + sorted(
            os.path.relpath(os.path.join(d, f), root)
            for d, _, fs in os.walk(docs) for f in fs if f.endswith(".md"))

    per_file, errors = [], []
    for rel in rels:
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            errors.append(f"{rel}: no such file")
            continue
        blocks, errs = parse(path, rel)
        per_file.append((rel, blocks))
        errors += errs
    for e in errors:
        print(f"doc_commands: {e}")
    if errors:
        print(f"doc_commands: {len(errors)} error(s) in the Markdown, "
              f"nothing run")
        return 1

    shell = [b for _, bs in per_file for b in bs if b.lang in SHELLS]
    marked = [b for b in shell if b.reason is not None]
    other = [b for _, bs in per_file for b in bs if b.lang not in SHELLS]
    langs = {}
    for b in other:
        langs[b.lang] = langs.get(b.lang, 0) + 1

    if a.list:
        for rel, bs in per_file:
            for b in bs:
                what = ("run" if b.lang in SHELLS and b.reason is None else
                        f"marked: {b.reason}" if b.lang in SHELLS else
                        f"{b.lang}, not run")
                print(f"{b.where()}: {what}: {b.first_line()}")
        print(f"doc_commands: {len(shell) - len(marked)} shell blocks to "
              f"run, {len(marked)} marked no-test, {len(other)} in other "
              f"languages")
        return 0

    runnable = [(rel, [b for b in bs if b.lang in SHELLS and b.reason is None])
                for rel, bs in per_file]
    if any(bs and rel != a.setup for rel, bs in runnable) and not a.build:
        print("doc_commands: --build BUILD_DIR is needed (the tree to "
              "install for the files other than the set-up file)")
        return 1
    # no `minex` a user's shell would not have: the set-up file must put
    # it on PATH itself, the others get the build under test
    base_path = os.pathsep.join(
        d for d in os.environ.get("PATH", "").split(os.pathsep)
        if d and not os.access(os.path.join(d, "minex"), os.X_OK))
    work = a.work or os.path.join("/tmp", f"minex-doc-commands-{os.getpid()}")
    os.makedirs(work, exist_ok=True)
    files = source_files(root)
    t_all = time.monotonic()
    ran, failed = 0, []
    for rel, bs in runnable:
        if not bs:
            continue
        scratch = os.path.join(work, rel.replace(os.sep, "_"))
        make_scratch(root, files, scratch)
        env_note = "its own set-up"
        if rel != a.setup:
            prefix = os.path.join(scratch, "install")
            r = subprocess.run(["cmake", "--install", a.build, "--prefix",
                                prefix], capture_output=True, text=True)
            if r.returncode != 0:
                print(f"doc_commands: cmake --install {a.build} failed:\n"
                      f"{r.stdout}{r.stderr}")
                return 1
            env_note = "install/bin of the build under test on PATH"
        state = os.path.join(work, rel.replace(os.sep, "_") + ".state")
        with open(state, "w", encoding="utf-8") as fp:
            path = base_path
            if rel != a.setup:
                path = os.path.join(scratch, "install", "bin") + \
                    os.pathsep + path
            fp.write(f"export PATH={shlex.quote(path)}\n")
        print(f"== {rel}: {len(bs)} block(s) in {scratch} ({env_note})",
              flush=True)
        for b in bs:
            log = os.path.join(work, f"{rel.replace(os.sep, '_')}_"
                               f"{b.line}.log")
            rc, sec = run_block(b, scratch, state, log, a.timeout)
            ran += 1
            if rc == 0:
                print(f"ok   {b.where()} ({sec:.1f} s): {b.first_line()}",
                      flush=True)
            else:
                print(f"FAIL {b.where()} (exit {rc}, {sec:.1f} s): "
                      f"{b.first_line()}\n---- last lines of its output "
                      f"({log}):\n{tail(log, 40)}\n----", flush=True)
                failed.append(b)
                break  # later blocks of the file may need this one
        if not failed and not a.keep:
            shutil.rmtree(scratch)

    print(f"\nmarked no-test ({len(marked)}), not run:")
    for b in marked:
        print(f"  {b.where()}: {b.first_line()}\n      reason: {b.reason}")
    not_reached = sum(len(bs) for _, bs in runnable) - ran
    summary = (f"doc_commands: {ran} shell block(s) ran, {len(failed)} "
               f"failed, {len(marked)} marked no-test, "
               f"{len(other)} in other languages not run (" +
               ", ".join(f"{k} {v}" for k, v in sorted(langs.items())) +
               f"), in {time.monotonic() - t_all:.1f} s")
    if not_reached:
        summary += f"; {not_reached} not reached after the failure"
    print(summary)
    if failed:
        print(f"doc_commands: scratch kept in {work}")
        return 1
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    if ran == 0:
        print("doc_commands: no block ran (a parsing error?)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
