bonnie++ --as 2.00a: the first seeker to finish unlinks the test file, as
2.00a's seeker threads do when each is deleted (~CFileOp), so the last
seeker's close frees the file's blocks inside the timed seek window. Seen
with strace: the one unlink of Bonnie.PID that succeeds after the block
tests is made by a worker, not by platter's own process. Under 1.97 the
file is removed by platter itself after the seeks.

  $ command -v strace >/dev/null || exit 80
  $ unlinks() { strace -f -qq -e trace=unlink,unlinkat -o tr platter bonnie++ "$@" -d . -s 16 -r 8 -n 0 -f0 -q >/dev/null 2>&1; main=$(head -1 tr | cut -d' ' -f1); grep 'Bonnie\.[0-9]*", 0) *= 0$' tr | tail -1 | awk -v m="$main" '{ print ($1 == m ? "platter" : "a worker") }'; }
  $ unlinks --as 2.00a
  a worker
  $ unlinks
  platter
  $ ls
  tr
