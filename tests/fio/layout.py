#!/usr/bin/env python3
"""Run each job file of a corpus under the real fio and under `platter fio`
and compare what they print, with the numbers masked: the normal report's
layout line by line, the terse lines field by field (text fields exact,
numbers masked) and the set of JSON key paths with the type of each value.

usage: layout.py PLATTER FIO JOBDIR [NAME ...]
       layout.py PLATTER FIO --examples DIR   (fio's own examples, made small)
Exit status 0 when every job matches, 1 otherwise, 77 (skipped) without fio.
Each tool runs in a fresh directory of its own (so both lay out their files),
with --output-format=json,terse,normal, whose parts fio prints in the order
terse, json, normal after the start-up lines.
"""
import atexit
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

ENV = dict(os.environ, FIO_TEST_BS="8k", LC_ALL="C")

UNIT = re.compile(r"\((nsec|usec|msec|sec|\s*[KMGT]i?B/s)\)")
# a number with fio's scaling suffixes or a size/rate unit glued to it
NUM = re.compile(r"[ \t]*-?\d+(\.\d+)?(e[+-]?\d+)?((KiB|MiB|GiB|TiB|PiB|kB|MB|GB|TB|PB|B)(?![a-zA-Z])|[kMGTP](?![a-zA-Z]))?")
LATDIST = re.compile(r"^\s+lat \((nsec|usec|msec|sec)\)\s*:")
PCT = re.compile(r"(\d+\.\d+)th=\[\s*\d+\]")
HEAD = re.compile(r"^(\S+): \(groupid=(\d+), jobs=(\d+)\): err=\s*(\d+): pid=\d+: .*$")


