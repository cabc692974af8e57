mdtest runs one rank per process under mpirun through p.mpi; outside
mpirun it is one rank. Skipped where this platter has no p.mpi yet.

  $ platter -e 'assert(platter.mpi)' 2>/dev/null || exit 80

One rank, ten items: mdtest 3.3.0's lines, in its order and widths. Path:
is the filesystem of the directory holding -d (made when missing), FS:
its size and inodes. Every rate row is items / seconds, with %14.3f.

  $ platter mdtest -n 10 -d out
  -- started at [0-9]{2}/[0-9]{2}/[0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} -- (re)
  
  mdtest-3.3.0 was launched with 1 total task(s) on 1 node(s)
  Command line used: mdtest '-n' '10' '-d' 'out'
  Path: /.* (re)
  FS: [0-9]+\.[0-9] [GT]iB   Used FS: [0-9]+\.[0-9]%   Inodes: [0-9]+\.[0-9] Mi   Used Inodes: [0-9]+\.[0-9]% (re)
  
  Nodemap: 1
  1 tasks, 10 files/directories
  
  SUMMARY rate: (of 1 iterations)
     Operation                      Max            Min           Mean        Std Dev
     ---------                      ---            ---           ----        -------
     Directory creation        : +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} (re)
     Directory stat            : +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} (re)
     Directory removal         : +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} (re)
     File creation             : +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} (re)
     File stat                 : +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} (re)
     File read                 : +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} (re)
     File removal              : +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} (re)
     Tree creation             : +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} (re)
     Tree removal              : +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} (re)
  -- finished at [0-9]{2}/[0-9]{2}/[0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} -- (re)
  

The widths: every cell is 14 wide after "   NAME :", one space apart.

  $ platter mdtest -n 2 -d out | grep '^   [DFT].*:' | awk '{ print length($0) }' | sort -u
  90

Nothing is left behind: the items, the tree, test-dir.0-0, and -d itself,
which platter made (mdtest would leave it, empty). The Path: line is the
directory that holds -d.

  $ ls
  $ platter mdtest -n 1 -d out | grep '^Path:' | sed "s|$(pwd -P)|PWD|"
  Path: PWD
  $ mkdir keep
  $ platter mdtest -n 1 -d keep/x | grep '^Path:' | sed "s|$(pwd -P)|PWD|"
  Path: PWD/keep
  $ ls keep
  $ rmdir keep

The tree, as mdtest makes it: -C only creates and leaves everything
there, -T and -E only stat and read it, -r only removes. With -z 2 -b 2
the tree holds 7 directories, numbered breadth first, and each holds
14 / 7 = 2 of the rank's items of each kind, numbered across the tree.

  $ platter mdtest -C -z 2 -b 2 -n 14 -d out | grep -E 'tasks|creation|removal'
  1 tasks, 14 files/directories
     Directory creation        : +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} (re)
     Directory removal         :          0.000          0.000          0.000          0.000
     File creation             : +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} (re)
     File removal              :          0.000          0.000          0.000          0.000
     Tree creation             : +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} (re)
     Tree removal              :          0.000          0.000          0.000          0.000
  $ cd out/test-dir.0-0 && find . | sort && cd ../..
  .
  ./mdtest_tree.0
  ./mdtest_tree.0/dir.mdtest.0.0
  ./mdtest_tree.0/dir.mdtest.0.1
  ./mdtest_tree.0/file.mdtest.0.0
  ./mdtest_tree.0/file.mdtest.0.1
  ./mdtest_tree.0/mdtest_tree.1
  ./mdtest_tree.0/mdtest_tree.1/dir.mdtest.0.2
  ./mdtest_tree.0/mdtest_tree.1/dir.mdtest.0.3
  ./mdtest_tree.0/mdtest_tree.1/file.mdtest.0.2
  ./mdtest_tree.0/mdtest_tree.1/file.mdtest.0.3
  ./mdtest_tree.0/mdtest_tree.1/mdtest_tree.3
  ./mdtest_tree.0/mdtest_tree.1/mdtest_tree.3/dir.mdtest.0.6
  ./mdtest_tree.0/mdtest_tree.1/mdtest_tree.3/dir.mdtest.0.7
  ./mdtest_tree.0/mdtest_tree.1/mdtest_tree.3/file.mdtest.0.6
  ./mdtest_tree.0/mdtest_tree.1/mdtest_tree.3/file.mdtest.0.7
  ./mdtest_tree.0/mdtest_tree.1/mdtest_tree.4
  ./mdtest_tree.0/mdtest_tree.1/mdtest_tree.4/dir.mdtest.0.8
  ./mdtest_tree.0/mdtest_tree.1/mdtest_tree.4/dir.mdtest.0.9
  ./mdtest_tree.0/mdtest_tree.1/mdtest_tree.4/file.mdtest.0.8
  ./mdtest_tree.0/mdtest_tree.1/mdtest_tree.4/file.mdtest.0.9
  ./mdtest_tree.0/mdtest_tree.2
  ./mdtest_tree.0/mdtest_tree.2/dir.mdtest.0.4
  ./mdtest_tree.0/mdtest_tree.2/dir.mdtest.0.5
  ./mdtest_tree.0/mdtest_tree.2/file.mdtest.0.4
  ./mdtest_tree.0/mdtest_tree.2/file.mdtest.0.5
  ./mdtest_tree.0/mdtest_tree.2/mdtest_tree.5
  ./mdtest_tree.0/mdtest_tree.2/mdtest_tree.5/dir.mdtest.0.10
  ./mdtest_tree.0/mdtest_tree.2/mdtest_tree.5/dir.mdtest.0.11
  ./mdtest_tree.0/mdtest_tree.2/mdtest_tree.5/file.mdtest.0.10
  ./mdtest_tree.0/mdtest_tree.2/mdtest_tree.5/file.mdtest.0.11
  ./mdtest_tree.0/mdtest_tree.2/mdtest_tree.6
  ./mdtest_tree.0/mdtest_tree.2/mdtest_tree.6/dir.mdtest.0.12
  ./mdtest_tree.0/mdtest_tree.2/mdtest_tree.6/dir.mdtest.0.13
  ./mdtest_tree.0/mdtest_tree.2/mdtest_tree.6/file.mdtest.0.12
  ./mdtest_tree.0/mdtest_tree.2/mdtest_tree.6/file.mdtest.0.13

