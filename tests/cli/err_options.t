platter's own options go before the workload name. Given after it, one that
the workload does not define itself is a usage error that says where it
belongs (it could not take effect there: --sim, --json and --csv are set up
before the script's first line runs).

  $ platter sweep --json out.json
  platter: sweep: --json is a global option: put it before the workload name (platter --json out.json sweep ...)
  Try 'platter sweep --help'.
  [2]
  $ platter sweep --seed=4
  platter: sweep: --seed is a global option: put it before the workload name (platter --seed 4 sweep ...)
  Try 'platter sweep --help'.
  [2]
  $ platter dd if=/dev/zero of=/dev/null --sim ata-5400-1999
  platter: dd: --sim is a global option: put it before the workload name (platter --sim ata-5400-1999 dd ...)
  Try 'platter dd --help'.
  [2]
  $ platter bonnie --quiet 2>&1 | head -1
  platter: bonnie: --quiet is a global option: put it before the workload name (platter --quiet bonnie ...)
  $ platter zones --repeat 3 --csv r.csv x
  platter: zones: --repeat is a global option: put it before the workload name (platter --repeat 3 zones ...)
  Try 'platter zones --help'.
  [2]

--trust and --destroy among a script's own arguments grant nothing: a
script must not lift its own sandbox. They get the same hint, and nothing
runs.

  $ platter sweep --trust /nonexistent/big.dat
  platter: sweep: --trust is a global option: put it before the workload name (platter --trust sweep ...)
  Try 'platter sweep --help'.
  [2]
  $ platter hdparm -t --destroy x
  platter: hdparm: --destroy is a global option: put it before the workload name (platter --destroy hdparm ...)
  Try 'platter hdparm --help'.
  [2]
  $ platter -e 'require("platter").args({ name = "mine" }, ...)' --trust
  platter: mine: --trust is a global option: put it before the workload name (platter --trust mine ...)
  Try 'platter mine --help'.
  [2]

A workload that defines an option of the same name keeps it (ioping's
--quiet is its own).

  $ platter --sim ata-5400-1999 ioping -c 1 --quiet . | tail -1
  min/avg/max/mdev = * (glob)
