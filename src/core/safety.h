/*
 * Whether a block device is in use, so that even with --destroy platter never
 * writes to a mounted filesystem, an active swap area, or a device that LVM,
 * md or device-mapper holds. Reads /proc and sysfs; no Lua.
 */
#ifndef PLATTER_CORE_SAFETY_H
#define PLATTER_CORE_SAFETY_H

#include <stddef.h>

/*
 * 0 if the block device major:minor (and every partition of it) is free;
 * -EBUSY with the reason in why ("/dev/loop3p1 is mounted on /mnt/x") if not.
 */
int pl_safety_block_in_use(unsigned major, unsigned minor, char *why, size_t len);

#endif
