#!/usr/bin/env python3
"""Runs the examples that README.md and docs/*.md mark, and checks the docs'
links. Usage: examples.py PLATTER SOURCE_DIR [DOC...]

A marked example is an HTML comment line right before a fenced block:

  <!-- example: sim -->   lines starting with "$ " are commands, the lines
                          after one are its output (stdout and stderr as one
                          stream); it must match exactly. A line "..." stands
                          for any number of lines.
  <!-- example -->        the same on the real machine: every number is
                          masked and runs of spaces count as one.
  <!-- example: lua -->   the block is a Lua script, run by platter; it must
                          succeed and leave no file behind.

Each command runs in bash, in a fresh empty directory (examples/ of the tree
linked into it), with platter first on PATH, and must exit 0. After a block
the directory must be empty again: an example leaves nothing behind.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

MARK = re.compile(r"^<!--\s*example(?::\s*(\w+))?\s*-->\s*$")
NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?")


def blocks(path):
    """Yields (kind, line number, lines) for each marked fenced block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        if not m:
            i += 1
            continue
        kind = m.group(1) or "real"
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            yield kind, i + 1, None
            i += 1
            continue
        start = i + 2
        end = start
        while end < len(lines) and lines[end] != "```":
            end += 1
        yield kind, start, lines[start:end]
        i = end + 1


def steps(lines):
    """Splits a block into (command, expected output lines)."""
    out = []
    for line in lines:
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
        else:
            raise ValueError("output before the first '$ ' command: %r" % line)
    return out


def mask(line):
    return re.sub(r" +", " ", NUMBER.sub("N", line)).rstrip()


def matches(expected, got, exact):
    """Matches expected lines (with '...' for any lines) against got."""
    norm = (lambda s: s) if exact else mask

    def at(e, g):
        if e == len(expected):
            return g == len(got)
        if expected[e] == "...":
            return any(at(e + 1, k) for k in range(g, len(got) + 1))
        return g < len(got) and norm(expected[e]) == norm(got[g]) and at(e + 1, g + 1)

    return at(0, 0)


def run(cmd, cwd, env):
    p = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=60)
    text = p.stdout.decode("utf-8", "replace")
    if text.endswith("\n"):
        text = text[:-1]
    return p.returncode, text.split("\n") if text else []


def leftovers(cwd):
    return sorted(n for n in os.listdir(cwd) if n != "examples")


def check_block(kind, lines, src, env):
    """Returns a list of failure messages for one block."""
    cwd = tempfile.mkdtemp(prefix="platter-doc.")
    try:
        os.symlink(os.path.join(src, "examples"), os.path.join(cwd, "examples"))
        fails = []
        if kind == "lua":
            script = os.path.join(tempfile.gettempdir(), "platter-doc-%d.lua" % os.getpid())
            with open(script, "w") as f:
                f.write("\n".join(lines) + "\n")
            try:
                rc, got = run("platter " + script, cwd, env)
            finally:
                os.unlink(script)
            if rc != 0:
                fails.append("exit %d:\n%s" % (rc, "\n".join(got)))
        else:
            for cmd, expected in steps(lines):
                rc, got = run(cmd, cwd, env)
                if rc != 0:
                    fails.append("$ %s\nexit %d:\n%s" % (cmd, rc, "\n".join(got)))
                elif expected and not matches(expected, got, kind == "sim"):
                    fails.append("$ %s\nexpected:\n%s\ngot:\n%s"
                                 % (cmd, "\n".join(expected), "\n".join(got)))
        left = leftovers(cwd)
        if left:
            fails.append("left behind: %s" % " ".join(left))
        return fails
    finally:
        shutil.rmtree(cwd, ignore_errors=True)


def check_links(src):
    """README.md links every doc in docs/."""
    readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
    linked = set(re.findall(r"\]\((docs/[^)#]+\.md)", readme))
    docs = set("docs/" + n for n in os.listdir(os.path.join(src, "docs")) if n.endswith(".md"))
    return ["README.md does not link %s" % d for d in sorted(docs - linked)]


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: examples.py PLATTER SOURCE_DIR [DOC...]")
    platter, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    docs = sys.argv[3:] or ["README.md"] + sorted(
        os.path.join("docs", n) for n in os.listdir(os.path.join(src, "docs")) if n.endswith(".md"))
    bindir = tempfile.mkdtemp(prefix="platter-bin.")
    os.symlink(platter, os.path.join(bindir, "platter"))
    env = dict(os.environ, PATH=bindir + ":" + os.environ.get("PATH", ""),
               PLATTER_LUA_DIR=src, LC_ALL="C")
    env.pop("PLATTER_PROGRESS_MS", None)
    failed = ran = 0
    try:
        for fails in [check_links(src)]:
            for f in fails:
                print("FAIL " + f)
                failed += 1
        for doc in docs:
            for kind, line, lines in blocks(os.path.join(src, doc)):
                where = "%s:%d (%s)" % (doc, line, kind)
                if kind not in ("sim", "real", "lua"):
                    fails = ["unknown example kind"]
                elif lines is None:
                    fails = ["the marker is not followed by a fenced block"]
                else:
                    try:
                        fails = check_block(kind, lines, src, env)
                    except ValueError as e:
                        fails = [str(e)]
                ran += 1
                if fails:
                    failed += 1
                    print("FAIL %s\n%s\n" % (where, "\n".join("  " + l for f in fails
                                                               for l in f.split("\n"))))
                else:
                    print("ok   %s" % where)
    finally:
        shutil.rmtree(bindir, ignore_errors=True)
    print("%d examples, %d failed" % (ran, failed))
    sys.exit(1 if failed or ran == 0 else 0)


if __name__ == "__main__":
    main()
