platter's hdparm against the real hdparm 9.65 (Debian), when it is installed
and the test runs as root (a read-only loop device over a 64 MiB image):
the same lines in the same order, numbers masked, with stderr merged (2>&1,
as people paste) and on a pseudo-terminal (`script`, util-linux), less
platter's own lines. The device's name is masked too (loopN).

  $ command -v hdparm >/dev/null && command -v script >/dev/null && [ "$(id -u)" = 0 ] || exit 80
  $ mask() { tr -d '\r' | sed -E 's/[0-9]+(\.[0-9]+)?/N/g'; }
  $ truncate -s 64M hd.img && dev=$(losetup -f --show -r hd.img)
  $ hdparm -tT $dev 2>&1 | mask > real.out; platter hdparm -tT $dev 2>&1 | grep -v '^platter: ' | mask > ours.out
  $ diff real.out ours.out && echo same
  same
  $ script -qec "hdparm -tT $dev" /dev/null < /dev/null | mask > real.tty; script -qec "platter hdparm -tT $dev" /dev/null < /dev/null | tr -d '\r' | grep -v '^platter: ' | mask > ours.tty
  $ diff real.tty ours.tty && echo same
  same
  $ cat ours.tty
  
  /dev/loopN:
   Timing cached reads:   N MB in  N seconds = N MB/sec
   Timing buffered disk reads:  N MB in  N seconds = N MB/sec
  $ losetup -d $dev; rm hd.img real.* ours.*; ls
