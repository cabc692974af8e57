platter list prints each shipped workload, one a line: the name padded to
ten columns, then the one-line description taken from the first comment
line of its script. The sweep is one of them.

  $ platter list | grep '^sweep '
  sweep      Lewis 1988 block-size sweep: Random, Reread, Linear x cooked/raw, req/sec and bytes/sec
  $ platter list | grep -v '^[a-z0-9_+-]\+ \+[^ ]' | wc -l
  0

Every name that list shows runs as a bare workload name, and answers --help
with exit status 0.

  $ for w in $(platter list | cut -d' ' -f1); do platter $w --help > /dev/null || echo "$w failed"; done

list takes no arguments and ignores any that follow it; global options are
accepted before it.

  $ platter list extra | cmp - <(platter list) && echo same
  same
  $ platter --quiet list | cmp - <(platter list) && echo same
  same
