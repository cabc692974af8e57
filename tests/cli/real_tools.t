platter's dd and ioping against the real tools (GNU dd from coreutils and
Debian's ioping), when they are installed: the same lines in the same
order, numbers and their units masked, with stderr merged (2>&1, as people
paste) and on a pseudo-terminal (`script`, util-linux), less platter's own
lines (the cache warning: in.dat was just written, so it is read from the
page cache, and ioping rereads its small file). Every unit is masked, KiB
as well as MiB: which one a rate is printed in depends on how fast the run
was. ioping's filesystem size
for a directory is compared exactly, and dd's decimal point under a
LC_NUMERIC locale.

  $ command -v dd >/dev/null && command -v ioping >/dev/null && command -v script >/dev/null || exit 80
  $ mask() { tr -d '\r' | sed -E 's/[0-9]+([.,][0-9]+)?(e-?[0-9]+)?/N/g; s/N ([kKMGT]?i?B(\/s)?|[kmun]?s|(k )?iops)\b/N U/g'; }
  $ head -c 1048576 /dev/zero > in.dat
  $ same() { "$@" 2>&1 | mask > real.out; platter "$@" 2>&1 | grep -v '^platter: ' | mask > ours.out; diff real.out ours.out && echo same; }
  $ pty() { script -qec "$*" /dev/null < /dev/null | mask > real.tty; script -qec "platter $*" /dev/null < /dev/null | tr -d '\r' | grep -v '^platter: ' | mask > ours.tty; diff real.tty ours.tty && echo same; }

  $ same dd if=in.dat of=/dev/null bs=4k count=10
  same
  $ same dd if=in.dat of=out.dat ibs=1000 obs=4k
  same
  $ pty dd if=in.dat of=/dev/null bs=64k
  same
  $ cat ours.out
  N+N records in
  N+N records out
  N bytes (N U, N U) copied, N U, N U
  $ same ioping -c 3 -i 0 .
  same
  $ pty ioping -c 3 -i 0 .
  same
  $ head -1 ours.tty
  N U <<< \. \(extN /dev/\w+ N U\): request=N time=N U \(warmup\) (re)
  $ fs() { sed -n 's/.*(ext[0-9] [^ ]* \([^)]*\)).*/\1/p' | head -1; }
  $ ioping -c 1 -i 0 . 2>&1 | fs > real.fs; platter ioping -c 1 -i 0 . 2>&1 | fs > ours.fs
  $ test -s real.fs && diff real.fs ours.fs && echo same
  same

ioping 1.3 reads its options with getopt_long_only: the single-dash long
names and unique abbreviations it accepts are taken the same way, and -v
prints its version line.

  $ same ioping -count 3 -interval 0 .
  same
  $ same ioping -co 2 -i 0 -quiet -s4k .
  same
  $ same ioping -v
  same
  $ pty ioping -count 3 -interval 0 .
  same
  $ pty ioping -co 2 -i 0 -quiet -s4k .
  same

-s 0 is ioping's default size (4 KiB, 256 KiB with -L) since ioping 1.0,
not an error:

  $ same ioping -c 2 -i 0 -s 0 .
  same
  $ same ioping -c 2 -i 0 -L -s 0 -q .
  same
  $ grep -c 'N U <<<' ours.out; grep -o 'generated N requests in N U, N U' ours.out
  0
  generated N requests in N U, N U
  $ pty ioping -c 2 -i 0 -s 0 .
  same

Refusals, on a terminal and with 2>&1, with the same exit status: a FIFO
(ioping refuses it after its stat; platter once waited in open for a
writer), and a device that takes no O_DIRECT (platter's own remark about
O_DIRECT stays out of the tools' lines):

  $ rc() { "$@" > /dev/null 2>&1; a=$?; platter "$@" > /dev/null 2>&1; echo "$a $?"; }
  $ mkfifo ff
  $ same ioping -c 1 ff; pty ioping -c 1 ff; rc ioping -c 1 ff
  same
  same
  2 2
  $ cat ours.out
  ioping: unsupported destination: "ff"
  $ same ioping -D -c 1 /dev/zero; pty ioping -D -c 1 /dev/zero; rc ioping -D -c 1 /dev/zero
  same
  same
  2 2
  $ same dd if=/dev/zero of=/dev/null oflag=direct count=1; pty dd if=/dev/zero of=/dev/null oflag=direct count=1
  same
  same
  $ cat ours.out
  dd: failed to open '/dev/null': Invalid argument
  $ rm ff

The decimal point under LC_NUMERIC (a German locale built with localedef,
found through LOCPATH; cram itself sets LC_ALL=C):

  $ mkdir loc && localedef -i de_DE -f UTF-8 "$PWD/loc/de_DE.UTF-8" > /dev/null 2>&1; ls loc
  de_DE.UTF-8
  $ sep() { grep -o '[0-9][.,][0-9]' | tr -d '0-9' | sort -u | tr -d '\n'; echo; }
  $ env LOCPATH=$PWD/loc LC_ALL= LC_NUMERIC=de_DE.UTF-8 dd if=in.dat of=/dev/null bs=64k 2>&1 | sep
  ,
  $ env LOCPATH=$PWD/loc LC_ALL= LC_NUMERIC=de_DE.UTF-8 platter dd if=in.dat of=/dev/null bs=64k 2>&1 | grep -v '^platter: ' | sep
  ,
  $ rm -rf in.dat out.dat real.* ours.* loc
