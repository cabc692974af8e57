Ctrl-C in the middle of a workload with a table: the table is printed with
the tests that finished, the others marked as each tool marks a test it
did not run, then platter reports the phase the signal cut (after
"platter: interrupted") and exits 130. Under --sim, PLATTER_SIM_SIGINT=S
sends the SIGINT when the virtual clock has run S seconds, so the cut falls
at the same point on every machine and flavour. The cache warning (these
files are small) is left out of what is shown; pipes keep platter's exit
status.

  $ set -o pipefail
  $ nowarn() { grep -v '^platter: warning:'; }

Bonnie (1996): interrupted while writing intelligently (FastWrite, the
third test, the second column). Putc and ReWrite have their cells; the
others are blank cells of the same width, as bonnie++ prints a skipped
test (the 1996 release itself always ran every test and printed nothing
when stopped). The unfinished progress line on stderr is ended first.

  $ PLATTER_SIM_SIGINT=0.717 platter --sim ata-5400-1999 bonnie -s 10 2>&1 | nowarn
  File './Bonnie.4242', size: 10485760
  Writing with putc()...done
  Rewriting...done
  Writing intelligently...
                -------Sequential Output-------- ---Sequential Input-- --Random--
                -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---
  Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU
             10 19804 100.0            56723 100.0                                 
  platter: interrupted
  platter: interrupted phase 'FastWrite' after 0.0195 s: 139 ops, 2.28 MB (7116 IOPS, 117 MB/s), latency \xc2\xb5s: mean 141, p50 141, p99 141, max 141 (esc)
  [130]
  $ ls

-html: empty cells.

  $ PLATTER_SIM_SIGINT=0.717 platter --sim ata-5400-1999 bonnie -s 10 -html 2>/dev/null
  <TR><TD></TD><TD>10</TD><TD>19804</TD><TD>100.0</TD><TD></TD><TD></TD><TD>56723</TD><TD>100.0</TD><TD></TD><TD></TD><TD></TD><TD></TD><TD></TD><TD></TD></TR>
  [130]

