The readahead probe of seed 004 on a small scratch file: the window the
kernel brings in after one small read and during consecutive reads
(counted with mincore), a table of short consecutive reads timed with
readahead as set and with it off (POSIX_FADV_RANDOM for a file), and a
verdict. What the kernel does depends on the machine, so the numbers and
the verdict's wording are patterns; the layout is fixed.

  $ platter --quiet readahead -s 4m -c 32 > out; echo $?
  0
  $ grep -c '' out
  10
  $ sed -n 1,4p out
  readahead probe of platter-readahead\.[0-9]+\.dat \(.*\) (re)
  one 2 KiB read at offset 0 after dropping the cache brought in [0-9]+ KiB (re)
  during [0-9]+ consecutive 2 KiB reads it read ahead up to [0-9]+ KiB at a time and kept up to [0-9]+ (KiB|B) ahead of the reader (re)
  effective readahead window: [0-9]+ KiB (re)
  $ sed -n 5,10p out
  
  request  readahead as set +readahead off \(POSIX_FADV_RANDOM\) (re)
  2 KiB +[0-9.]+ (us|ms) +[0-9.]+ (KiB|MiB)/s +[0-9.]+ (us|ms) +[0-9.]+ (KiB|MiB)/s (re)
  8 KiB +[0-9.]+ (us|ms) +[0-9.]+ (KiB|MiB)/s +[0-9.]+ (us|ms) +[0-9.]+ (KiB|MiB)/s (re)
  
  (readahead is working: the kernel reads up to [0-9]+ KiB ahead; consecutive 2 KiB reads take .* each with it and .* without \([0-9.]+x\)|readahead is NOT working: .*|cannot tell: .*) (re)

The scratch file is gone; a named TARGET is only read. --sizes and --count
choose the requests.

  $ rm out; ls
  $ platter --trust -e 'assert(platter.open("t.dat", { create = true, write = true, size = "1m" })):close()'
  $ platter --quiet readahead --sizes 4k -c 8 t.dat | sed -n '7,8p'
  4 KiB +[0-9.]+ (us|ms) +[0-9.]+ (KiB|MiB)/s +[0-9.]+ (us|ms) +[0-9.]+ (KiB|MiB)/s (re)
  
  $ ls
  t.dat

Bad sizes are usage errors, and a target too small for the reads is an
error.

  $ platter readahead --sizes 2k,x t.dat
  platter: readahead: bad size 'x' in --sizes: bad size 'x': not a number
  Try 'platter readahead --help'.
  [2]
  $ platter readahead -c 1000 t.dat
  platter: readahead: t.dat is too small: 1000 reads of 8192 bytes from offset 0 need 8192000 bytes
  [1]
