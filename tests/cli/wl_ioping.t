platter ioping on the test directory and on scratch files, with -i 0 so
it is quick. Counts, sizes and the layout are exact; times, rates and the
filesystem facts in parentheses are matched by pattern. "platter: warning:"
lines of the result checks (-C measures the page cache) are filtered out.

  $ w() { "$@" 2>&1 | perl -0pe 's/platter: warning: [^\n]*\n//g'; return ${PIPESTATUS[0]}; }
  $ T='[0-9.]+ (ns|us|ms|s|min)'
  $ platter --trust -e 'assert(platter.open("data.img", { create = true, write = true, size = "1m" })):close()'

  $ platter list | grep '^ioping '
  ioping     ioping 1.3: I/O latency "ping" of a directory, file or device, one line per request and a summary

A directory: a temporary 1 MiB file in it, the first request is warmup,
and the summary counts the other two.

  $ w platter ioping -c 3 -i 0 . > out; cat out
  4 KiB <<< \. \([^)]*\): request=1 time=[0-9.]+ (ns|us|ms|s) \(warmup\) (re)
  4 KiB <<< \. \([^)]*\): request=2 time=[0-9.]+ (ns|us|ms|s)( \(fast\)| \(slow\))? (re)
  4 KiB <<< \. \([^)]*\): request=3 time=[0-9.]+ (ns|us|ms|s)( \(fast\)| \(slow\))? (re)
  
  --- \. \([^)]*\) ioping statistics --- (re)
  2 requests completed in [0-9.]+ (ns|us|ms|s), 8 KiB read, [0-9.]+( k| M)? iops, [0-9.]+ (B|KiB|MiB|GiB)/s (re)
  generated 3 requests in [0-9.]+ (ns|us|ms|s), 12 KiB, [0-9.]+( k| M)? iops, [0-9.]+ (B|KiB|MiB|GiB)/s (re)
  min/avg/max/mdev = [0-9.]+ (ns|us|ms|s) / [0-9.]+ (ns|us|ms|s) / [0-9.]+ (ns|us|ms|s) / [0-9.]+ (ns|us|ms|s) (re)
  $ grep -cE "^min/avg/max/mdev = $T / $T / $T / $T\$" out
  1

The temporary file is gone; -k keeps ioping.tmp and uses it again.

  $ ls
  data.img
  out
  $ w platter ioping -c 2 -i 0 -q -k . | grep -c 'requests completed'
  1
  $ ls
  data.img
  ioping.tmp
  out
  $ w platter ioping -c 2 -i 0 -q -k . | grep -c 'requests completed'
  1
  $ rm ioping.tmp

A file: its own size is the working set. -s sets the request size.

  $ w platter ioping -c 2 -i 0 -s 8k data.img
  8 KiB <<< data.img \([^)]*\): request=1 time=[0-9.]+ (ns|us|ms|s) \(warmup\) (re)
  8 KiB <<< data.img \([^)]*\): request=2 time=[0-9.]+ (ns|us|ms|s) (re)
  
  --- data.img \([^)]*\) ioping statistics --- (re)
  1 requests completed in [0-9.]+ (ns|us|ms|s), 8 KiB read, [0-9.]+( k| M)? iops, [0-9.]+ (B|KiB|MiB|GiB)/s (re)
  generated 2 requests in [0-9.]+ (ns|us|ms|s), 16 KiB, [0-9.]+( k| M)? iops, [0-9.]+ (B|KiB|MiB|GiB)/s (re)
  min/avg/max/mdev = [0-9.]+ (ns|us|ms|s) / [0-9.]+ (ns|us|ms|s) / [0-9.]+ (ns|us|ms|s) / 0 ns (re)

-q prints the summary only; -B only the ten raw numbers (valid, time sum,
iops, speed, min, avg, max, mdev, requests, total time).

  $ w platter ioping -c 4 -i 0 -q -L -D .
  
  --- \. \([^)]*\) ioping statistics --- (re)
  3 requests completed in .*, 768 KiB read, .* (re)
  generated 4 requests in .*, 1 MiB, .* (re)
  min/avg/max/mdev = .* (re)
  $ w platter ioping -c 4 -i 0 -B -C data.img
  3 [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ 4 [0-9]+ (re)

-p N prints raw numbers for every N valid requests; with -q nothing else.

  $ w platter ioping -c 5 -i 0 -q -p 2 data.img
  2 [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ 3 [0-9]+ (re)
  2 [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ 2 [0-9]+ (re)

-i spaces the requests: three of them take at least two intervals.

  $ w platter ioping -c 3 -i 0.1 -q data.img | grep -E "^generated 3 requests in (2[0-9]{2}|[3-9][0-9]{2})\.[0-9] ms, 12 KiB, "
  generated 3 requests in .* (re)

-R: as many requests as fit in -w (3 s by default), no request lines.

  $ w platter ioping -R -w 0.2 . | grep -cE '^(--- |[0-9.]+( k| M)? requests completed|generated |min/avg)'
  4

Writes: -W in a directory writes the temporary file (each write is
followed by fdatasync); a file or device needs -WWW.

  $ w platter ioping -c 2 -i 0 -W .
  4 KiB >>> \. \([^)]*\): request=1 time=[0-9.]+ (ns|us|ms|s) \(warmup\) (re)
  4 KiB >>> \. \([^)]*\): request=2 time=[0-9.]+ (ns|us|ms|s) (re)
  
  --- \. \([^)]*\) ioping statistics --- (re)
  1 requests completed in .*, 4 KiB written, .* (re)
  generated 2 requests in .*, 8 KiB, .* (re)
  min/avg/max/mdev = .* (re)
  $ w platter ioping -c 2 -i 0 -W data.img
  ioping: think twice, then use -WWW to shred this target
  [2]
  $ w platter ioping -c 2 -i 0 -q -WWW data.img | grep -c '4 KiB written'
  1
  $ w platter ioping -c 3 -i 0 -G . | grep -E '^4 KiB (<<<|>>>)' | cut -c1-9
  4 KiB >>>
  4 KiB <<<
  4 KiB >>>
  $ w platter ioping -c 3 -i 0 -G -q . | grep -c ' requests completed in .*, 8 KiB, '
  1