The phase is in --json and --csv after the finished ones, with
interrupted = true.

  $ PLATTER_SIM_SIGINT=0.717 platter --sim ata-5400-1999 --json r.json --csv r.csv bonnie -s 10 > /dev/null 2>&1
  [130]
  $ cut -d, -f3,4,6,24,27 r.csv
  kind,name,ops,stopped,interrupted
  "phase","Putc",1,,false
  "phase","ReWrite",1281,,false
  "phase","FastWrite",139,"interrupted",true
  $ platter --trust -e '
  > local doc = require("cjson").decode(assert(io.open("r.json")):read("*a"))
  > local r = doc.phases[#doc.phases]
  > local d = function(x) return string.format("%d", x) end
  > print(d(doc.status.exit), doc.status.interrupted, r.name, r.interrupted, d(r.ops), d(r.bytes),
  >   d(r.lat_ns.p99))'
  130\ttrue\tFastWrite\ttrue\t139\t2277376\t140533 (esc)
  $ rm r.json r.csv

Cut while writing a character at a time: f:putc(n) stops at the end of a
stdio buffer, so the phase closes at the instant of the signal (0.2 s), not
when the 10 MiB are written.

  $ PLATTER_SIM_SIGINT=0.2 platter --sim ata-5400-1999 bonnie -s 10 2>&1 | nowarn | tail -2
  platter: interrupted
  platter: interrupted phase 'Putc' after 0.2 s: 1 ops, 4.06 MB (5.00 IOPS, 20.3 MB/s), latency \xc2\xb5s: mean 200155, p50 200155, p99 200155, max 200155 (esc)
  [130]

Cut while the three seekers run (p.parallel): every other column is
there, the seeks are blank, and the seekers' merged phase so far is
reported and recorded as interrupted.

  $ PLATTER_SIM_SIGINT=1.523 platter --sim ata-5400-1999 --json r.json bonnie -s 10 2>&1 | nowarn | tail -4
  Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU
             10 19804 100.0 113852 100.0 56723 100.0 19804 100.0 113847 100.0           
  platter: interrupted
  platter: interrupted p.parallel after 0.129 s: 908 ops, 14.9 MB (7065 IOPS, 116 MB/s), latency \xc2\xb5s: mean 141, p50 141, p99 141, max 141 (esc)
  [130]
  $ platter --trust -e '
  > local doc = require("cjson").decode(assert(io.open("r.json")):read("*a"))
  > local r = doc.phases[#doc.phases]
  > local n = 0
  > for _, w in ipairs(r.workers) do if w and w.interrupted then n = n + 1 end end
  > print(#doc.phases, r.kind, r.interrupted, #r.workers, n)'
  6	parallel	true	3	1 (esc)
  $ rm r.json

bonnie++: cut while reading a byte at a time. The text report and the CSV
line have the three tests that finished; the rest are blank cells and
empty fields, bonnie++'s own mark of a test that did not run (as for -f or
-n 0), and the file tests, never started, are blank too.

  $ PLATTER_SIM_SIGINT=16 platter --sim ata-5400-1999 bonnie++ -s 10 -n 1 -r 0 2>&1 | nowarn
  Writing a byte at a time...done
  Writing intelligently...done
  Rewriting...done
  Reading a byte at a time...
  Version  1.97       ------Sequential Output------ --Sequential Input- --Random-
  Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
  Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
  sim             10M   239  98 12792  11 11520  20                              
  Latency             32833us      72us     145us                              
  Version  1.97       ------Sequential Create------ --------Random Create--------
  sim                 -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
                files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
                    1                                                            
  Latency                                                                      
  1.97,1.97,sim,1,1,10M,,239,98,12792,11,11520,20,,,,,,,1,,,,,,,,,,,,,,,,,32833us,72us,145us,,,,,,,,,
  platter: interrupted
  platter: interrupted phase 'Reading a byte at a time' after 1.49 s: 46 ops, 0.373 MB (30.8 IOPS, 0.25 MB/s), latency \xc2\xb5s: mean 32477, p50 32834, p99 32834, max 32834 (esc)
  [130]

Cut in the file tests: the I/O tests are all there, and four file tests.

  $ PLATTER_SIM_SIGINT=31.035 platter --sim ata-5400-1999 bonnie++ -s 10 -n 1 -r 0 2>/dev/null | tail -6
  Version  1.97       ------Sequential Create------ --------Random Create--------
  sim                 -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
                files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
                    1 +++++ +++ +++++ +++ +++++ +++ +++++ +++                    
  Latency                 4us       4us       4us       4us                    
  1.97,1.97,sim,1,1,10M,,239,98,12792,11,11520,20,243,100,+++++,+++,2152,17,1,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,,,,32833us,72us,145us,32833us,72us,672ms,4us,4us,4us,4us,,
  [130]
  $ ls

iozone: cut in the read test of the second row. The row is closed with the
blank padding iozone prints for a test that was not selected, then what
iozone's own signal handler prints: "iozone: interrupted", the -R report
of what was measured (0 where nothing was), "exiting iozone".

  $ PLATTER_SIM_SIGINT=5.6 platter --sim ata-5400-1999 iozone -I -s 4m -r 64k -r 128k -i 0 -i 1 -i 2 -R 2>&1 | nowarn | sed -n '/kB  reclen/,$p'
                kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread
              4096      64     4134     4142    14881    14881     4813     5266                                                                
              4096     128     6534     6467                                                                                                    
  
  iozone: interrupted
  
  Excel output is below:
  
  "Writer report"
          "64"  "128"
  "4096"   4134  6534 
  
  "Re-writer report"
          "64"  "128"
  "4096"   4142  6467 
  
  "Reader report"
          "64"  "128"
  "4096"   14881  0 
  
  "Re-Reader report"
          "64"  "128"
  "4096"   14881  0 
  
  "Random read report"
          "64"  "128"
  "4096"   4813  0 
  
  "Random write report"
          "64"  "128"
  "4096"   5266  0 
  exiting iozone
  
  platter: interrupted
  platter: interrupted phase 'read 4096 128' after 0.14 s: 17 ops, 2.23 MB (122 IOPS, 15.9 MB/s), latency \xc2\xb5s: mean 8224, p50 8716, p99 8716, max 8738 (esc)
  [130]
  $ ls
