bonnie++ 1.97 on real scratch files in the current directory: an 8 MiB I/O
file (-r 4 states 4 MiB of RAM, so the 2 x RAM rule lets it run), 1 MiB of
per-byte I/O (-f1) and 1024 files (-n 1). Progress lines go to stderr as
1.97 prints them; the text report and the CSV line go to stdout, which is
written at the end. Tests shorter than 0.5 s print +++++ and +++, so a cell
is either that or numbers; latencies carry their unit. The rewrite finds the
file just written in the page cache: the cache warning (docs/results.md).

  $ platter bonnie++ -s 8 -r 4 -f1 -n 1 -m box
  Writing a byte at a time...done
  Writing intelligently...done
  Rewriting...done
  platter: warning: phase 'Rewriting' used \./Bonnie\.[0-9]+ \(8 MiB\) through the page cache with .* and 100% of it was in the page cache at the start: .* (re)
  Reading a byte at a time...done
  Reading intelligently...done
  start 'em...done...done...done...done...done...
  Create files in sequential order...done.
  Stat files in sequential order...done.
  Delete files in sequential order...done.
  Create files in random order...done.
  Stat files in random order...done.
  Delete files in random order...done.
  Version  1.97       ------Sequential Output------ --Sequential Input- --Random-
  Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
  Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
  box              8M( +[0-9]+ +[0-9]+| \+\+\+\+\+ \+\+\+){5}( +[0-9]+(\.[0-9])? +[0-9]+| \+\+\+\+\+ \+\+\+) (re)
  Latency          ( +[0-9]+(us|ms|s)){6} (re)
  Version  1.97       ------Sequential Create------ --------Random Create--------
  box                 -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
                files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
                    1( +[0-9]+ +[0-9]+| \+\+\+\+\+ \+\+\+){6} (re)
  Latency          ( +[0-9]+(us|ms|s)){6} (re)
  1\.97,1\.97,box,1,1,8M,(,([0-9]+,[0-9]+|\+\+\+\+\+,\+\+\+)){5},([0-9]+(\.[0-9])?,[0-9]+|\+\+\+\+\+,\+\+\+),1,,,,(,([0-9]+,[0-9]+|\+\+\+\+\+,\+\+\+)){6}(,[0-9]+(us|ms|s)){12} (re)

Nothing is left behind: the I/O file Bonnie.<pid> and the small files
Bonnie.<pid>.<name> are all removed.

  $ ls

-x N runs N times and prints only CSV lines, after a header line; -q drops
the progress lines; a bare -f skips the per-byte tests (their cells stay
empty), -n 0 the file tests (17 empty fields), and -z sets the seed shown.

  $ platter bonnie++ -q -x 2 -s 8 -r 4 -f -n 0 -z 7 -m box
  format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,max_size,min_size,num_dirs,file_chunk_size,seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,putc_latency,put_block_latency,rewrite_latency,getc_latency,get_block_latency,seeks_latency,seq_create_latency,seq_stat_latency,seq_del_latency,ran_create_latency,ran_stat_latency,ran_del_latency
  platter: warning: phase 'Rewriting' used \./Bonnie\.[0-9]+ \(8 MiB\) through the page cache with .* and 100% of it was in the page cache at the start: .* (re)
  1\.97,1\.97,box,1,7,8M,,,(,([0-9]+,[0-9]+|\+\+\+\+\+,\+\+\+)){2},,(,([0-9]+,[0-9]+|\+\+\+\+\+,\+\+\+)),([0-9]+(\.[0-9])?,[0-9]+|\+\+\+\+\+,\+\+\+),{17},,[0-9]+(us|ms|s),[0-9]+(us|ms|s),,[0-9]+(us|ms|s),[0-9]+(us|ms|s),{6} (re)
  1\.97,1\.97,box,1,7,8M,,,(,([0-9]+,[0-9]+|\+\+\+\+\+,\+\+\+)){2},,(,([0-9]+,[0-9]+|\+\+\+\+\+,\+\+\+)),([0-9]+(\.[0-9])?,[0-9]+|\+\+\+\+\+,\+\+\+),{17},,[0-9]+(us|ms|s),[0-9]+(us|ms|s),,[0-9]+(us|ms|s),[0-9]+(us|ms|s),{6} (re)

