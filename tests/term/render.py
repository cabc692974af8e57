#!/usr/bin/env python3
"""Output as a terminal renders it.

Every shipped workload runs three times: under a pseudo-terminal (stdout and
stderr both on it, the progress line forced on and redrawn every few ms with
PLATTER_PROGRESS_MS), with stdout and stderr merged into one pipe (2>&1), and
with them apart. The pty bytes and the merged bytes go through a terminal
emulator (pyte) and the two screens must be equal line for line: the
progress line erased nothing and left nothing behind, and no warning split a
line. The merged text, less platter's own "platter: ..." lines, must be the
stdout and stderr of the separate run interleaved by whole lines. Deterministic
cases run on the simulated disk (--sim); a few real-disk ones compare with
every number replaced by N.

Usage: render.py PLATTER_BINARY SOURCE_DIR [CASE-SUBSTRING...]
Exit 77 (skip) when python3-pyte is missing.
"""
import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import tempfile
import termios

try:
    import pyte
except ImportError:  # a python3 of its own (pyenv, venv) does not see Debian's packages
    sys.path.append("/usr/lib/python3/dist-packages")
try:
    import pyte
except ImportError:
    print("skip: python3-pyte is not installed (apt-get install python3-pyte)")
    sys.exit(77)

COLS, ROWS = 200, 300
SIM = ["--sim", "ata-5400-1999"]
OLD = ["--sim", "hitachi-85mb-1988"]
QUICK = ["--settle", "0", "--pause", "0", "--cached-time", "0.3s", "--disk-time", "0.3s"]

# name, argv after "platter", flags: real (numbers vary), prog (progress must
# show at least once), noprog (progress must never show), setup (a Lua line run first),
# warns (the cache warning must come, mid-phase, while a row is being filled in),
# sigint=S (a Ctrl-C after S s of virtual time, PLATTER_SIM_SIGINT: the partial
# table, then platter's lines; exit status 130).
# hdparm, iozone and Bonnie keep a partial line on the screen during their
# phases ("Timing cached reads:", a row, "Writing with putc()..."), so no
# progress line may be drawn there at all.
CASES = [
    ("sweep", OLD + ["sweep", "-s", "4m", "-d", "0.5", "--max", "16k"], {"prog"}),
    ("bonnie", SIM + ["bonnie", "-s", "100", "-m", "sim"], set()),
    ("bonnie++", SIM + ["bonnie++", "-s", "300", "-r", "128", "-n", "1", "-m", "sim"], set()),
    ("iozone", SIM + ["iozone", "-s", "64m", "-r", "64k", "-i", "0", "-i", "1", "-i", "2"],
     {"warns"}),
    ("iozone-2r", SIM + ["iozone", "-s", "8m", "-r", "4k", "-r", "16k", "-i", "0", "-i", "1"],
     {"warns"}),
    ("iozone-I", SIM + ["iozone", "-I", "-s", "32m", "-r", "4k", "-i", "0", "-i", "1"], set()),
    ("dd", SIM + ["dd", "if=/dev/hda", "of=/dev/null", "bs=32k", "count=1000"],
     {"prog", "bytes"}),
    ("dd-progress", SIM + ["dd", "if=/dev/hda", "of=/dev/null", "bs=1M", "count=100",
                           "status=progress"], {"noprog"}),
    ("hdparm", SIM + ["hdparm", "-tT", "/dev/hda"], set()),
    ("ioping", SIM + ["ioping", "-c", "5", "-i", "0", "/dev/hda"], {"noprog"}),
    ("zones", SIM + ["zones", "/dev/hda"], {"prog"}),
    ("fio", SIM + ["fio", "--name=t", "--rw=randread", "--size=4m", "--runtime=1", "--time_based"],
     {"noprog"}),
    ("readahead", OLD + ["readahead"], set()),
    ("steady", SIM + ["steady", "--size", "16m", "--time", "0.2s", "--bs", "64k,4k", "--mixes",
                      "50/50,0/100", "--precondition", "8m"], {"prog"}),
    ("quiet", ["--quiet"] + SIM + ["dd", "if=/dev/hda", "of=/dev/null", "bs=32k",
                                   "count=1000"], {"noprog"}),
    ("real-hdparm", ["hdparm", "-tT"] + QUICK + ["disk.img"], {"real", "setup"}),
    ("real-iozone", ["iozone", "-I", "-s", "4m", "-r", "4k", "-i", "0", "-i", "1", "-f",
                     "iozone.tmp"], {"real"}),
    ("real-ioping", ["ioping", "-c", "3", "-i", "0", "."], {"real", "noprog"}),
    ("real-putc", ["putc.lua"], {"real", "prog", "chars", "setup"}),
    ("bonnie-cut", SIM + ["bonnie", "-s", "10"], {"sigint=0.58"}),
    ("bonnie++-cut", SIM + ["bonnie++", "-s", "10", "-n", "1", "-r", "0"], {"sigint=16"}),
    ("iozone-cut", SIM + ["iozone", "-I", "-s", "4m", "-r", "64k", "-r", "128k", "-i", "0",
                          "-i", "1", "-i", "2", "-R"], {"sigint=5.6"}),
]

