A tiny real iozone run: a 64 kB file in 16 kB records, every test. The
splash, the two header rows, the row layout and the end are iozone 3.489's
byte for byte; only the date, platter's version on the Build: line and the
rates vary (the sed below masks the first two, the row is a pattern). The
cache warning platter prints on stderr is dropped here. The file,
iozone.tmp, is gone afterwards.

  $ platter iozone -s 64k -r 16k 2>/dev/null | sed -e 's/Run began: .*/Run began: DATE/' -e 's/platter-[0-9.]*/platter-V/'
  \tIozone: Performance Test of File I/O (esc)
  \t        Version $Revision: 3.489 $ (esc)
  \t\tCompiled for 64 bit mode. (esc)
  \t\tBuild: platter-V  (esc)
  
  \tContributors:William Norcott, Don Capps, Isom Crawford, Kirby Collins (esc)
  \t             Al Slater, Scott Rhine, Mike Wisner, Ken Goss (esc)
  \t             Steve Landherr, Brad Smith, Mark Kelly, Dr. Alain CYR, (esc)
  \t             Randy Dunlap, Mark Montague, Dan Million, Gavin Brebner, (esc)
  \t             Jean-Marc Zucconi, Jeff Blomberg, Benny Halevy, Dave Boone, (esc)
  \t             Erik Habbinga, Kris Strecker, Walter Wong, Joshua Root, (esc)
  \t             Fabrice Bacchella, Zhenghua Xue, Qin Li, Darren Sawyer, (esc)
  \t             Vangel Bojaxhi, Ben England, Vikentsi Lapa, (esc)
  \t             Alexey Skidanov, Sudhir Kumar. (esc)
  
  \tRun began: DATE (esc)
  
  \tFile size set to 64 kB (esc)
  \tRecord Size 16 kB (esc)
  \tCommand line used: iozone -s 64k -r 16k (esc)
  \tOutput is in kBytes/sec (esc)
  \tTime Resolution = 0.000001 seconds. (esc)
  \tProcessor cache size set to 1024 kBytes. (esc)
  \tProcessor cache line size set to 32 bytes. (esc)
  \tFile stride size set to 17 * record size. (esc)
   {62}random    random     bkwd    record    stride {36} (re)
                kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread
   {14}64 {6}16([ 0-9]{8}[0-9]){7}( [ 0-9]{8}[0-9]){2}([ 0-9]{8}[0-9]){4} (re)
  
  iozone test complete.
  $ ls

Tests that are not selected leave blanks of their width (fread's one column
short, as in iozone); -+n prints 0 for the re-tests; -R adds the
Excel-style report; -w keeps the file.

  $ platter iozone -s 64k -r 32k -i 0 -i 2 -+n -R -w 2>/dev/null | sed -n '/Record Size/,$p'
  \tRecord Size 32 kB (esc)
  \tNo retest option selected (esc)
  \tExcel chart generation enabled (esc)
  \tSetting no_unlink (esc)
  \tCommand line used: iozone -s 64k -r 32k -i 0 -i 2 -+n -R -w (esc)
  \tOutput is in kBytes/sec (esc)
  \tTime Resolution = 0.000001 seconds. (esc)
  \tProcessor cache size set to 1024 kBytes. (esc)
  \tProcessor cache line size set to 32 bytes. (esc)
  \tFile stride size set to 17 * record size. (esc)
   {62}random    random     bkwd    record    stride {36} (re)
                kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread
   {14}64 {6}32[ 0-9]{8}[0-9] {8}0 {18}([ 0-9]{8}[0-9]){2} {64} (re)
  
  iozone test complete.
  Excel output is below:
  
  "Writer report"
          "32"
  "64"   [0-9]+\x20 (re)
  
  "Re-writer report"
          "32"
  "64"   0\x20 (re)
  
  "Random read report"
          "32"
  "64"   [0-9]+\x20 (re)
  
  "Random write report"
          "32"
  "64"   [0-9]+\x20 (re)
  $ ls
  iozone.tmp
  $ rm iozone.tmp

-e and -c put the fsync and the close inside the timing; -I opens with
O_DIRECT and -o with O_SYNC; -f names the file. Each option adds its splash
line in command-line order.

  $ platter iozone -e -c -I -o -s 64k -r 16k -i 0 -i 1 -f data.tmp 2>/dev/null | sed -n '/Run began/,/Command/p'
  \tRun began: * (glob)
  
  \tInclude fsync in write timing (esc)
  \tInclude close in write timing (esc)
  \tO_DIRECT feature enabled (esc)
  \tSYNC Mode.  (esc)
  \tFile size set to 64 kB (esc)
  \tRecord Size 16 kB (esc)
  \tCommand line used: iozone -e -c -I -o -s 64k -r 16k -i 0 -i 1 -f data.tmp (esc)
  $ ls

Auto mode walks the file sizes (-n to -g) and, for each, the record sizes
up to the file size (-q caps them), doubling.

  $ platter iozone -a -n 64k -g 128k -q 32k -i 0 2>/dev/null | sed -n '/reclen/,$p' | cut -c1-24
                kB  reclen
                64       4
                64       8
                64      16
                64      32
               128       4
               128       8
               128      16
               128      32
  
  iozone test complete.

pwrite and pread (-i 9, -i 10) run only with -E, as in iozone, which also
widens the header; without -E platter says so on stderr.

  $ platter iozone -s 64k -r 64k -i 0 -i 9 2>&1 >/dev/null | grep -v warning
  iozone: -i 9 runs only with -E, as in iozone
  $ platter iozone -E -s 64k -r 64k -i 0 -i 9 -i 10 2>/dev/null | sed -n '/reclen/,/^$/p'
                kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread  pwrite repwrite   pread   repread
   {14}64 {6}64([ 0-9]{8}[0-9]){2} {100}([ 0-9]{8}[0-9]){2}[ 0-9]{7}[0-9][ 0-9]{8}[0-9] (re)
  

Errors end the way iozone ends them, with its exit status. The file must
be a regular file or a new name: iozone deletes and recreates it.

  $ platter iozone -s 1m -r 20m > out; echo $?; tail -2 out
  23
  Error: maximum record size 20480 kB is greater than maximum buffer size 16384 kB
    (no-eol)
  $ platter iozone -s 64k -r 64k -i 1 > out 2>err; echo $?; tail -2 out; cat err
  58
   {14}64 {6}64 {18} (re)
  Can not open temporary file iozone.tmp for read
  open: No such file or directory
  $ platter iozone -+x
  platter: iozone: unsupported option '-+x' (only -+n)
  Try 'platter iozone --help'.
  [2]
  $ platter iozone -f /dev/null -s 64k
  platter: iozone: '/dev/null' is not a regular file: iozone deletes and recreates its file (-f names a file to create)
  Try 'platter iozone --help'.
  [2]
  $ rm out err; ls
