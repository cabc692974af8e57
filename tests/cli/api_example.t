The worked example of docs/api.md, examples/butterfly.lua: 512-byte
O_DIRECT reads alternating between the two ends of a file, moving inwards.
Without a FILE it makes (and afterwards removes) a scratch file of -s bytes:
256 KiB is 512 blocks, so 512 reads.

  $ BF="$TESTDIR/../../examples/butterfly.lua"
  $ platter "$BF" -s 256k
  butterfly: 512 ops in [0-9.]+ s, [0-9]+ IOPS, [0-9.]+ MB/s, CPU [0-9]+% (re)
  latency: p50 [0-9.]+ us, p99 [0-9.]+ us (re)
  $ ls

With a FILE it reads that one and leaves it alone. 100000 bytes hold 195
whole blocks: 97 pairs from the two ends, the middle block left out.

  $ platter --trust -e 'assert(platter.open("given.dat", { create = true, write = true, size = 100000 })):close()'
  $ platter "$BF" given.dat
  butterfly: 194 ops in [0-9.]+ s, [0-9]+ IOPS, [0-9.]+ MB/s, CPU [0-9]+% (re)
  latency: p50 [0-9.]+ us, p99 [0-9.]+ us (re)
  $ ls
  given.dat

It takes its options through p.args, so it has a --help and bad input is a
usage error.

  $ platter "$BF" --help
  usage: platter butterfly [-s SIZE] [FILE]
  
  options:
    -s SIZE  scratch file size (default 4m)
  $ platter "$BF" -s lots
  platter: butterfly: bad value 'lots' for -s: bad size 'lots': not a number
  Try 'platter butterfly --help'.
  [2]
  $ platter "$BF" missing.dat
  platter: .*butterfly.lua:[0-9]+: open missing.dat: No such file or directory (re)
  [1]

The example stays under 20 lines of code, comments and blank lines aside.

  $ grep -v '^ *--' "$BF" | grep -cv '^ *$' | awk '{ print ($1 < 20) ? "short" : "too long: " $1 }'
  short

The copy in docs/api.md is the same code (comments aside).

  $ code() { grep -v '^ *--' | grep -v '^ *$'; }
  $ sed -n '/^## Worked example/,/^```$/p' "$TESTDIR/../../docs/api.md" | sed -n '/^```lua$/,/^```$/p' | sed '1d;$d' | code > doc.lua
  $ wc -l < doc.lua
  18
  $ code < "$BF" | diff - doc.lua && echo same
  same
  $ rm doc.lua
