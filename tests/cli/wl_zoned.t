zoned on the simulated host-managed disk (--sim smr-hm): the zone report, the
write pointer's rules checked on the first sequential zone, a write into a
conventional zone, and the write throughput of the first and last sequential
zones (the outer one faster), then the verdict. Byte for byte: the model's
clock is virtual.

  $ platter --sim smr-hm --destroy zoned --samples 2 --bytes 8m --bs 512k /dev/sda
  Zones of /dev/sda: 256 zones of 256 MiB (host-managed, max open 128, max active no limit)
  
  type                 condition        zones        bytes
  conventional         not-wp               4        1 GiB
  seq-write-required   empty              252       63 GiB
  
  Write pointer of zone 4 (seq-write-required, at 1073741824):
    ok   reset puts the write pointer at the zone's start
    ok   a 4096-byte write at the write pointer works
    ok   the write pointer moved by the write: +4096
    ok   a second write at the new pointer works and moves it again
    ok   a write behind the pointer (at the zone's start) fails: pwrite /dev/sda: Input/output error
    ok   a write ahead of the pointer fails: pwrite /dev/sda: Input/output error
    ok   the failed writes left the pointer alone: +8192
    ok   a reset puts the pointer back at the start and the zone is empty
  
  Conventional zone 0:
    ok   a write at offset 12288 (no write pointer) works
  
  Sequential write, 8 MiB per zone (at most its capacity) in 512 KiB O_DIRECT writes:
    zone          start      MiB/s  write pointer after
       4     1073741824     183.84  +8 MiB
     255    68451041280      90.79  +8 MiB
  
  Verdict: A host-managed zoned device of 256 zones of 256 MiB (252 seq-write-required, 4 conventional). Writes at the write pointer work and move it; writes off it fail (Input/output error, errno 5); a reset puts it back at the start. Sequential writes run at 183.8 MiB/s in zone 4 and 90.8 MiB/s in zone 255 (0.49x). The zones keep the rules.

Without --destroy it cannot write the device; a disk that is not zoned is
found before anything is opened for writing; parameters come from the
manifest.

  $ platter --sim smr-hm zoned /dev/sda
  platter: zoned: open: /dev/sda is a block device: opening it for writing would destroy its contents; pass --destroy to allow it
  [1]
  $ platter --sim nvme zoned /dev/sda
  platter: zoned: /dev/sda is not a zoned block device (queue/zoned: none)
  [1]
  $ platter --sim smr-hm --destroy zoned --samples 0 /dev/sda
  platter: zoned: --samples 0: must be at least 1
  Try 'platter zoned --help'.
  [2]
  $ platter describe zoned | grep '^needs'
  needs: write yes, device block, root yes
