#!/usr/bin/env python3
"""docs/development.md's layout is the truth about the source tree.

Checks, each of which fails with the file it is about:
  - every source file is listed (src, lua, workloads, bench, fuzz, cmake,
    tools, examples, .ci), and every listed file or directory exists;
  - every file of src/core has a layer, and its #include lines name core
    headers of its own layer or below, with no two modules including each
    other (directly or through others);
  - nothing outside the sim target (sim.c, sim.h, and the registry in
    target.c) names the simulated disk's code.
Usage: layout.py SOURCE_DIR
"""
import os
import re
import subprocess
import sys

top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
problems = []

text = open(os.path.join(top, "docs", "development.md"), encoding="utf-8").read()
m = re.search(r"## Layout\n.*?```\n(.*?)```", text, re.S)
if not m:
    sys.exit("docs/development.md: no ```-block under '## Layout'")

FILE = re.compile(r"^[\w+.-]+\.(c|h|lua|sh|syms|cmake|in|dict)$|^run$")
listed, layers, prefix = set(), {}, ""
for line in m.group(1).splitlines():
    if not line.strip():
        continue
    if not line.startswith(" "):
        path = line.split()[0]
        prefix = path if path.endswith("/") else ""
        listed.add(path.rstrip("/"))
        continue
    if len(line) - len(line.lstrip()) > 4:
        continue  # the description of the line above, continued
    words = line.split()
    layer = None
    if words[0].isdigit():
        layer = int(words.pop(0))
    if not prefix or not words:
        continue
    names = [words[0]] + [w for w in words[1:4] if FILE.match(w)]
    for name in names:
        path = prefix + name
        listed.add(path)
        if layer is not None:
            layers[path] = layer

for path in sorted(listed):
    if not os.path.exists(os.path.join(top, path)):
        problems.append(f"{path}: listed in docs/development.md but not in the tree")

try:
    tracked = subprocess.run(["git", "-C", top, "ls-files"], capture_output=True, text=True,
                             check=True).stdout.split()
except (OSError, subprocess.CalledProcessError):
    tracked = [os.path.relpath(os.path.join(d, f), top)
               for d, _, fs in os.walk(top) for f in fs if "/." not in d]
ROOTS = ("src/", "lua/", "workloads/", "bench/", "fuzz/", "cmake/", "tools/", "examples/", ".ci/")
for path in tracked:
    if not path.startswith(ROOTS) or path.startswith(("bench/results/", "fuzz/corpus/")):
        continue
    if path not in listed and os.path.dirname(path) not in listed:
        problems.append(f"{path}: not in docs/development.md's layout (add a line for it)")
    elif path not in listed and path.startswith(("src/", "lua/", "workloads/")):
        problems.append(f"{path}: not in docs/development.md's layout (add a line for it)")

core = sorted(p for p in tracked if p.startswith("src/core/") and p.endswith((".c", ".h")))
module = lambda p: os.path.splitext(os.path.basename(p))[0]
edges = {}
for path in core:
    if path not in layers:
        problems.append(f"{path}: has no layer in docs/development.md")
        continue
    src = open(os.path.join(top, path), encoding="utf-8").read()
    for n, line in enumerate(src.splitlines(), 1):
        inc = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not inc:
            continue
        dep = "src/core/" + inc.group(1)
        if dep not in layers:
            continue  # config.h and the like: not core modules
        if layers[dep] > layers[path]:
            problems.append(f"{path}:{n}: includes {inc.group(1)} of layer {layers[dep]} "
                            f"from layer {layers[path]}")
        if module(dep) != module(path):
            edges.setdefault(module(path), set()).add(module(dep))


def cycle_from(start):
    stack, seen = [(start, [start])], set()
    while stack:
        node, trail = stack.pop()
        for nxt in edges.get(node, ()):
            if nxt == start:
                return trail + [start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, trail + [nxt]))
    return None


for mod in sorted(edges):
    c = cycle_from(mod)
    if c and c[0] == min(c[:-1]):  # report each cycle once
        problems.append("src/core: include cycle " + " -> ".join(c))

SIM = re.compile(r'"sim\.h"|\bpl_sim_\w+|\bpl_target_sim\b|->sim\b')
allowed = {"src/core/sim.c", "src/core/sim.h", "src/core/target.c"}
for path in tracked:
    if path.startswith("src/") and path.endswith((".c", ".h")) and path not in allowed:
        for n, line in enumerate(open(os.path.join(top, path), encoding="utf-8"), 1):
            if SIM.search(line):
                problems.append(f"{path}:{n}: names the sim target's code: {line.strip()}")

for p in problems:
    print(p)
print(f"layout: {len(listed)} entries, {len(core)} core files, {len(problems)} problems")
sys.exit(1 if problems else 0)
