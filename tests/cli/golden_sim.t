Golden outputs: every shipped workload on the simulated disk (docs/sim.md),
whole output (stdout and stderr) byte for byte. The virtual clock makes them
repeat exactly, on LuaJIT and Lua 5.4 alike. After a deliberate change to a
workload's output or to the model, regenerate with
cram3 -i -y tests/cli/golden_sim.t (platter on PATH, PLATTER_LUA_DIR set).

  $ platter --sim hitachi-85mb-1988 sweep -s 4m -d 0.5 --max 64k 2>&1
  sweep: making scratch file platter-sweep.4242.dat (4 MiB)
  Random
  bsize\treq/sec\tbw\treq/sec\tbw (esc)
  \tcooked\tcooked\traw\traw (esc)
  512\t47.9733\t24562\t49.6933\t25442 (esc)
  1024\t17.1384\t17549\t38.7448\t39674 (esc)
  2048\t11.308\t23158\t39.2315\t80346 (esc)
  4096\t5.97196\t24461\t29.6025\t121251 (esc)
  8192\t3.32096\t27205\t22.5148\t184441 (esc)
  16384\t1.7011\t27870\t15.7156\t257483 (esc)
  32768\t0.858243\t28122\t9.5276\t312200 (esc)
  65536\t0.438039\t28707\t5.1956\t340498 (esc)
  
  Reread
  bsize\treq/sec\tbw\treq/sec\tbw (esc)
  \tcooked\tcooked\traw\traw (esc)
  512\t945.209\t483947\t59.6892\t30560 (esc)
  1024\t525.243\t537848\t60.0152\t61455 (esc)
  2048\t267.985\t548832\t59.8155\t122502 (esc)
  4096\t118.61\t485826\t60.2716\t246872 (esc)
  8192\t37.4003\t306383\t30.0318\t246020 (esc)
  16384\t1.68214\t27560\t19.6022\t321162 (esc)
  32768\t0.865819\t28371\t9.9074\t324645 (esc)
  65536\t0.43618\t28585\t5.51749\t361594 (esc)
  
  Linear
  bsize\treq/sec\tbw\treq/sec\tbw (esc)
  \tcooked\tcooked\traw\traw (esc)
  512\t55.9283\t28635\t58.0394\t29716 (esc)
  1024\t27.9956\t28667\t53.8141\t55105 (esc)
  2048\t14.0387\t28751\t48.0596\t98426 (esc)
  4096\t6.67939\t27358\t37.7684\t154699 (esc)
  8192\t3.32183\t27212\t26.3429\t215800 (esc)
  16384\t1.67815\t27494\t16.8394\t275896 (esc)
  32768\t0.85911\t28151\t9.75951\t319799 (esc)
  65536\t0.43764\t28681\t5.44096\t356579 (esc)
  $ platter --sim ata-5400-1999 bonnie -s 300 -m sim1999 2>&1
  File './Bonnie.4242', size: 314572800
  Writing with putc()...done
  Rewriting...done
  Writing intelligently...done
  Reading with getc()...done
  Reading intelligently...done
  Seeker 1...Seeker 2...Seeker 3...start 'em...done...done...done...
                -------Sequential Output-------- ---Sequential Input-- --Random--
                -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---
  Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU
  sim1999   300  9990 50.4 17462 15.3  6341 11.2  8739 44.1 14642 12.9 145.4  2.3
  $ platter --sim ata-5400-1999 bonnie++ -s 300 -r 128 -n 1 -m sim 2>&1
  Writing a byte at a time...done
  Writing intelligently...done
  Rewriting...done
  Reading a byte at a time...done
  Reading intelligently...done
  start 'em...done...done...done...done...done...
  Create files in sequential order...done.
  Stat files in sequential order...done.
  Delete files in sequential order...done.
  Create files in random order...done.
  Stat files in random order...done.
  Delete files in random order...done.
  Version  1.97       ------Sequential Output------ --Sequential Input- --Random-
  Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
  Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
  sim            300M   239  98 12583  11  6631  12   241  99 23156  20 138.4   1
  Latency             32833us   73742us   89053us   48400us    2556us    1544ms
  Version  1.97       ------Sequential Create------ --------Random Create--------
  sim                 -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
                files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
                    1 +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++
  Latency                 4us       4us       4us       4us       4us       4us
  1.97,1.97,sim,1,1,300M,,239,98,12583,11,6631,12,241,99,23156,20,138.4,1,1,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,32833us,73742us,89053us,48400us,2556us,1544ms,4us,4us,4us,4us,4us,4us
  $ platter --sim ata-5400-1999 bonnie++ --as 2.00a -s 300 -r 128 -n 1 -m sim 2>&1
  Writing a byte at a time...done
  Writing intelligently...done
  Rewriting...done
  Reading a byte at a time...done
  Reading intelligently...done
  start 'em...done...done...done...done...done...
  Create files in sequential order...done.
  Stat files in sequential order...done.
  Delete files in sequential order...done.
  Create files in random order...done.
  Stat files in random order...done.
  Delete files in random order...done.
  Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-
                      -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
  Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
  sim            300M  239k  98 12.3m  11 6631k  12  241k  99 22.6m  20 138.4   1
  Latency             32833us   73742us   89053us   48400us    2556us    1544ms
  Version 2.00a       ------Sequential Create------ --------Random Create--------
  sim                 -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
                files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
                    1 +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++
  Latency                 4us       4us       4us       4us       4us       4us
  1.98,2.00a,sim,1,1,300M,,8192,5,239,98,12583,11,6631,12,241,99,23156,20,138.4,1,1,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,32833us,73742us,89053us,48400us,2556us,1544ms,4us,4us,4us,4us,4us,4us
  $ platter --sim ata-5400-1999 bonnie++ --as 2.00a -s 300:16k:1000:3 -c 2 -r 128 -f -n 0 -m sim -q 2>&1
  Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-
                      -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
  Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
  sim 300M:16k:2:1000           12.3m  11 6625k  11           14.3m  12 128.6   2
  Latency                       74067us   89970us             16525us     380ms
  
  1.98,2.00a,sim,2,1,300M,,1000,3,,,12595,11,6625,11,,,14640,12,128.6,2,,,,,,,,,,,,,,,,,,,74067us,89970us,,16525us,380ms,,,,,,
  $ platter --sim ata-5400-1999 bonnie++ --as 1.03 -s 300 -r 128 -n 1 -m sim 2>&1
  Writing with putc()...done
  Writing intelligently...done
  Rewriting...done
  Reading with getc()...done
  Reading intelligently...done
  start 'em...done...done...done...
  Create files in sequential order...done.
  Stat files in sequential order...done.
  Delete files in sequential order...done.
  Create files in random order...done.
  Stat files in random order...done.
  Delete files in random order...done.
  Version  1.03       ------Sequential Output------ --Sequential Input- --Random-
                      -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
  Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
  sim            300M  9990  50 17441  15  6346  11  8738  44 14642  13 155.2   1
                      ------Sequential Create------ --------Random Create--------
                      -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
                files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
                    1 +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++
  sim,300M,9990,50,17441,15,6346,11,8738,44,14642,13,155.2,1,1,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++
  $ platter --sim ata-5400-1999 bonnie++ --as 1.03 -s 1100 -r 0 -f -n 0 -x 2 -m sim 2>&1
  name,file_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu
  Writing intelligently...done
  Rewriting...done
  platter: warning: phase 'Rewriting' used ./Bonnie.4242.001 (76 MiB) through the page cache with 128 MiB of RAM, and 100% of it was in the page cache at the start: the cache may be answering (drop it with f:drop_cache() first, open it with direct = true, or use a data set over twice RAM)
  Reading intelligently...done
  start 'em...done...done...done...
  sim,1100M,,,12922,11,6190,11,,,12915,11,97.6,0,,,,,,,,,,,,,
  Writing intelligently...done
  Rewriting...done
  Reading intelligently...done
  start 'em...done...done...done...
  sim,1100M,,,11905,10,5821,10,,,12068,10,99.0,0,,,,,,,,,,,,,
  $ platter --sim ata-5400-1999 bonnie++ -s 10 -r 0 -m sim 2>&1
  Writing a byte at a time...done
  Writing intelligently...done
  Rewriting...done
  platter: warning: phase 'Rewriting' used ./Bonnie.4242 (10 MiB) through the page cache with 128 MiB of RAM, and 100% of it was in the page cache at the start: the cache may be answering (drop it with f:drop_cache() first, open it with direct = true, or use a data set over twice RAM)
  Reading a byte at a time...done
  Reading intelligently...done
  start 'em...done...done...done...done...done...
  Create files in sequential order...done.
  Stat files in sequential order...done.
  Delete files in sequential order...done.
  Create files in random order...done.
  Stat files in random order...done.
  Delete files in random order...done.
  Version  1.97       ------Sequential Output------ --Sequential Input- --Random-
  Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
  Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
  sim             10M   239  98 12792  11 11520  20   243 100 +++++ +++  2152  17
  Latency             32833us      72us     145us   32833us      72us     672ms
  Version  1.97       ------Sequential Create------ --------Random Create--------
  sim                 -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
                files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
                   16 +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++
  Latency                 4us       4us       4us       4us       4us       4us
  1.97,1.97,sim,1,1,10M,,239,98,12792,11,11520,20,243,100,+++++,+++,2152,17,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,32833us,72us,145us,32833us,72us,672ms,4us,4us,4us,4us,4us,4us
  $ platter --sim ata-5400-1999 iozone -s 64m -r 64k -i 0 -i 1 -i 2 2>&1
  \tIozone: Performance Test of File I/O (esc)
  \t        Version $Revision: 3.489 $ (esc)
  \t\tCompiled for 64 bit mode. (esc)
  \t\tBuild: platter-0.1.0  (esc)
  
  \tContributors:William Norcott, Don Capps, Isom Crawford, Kirby Collins (esc)
  \t             Al Slater, Scott Rhine, Mike Wisner, Ken Goss (esc)
  \t             Steve Landherr, Brad Smith, Mark Kelly, Dr. Alain CYR, (esc)
  \t             Randy Dunlap, Mark Montague, Dan Million, Gavin Brebner, (esc)
  \t             Jean-Marc Zucconi, Jeff Blomberg, Benny Halevy, Dave Boone, (esc)
  \t             Erik Habbinga, Kris Strecker, Walter Wong, Joshua Root, (esc)
  \t             Fabrice Bacchella, Zhenghua Xue, Qin Li, Darren Sawyer, (esc)
  \t             Vangel Bojaxhi, Ben England, Vikentsi Lapa, (esc)
  \t             Alexey Skidanov, Sudhir Kumar. (esc)
  
  \tRun began: Thu Jan  1 00:00:00 1970 (esc)
  
  \tFile size set to 65536 kB (esc)
  \tRecord Size 64 kB (esc)
  \tCommand line used: iozone -s 64m -r 64k -i 0 -i 1 -i 2 (esc)
  \tOutput is in kBytes/sec (esc)
  \tTime Resolution = 0.000001 seconds. (esc)
  \tProcessor cache size set to 1024 kBytes. (esc)
  \tProcessor cache line size set to 32 bytes. (esc)
  \tFile stride size set to 17 * record size. (esc)
                                                                random    random     bkwd    record    stride                                    
                kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread
             65536      64   116335   116335   116335   116335   116124   116124                                                                
  platter: warning: phase 'rewrite 65536 64' used iozone.tmp (64 MiB) through the page cache with 128 MiB of RAM, and 100% of it was in the page cache at the start: the cache may be answering (drop it with f:drop_cache() first, open it with direct = true, or use a data set over twice RAM)
  
  iozone test complete.
  $ platter --sim ata-5400-1999 dd if=/dev/zero of=big.dat bs=1M count=64 conv=fdatasync 2>&1
  64+0 records in
  64+0 records out
  67108864 bytes (67 MB, 64 MiB) copied, 5.59614 s, 12.0 MB/s
  $ platter --sim ata-5400-1999 dd if=/dev/hda of=/dev/null bs=32k count=1000 2>&1
  1000+0 records in
  1000+0 records out
  32768000 bytes (33 MB, 31 MiB) copied, 2.20056 s, 14.9 MB/s
  $ platter --sim ata-5400-1999 hdparm -tT /dev/hda 2>&1
  
  /dev/hda:
   Timing cached reads:   212 MB in  2.00 seconds = 105.89 MB/sec
   Timing buffered disk reads:  44 MB in  3.10 seconds =  14.19 MB/sec

