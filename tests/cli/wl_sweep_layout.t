The sweep prints the tables of the 1988 post (seed 000) in its layout:
three tables in the order Random, Reread, Linear, a blank line between
them, a tab-separated header of two lines, and one row per block size from
512 to 512k. Below, the seed's layout is written out with every measured
number replaced by N (the seed's two environments both give exactly this,
once the poster's "(UNIX buffer cache filled up)" notes are taken out), and
a short real sweep, masked the same way, must match it byte for byte.

  $ for t in Random Reread Linear; do
  >   [ $t = Random ] || echo
  >   printf '%s\nbsize\treq/sec\tbw\treq/sec\tbw\n\tcooked\tcooked\traw\traw\n' $t
  >   for b in 512 1024 2048 4096 8192 16384 32768 65536 131072 262144 524288; do
  >     printf '%s\tN\tN\tN\tN\n' $b
  >   done
  > done > seed-layout
  $ platter --quiet sweep -s 1m -d 0.005 > out 2>/dev/null  # a cache warning: res_cache.t
  $ sed -E '/^[0-9]/ s/\t[^\t]+/\tN/g' out | cmp - seed-layout && echo same layout
  same layout

The numbers follow the post's awk script: req/sec as %.6g (at most six
significant digits, trailing zeros dropped: 32, 10.449, 0.0547945), and bw
as whole bytes per second, req/sec times bsize truncated. Every one of the
33 rows obeys both rules in both modes.

  $ awk -F'\t' 'NF == 5 && $1 ~ /^[0-9]+$/ {
  >   rows++
  >   for (c = 2; c <= 4; c += 2) {
  >     if ($c != sprintf("%.6g", $c)) bad++
  >     if ($(c + 1) !~ /^[0-9]+$/) bad++
  >     d = $(c + 1) - $c * $1; if (d < 0) d = -d
  >     if (d > $(c + 1) * 1e-5 + 1) bad++
  >   }
  > } END { print rows, bad + 0 }' out
  33 0

The phases are named "<Test> <bsize> <mode>" and --tests and --modes keep
their table and column order as given.

  $ platter --quiet sweep -s 1m --min 4k --max 8k -d 0.005 -t linear,random -m raw,cooked 2>/dev/null | sed -E '/^[0-9]/ s/\t[^\t]+/\tN/g'
  Linear
  bsize\treq/sec\tbw\treq/sec\tbw (esc)
  \traw\traw\tcooked\tcooked (esc)
  4096\tN\tN\tN\tN (esc)
  8192\tN\tN\tN\tN (esc)
  
  Random
  bsize\treq/sec\tbw\treq/sec\tbw (esc)
  \traw\traw\tcooked\tcooked (esc)
  4096\tN\tN\tN\tN (esc)
  8192\tN\tN\tN\tN (esc)
  $ rm out seed-layout; ls