def run(cmd, cwd):
    """(status, stdout, stderr); a run past 120 s is killed with all its processes"""
    p = subprocess.Popen(cmd, cwd=cwd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return -1, out.decode("utf-8", "replace"), "timed out after 120 s: " + " ".join(cmd)
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def split(out):
    """(start-up and normal lines, terse lines, json text)"""
    lines = out.split("\n")
    normal, terse, js, depth = [], [], [], 0
    for ln in lines:
        if depth == 0 and re.match(r"^\d;fio-", ln):
            terse.append(ln)
        elif depth > 0 or ln == "{":
            js.append(ln)
            depth += ln.count("{") - ln.count("}") + ln.count("[") - ln.count("]")
        else:
            normal.append(ln)
    return normal, terse, "\n".join(js)


SAMPLES = re.compile(r"^\s+(bw \(|iops\s+:)")


def mask_normal(lines, timed=True):
    """timed: the job runs for a fixed time, so both tools take the same bandwidth
    samples; otherwise whether a 500 ms sample falls inside the run depends on the
    disk's speed that moment, and the sample lines are left out of the comparison"""
    out = []
    for ln in lines:
        if not timed and SAMPLES.match(ln):
            continue
        m = HEAD.match(ln)
        if m:
            out.append("%s: (groupid=%s, jobs=%s): err=%s: pid=#: DATE" % m.groups())
            continue
        if LATDIST.match(ln):
            if not out or out[-1] != "  lat (T) : buckets":
                out.append("  lat (T) : buckets")
            continue
        if ln.startswith("     |"):
            labels = ",".join(PCT.findall(ln))
            if out and out[-1].startswith("     | pct:"):
                out[-1] += "," + labels
            else:
                out.append("     | pct:" + labels)
            continue
        ln = UNIT.sub("(T)", ln)
        out.append(NUM.sub("#", ln))
    return out


def mask_terse(lines):
    out = []
    for ln in lines:
        fields = ln.split(";")
        out.append(";".join(f if not re.search(r"\d", f) or f.startswith("fio-")
                            else re.sub(r"\d+(\.\d+)?", "#", f) for f in fields))
    return out


def keypaths(v, path="", acc=None):
    acc = {} if acc is None else acc
    if isinstance(v, dict):
        acc[path] = "object"
        for k, x in v.items():
            # the percentile and bin keys are numbers whose set depends on the data
            kk = "#" if re.match(r"^[\d.]+$", k) or re.match(r"^>=\d+$", k) else k
            keypaths(x, path + "/" + kk, acc)
    elif isinstance(v, list):
        acc[path] = "list"
        for x in v:
            keypaths(x, path + "[]", acc)
    else:
        acc[path] = "number" if isinstance(v, (int, float)) and not isinstance(v, bool) else type(v).__name__
    return acc


def compare(name, a, b, what):
    """a: fio's, b: platter's (lists of lines)"""
    if a == b:
        return []
    import difflib
    return ["%s: %s differs (fio --- / platter +++):" % (name, what)] + [
        "  " + d for d in difflib.unified_diff(a, b, "fio", "platter", lineterm="", n=1)]


# fio's examples, as Debian's fio-examples installs them, made small and quick:
# sizes, runtimes and job counts cut down, devices left out (a job file that
# names /dev is skipped), ramps and start delays dropped.
SHRINK = [
    (re.compile(r"^(size|filesize|io_size)\s*=.*$", re.M), r"\1=8m"),
    (re.compile(r"^(ramp_time|startdelay)\s*=.*$", re.M), r"\1=0"),
    (re.compile(r"^(numjobs)\s*=\s*(\d+).*$", re.M), lambda m: "numjobs=%d" % min(int(m.group(2)), 2)),
    (re.compile(r"^(loops)\s*=.*$", re.M), r"\1=1"),
    (re.compile(r"^(directory)\s*=.*$", re.M), r"\1=."),
    (re.compile(r"^(nrfiles)\s*=\s*(\d+).*$", re.M), lambda m: "nrfiles=%d" % min(int(m.group(2)), 2)),
]


def examples(platter, fio, src):
    """Copies of fio's examples that platter takes, made small, in a new directory."""
    d = tempfile.mkdtemp(prefix="fio-examples-")
    kept = []
    for f in sorted(os.listdir(src)):
        if not f.endswith(".fio"):
            continue
        text = open(os.path.join(src, f), encoding="utf-8", errors="replace").read()
        if "/dev/" in text:
            continue
        for pat, rep in SHRINK:
            text = pat.sub(rep, text)
        # every example runs 1.1 s (a cap for slow rates such as rate=1250, and a run long
        # enough that both tools take their 500 ms bandwidth samples, however fast the disk)
        text = re.sub(r"^\s*(time_based|runtime|timeout)\s*(=.*)?$", "", text, flags=re.M)
        text = text.replace("[global]", "[global]\nruntime=1100ms\ntime_based", 1) if "[global]" in text \
            else "[global]\nruntime=1100ms\ntime_based\n" + text
        if not re.search(r"^\s*(size|filesize)\s*=", text, re.M):
            text = text.replace("[global]", "[global]\nsize=8m", 1) if "[global]" in text \
                else "[global]\nsize=8m\n" + text
        with open(os.path.join(d, f), "w") as out:
            out.write(text)
        if run([platter, "--env", "FIO_TEST_BS", "fio", "--parse-only", f], d)[0] == 0:
            kept.append(f)
        else:
            os.unlink(os.path.join(d, f))
    return d, kept


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    platter, fio, jobdir = sys.argv[1:4]
    only = set(sys.argv[4:])
    if os.environ.get("PLATTER_SKIP_REAL_FIO"):  # the Debian package build (debian/rules)
        print("SKIP: PLATTER_SKIP_REAL_FIO is set")
        sys.exit(77)
    if jobdir == "--examples":
        if not shutil.which(fio) or len(sys.argv) < 5 or not os.path.isdir(sys.argv[4]):
            print("SKIP: fio or its examples (Debian's fio-examples) are not installed")
            sys.exit(77)
        jobdir, _ = examples(platter, fio, sys.argv[4])
        atexit.register(shutil.rmtree, jobdir, True)  # the small copies are this run's own
        only = set()
    if not shutil.which(fio):
        print("SKIP: %s is not installed" % fio)
        sys.exit(77)
    jobs = sorted(f for f in os.listdir(jobdir) if f.endswith(".fio"))
    failures, checked = [], 0
    for job in jobs:
        name = job[:-4]
        if only and name not in only and job not in only:
            continue
        results = {}
        # the job files read $FIO_TEST_BS: a sandboxed run may read only what --env names
        for tool, cmd in (("platter", [platter, "--env", "FIO_TEST_BS", "fio"]), ("fio", [fio])):
            d = tempfile.mkdtemp(prefix="fio-layout-")
            try:
                for f in os.listdir(jobdir):
                    if f == job or (f[:3] == job[:3] and f[:2].isdigit()) or f.endswith(".inc"):
                        shutil.copy(os.path.join(jobdir, f), d)
                rc, out, err = run(cmd + ["--output-format=json,terse,normal", job], d)
                results[tool] = (rc, out, err)
                if tool == "platter" and rc == 1 and "not supported by platter fio yet" in err:
                    results["fio"] = (None, "", "")  # platter refuses it: fio need not run
                    break
            finally:
                shutil.rmtree(d, ignore_errors=True)
        (frc, fout, ferr), (prc, pout, perr) = results["fio"], results["platter"]
        msgs = []
        if prc == 1 and "not supported by platter fio yet" in perr:
            print("skip %s (%s)" % (name, perr.strip().split("\n")[-1]))
            continue
        checked += 1
        if frc != prc:
            msgs.append("%s: exit status fio %d, platter %d; platter's stderr: %s" % (name, frc, prc, perr.strip()[:600]))
        else:
            fn, ft, fj = split(fout)
            pn, pt, pj = split(pout)
            timed = "time_based" in open(os.path.join(jobdir, job)).read()
            msgs += compare(name, mask_normal(fn, timed), mask_normal(pn, timed), "the normal report")
            msgs += compare(name, mask_terse(ft), mask_terse(pt), "the terse lines")
            try:
                fk, pk = keypaths(json.loads(fj)), keypaths(json.loads(pj))
                fl = ["%s %s" % kv for kv in sorted(fk.items())]
                pl = ["%s %s" % kv for kv in sorted(pk.items())]
                msgs += compare(name, fl, pl, "the JSON key paths")
            except ValueError as e:
                msgs.append("%s: JSON does not parse: %s" % (name, e))
        print("%s %s" % ("ok  " if not msgs else "FAIL", name))
        failures += msgs
    for m in failures:
        print(m)
    bad = len({m.split(":")[0] for m in failures})
    print("%d job files compared, %d with differences" % (checked, bad))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
