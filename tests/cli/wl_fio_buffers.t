What platter fio writes: by default each write sends the job's buffer as it
was filled at the start, with random data as fio's (at depth 1 the same block
each time, so it compresses across blocks; fio's scramble_buffers, on by
default, also changes a few bytes of it per write, which platter takes but
does not do: docs/fio.md), zero_buffers makes it zeros (the file's layout
too), refill_buffers puts new random bytes in it before every write, and
buffer_compress_percentage=N (fio's fill) makes each buffer_compress_chunk
(512 bytes by default) random for its first (100 - N)% and zero after, with
new data every write. Checked on the file written: the share of zero bytes
and how well zlib compresses it.

  $ command -v python3 >/dev/null || exit 80
  $ cat > look.py <<'PY'
  > import sys, zlib
  > d = open(sys.argv[1], "rb").read()
  > z = d.count(0) / len(d)
  > c = len(zlib.compress(d, 6)) / len(d)
  > blocks = len({d[i:i + 4096] for i in range(0, len(d), 4096)})
  > print("zeros %.2f zlib %.2f distinct 4k blocks %d of %d" % (z, c, blocks, len(d) // 4096))
  > PY
  $ w() { platter fio --name=w --filename=data --size=256k --bs=4k --rw=write "$@" >/dev/null && python3 look.py data; }
  $ w
  zeros 0.00 zlib 0.02 distinct 4k blocks 1 of 64
  $ w --refill_buffers
  zeros 0.00 zlib 1.00 distinct 4k blocks 64 of 64
  $ w --buffer_compress_percentage=25
  zeros 0.25 zlib 0.76 distinct 4k blocks 64 of 64
  $ w --buffer_compress_percentage=60 --buffer_compress_chunk=4k
  zeros 0.60 zlib 0.41 distinct 4k blocks 64 of 64
  $ w --buffer_compress_percentage=100
  zeros 1.00 zlib 0.00 distinct 4k blocks 1 of 64
  $ w --scramble_buffers=1
  zeros 0.00 zlib 0.02 distinct 4k blocks 1 of 64
  $ w --zero_buffers
  zeros 1.00 zlib 0.00 distinct 4k blocks 1 of 64
  $ w --zero_buffers --refill_buffers
  zeros 1.00 zlib 0.00 distinct 4k blocks 1 of 64

A job that reads has its file laid out first: random data, or zeros with
zero_buffers, as fio lays it out:

  $ r() { rm -f data; platter fio --name=r --filename=data --size=256k --bs=4k --rw=randread "$@" >/dev/null && python3 look.py data; }
  $ r
  zeros 0.00 zlib 1.00 distinct 4k blocks 64 of 64
  $ r --zero_buffers
  zeros 1.00 zlib 0.00 distinct 4k blocks 1 of 64

p.run's own fields: refill, compress_pct, compress_chunk; a percentage over
100 is an error:

  $ platter -e 'local p = require "platter"
  > local f = assert(p.open("data", { write = true }))
  > p.run { file = f, op = "write", bs = 8192, count = 32, compress_pct = 50, compress_chunk = 1024 }' data 2>/dev/null
  $ python3 look.py data
  zeros 0.50 zlib 0.51 distinct 4k blocks 64 of 64
  $ platter -e 'local p = require "platter"; p.run { file = p.open("data"), op = "write", compress_pct = 101 }' data
  platter: (\(command line\):1: )?run: 'compress_pct' must be within 0\.\.100 (re)
  [1]