hdparm's releases (--as): 8.x to 9.28 put two spaces after the -t label;
before 8.x -T's first read is followed by a sync() instead of a cache flush
(so more of the 2 MiB stays cached: a higher -T); 5.4 to 6.6 double -T's
figures (BUFCACHE_FACTOR); 5.5 says "buffer-cache"; --style 6 is --as 8.6.

  $ for v in 8.6 7.1 5.8 5.5; do platter --sim ata-5400-1999 hdparm -tT -q --as $v /dev/hda; done
   Timing cached reads:   212 MB in  2.00 seconds = 105.89 MB/sec
   Timing buffered disk reads:   44 MB in  3.10 seconds =  14.19 MB/sec
   Timing cached reads:   230 MB in  2.01 seconds = 114.41 MB/sec
   Timing buffered disk reads:   44 MB in  3.10 seconds =  14.18 MB/sec
   Timing cached reads:   460 MB in  2.01 seconds = 228.83 MB/sec
   Timing buffered disk reads:   44 MB in  3.10 seconds =  14.18 MB/sec
   Timing buffer-cache reads:   460 MB in  2.01 seconds = 228.83 MB/sec
   Timing buffered disk reads:   44 MB in  3.10 seconds =  14.18 MB/sec
  $ platter --sim ata-5400-1999 hdparm -tT -q --style 6 /dev/hda
   Timing cached reads:   212 MB in  2.00 seconds = 105.89 MB/sec
   Timing buffered disk reads:   44 MB in  3.10 seconds =  14.19 MB/sec
  $ platter --sim ata-5400-1999 hdparm -t --as 5.5 --direct /dev/hda
  platter: hdparm: --direct needs --as 5.8 or later (it came with hdparm 5.8)
  Try 'platter hdparm --help'.
  [2]
  $ platter --sim ata-5400-1999 ioping -c 5 -i 0 /dev/hda 2>&1
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=1 time=24.5 ms (warmup)
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=2 time=9.39 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=3 time=6.88 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=4 time=12.1 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=5 time=10.6 ms
  
  --- /dev/hda (block device 5.96 GiB) ioping statistics ---
  4 requests completed in 38.9 ms, 16 KiB read, 102 iops, 410.9 KiB/s
  generated 5 requests in 63.5 ms, 20 KiB, 78 iops, 315.0 KiB/s
  min/avg/max/mdev = 6.88 ms / 9.74 ms / 12.1 ms / 1.90 ms