A second -C says, as mdtest does, that the top of the tree is there
already, and goes on (the items are opened again); a subdirectory that is
there already is an error, as in mdtest.

  $ platter mdtest -C -F -n 2 -d again | grep -E '^error'
  [1]
  $ platter mdtest -C -F -n 2 -d again | grep -E '^error'
  error could not create directory 'again/test-dir.0-0/mdtest_tree.0/'
  $ platter mdtest -r -F -n 2 -d again > /dev/null && rmdir again
  $ platter mdtest -C -z 2 -b 2 -n 14 -d out 2>&1 >/dev/null
  platter: mdtest: Unable to create directory out/test-dir.0-0/mdtest_tree.0/mdtest_tree.1/: File exists
  [1]
  $ platter mdtest -T -E -z 2 -b 2 -n 14 -d out | grep -E 'stat|read' | grep -c ' 0\.000 '
  0
  [1]
  $ platter mdtest -r -z 2 -b 2 -n 14 -d out | grep -E 'removal' | grep -c ' 0\.000 '
  0
  [1]
  $ find out
  out
  $ rmdir out

-vvv prints mdtest's V-3 lines for every item, so the names are checked
while they exist: -u gives each rank its tree mdtest_tree.RANK.0 with
subdirectories mdtest_tree.RANK.K; -F files only; -w bytes written at
creation, -e read back. The double slash is mdtest's.

  $ platter mdtest -u -F -z 1 -b 2 -n 3 -w 10 -e 10 -vvv -d out > v.txt
  $ grep -E "Line +(1582|1616|356|618|713|340|1600|1627) " v.txt | sed 's/^V-[0-9]: Rank   0 Line //'
   1582 Making directory 'out/test-dir.0-0/mdtest_tree.0.0/'
   1616 Making directory 'out/test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.1/'
   1616 Making directory 'out/test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.2/'
    356 create_remove_items_helper (non-dirs create): curr_item is 'out/test-dir.0-0/mdtest_tree.0.0/file.mdtest.0.0'
    356 create_remove_items_helper (non-dirs create): curr_item is 'out/test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.1//file.mdtest.0.1'
    356 create_remove_items_helper (non-dirs create): curr_item is 'out/test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.2//file.mdtest.0.2'
    618 mdtest_stat file: out/test-dir.0-0/mdtest_tree.0.0/file.mdtest.0.0
    618 mdtest_stat file: out/test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.1/file.mdtest.0.1
    618 mdtest_stat file: out/test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.2/file.mdtest.0.2
    713 mdtest_read file: out/test-dir.0-0/mdtest_tree.0.0/file.mdtest.0.0
    713 mdtest_read file: out/test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.1/file.mdtest.0.1
    713 mdtest_read file: out/test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.2/file.mdtest.0.2
    340 create_remove_items_helper (non-dirs remove): curr_item is 'out/test-dir.0-0/mdtest_tree.0.0/file.mdtest.0.0'
    340 create_remove_items_helper (non-dirs remove): curr_item is 'out/test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.1//file.mdtest.0.1'
    340 create_remove_items_helper (non-dirs remove): curr_item is 'out/test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.2//file.mdtest.0.2'
   1627 Remove directory 'out/test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.1/'
   1627 Remove directory 'out/test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.2/'
   1600 Remove directory 'out/test-dir.0-0/mdtest_tree.0.0/'
  $ grep -E '^(1 tasks|   [A-Z])' v.txt | cut -c1-30
  1 tasks, 3 files
     Operation                  
     File creation             :
     File stat                 :
     File read                 :
     File removal              :
     Tree creation             :
     Tree removal              :
  $ grep -c 'Line  2018 api                     : POSIX' v.txt
  1
  $ rm v.txt; ls

