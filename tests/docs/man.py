#!/usr/bin/env python3
"""The man pages tools/mkman.py wrote say what platter says.

Checks, each of which fails with what is missing:
  - every option `platter --help` lists is in platter(1)'s OPTIONS;
  - every workload `platter list` shows has its page platter-NAME(1), and
    every flag of its p.args spec (`platter complete NAME`) is in that page's
    OPTIONS;
  - platter-lua(3) has a section for every "## " heading of docs/api.md;
  - groff reads every page without a warning (when groff is installed).
Usage: man.py PLATTER MAN_DIR SOURCE_DIR
"""
import os
import re
import shutil
import subprocess
import sys

platter, mandir, src = sys.argv[1:4]
problems = []


def run(*args):
    return subprocess.run([platter, *args], check=True, capture_output=True, text=True,
                          env=dict(os.environ, PLATTER_LUA_DIR="")).stdout


def roff(name):
    return name.replace("\\", "\\e").replace("-", "\\-")


def options_of(page):
    """The text of a page's OPTIONS section (up to the next .SH)."""
    m = re.search(r"^\.SH OPTIONS\n(.*?)(?=^\.SH |\Z)", page, re.M | re.S)
    return m.group(1) if m else ""


def read(name):
    path = os.path.join(mandir, name)
    if not os.path.exists(path):
        problems.append(f"{name}: no such page in {mandir}")
        return ""
    return open(path, encoding="utf-8").read()


main = options_of(read("platter.1"))
names = re.findall(r"^  (-\S.*?)(?:\s{2,}|$)", run("--help"), re.M)
for left in names:
    for alt in left.split(", "):
        opt = alt.split()[0]
        if "\\fB" + roff(opt) + "\\fR" not in main:
            problems.append(f"platter.1: option {opt} of --help is not in OPTIONS")
if not names:
    problems.append("platter --help: no options found")

workloads = [l.split()[0] for l in run("list").splitlines()]
for w in workloads:
    page = read(f"platter-{w}.1")
    if not page:
        continue
    opts = options_of(page)
    for line in run("complete", w).splitlines():
        flag = line.split("\t")[0]
        if not re.search(r"(\\fB|, )" + re.escape(roff(flag)) + r"(\\fR|,)", opts):
            problems.append(f"platter-{w}.1: flag {flag} of its spec is not in OPTIONS")
    if f"\\fBplatter\\-{roff(w)}\\fR" not in read("platter.1") and \
            f"platter\\-{roff(w)}" not in read("platter.1"):
        problems.append(f"platter.1: does not name platter-{w}(1)")

lua = read("platter-lua.3")
api = open(os.path.join(src, "docs", "api.md"), encoding="utf-8").read()
for title in re.findall(r"^## (.*)$", api, re.M):
    plain = re.sub(r"`|\*\*", "", title).upper()
    heads = [re.sub(r"\\f[BIRP]", "", h).replace("\\-", "-").replace("\\(aq", "'")
             for h in re.findall(r'^\.SH "(.*)"$', lua, re.M)]
    if plain not in heads:
        problems.append(f"platter-lua.3: no section for docs/api.md's '## {title}'")

groff = shutil.which("groff")
if groff:
    for name in sorted(os.listdir(mandir)):
        r = subprocess.run([groff, "-man", "-ww", "-z", "-Tutf8", os.path.join(mandir, name)],
                           capture_output=True, text=True)
        for line in r.stderr.splitlines():
            problems.append(f"{name}: groff: {line}")
else:
    print("groff not installed: the pages were not typeset")

for p in problems:
    print(p)
print(f"man: {len(workloads) + 2} pages, {len(names)} options, {len(problems)} problems")
sys.exit(1 if problems else 0)
