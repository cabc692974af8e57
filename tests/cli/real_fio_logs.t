platter fio's log files (write_bw_log, write_iops_log, write_lat_log)
against the real fio 3.33's for the same small jobs, when fio is
installed: the same file names (fio's PREFIX_KIND.N.log, PREFIX_KIND.log
with per_job_logs=0, the job's name as the prefix of a bare option), and
lines of the same shape: "time, value, ddir, bs[, offset], prio" with the
time, value and offset masked. A job with a line per I/O (log_avg_msec=0)
has as many lines as fio's; an averaged one (log_avg_msec) may differ by
a window at either end (fio's bw and iops windows follow its helper
thread's clock, platter's a fixed grid from the start).

  $ command -v fio >/dev/null || exit 80
  $ command -v python3 >/dev/null || exit 80
  $ cat > mask.py <<'PY'
  > import sys, collections
  > for path in sys.argv[1:]:
  >     shapes, n = collections.Counter(), 0
  >     for line in open(path):
  >         f = line.rstrip("\n").split(", ")
  >         assert all(x.isdigit() for x in f), line
  >         shapes[", ".join(["T", "V"] + f[2:4] + (["O"] if len(f) == 6 else []) + f[-1:])] += 1
  >         n += 1
  >     print(path.split("/")[-1], n, sorted(shapes))
  > PY
  $ both() { rm -rf real ours; mkdir real ours
  >   (cd real && fio "$@" --output=out >/dev/null) || echo "fio failed"
  >   (cd ours && platter fio "$@" >out) || echo "platter fio failed"
  >   (cd real && ls *.log) > real.ls; (cd ours && ls *.log) > ours.ls
  >   cmp real.ls ours.ls && echo "same files: $(cat ours.ls | tr '\n' ' ')"; }

A line per I/O: a write job's bw and iops logs with offsets (bare
write_bw_log: the job's name), an io_uring job's three latency logs (its
slat log filled at each submission):

  $ cat > per-io.fio <<'EOF'
  > [global]
  > filename=data
  > size=4m
  > bs=4k
  > io_size=32k
  > [named]
  > rw=randwrite
  > write_bw_log
  > write_iops_log=io
  > log_offset=1
  > [uring]
  > rw=read
  > ioengine=io_uring
  > iodepth=4
  > write_lat_log=u
  > EOF
  $ both ../per-io.fio
  same files: io_iops.1.log named_bw.1.log u_clat.2.log u_lat.2.log u_slat.2.log 
  $ python3 mask.py real/*.log > real.shape; python3 mask.py ours/*.log > ours.shape
  $ diff real.shape ours.shape && cat ours.shape
  io_iops.1.log 8 ['T, V, 1, 4096, O, 0']
  named_bw.1.log 8 ['T, V, 1, 4096, O, 0']
  u_clat.2.log 8 ['T, V, 0, 4096, 0']
  u_lat.2.log 8 ['T, V, 0, 4096, 0']
  u_slat.2.log 8 ['T, V, 0, 4096, 0']

The offsets are the I/Os' own, the iops value of a line is 1, and the
times are whole ms from the start:

  $ awk -F', ' '$5 % 4096 || $5 >= 4194304 || $2 != 1 || $1 > 1000 { print "bad: " $0 }' ours/io_iops.1.log

A psync job writes an empty slat log, as fio does; two jobs with
per_job_logs=0 share one file:

  $ both --name=s --filename=data --size=1m --io_size=16k --rw=read --numjobs=2 \
  >   --write_lat_log=p --per_job_logs=0
  same files: p_clat.log p_lat.log p_slat.log 
  $ python3 mask.py real/*.log > real.shape; python3 mask.py ours/*.log > ours.shape
  $ diff real.shape ours.shape && cat ours.shape
  p_clat.log 8 ['T, V, 0, 4096, 0']
  p_lat.log 8 ['T, V, 0, 4096, 0']
  p_slat.log 0 []

Averaged windows (log_avg_msec): a line per direction that moved data in
each window, bs and offset 0:

  $ both --name=avg --filename=data --size=4m --bs=4k --rw=randrw --runtime=1 --time_based \
  >   --write_bw_log=a --write_iops_log=a --write_lat_log=a --log_avg_msec=250 --log_offset=1
  same files: a_bw.1.log a_clat.1.log a_iops.1.log a_lat.1.log a_slat.1.log 
  $ python3 mask.py ours/*.log
  a_bw.1.log 8 ['T, V, 0, 0, O, 0', 'T, V, 1, 0, O, 0']
  a_clat.1.log 8 ['T, V, 0, 0, O, 0', 'T, V, 1, 0, O, 0']
  a_iops.1.log 8 ['T, V, 0, 0, O, 0', 'T, V, 1, 0, O, 0']
  a_lat.1.log 8 ['T, V, 0, 0, O, 0', 'T, V, 1, 0, O, 0']
  a_slat.1.log 0 []
  $ python3 - real/*.log <<'PY'
  > import sys
  > for p in sys.argv[1:]:
  >     rows = [l.split(", ") for l in open(p)]
  >     ours = [l.split(", ") for l in open(p.replace("real/", "ours/"))]
  >     same = sorted({(r[2], r[3], r[4]) for r in rows}) == sorted({(r[2], r[3], r[4]) for r in ours})
  >     print(p.split("/")[-1], "same shapes" if same else "shapes differ",
  >           "counts close" if abs(len(rows) - len(ours)) <= 4 else "counts %d %d" % (len(rows), len(ours)))
  > PY
  a_bw.1.log same shapes counts close
  a_clat.1.log same shapes counts close
  a_iops.1.log same shapes counts close
  a_lat.1.log same shapes counts close
  a_slat.1.log same shapes counts close
  $ awk -F', ' '{ print $1 }' ours/a_bw.1.log | uniq | tr '\n' ' '
  250 500 750 1000  (no-eol)

With log_avg_msec=0 (the default) fio's bw and iops logs are per I/O, not
windows of bw_avg_time: stat.c's add_bw_sample and add_iops_sample log
each completion (io_u.c's account_io_completion, once the ramp is over),
the bw value being bytes * 10^6 / clat in ns, the iops value 1, bs the
I/O's length, and the helper thread's windowed samples are then not
logged at all. A time-based mixed job with a ramp: each tool writes a line
per I/O it reports (its JSON's total_ios, per direction), none for the
ramp, and each bw value follows from the clat line of the same I/O (fio
reads the clock again for the bw line: its time may be 1 ms later, or
more on a busy machine: CI once saw 9 ms, so real fio's lines may differ
by up to 50 ms, platter's by 1 ms at most). The
report's bw and iops figures are then these same samples (fio's ts->bw_stat
and iops_stat get each logged value): samples= is the direction's number
of lines, min, max, mean and stdev are the lines' values:

  $ both --name=tb --filename=data --size=4m --bs=4k --rw=randrw --runtime=1 --time_based \
  >   --ramp_time=300ms --write_bw_log=t --write_iops_log=t --write_lat_log=t --log_offset=1 \
  >   --output-format=json
  same files: t_bw.1.log t_clat.1.log t_iops.1.log t_lat.1.log t_slat.1.log 
  $ python3 mask.py real/t_bw.1.log real/t_iops.1.log > real.shape
  $ python3 mask.py ours/t_bw.1.log ours/t_iops.1.log | sed 's/ [0-9]* \[/ N [/' > ours.shape
  $ sed 's/ [0-9]* \[/ N [/' real.shape | diff - ours.shape && cat ours.shape
  t_bw.1.log N ['T, V, 0, 4096, O, 0', 'T, V, 1, 4096, O, 0']
  t_iops.1.log N ['T, V, 0, 4096, O, 0', 'T, V, 1, 4096, O, 0']
  $ for d in real ours; do python3 - $d <<'PY'
  > import json, sys
  > d = sys.argv[1]
  > out = open(d + "/out").read()
  > job = json.loads(out[out.index("{"):])["jobs"][0]
  > rows = {k: [l.split(", ") for l in open("%s/t_%s.1.log" % (d, k))] for k in ("bw", "iops", "clat")}
  > for k in ("bw", "iops"):
  >     per = [sum(1 for r in rows[k] if r[2] == str(i)) for i in (0, 1)]
  >     ios = [job["read"]["total_ios"], job["write"]["total_ios"]]
  >     print(d, k, "a line per I/O" if per == ios and min(ios) > 0 else "lines %s, I/Os %s" % (per, ios))
  > print(d, "iops values", sorted({r[1] for r in rows["iops"]}))
  > bad = [(b, c) for b, c in zip(rows["bw"], rows["clat"])
  >        if not 0 <= int(b[0]) - int(c[0]) <= (1 if d == "ours" else 50) or b[2:] != c[2:] or int(b[1]) != (4096 * 10**6 // int(c[1]) if int(c[1]) else 0)]
  > print(d, "bw = bytes * 10^6 / clat" if not bad and len(rows["bw"]) == len(rows["clat"]) else bad[:3])
  > times = [int(r[0]) for r in rows["bw"]]
  > print(d, "times from the end of the ramp" if min(times) < 100 and max(times) <= 1100 else times[:3] + times[-3:])
  > for i, dd in enumerate(("read", "write")):
  >     v = [int(r[1]) for r in rows["bw"] if r[2] == str(i)]
  >     n, j = len(v), job[dd]
  >     m = sum(v) / n
  >     sd = (sum((x - m) ** 2 for x in v) / (n - 1)) ** 0.5
  >     bw = ((j["bw_samples"], j["bw_min"], j["bw_max"]) == (n, min(v), max(v))
  >           and abs(j["bw_mean"] - m) <= 1e-6 * m and abs(j["bw_dev"] - sd) <= 1e-6 * sd + 1e-6)
  >     iops = (j["iops_samples"], j["iops_min"], j["iops_max"], j["iops_mean"], j["iops_stddev"]) == (n, 1, 1, 1, 0)
  >     print(d, dd, "bw and iops samples: the log's lines" if bw and iops else
  >           (n, min(v), max(v), m, sd, [j[k] for k in j if k.startswith(("bw_", "iops_"))]))
  > PY
  > done
  real bw a line per I/O
  real iops a line per I/O
  real iops values ['1']
  real bw = bytes * 10^6 / clat
  real times from the end of the ramp
  real read bw and iops samples: the log's lines
  real write bw and iops samples: the log's lines
  ours bw a line per I/O
  ours iops a line per I/O
  ours iops values ['1']
  ours bw = bytes * 10^6 / clat
  ours times from the end of the ramp
  ours read bw and iops samples: the log's lines
  ours write bw and iops samples: the log's lines

gtod_reduce=1: fio takes no latencies and no per-I/O bw or iops samples, so
it makes no latency logs and leaves the per-I/O bw and iops logs empty (and
its report has no bw and iops lines):

  $ both --name=g --filename=data --size=1m --bs=4k --rw=read --gtod_reduce=1 \
  >   --write_bw_log=g --write_iops_log=g --write_lat_log=g
  same files: g_bw.1.log g_iops.1.log 
  $ wc -l < ours/g_bw.1.log; wc -l < ours/g_iops.1.log; grep "samples=" real/out ours/out | wc -l
  0
  0
  0