-D directories only, -L items in the leaves only and -I items per
directory: -z 1 -b 3 has 3 leaves, so -I 2 gives 6 items, dir.mdtest.0.2
to dir.mdtest.0.7 (numbered as if the top held items 0 and 1).

  $ platter mdtest -C -D -L -z 1 -b 3 -I 2 -d out | grep -E 'tasks|^   [A-Z]' | cut -c1-30
  1 tasks, 6 directories
     Operation                  
     Directory creation        :
     Directory stat            :
     Directory removal         :
     Tree creation             :
     Tree removal              :
  $ cd out/test-dir.0-0 && find . -name 'dir.*' | sort && cd ../..
  ./mdtest_tree.0/mdtest_tree.1/dir.mdtest.0.2
  ./mdtest_tree.0/mdtest_tree.1/dir.mdtest.0.3
  ./mdtest_tree.0/mdtest_tree.2/dir.mdtest.0.4
  ./mdtest_tree.0/mdtest_tree.2/dir.mdtest.0.5
  ./mdtest_tree.0/mdtest_tree.3/dir.mdtest.0.6
  ./mdtest_tree.0/mdtest_tree.3/dir.mdtest.0.7
  $ platter mdtest -T -r -D -L -z 1 -b 3 -I 2 -d out > /dev/null && find out && rmdir out
  out

-i repeats the whole test in test-dir.J-0 (the table has the mean and the
population standard deviation over the iterations); -Z prints times, -P
rates and then times.

  $ platter mdtest -n 2 -i 2 -Z -d out | grep SUMMARY
  SUMMARY time: (of 2 iterations)
  $ platter mdtest -n 2 -i 3 -P -F -d out | grep -E 'SUMMARY|File creation' | sed 's/ *:.*/ :/'
  SUMMARY rate :
     File creation :
  SUMMARY time :
     File creation :
  $ ls

Numbers take mdtest's suffixes; what mdtest has and platter does not take
is a usage error naming it, never ignored.

  $ platter mdtest -n 1k -C -d out | grep tasks && rm -r out
  1 tasks, 1024 files/directories
  $ platter mdtest -S
  platter: mdtest: -S (shared file) is not supported
  Try 'platter mdtest --help'.
  [2]
  $ platter mdtest -W 5
  platter: mdtest: -W (stonewalling) is not supported
  Try 'platter mdtest --help'.
  [2]
  $ platter mdtest -B 1
  platter: mdtest: -B (no barriers) is not supported: mdtest 3.3.0 refuses it too (its stonewall check needs barriers)
  Try 'platter mdtest --help'.
  [2]
  $ platter mdtest -a MPIIO
  platter: mdtest: -a MPIIO is not supported: platter's mdtest has the POSIX API only
  Try 'platter mdtest --help'.
  [2]
  $ platter mdtest -n 4 -I 2
  platter: mdtest: -n together with -I (several test directories per iteration) is not supported
  Try 'platter mdtest --help'.
  [2]
  $ platter mdtest -n x
  platter: mdtest: bad value 'x' for -n: not a number
  Try 'platter mdtest --help'.
  [2]
  $ platter mdtest -i 0
  platter: mdtest: -i must be at least 1
  Try 'platter mdtest --help'.
  [2]
  $ platter mdtest -d a@b
  platter: mdtest: shared directory mode is not compatible with multiple directory paths
  Try 'platter mdtest --help'.
  [2]
  $ platter mdtest -d a@b -u
  platter: mdtest: cannot have more directory paths than MPI tasks
  Try 'platter mdtest --help'.
  [2]
  $ platter mdtest --posix.odirect
  platter: mdtest: unknown option '--posix.odirect'
  Try 'platter mdtest --help'.
  [2]
  $ ls

A read of more bytes than a file holds fails as in mdtest, with status 1;
what was made stays, as mdtest leaves it.

  $ platter mdtest -n 1 -e 8 -d out 2>&1 >/dev/null
  platter: mdtest: unable to read file out/test-dir.0-0/mdtest_tree.0/file.mdtest.0.0
  [1]
  $ rm -r out

-N shifts the rank whose items a rank stats, reads and removes (by whole
nodes when ranks are placed by slot); mdtest says so even at verbosity 0.
With one rank the shift comes back to the rank itself.

  $ platter mdtest -n 2 -N 1 -d out | grep Shifting
  V-0: Rank   0 Line  2169 Shifting ranks by 1 for each phase.
  $ ls
