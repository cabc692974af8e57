steady runs the SNIA PTS IOPS test: after preconditioning, rounds of random
I/O over block sizes x R/W mixes until p.steady says the 4k 0/100 IOPS of the
last five rounds are steady, or round --rounds. Its parameters come from its
manifest.

  $ platter steady --help | head -3
  usage: platter steady [options] [TARGET]
  steady 1.0 (platter/1): SNIA PTS IOPS test: block sizes x R/W mixes in rounds until steady state
  
  $ platter steady --help | grep -c -- '^  -'
  10

Bad parameters are usage errors naming them, before any I/O: the tracking
variable must be in the matrix, a mix must add up to 100, a block size be a
multiple of 512, no cell be given twice, and the simulated disk takes one
request at a time.

  $ platter steady --bs 8k,16k
  platter: steady: the tracking variable is 4 KiB 0/100 (all writes): --bs needs 4k and --mixes 0/100
  Try 'platter steady --help'.
  [2]
  $ platter steady --mixes 0/100,70/20
  platter: steady: --mixes: '70/20': READ/WRITE percentages adding up to 100
  Try 'platter steady --help'.
  [2]
  $ platter steady --bs 4k,1000
  platter: steady: --bs: '1000': a size of at least 512, a multiple of 512
  Try 'platter steady --help'.
  [2]
  $ platter steady --mixes 0/100,50/50,050/050
  platter: steady: --mixes: '050/050': given twice
  Try 'platter steady --help'.
  [2]
  $ platter steady --rounds 3
  platter: steady: --rounds 3: must be at least 5
  Try 'platter steady --help'.
  [2]
  $ platter --sim nvme steady --qd 0
  platter: steady: --qd 0: must be at least 1
  Try 'platter steady --help'.
  [2]
  $ ls

On a real scratch file (figures vary): the header, the preconditioning, one
row per round (the window's figures from round 5), the verdict and the
window's table; --report writes the same as JSON, and the scratch file is
gone afterwards.

  $ platter --quiet steady --size 2m --time 0.01s --bs 4k,64k --mixes 100/0,0/100 --qd 1 --precondition 1m --rounds 5 --report r.json
  steady: SNIA PTS IOPS test on platter-steady.[0-9]+.dat \(2 MiB from offset 0\) (re)
  2 block sizes x 2 R/W mixes of random I/O, 0.01 s a cell, queue depth 1, 1 thread, at most 5 rounds
  precondition: 1 MiB of sequential 128 KiB writes in [0-9.]+ s, [0-9.]+ MB/s (re)
  
  round      4k 0/100   window     average   data exc  slope exc  steady
      1 +[0-9]+\.[0-9] (re)
      2 +[0-9]+\.[0-9] (re)
      3 +[0-9]+\.[0-9] (re)
      4 +[0-9]+\.[0-9] (re)
      5 +[0-9]+\.[0-9]      1-5 +[0-9]+\.[0-9] +[0-9.]+%  +[0-9.]+%  (yes|no) (re)
  
  steady state (reached at round 5 \(window rounds 1-5\)|not reached in 5 rounds \(last rounds 1-5\)): (re)
    4k 0/100 average [0-9.]+ IOPS, data excursion [0-9.]+ = [0-9.]+% \(limit 20%\), slope excursion [0-9.]+ = [0-9.]+% \(limit 10%\) (re)
  
  (steady-state window, rounds 1-5|the last rounds, 1-5 \(not steady\)): average IOPS (re)
  bs          100/0      0/100
  4k  +[0-9.]+ +[0-9.]+ (re)
  64k +[0-9.]+ +[0-9.]+ (re)
  $ ls
  r.json
  $ grep -o '"tracking":"4k 0\\/100"' r.json
  "tracking":"4k 0\/100"
