bonnie++ --as 2.00a: the first seeker to finish unlinks the test file, as
2.00a's seeker threads do when each is deleted (~CFileOp), so the last
seeker's close frees the file's blocks inside the timed seek window. Seen
with strace: the one unlink of Bonnie.PID that succeeds after the block
tests is made by one worker (each process traced to a file of its own,
strace -ff). Under 1.97 no worker unlinks it: platter removes it after
the seeks. (platter's own process is the shell that execs it: the lowest
PID is not always it, since PIDs wrap at pid_max.)

  $ command -v strace >/dev/null || exit 80
  $ unlinks() { rm -rf tr; mkdir tr; strace -f -ff -qq -e trace=unlink,unlinkat -o tr/t sh -c 'echo $$ > main.pid; exec platter bonnie++ "$@"' sh "$@" -d . -s 16 -r 8 -n 0 -f0 -q >/dev/null 2>&1; main=$(cat main.pid); rm main.pid; n=0; for f in tr/t.*; do [ "$f" != "tr/t.$main" ] && grep -q 'Bonnie\.[0-9]*", 0) *= 0$' "$f" && n=$((n + 1)); done; echo "workers that unlinked it: $n"; }
  $ unlinks --as 2.00a
  workers that unlinked it: 1
  $ unlinks
  workers that unlinked it: 0
  $ rm -r tr; ls