With -q and one run, the text report goes to stderr and only the CSV line
to stdout. A chunk other than 8k shows in the header ("Size:chnk"), the row
and the CSV's io_chunk_size; with -n 0 the text ends in an empty line, as
1.97's does.

  $ platter bonnie++ -q -s 8:16k -r 4 -f -n 0 -m box 2>/dev/null
  1\.97,1\.97,box,1,1,8M,16k,.* (re)
  $ platter bonnie++ -q -s 8:16k -r 4 -f -n 0 -m box >/dev/null
  platter: warning: phase 'Rewriting' used \./Bonnie\.[0-9]+ \(8 MiB\) through the page cache with .* and 100% of it was in the page cache at the start: .* (re)
  Version  1.97       ------Sequential Output------ --Sequential Input- --Random-
  Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
  Machine   Size:chnk K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
  box          8M:16k          ( +[0-9]+ +[0-9]+| \+\+\+\+\+ \+\+\+){2}          ( +[0-9]+ +[0-9]+| \+\+\+\+\+ \+\+\+)( +[0-9]+(\.[0-9])? +[0-9]+| \+\+\+\+\+ \+\+\+) (re)
  Latency                    ( +[0-9]+(us|ms|s)){2}           ( +[0-9]+(us|ms|s)){2} (re)
  
  $ ls

The 2 x RAM rule: a file smaller than twice the RAM is refused, with
bonnie++'s message, unless -r states less RAM. platter's other checks are
usage errors too (exit status 2; bonnie++ printed its usage and exited
with 1).

  $ platter bonnie++ -s 8 -r 100
  File size should be double RAM for good results, RAM is 100M.
  platter: bonnie++: the file (-s) must be at least twice the RAM; -r states a smaller RAM
  Try 'platter bonnie++ --help'.
  [2]
  $ platter bonnie++ -s 8:1000 -r 4
  platter: bonnie++: the chunk of -s must be a power of 2 from 256 to 1m
  Try 'platter bonnie++ --help'.
  [2]
  $ platter bonnie++ -s 0 -n 0
  platter: bonnie++: nothing to do: -s and -n are both 0
  Try 'platter bonnie++ --help'.
  [2]
  $ platter bonnie++ -s 8 -r 4 -n 1:10:20
  platter: bonnie++: -n: the largest file size must not be below the smallest
  Try 'platter bonnie++ --help'.
  [2]
  $ platter bonnie++ -s 8 -r 4 -n 1:-1
  platter: bonnie++: -n: hard links and symlinks are not offered: platter has no link() or symlink()
  Try 'platter bonnie++ --help'.
  [2]
  $ platter bonnie++ -s 8 -r 4 -n 1:0:0:0
  platter: bonnie++: -n: the number of directories must be at least 1
  Try 'platter bonnie++ --help'.
  [2]

-n N:max:min:D spreads the files over D directories 00000, 00001, ...
inside the test directory, as bonnie++ does; the files cell says N/D, the
CSV has D, and every directory is gone afterwards.

  $ mkdir nd && platter bonnie++ -d nd -s 0 -n 1:0:0:4 -m box -q 2>err | cut -d, -f20-24
  1,,,,4
  $ grep -c '^ *1/4 ' err
  1
  $ ls -A nd; rmdir nd; rm err
  $ platter bonnie++ -s 8 -r 4 -f 1
  platter: bonnie++: unexpected argument '1'
  Try 'platter bonnie++ --help'.
  [2]
  $ platter bonnie++ -p 3
  platter: bonnie++: unknown option '-p'
  Try 'platter bonnie++ --help'.
  [2]

The file tests refuse to use more than 1 GiB for their name table, as
bonnie++ does (before any I/O here; bonnie++ ran the I/O tests first).

  $ platter bonnie++ -s 0 -r 0 -n 40000
  Not enough ram to test with 40000K files.
  [1]
  $ ls

--as picks the version; the options a version did not have are usage
errors, and --help lists the versions.

  $ platter bonnie++ --as 1.98
  platter: bonnie++: bad value '1.98' for --as: expected one of 1.97, 2.00a, 1.03, 1.03e
  Try 'platter bonnie++ --help'.
  [2]
  $ platter bonnie++ --as 1.03 -c 2 -s 8 -r 4
  platter: bonnie++: -c is not in bonnie++ 1.03
  Try 'platter bonnie++ --help'.
  [2]
  $ platter bonnie++ --as 1.03 -D -s 8 -r 4
  platter: bonnie++: -D is not in bonnie++ 1.03 (1.03e has it)
  Try 'platter bonnie++ --help'.
  [2]
  $ platter bonnie++ --as 1.03 -s 8 -r 100
  File size should be double RAM for good results, RAM is 100M.
  [1]
  $ platter bonnie++ --help | grep -e '--as'
    --as VERSION                     the bonnie++ to reproduce: 1.97; 2.00a (Debian 12's: k/m/g rates, -s MiB:chunk:seeks:procs, CSV format 1.98); 1.03 or 1.03e (stdio putc/getc over the whole file split into 1 GiB files, 3 seekers, fsync only with -b, -f = fast, no latency) (default 1.97)