ioping's releases (--as, from ioping.c of each tag): 1.0 to 1.2 mark a
request "fast" or "slow" by where it falls in the range seen so far (1.3:
against the average); up to 1.1 a directory shows no filesystem size; 0.9
says "from", counts the first request, times in microseconds and has no
"generated" line.

  $ for v in 1.2 1.0 0.9; do platter --sim ata-5400-1999 ioping -c 8 -i 0 --as $v /dev/hda 2>&1; done
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=1 time=24.5 ms (warmup)
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=2 time=9.39 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=3 time=6.88 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=4 time=12.1 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=5 time=10.6 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=6 time=15.4 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=7 time=9.58 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=8 time=21.4 ms (slow)
  
  --- /dev/hda (block device 5.96 GiB) ioping statistics ---
  7 requests completed in 85.3 ms, 28 KiB read, 82 iops, 328.2 KiB/s
  generated 8 requests in 109.9 ms, 32 KiB, 72 iops, 291.3 KiB/s
  min/avg/max/mdev = 6.88 ms / 12.2 ms / 21.4 ms / 4.48 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=1 time=24.5 ms (warmup)
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=2 time=9.39 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=3 time=6.88 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=4 time=12.1 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=5 time=10.6 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=6 time=15.4 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=7 time=9.58 ms
  4 KiB <<< /dev/hda (block device 5.96 GiB): request=8 time=21.4 ms (slow)
  
  --- /dev/hda (block device 5.96 GiB) ioping statistics ---
  7 requests completed in 85.3 ms, 28 KiB read, 82 iops, 328.2 KiB/s
  generated 8 requests in 109.9 ms, 32 KiB, 72 iops, 291.3 KiB/s
  min/avg/max/mdev = 6.88 ms / 12.2 ms / 21.4 ms / 4.48 ms
  4 KiB from /dev/hda (block device 5.96 GiB): request=1 time=24.5 ms
  4 KiB from /dev/hda (block device 5.96 GiB): request=2 time=9.39 ms
  4 KiB from /dev/hda (block device 5.96 GiB): request=3 time=6.88 ms
  4 KiB from /dev/hda (block device 5.96 GiB): request=4 time=12.1 ms
  4 KiB from /dev/hda (block device 5.96 GiB): request=5 time=10.6 ms
  4 KiB from /dev/hda (block device 5.96 GiB): request=6 time=15.4 ms
  4 KiB from /dev/hda (block device 5.96 GiB): request=7 time=9.58 ms
  4 KiB from /dev/hda (block device 5.96 GiB): request=8 time=21.4 ms
  
  --- /dev/hda (block device 5.96 GiB) ioping statistics ---
  8 requests completed in 109.9 ms, 72 iops, 291.4 KiB/s
  min/avg/max/mdev = 6.88 ms / 13.7 ms / 24.5 ms / 5.85 ms
  $ platter --sim ata-5400-1999 ioping -c 2 -i 0 --as 1.0 . 2>&1 | head -1
  4 KiB <<< . (simfs /dev/sim0): request=1 time=12.6 ms (warmup)
  $ platter --sim ata-5400-1999 ioping -c 2 -i 0 . 2>&1 | head -1
  4 KiB <<< . (simfs /dev/sim0 5.96 GiB): request=1 time=12.6 ms (warmup)
  $ platter --sim ata-5400-1999 ioping -c 2 -G --as 0.9 /dev/hda
  platter: ioping: -G came with ioping 1.0 (not in --as 0.9)
  Try 'platter ioping --help'.
  [2]
  $ platter --sim ata-5400-1999 ioping -c 2 -a 2 --as 1.0 /dev/hda
  platter: ioping: -a came with ioping 1.2 (not in --as 1.0)
  Try 'platter ioping --help'.
  [2]
  $ platter --sim ata-5400-1999 zones /dev/hda 2>&1
  zones: /dev/hda, 10 points of 64 MiB in 1 MiB requests, O_DIRECT
  zone\toffset\tMiB/s (esc)
  0\t0\t14.27 (esc)
  1\t703594496\t13.64 (esc)
  2\t1407188992\t13.01 (esc)
  3\t2110783488\t12.40 (esc)
  4\t2814377984\t11.76 (esc)
  5\t3517972480\t11.14 (esc)
  6\t4221566976\t10.52 (esc)
  7\t4925161472\t9.88 (esc)
  8\t5628755968\t9.25 (esc)
  9\t6332350464\t8.62 (esc)
  # first 14.27, last 8.62, last/first 0.60
  $ platter --sim hitachi-85mb-1988 readahead 2>&1
  readahead: making scratch file platter-readahead.4242.dat (32 MiB)
  readahead probe of platter-readahead.4242.dat (simfs on sim0, read_ahead_kb 1)
  one 2 KiB read at offset 0 after dropping the cache brought in 2560 B
  during 256 consecutive 2 KiB reads it read ahead up to 2560 B at a time and kept up to 512 B ahead of the reader
  effective readahead window: 2 KiB
  
  request  readahead as set       readahead off (POSIX_FADV_RANDOM)
  2 KiB     68.16 ms  29.3 KiB/s   68.16 ms  29.3 KiB/s
  8 KiB    273.44 ms  29.3 KiB/s  273.44 ms  29.3 KiB/s
  
  readahead is working: the kernel reads up to 2 KiB ahead; consecutive 2 KiB reads take 68.16 ms each with it and 68.16 ms without (1.0x)
  $ platter --sim nvme sweep -s 4m -d 0.2 --max 16k -m raw 2>&1
  sweep: making scratch file platter-sweep.4242.dat (4 MiB)
  Random
  bsize\treq/sec\tbw (esc)
  \traw\traw (esc)
  512\t11880.6\t6082855 (esc)
  1024\t11856.6\t12141188 (esc)
  2048\t11808.7\t24184310 (esc)
  4096\t11714.4\t47982194 (esc)
  8192\t11529.9\t94452963 (esc)
  16384\t11178.1\t183141257 (esc)
  
  Reread
  bsize\treq/sec\tbw (esc)
  \traw\traw (esc)
  512\t11880.6\t6082855 (esc)
  1024\t11856.6\t12141188 (esc)
  2048\t11808.7\t24184310 (esc)
  4096\t11714.4\t47982194 (esc)
  8192\t11529.9\t94452963 (esc)
  16384\t11178.1\t183141257 (esc)
  
  Linear
  bsize\treq/sec\tbw (esc)
  \traw\traw (esc)
  512\t11908.9\t6097343 (esc)
  1024\t11884.8\t12170047 (esc)
  2048\t11836.7\t24241539 (esc)
  4096\t11741.9\t48094778 (esc)
  8192\t11556.5\t94670895 (esc)
  16384\t11203\t183550138 (esc)