SETUP = 'assert(platter.open("disk.img", { create = true, write = true, size = "16m" })):close()'
PUTC = """local p = require "platter"
local f = assert(p.open(p.scratch("putc.dat"), { create = true, write = true }))
local s = p.phase("Putc", function() assert(f:putc(20000000)) end)
print("ops", s.ops, "bytes", s.bytes)
"""


def env_for(src):
    env = dict(os.environ)
    env["PLATTER_LUA_DIR"] = src
    env["PLATTER_PROGRESS_MS"] = "3"
    env.pop("COLUMNS", None)
    env["TERM"] = "xterm"
    return env


def run_pty(argv, cwd, env):
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=slave,
                         stderr=slave, start_new_session=True)
    os.close(slave)
    chunks = []
    while True:
        r, _, _ = select.select([master], [], [], 60)
        if not r:
            p.kill()
            raise RuntimeError("no output for 60 s")
        try:
            b = os.read(master, 65536)
        except OSError:  # EIO: the last writer closed the terminal
            break
        if not b:
            break
        chunks.append(b)
    os.close(master)
    return p.wait(), b"".join(chunks)


def render(data, onlcr):
    """The screen's lines after data, right-stripped, trailing blank lines dropped."""
    screen = pyte.Screen(COLS, ROWS)
    stream = pyte.ByteStream(screen)
    if onlcr:  # what the pty's line discipline does on the way to a terminal
        data = data.replace(b"\n", b"\r\n")
    stream.feed(data)
    lines = [line.rstrip() for line in screen.display]
    while lines and not lines[-1]:
        lines.pop()
    if screen.cursor.y >= ROWS - 1:
        raise RuntimeError("output longer than the emulated screen")
    return lines


NUM = re.compile(r"[0-9][0-9.]*( ?(ns|us|ms|s|[kKMGT]i?B|k|M)\b)?")  # a real run's figure and unit


def norm(lines):
    return [re.sub(r" +", " ", NUM.sub("N", line)) for line in lines]


def interleaves(merged, a, b):
    """merged is a and b interleaved, keeping the order of each."""
    n, m = len(a), len(b)
    reach = {(0, 0)}
    for line in merged:
        nxt = set()
        for i, j in reach:
            if i < n and a[i] == line:
                nxt.add((i + 1, j))
            if j < m and b[j] == line:
                nxt.add((i, j + 1))
        if not nxt:
            return False
        reach = nxt
    return (n, m) in reach


def own(line):
    return line.startswith(b"platter: ")


