iozone --as VERSION: the layouts of the releases other than 3.489, each
read from iozone.c of that release (docs/workloads.md, iozone). Under
--sim every number repeats. The cache warning on stderr is dropped.

3.263 (3.152 to 3.303): "KB", "Kbytes", eight-column cells, the shorter
contributor list.

  $ platter --sim ata-5400-1999 iozone --as 3.263 -s 1m -r 64k 2>/dev/null
  \tIozone: Performance Test of File I/O (esc)
  \t        Version $Revision: 3.263 $ (esc)
  \t\tCompiled for 64 bit mode. (esc)
  \t\tBuild: platter-0.1.0  (esc)
  
  \tContributors:William Norcott, Don Capps, Isom Crawford, Kirby Collins (esc)
  \t             Al Slater, Scott Rhine, Mike Wisner, Ken Goss (esc)
  \t             Steve Landherr, Brad Smith, Mark Kelly, Dr. Alain CYR, (esc)
  \t             Randy Dunlap, Mark Montague, Dan Million,  (esc)
  \t             Jean-Marc Zucconi, Jeff Blomberg, (esc)
  \t             Erik Habbinga, Kris Strecker, Walter Wong. (esc)
  
  \tRun began: Thu Jan  1 00:00:00 1970 (esc)
  
  \tFile size set to 1024 KB (esc)
  \tRecord Size 64 KB (esc)
  \tCommand line used: iozone -s 1m -r 64k (esc)
  \tOutput is in Kbytes/sec (esc)
  \tTime Resolution = 0.000001 seconds. (esc)
  \tProcessor cache size set to 1024 Kbytes. (esc)
  \tProcessor cache line size set to 32 bytes. (esc)
  \tFile stride size set to 17 * record size. (esc)
                                                              random  random    bkwd  record  stride                                   
                KB  reclen   write rewrite    read    reread    read   write    read rewrite    read   fwrite frewrite   fread  freread
              1024      64  116348  116348   116348   116348  116137  116137  116137  116137  116137   124106   124106  116348   116348
  
  iozone test complete.

3.420 (3.308 to 3.420): a blank before record rewrite and stride read; the
old blanks for the tests not selected; -R is the same in every release.

  $ platter --sim ata-5400-1999 iozone --as=3.420 -s 1m -r 64k -i 0 -i 5 -R 2>/dev/null | sed -n '/Command line/,$p'
  \tCommand line used: iozone -s 1m -r 64k -i 0 -i 5 -R (esc)
  \tOutput is in Kbytes/sec (esc)
  \tTime Resolution = 0.000001 seconds. (esc)
  \tProcessor cache size set to 1024 Kbytes. (esc)
  \tProcessor cache line size set to 32 bytes. (esc)
  \tFile stride size set to 17 * record size. (esc)
                                                              random  random    bkwd   record   stride                                   
                KB  reclen   write rewrite    read    reread    read   write    read  rewrite     read   fwrite frewrite   fread  freread
              1024      64  116348  116348                                                     116137                                  
  
  iozone test complete.
  Excel output is below:
  
  "Writer report"
          "64"
  "1024"   116348 
  
  "Re-writer report"
          "64"
  "1024"   116348 
  
  "Stride read report"
          "64"
  "1024"   116137 

3.506 (3.506 to 3.508): ten-column cells and header, with -E.

  $ platter --sim ata-5400-1999 iozone --as 3.506 -s 1m -r 64k -E -i 0 -i 9 -i 10 2>/dev/null | sed -n '/Command line/,$p'
  \tCommand line used: iozone -s 1m -r 64k -E -i 0 -i 9 -i 10 (esc)
  \tOutput is in kBytes/sec (esc)
  \tTime Resolution = 0.000001 seconds. (esc)
  \tProcessor cache size set to 1024 kBytes. (esc)
  \tProcessor cache line size set to 32 bytes. (esc)
  \tFile stride size set to 17 * record size. (esc)
                                                                      random    random      bkwd     record     stride                                                                                
                kB  reclen    write    rewrite      read    reread      read     write      read    rewrite       read    fwrite  frewrite     fread   freread    pwrite  repwrite     pread   repread
              1024      64    116348    116348                                                                                                        116348    116348    116348    116348
  
  iozone test complete.

3.429 (3.428 to 3.430): 3.489's columns, 3.420's blanks for the tests not
selected (a short row).

  $ platter --sim ata-5400-1999 iozone --as 3.429 -s 1m -r 64k -i 0 -i 5 2>/dev/null | sed -n '/reclen/,$p'
                kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread
              1024      64   116348   116348                                                      116137                                  
  
  iozone test complete.

