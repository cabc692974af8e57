A result path that is a device node (err_result_path.t has the rest). A
character device is written to in place: the rename of a temporary file once
replaced the node itself with a regular file (as root, `--json /dev/null`
replaced /dev/null). Nodes of our own stand for /dev/null and a disk here;
making them needs root:

  $ mknod cnull c 1 3 2>/dev/null || exit 80
  $ platter --json cnull -e 'print("ran")'
  ran
  $ test -c cnull && echo still a character device
  still a character device

A block device is refused before anything runs (a result would overwrite the
disk's first blocks); the node is never opened:

  $ mknod blk b 7 0
  $ platter --json blk -e 'print("ran")'
  platter: --json blk: cannot write the result there: it is a block device (a result goes to a file, a character device or a pipe)
  [2]