def check(name, args, flags, binary, src):
    errors = []
    env = env_for(src)
    want_rc = 0
    for f in flags:
        if f.startswith("sigint="):
            env["PLATTER_SIM_SIGINT"] = f[len("sigint="):]
            want_rc = 130
    with tempfile.TemporaryDirectory(prefix="platter-term.") as d:
        if "setup" in flags:
            subprocess.run([binary, "--trust", "-e", SETUP], cwd=d, env=env, check=True)
            with open(os.path.join(d, "putc.lua"), "w") as f:
                f.write(PUTC)
        argv = [binary] + args
        rc_t, tty = run_pty(argv, d, env)
        merged = subprocess.run(argv, cwd=d, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        apart = subprocess.run(argv, cwd=d, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if {rc_t, merged.returncode, apart.returncode} != {want_rc}:
        errors.append("exit status %d (pty), %d (2>&1), %d (apart); 2>&1 ends:\n%s"
                      % (rc_t, merged.returncode, apart.returncode,
                         b"\n".join(merged.stdout.split(b"\n")[-4:]).decode(errors="replace")))
    drawn = b"\x1b[K" in tty
    if "prog" in flags and not drawn:
        errors.append("no progress line was drawn on the terminal")
    if "noprog" in flags and drawn:
        errors.append("a progress line was drawn where the workload shows its own output")
    reports = [r for r in re.split(rb"[\r\n]", tty) if r.endswith(b"\x1b[K") and b": " in r]
    want = {"bytes": (b" MB/s", b"IOPS"), "chars": (b" chars/s", b"IOPS")}
    for k, (has, hasnt) in want.items():
        if k in flags and not all(has in r and hasnt not in r for r in reports):
            errors.append("progress does not show the workload's own rate (%r): %r"
                          % (has, reports[:3]))
    if "warns" in flags and b"\nplatter: warning: " not in merged.stdout:
        errors.append("the cache warning did not come on a line of its own")
    if want_rc and b"\nplatter: interrupted\nplatter: interrupted phase " not in merged.stdout:
        errors.append("no partial phase after 'platter: interrupted'")
    if b"\x1b" in merged.stdout:
        errors.append("an escape sequence reached a pipe")
    screen, piped = render(tty, False), render(merged.stdout, True)
    if "real" in flags:
        screen, piped = norm(screen), norm(piped)
    if screen != piped:
        errors.append("the terminal shows something else than the piped output:\n"
                      + "\n".join("  tty  : %r\n  piped: %r" % (s, p)
                                  for s, p in zip(screen + [""] * len(piped),
                                                  piped + [""] * len(screen))
                                  if s != p))
    if "real" not in flags:
        lines = [ln for ln in merged.stdout.split(b"\n") if not own(ln)]
        out = apart.stdout.split(b"\n")
        err = [ln for ln in apart.stderr.split(b"\n") if not own(ln)]
        # the final "" of each split is the text after the last newline
        if not interleaves(lines[:-1], out[:-1], err[:-1]) or lines[-1] != out[-1] + err[-1]:
            errors.append("2>&1 less platter's own lines is not stdout and stderr by whole "
                          "lines:\n" + merged.stdout.decode(errors="replace"))
        for ln in merged.stdout.split(b"\n"):
            if b"platter: " in ln and not own(ln):
                errors.append("platter's text inside a line: %r" % ln)
    return errors


# platter fio against the real fio on a terminal: fio's status line ("Jobs: ...",
# rewritten with \r while the jobs run) and what it leaves on the screen. Real
# runs of a few seconds: numbers masked, and the screens compared down to the job's
# header line (below it the latency buckets vary from run to run).
FIO_CASES = [
    ("fio-eta-rate", ["--name=t", "--rw=randread", "--size=4m", "--ioengine=null",
                      "--rate_iops=1000", "--runtime=4", "--time_based"]),
    ("fio-eta-two", ["--name=a", "--rw=read", "--size=4m", "--ioengine=null", "--runtime=4",
                     "--time_based", "--numjobs=2", "--rate=2m"]),
]


def fio_top(lines):
    """the screen down to the first job's header, numbers masked, with the pid and date;
    the jobs' run states ("[R(N)]", "[R(N),_(N)]") too: which jobs were still running at
    the last tick is a matter of milliseconds (the two jobs of fio-eta-two end together
    give or take the time between their starts)"""
    out = []
    for line in norm(lines):
        line = re.sub(r"^(Jobs: .*?: )\[[A-Za-z_](\(N\))?(,[A-Za-z_](\(N\))?)*\]", r"\1[STATES]", line)
        out.append(re.sub(r"pid=N: .*$", "pid=N: DATE", line))
        if "(groupid=" in line:
            break
    return out


def check_fio(name, args, binary, src):
    import shutil
    fio = shutil.which("fio")
    if not fio:
        print("skip %s: fio is not installed" % name)
        return []
    errors = []
    env = env_for(src)
    screens = {}
    for who, argv in (("fio", [fio]), ("platter", [binary, "fio"])):
        with tempfile.TemporaryDirectory(prefix="platter-term.") as d:
            rc, tty = run_pty(argv + args, d, env)
            if rc != 0:
                errors.append("%s exited with %d" % (who, rc))
            screens[who] = fio_top(render(tty, False))
            if who == "platter":
                if b"Jobs: " not in tty:
                    errors.append("platter fio drew no status line on the terminal")
                piped = subprocess.run(argv + args, cwd=d, env=env, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                if b"Jobs: " in piped.stdout or b"\r" in piped.stdout:
                    errors.append("platter fio drew its status line into a pipe")
    if screens["fio"] != screens["platter"]:
        errors.append("platter fio's terminal differs from fio's:\n"
                      + "\n".join("  fio    : %r\n  platter: %r" % (a, b)
                                  for a, b in zip(screens["fio"] + [""] * 99,
                                                  screens["platter"] + [""] * 99)
                                  if a != b))
    return errors


# The time series in the progress line: with --interval, each report shows the last
# closed interval's MB/s and p99 after the rates. On the terminal the line (the
# screen as it was at the last report) must show them, with figures that are those
# of an interval of the phase's series in the --json record; then the line is erased.
SERIES_CASES = [
    ("series-zones", SIM + ["--interval", "100ms", "--json", "rec.json", "zones", "-n", "3", "/dev/hda"]),
    ("series-phase", SIM + ["--interval", "50ms", "--json", "rec.json", "-e",
                            "local f = assert(platter.open(arg[1]));"
                            "platter.phase('reads', function() for i = 0, 399 do"
                            " f:pread(((i * 7919) % 5000) * 4096, 4096) end end)", "/dev/hda"]),
]
LAST = re.compile(rb"; last (\d+) ms: ([0-9.]+) MB/s, p99 ([0-9.]+) (ns|us|ms|s)\x1b\[K$")


def lat_text(ns):
    """progress.c's latency() in Python"""
    if ns < 1000:
        return "%d ns" % ns
    if ns < 1e6:
        return "%.0f us" % (ns / 1e3)
    if ns < 1e7:
        return "%.2f ms" % (ns / 1e6)
    if ns < 1e8:
        return "%.1f ms" % (ns / 1e6)
    if ns < 1e9:
        return "%.0f ms" % (ns / 1e6)
    return "%.2f s" % (ns / 1e9)


def check_series(name, args, binary, src):
    import json
    errors = []
    env = env_for(src)
    with tempfile.TemporaryDirectory(prefix="platter-term.") as d:
        rc, tty = run_pty([binary] + args, d, env)
        with open(os.path.join(d, "rec.json")) as f:
            rec = json.load(f)
    if rc != 0:
        errors.append("exit status %d" % rc)
    shown = set()  # (interval ms, MB/s text, p99 text) of every interval in the record
    for ph in rec.get("phases", []):
        series = ph.get("series") or []
        for i, x in enumerate(series):
            start = series[i - 1]["t"] if i else 0
            length = x["t"] - start
            if length > 0 and x["ops"]:
                shown.add(("%.1f" % (x["bytes"] / length / 1e6), lat_text(x["lat_p99"])))
    ends = [m.end() for m in re.finditer(rb"; last \d+ ms: [^\r\n]*?\x1b\[K", tty)]
    if not ends:
        errors.append("no report showed the last interval: %r" % tty[:300])
        return errors
    for r in re.split(rb"[\r\n]", tty):
        m = LAST.search(r)
        if m and (m.group(2).decode(), (m.group(3) + b" " + m.group(4)).decode()) not in shown:
            errors.append("a report's interval is none of the record's intervals: %r" % r)
    # the screen at the last report: its bottom line is that report, as drawn
    screen = render(tty[:ends[-1]], False)
    if not LAST.search(screen[-1].encode() + b"\x1b[K"):
        errors.append("the terminal's line does not show the last interval: %r" % screen[-1])
    if any("; last " in line for line in render(tty, False)):
        errors.append("the progress line was left on the screen")
    return errors


def main():
    binary, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    only = sys.argv[3:]
    failed = 0
    for name, args in FIO_CASES:
        if only and not any(o in name for o in only):
            continue
        errors = check_fio(name, args, binary, src)
        print("%s %s" % ("FAIL" if errors else "ok  ", name))
        for e in errors:
            print("    " + e.replace("\n", "\n    "))
        failed += bool(errors)
    for name, args in SERIES_CASES:
        if only and not any(o in name for o in only):
            continue
        errors = check_series(name, args, binary, src)
        print("%s %s" % ("FAIL" if errors else "ok  ", name))
        for e in errors:
            print("    " + e.replace("\n", "\n    "))
        failed += bool(errors)
    for name, args, flags in CASES:
        if only and not any(o in name for o in only):
            continue
        errors = check(name, args, flags, binary, src)
        print("%s %s" % ("FAIL" if errors else "ok  ", name))
        for e in errors:
            print("    " + e.replace("\n", "\n    "))
        failed += bool(errors)
    print("%d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
