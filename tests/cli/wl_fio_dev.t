platter fio on a raw device (filename=/dev/...), as root on a loop device
over a 64 MiB image: reading needs nothing more; a job that writes needs
--destroy (platter's rule for every block device), refused before anything
runs, and even then never while the device is mounted (whatever fio's
allow_mounted_write says). Devices are not laid out.

  $ [ "$(id -u)" = 0 ] || exit 80
  $ truncate -s 64M dev.img && dev=$(losetup -f --show dev.img)
  $ platter fio --name=r --filename=$dev --rw=randread --size=8m --direct=1 --output-format=terse | cut -d';' -f1-4,6
  3;fio-3.33;r;0;8192
  $ platter fio --name=w --filename=$dev --rw=write --size=4m
  fio: job w: open: /dev/loop[0-9]+ is a block device: opening it for writing would destroy its contents; pass --destroy to allow it (re)
  [1]
  $ platter --destroy fio --name=w --filename=$dev --rw=write --size=4m --output-format=terse | cut -d';' -f1-3,47
  3;fio-3.33;w;4096
  $ mkfs.ext4 -q $dev && mkdir mnt && mount $dev mnt
  $ platter --destroy fio --name=w --filename=$dev --rw=write --size=4m
  fio: job w: open: refusing to write to /dev/loop[0-9]+ even with --destroy: /dev/loop[0-9]+ is mounted on .*mnt (re)
  [1]

fio's allow_mounted_write=1 lets fio write a mounted device; platter takes
the option and still refuses, saying so:

  $ platter --destroy fio --name=w --filename=$dev --rw=write --size=4m --allow_mounted_write=1
  fio: job w: open: refusing to write to /dev/loop[0-9]+ even with --destroy: /dev/loop[0-9]+ is mounted on .*mnt \(platter never writes to a device in use, whatever allow_mounted_write says\) (re)
  [1]
  $ umount mnt && rmdir mnt && losetup -d $dev && rm dev.img && ls
