mdtest under mpirun -np 4 (Open MPI, shared memory, on this machine's
cores): every rank works, rank 0 prints. Skipped without mpirun or without
the MPI module (-DPLATTER_MPI).

  $ command -v mpirun > /dev/null || exit 80
  $ [ -e "$(dirname "$(readlink -f "$(command -v platter)")")/platter_mpi.so" ] || exit 80
  $ export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader
  $ export OMPI_MCA_rmaps_base_oversubscribe=1 PLATTER_MPI_TIMEOUT=20
  $ export ASAN_OPTIONS=detect_leaks=0  # Open MPI's own allocations at exit (sanitizer builds)
  $ run() { timeout 60 mpirun -np 4 --oversubscribe platter mdtest "$@" < /dev/null; }

The launch line counts the ranks and the nodes; the node map has a 1 for
every rank on rank 0's host; the items are those of all ranks: -n 8 over
a tree of 3 directories is 2 per directory, 6 per rank, 24 in all. The
header and the table come once, from rank 0.

  $ run -n 8 -z 1 -b 2 -d out > out.txt
  $ grep -E '^(mdtest|Nodemap|[0-9]+ tasks)' out.txt
  mdtest-3.3.0 was launched with 4 total task(s) on 1 node(s)
  Nodemap: 1111
  4 tasks, 24 files/directories
  $ grep -c '^   [DFT].*: *[0-9]' out.txt
  9
  $ rm out.txt; ls

Without -u, rank 0 makes one tree and every rank puts its items in it,
named after the rank. -T -E -r then finds them all (only the three
creation rows are 0).

  $ run -C -n 3 -z 1 -b 2 -d out > /dev/null
  $ cd out/test-dir.0-0 && find . -name 'file.*' | sort && cd ../..
  ./mdtest_tree.0/file.mdtest.0.0
  ./mdtest_tree.0/file.mdtest.1.0
  ./mdtest_tree.0/file.mdtest.2.0
  ./mdtest_tree.0/file.mdtest.3.0
  ./mdtest_tree.0/mdtest_tree.1/file.mdtest.0.1
  ./mdtest_tree.0/mdtest_tree.1/file.mdtest.1.1
  ./mdtest_tree.0/mdtest_tree.1/file.mdtest.2.1
  ./mdtest_tree.0/mdtest_tree.1/file.mdtest.3.1
  ./mdtest_tree.0/mdtest_tree.2/file.mdtest.0.2
  ./mdtest_tree.0/mdtest_tree.2/file.mdtest.1.2
  ./mdtest_tree.0/mdtest_tree.2/file.mdtest.2.2
  ./mdtest_tree.0/mdtest_tree.2/file.mdtest.3.2
  $ run -T -E -r -n 3 -z 1 -b 2 -d out | grep -c ' 0\.000 '
  3
  $ find out
  out
  $ rmdir out

With -u each rank has its tree mdtest_tree.RANK.0; with -N 1 rank R
creates its items in the tree of rank R+1 (and stats, reads and removes
those of the next ranks), as mdtest does.

  $ run -C -u -N 1 -n 2 -d out | grep Shifting
  V-0: Rank   0 Line  2169 Shifting ranks by 1 for each phase.
  $ cd out/test-dir.0-0 && find . -name 'dir.*' | sort && cd ../..
  ./mdtest_tree.0.0/dir.mdtest.3.0
  ./mdtest_tree.0.0/dir.mdtest.3.1
  ./mdtest_tree.1.0/dir.mdtest.0.0
  ./mdtest_tree.1.0/dir.mdtest.0.1
  ./mdtest_tree.2.0/dir.mdtest.1.0
  ./mdtest_tree.2.0/dir.mdtest.1.1
  ./mdtest_tree.3.0/dir.mdtest.2.0
  ./mdtest_tree.3.0/dir.mdtest.2.1
  $ run -T -E -r -u -N 1 -n 2 -d out > /dev/null
  $ find out
  out
  $ rmdir out

-d A@B@C@D gives each rank a directory of its own, made and removed by
its rank.

  $ run -n 2 -u -d a@b@c@d | grep tasks
  4 tasks, 8 files/directories
  $ ls

An operation that fails at one rank ends every rank with status 1: here
every rank's first directory is missing.

  $ run -r -D -n 1 -d out > /dev/null 2> err.txt
  [1]
  $ grep -c 'platter: mdtest: unable to remove directory out/test-dir.0-0/mdtest_tree.0/dir.mdtest.0.0' err.txt
  1
  $ rm -r err.txt out