--as 3.489 is the default, byte for byte (and the command line never shows --as).

  $ platter --sim ata-5400-1999 iozone -s 1m -r 64k -i 0 -i 1 -R > a 2>&1
  $ platter --sim ata-5400-1999 iozone --as 3.489 -s 1m -r 64k -i 0 -i 1 -R > b 2>&1
  $ cmp a b && rm a b

--help lists the releases.

  $ platter iozone --help | grep -A4 -e '^  --as '
    --as VERSION  print as this iozone: 3.489 (3.434 to 3.489), 3.506 (3.506 to 3.508, wider columns), 3.429 (3.428 to 3.430: 3.489's columns, the older blanks), 3.420 (3.308 to 3.420: KB, Kbytes, narrower columns), 3.263 (3.152 to 3.303: as 3.420 without the blanks before record rewrite and stride read) (default 3.489)
  
  Sizes follow iozone: a bare number is kB; -s 100M is 102400 kB. Without -i all
  tests run (0..7, and 9, 10 with -E). The file is unlinked and created again by
  the write test and removed after each row unless -w is given; a FILE that exists

Throughput mode: -t 2, two processes on iozone.tmp.DUMMY.0 and .1 (under
--sim one after another, so the parent sees half of what the children see).

  $ platter --sim ata-5400-1999 iozone -t 2 -s 256k -r 64k -i 0 -i 1 -i 2 2>/dev/null | sed -n '/Command line/,$p'
  \tCommand line used: iozone -t 2 -s 256k -r 64k -i 0 -i 1 -i 2 (esc)
  \tOutput is in kBytes/sec (esc)
  \tTime Resolution = 0.000001 seconds. (esc)
  \tProcessor cache size set to 1024 kBytes. (esc)
  \tProcessor cache line size set to 32 bytes. (esc)
  \tFile stride size set to 17 * record size. (esc)
  \tThroughput test with 2 processes (esc)
  \tEach process writes a 256 kByte file in 64 kByte records (esc)
  
  \tChildren see throughput for  2 initial writers \t=  232776.80 kB/sec (esc)
  \tParent sees throughput for  2 initial writers \t=  116150.76 kB/sec (esc)
  \tMin throughput per process \t\t\t=  116388.40 kB/sec  (esc)
  \tMax throughput per process \t\t\t=  116388.40 kB/sec (esc)
  \tAvg throughput per process \t\t\t=  116388.40 kB/sec (esc)
  \tMin xfer \t\t\t\t\t=     256.00 kB (esc)
  
  \tChildren see throughput for  2 rewriters \t=  232776.80 kB/sec (esc)
  \tParent sees throughput for  2 rewriters \t=  116150.76 kB/sec (esc)
  \tMin throughput per process \t\t\t=  116388.40 kB/sec  (esc)
  \tMax throughput per process \t\t\t=  116388.40 kB/sec (esc)
  \tAvg throughput per process \t\t\t=  116388.40 kB/sec (esc)
  \tMin xfer \t\t\t\t\t=     256.00 kB (esc)
  
  \tChildren see throughput for  2 readers \t\t=   22331.03 kB/sec (esc)
  \tParent sees throughput for  2 readers \t\t=   11052.78 kB/sec (esc)
  \tMin throughput per process \t\t\t=   10054.33 kB/sec  (esc)
  \tMax throughput per process \t\t\t=   12276.70 kB/sec (esc)
  \tAvg throughput per process \t\t\t=   11165.51 kB/sec (esc)
  \tMin xfer \t\t\t\t\t=     256.00 kB (esc)
  
  \tChildren see throughput for 2 re-readers \t=   23547.34 kB/sec (esc)
  \tParent sees throughput for 2 re-readers \t=   11520.26 kB/sec (esc)
  \tMin throughput per process \t\t\t=   10054.33 kB/sec  (esc)
  \tMax throughput per process \t\t\t=   13493.01 kB/sec (esc)
  \tAvg throughput per process \t\t\t=   11773.67 kB/sec (esc)
  \tMin xfer \t\t\t\t\t=     256.00 kB (esc)
  
  \tChildren see throughput for 2 random readers \t=   12200.62 kB/sec (esc)
  \tParent sees throughput for 2 random readers \t=    6097.53 kB/sec (esc)
  \tMin throughput per process \t\t\t=    5986.43 kB/sec  (esc)
  \tMax throughput per process \t\t\t=    6214.19 kB/sec (esc)
  \tAvg throughput per process \t\t\t=    6100.31 kB/sec (esc)
  \tMin xfer \t\t\t\t\t=     256.00 kB (esc)
  
  \tChildren see throughput for 2 random writers \t=  232354.23 kB/sec (esc)
  \tParent sees throughput for 2 random writers \t=  115940.35 kB/sec (esc)
  \tMin throughput per process \t\t\t=  116177.12 kB/sec  (esc)
  \tMax throughput per process \t\t\t=  116177.12 kB/sec (esc)
  \tAvg throughput per process \t\t\t=  116177.12 kB/sec (esc)
  \tMin xfer \t\t\t\t\t=     256.00 kB (esc)
  
  iozone test complete.
  $ ls

Named files with -F, the 3.420 units, -+n and -+u's CPU lines, -x.

  $ platter --sim ata-5400-1999 iozone --as 3.420 -t 3 -F one two three -s 128k -r 32k -i 0 -i 1 -+n -+u -x 2>/dev/null | sed -n '/Stonewall/,$p'
  \tStonewall disabled (esc)
  \tCommand line used: iozone -t 3 -F one two three -s 128k -r 32k -i 0 -i 1 -+n -+u -x (esc)
  \tOutput is in Kbytes/sec (esc)
  \tTime Resolution = 0.000001 seconds. (esc)
  \tProcessor cache size set to 1024 Kbytes. (esc)
  \tProcessor cache line size set to 32 bytes. (esc)
  \tFile stride size set to 17 * record size. (esc)
  \tThroughput test with 3 processes (esc)
  \tEach process writes a 128 Kbyte file in 32 Kbyte records (esc)
  
  \tChildren see throughput for  3 initial writers \t=  346799.51 KB/sec (esc)
  \tParent sees throughput for  3 initial writers \t=  115114.68 KB/sec (esc)
  \tMin throughput per process \t\t\t=  115599.84 KB/sec  (esc)
  \tMax throughput per process \t\t\t=  115599.84 KB/sec (esc)
  \tAvg throughput per process \t\t\t=  115599.84 KB/sec (esc)
  \tMin xfer \t\t\t\t\t=     128.00 KB (esc)
  \tCPU Utilization: Wall time    0.001    CPU time    0.003    CPU utilization 300.00 % (esc)
  
  
  \tChildren see throughput for  3 readers \t\t=   25467.37 KB/sec (esc)
  \tParent sees throughput for  3 readers \t\t=    8441.10 KB/sec (esc)
  \tMin throughput per process \t\t\t=    7633.36 KB/sec  (esc)
  \tMax throughput per process \t\t\t=    8919.88 KB/sec (esc)
  \tAvg throughput per process \t\t\t=    8489.12 KB/sec (esc)
  \tMin xfer \t\t\t\t\t=     128.00 KB (esc)
  \tCPU utilization: Wall time    0.017    CPU time    0.003    CPU utilization  19.83 % (esc)
  
  
  iozone test complete.
  $ ls

On the machine, -w keeps the children's files, and a later -i 1 reads them;
without -w they are gone at the end.

  $ platter iozone -t 2 -F x y -s 128k -r 64k -i 0 -w 2>/dev/null | grep -c 'Children see'
  2
  $ ls
  x
  y
  $ platter iozone -t 2 -F x y -s 128k -r 64k -i 1 2>/dev/null | grep -c 'Children see'
  2
  $ ls
  $ platter --sim ata-5400-1999 iozone -t 2 -s 128k -r 64k -i 1 > out 2>&1
  [130]
  $ tail -2 out && rm out
  iozone.tmp.DUMMY.0: No such file or directory
  iozone.tmp.DUMMY.1: No such file or directory

Ctrl-C in throughput mode (here during the rewriters): the tests done so
far, then iozone's signal handler lines, and platter's status 130.

  $ PLATTER_SIM_SIGINT=0.05 platter --sim ata-5400-1999 iozone -t 2 -s 1m -r 64k -i 0 -i 1 > out 2>&1
  [130]
  $ grep -c 'Children see' out; tail -5 out; rm out
  1
  iozone: interrupted
  
  exiting iozone
  
  platter: interrupted
  $ ls

-K: every 100th record of a read pass also reads a byte at 0 and at 4096
(it shows as a slower read under --sim).

  $ platter --sim ata-5400-1999 iozone -s 1m -r 4k -i 0 -i 1 -K 2>/dev/null | sed -n -e '/Disrupted/p' -e '/^ *1024/p'
  \tDisrupted read patterns selected. (esc)
              1024       4   104906   104906   104520   104520                                                                                  
  $ platter --sim ata-5400-1999 iozone -s 1m -r 4k -i 0 -i 1 2>/dev/null | sed -n -e '/^ *1024/p'
              1024       4   104906   104906   104906   104906                                                                                  

-p: iozone's purgeit() before every record, inside the timing (f:evict:
one byte of each -L line of a separate buffer mapped to the same cache sets
as the record's buffer, -S of it at most). Its splash line comes in
command-line order; under --sim the CPU work costs no virtual time, so the
row is the same.

  $ platter --sim ata-5400-1999 iozone -s 1m -r 4k -i 0 -i 1 -p -S 512 -L 64 2>/dev/null | sed -n -e '/Purge/p' -e '/cache size\|line size/p' -e '/^ *1024/p'
  \tPurge Mode On (esc)
  \tProcessor cache size set to 512 kBytes. (esc)
  \tProcessor cache line size set to 64 bytes. (esc)
              1024       4   104906   104906   104906   104906                                                                                  

Options iozone has and platter does not provide are errors that name them.

  $ platter iozone -T -t 2 -i 0
  platter: iozone: unsupported option -T (POSIX threads: platter's throughput children are processes, as iozone's default)
  Try 'platter iozone --help'.
  [2]

-b FILE writes the -R report's tables as iozone's libbif does: a BIFF 2
worksheet (BOF, 264-byte LABEL records, 15-byte NUMBER records, EOF), and
prints the -R report too, without -R's "Excel chart generation" line.

  $ platter --sim ata-5400-1999 iozone -s 64k -r 4k -i 0 -b out.xls > out.txt 2>/dev/null
  $ grep -c "Excel chart generation" out.txt
  0
  [1]
  $ grep -A3 '"Writer report"' out.txt
  "Writer report"
          "4"
  "64"   .* (re)
  
  $ python3 - out.xls <<'PY'
  > import struct, sys
  > s = open(sys.argv[1], "rb").read()
  > pos, title = 0, -1
  > while pos < len(s):
  >     op, ln = struct.unpack_from("<HH", s, pos)
  >     body = s[pos + 4:pos + 4 + ln]
  >     if op == 4:
  >         title = struct.unpack_from("<HH", body)[0]
  >         print("label", title, body[8:8 + body[7]].decode())
  >     elif op == 3:
  >         row, col = struct.unpack_from("<HH", body)
  >         v = struct.unpack_from("<d", body, 7)[0]
  >         print("number", row, col, "#" if row > title + 1 and col > 0 else v)  # measured
  >     else:
  >         print("record", hex(op), ln)
  >     pos += 4 + ln
  > PY
  record 0x9 4
  label 0 iozone -s 64k -r 4k -i 0 -b out.xls
  label 1  
  label 2 The top row is records sizes, the left column is file sizes
  label 3 Writer Report
  number 4 1 4.0
  number 5 0 64.0
  number 5 1 #
  label 6 Re-writer Report
  number 7 1 4.0
  number 8 0 64.0
  number 8 1 #
  record 0xa 0
  $ rm out.xls out.txt

The worksheet goes only to the file named after -b, like any text a script
writes (see sandbox_text.t).

-+u is provided with -t only: without -t, iozone's -+u adds CPU blocks to
the -R report, which platter does not print.

  $ platter iozone -+u -s 64k
  platter: iozone: unsupported option '-+u' (only -+n)
  Try 'platter iozone --help'.
  [2]
  $ platter iozone -t 2 -i 0 -+m clients
  platter: iozone: unsupported option '-+m' (only -+n and -+u)
  Try 'platter iozone --help'.
  [2]
  $ platter iozone -t 2
  platter: iozone: -t without -i runs every throughput test; platter provides -i 0, 1 and 2: name them
  Try 'platter iozone --help'.
  [2]
  $ platter iozone -t 2 -i 0 -i 3
  platter: iozone: -t runs -i 0, 1 and 2 in platter (not -i 3)
  Try 'platter iozone --help'.
  [2]
  $ platter iozone -t 2 -i 0 -R
  platter: iozone: -R with -t (the throughput report) is not provided
  Try 'platter iozone --help'.
  [2]
  $ platter iozone --as 3.999 -s 64k
  platter: iozone: bad value '3.999' for --as: expected one of 3.489, 3.506, 3.429, 3.420, 3.263
  Try 'platter iozone --help'.
  [2]
  $ platter iozone -s 64k stray
  platter: iozone: unexpected argument 'stray'
  Try 'platter iozone --help'.
  [2]

iozone's own checks of -F, with its messages and exit statuses.

  $ platter iozone -F a b -t 2 -i 0
  invalid options: must specify -t N before -F
  [12]
  $ platter iozone -t 3 -i 0 -F a b
  invalid options: not enough filenames for 3 streams
  [13]
  $ platter iozone -f z -t 2 -i 0 -F a b
  invalid options: -f and -F are mutually exclusive
  [11]
  $ platter iozone -t 2 -i 0 -F a b c
  platter: iozone: unexpected argument 'c'
  Try 'platter iozone --help'.
  [2]
  $ ls