On the simulated disk the interval passes on the virtual clock, and the
offsets come from --seed: two runs print the same bytes.

  $ sim() { platter --sim ata-5400-1999 ioping -c 5 . 2>&1 | perl -0pe 's/platter: warning: [^\n]*\n//g'; }
  $ sim > sim1; sim > sim2; cmp sim1 sim2 && grep -c '^generated 5 requests in 4.0[0-9] s, 20 KiB, ' sim1
  1
  $ rm sim1 sim2

Ctrl-C ends the pings and still prints the summary, as ioping does; then
platter reports the interruption (status 130).

  $ ready() { for i in $(seq 200); do grep -q 'request=2 ' pings 2>/dev/null && return; sleep 0.05; done; }
  $ platter ioping -i 0.1 data.img > pings 2> err & pid=$!; ready; kill -INT $pid; wait $pid
  [130]
  $ grep -c '^--- data.img (.*) ioping statistics ---$' pings
  1
  $ grep -v '^platter: warning:' err
  platter: interrupted
  platter: interrupted phase 'ioping' after * s: * ops, * MB (* IOPS, * MB/s), latency * (glob)
  $ rm pings err

Errors, with ioping's messages and exit statuses.

  $ w platter ioping nope.img
  ioping: stat "nope.img" failed: No such file or directory
  [2]
  $ w platter ioping -D -c 1 /dev/zero
  ioping: fcntl(O_DIRECT) failed, please retry without option -D: Invalid argument
  [2]
  $ mkfifo pipe
  $ w timeout 10 platter ioping -c 1 pipe
  ioping: unsupported destination: "pipe"
  [2]
  $ rm pipe
  $ w platter ioping -c 1 -q -s 0 data.img | grep generated
  generated 1 requests in *, 4 KiB, * (glob)
  $ w platter ioping -c 1 -q -L -s 0 data.img | grep generated
  generated 1 requests in *, 256 KiB, * (glob)
  $ w platter ioping --as 0.9 -c 1 -s 0 data.img
  ioping: request size must be greather than zero
  [1]
  $ w platter ioping -S 2m data.img
  ioping: target is too small for this
  [2]
  $ w platter ioping -s 2m data.img
  ioping: request size is too big for this target
  [2]
  $ platter ioping -s 4q data.img
  platter: ioping: invalid suffix: "q"
  Try 'platter ioping --help'.
  [2]
  $ platter ioping
  platter: ioping: missing TARGET
  Try 'platter ioping --help'.
  [2]
  $ ls
  data.img
  out

ioping 1.3's own option syntax (getopt_long_only): a single-dash long name,
with its value after it or after "=", and a unique abbreviation; an
ambiguous one is refused, naming the candidates. The options ioping has and
platter does not say so, rather than being unknown; -v prints the version
of --as (on stderr before 1.3, as those releases did).

  $ w platter ioping -count 2 -interval=0 -q . | grep -c 'requests completed'
  1
  $ w platter ioping -cou 2 -i 0 -quiet -ca data.img | grep -c 'requests completed'
  1
  $ platter ioping -ra -c 1 .
  platter: ioping: option '-ra' is ambiguous; possibilities: '-rapid' '-rate-limit'
  Try 'platter ioping --help'.
  [2]
  $ platter ioping -J -c 1 .
  platter: ioping: option '-J' is not supported by platter's ioping: JSON output
  Try 'platter ioping --help'.
  [2]
  $ platter ioping --speed-limit 1m -c 1 .
  platter: ioping: option '--speed-limit' is not supported by platter's ioping: a speed limit
  Try 'platter ioping --help'.
  [2]
  $ platter ioping --help | grep -c -e '--json\|--speed-limit'
  0
  [1]
  $ platter ioping -v; platter ioping --as 1.2 -version 2>/dev/null; platter ioping --as 1.2 -v 2>&1
  ioping 1.3
  ioping 1.2
  $ platter ioping -c 1
  platter: ioping: missing TARGET
  Try 'platter ioping --help'.
  [2]
