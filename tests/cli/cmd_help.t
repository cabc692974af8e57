platter --help (or -h) prints the usage on stdout and exits 0.

  $ platter --help
  usage: platter [options] WORKLOAD|SCRIPT.lua [args...]
         platter [options] -e CODE [args...]
         platter [options] NAME.platter [args...]
         platter list
         platter compare A.json B.json [...]
         platter plot RESULT.json -o OUT.png|svg
         platter rerun RESULT.json
         platter pack SCRIPT.lua [MORE.lua...] [-o NAME.platter] [-m MODULE]...
         platter verify [--json] [--sha256 HEX] NAME.platter
         platter selftest
         platter describe [--json] SCRIPT
         platter plan [--json] [--sim PRESET] [--budget T] [--env NAME] SCRIPT [args...]
         platter --version [-v]
  
  Runs a storage benchmark written in Lua: a shipped workload by name
  (see 'platter list') or a script file. Options:
    --trust          lift the sandbox (full Lua libraries, any path)
                     (sandboxed, a script may use the current directory, $TMPDIR
                     and the paths named after it: a named directory grants its
                     tree, a named file that file; see docs/sandbox.md)
    --destroy        allow writing to block devices
    --env NAME       a sandboxed script may read the environment variable NAME
                     (p.getenv; fio job files' ${NAME}); repeat for more
    --quiet          no progress or informational messages
    --seed N         seed of the random number generator (default 1)
    --interval T     every phase and run keeps a time series in intervals of T (e.g. 100ms)
    --json FILE      write the full result record (JSON) to FILE
    --csv FILE       write one CSV row per phase to FILE
    --repeat N       run the whole workload N times; report mean, stddev, 95% CI
    --ci P%          repeat until the 95% CI half-width is under P% of the mean
    --sim PRESET     run on a simulated disk with a virtual clock
    --target NAME    where the bytes live: os (the default), null (every I/O done at
                     once, no system call: platter's own cost), sim:PRESET (--sim)
    --max-memory SIZE
                     bound what a script makes platter hold: its Lua heap, I/O buffers
                     and workers (default: a quarter of RAM; 0: no bound)
    --verbose, -v    tracebacks with errors; more detail with --version
    --lua-dir DIR    load lua/ and workloads/ from DIR (also $PLATTER_LUA_DIR)
    --mpi            load the MPI module though not started by mpirun (one rank)
    -e CODE          run CODE instead of a script
    --help, -h       this text
  Exit status: 0 ok, 1 error, 2 usage error, 130 interrupted.
  $ platter -h | cmp - <(platter --help) && echo same
  same
  $ platter --help 2>&1 >/dev/null | wc -c
  0

--help is taken before anything after it, so nothing runs.

  $ platter --help -e 'print("ran")' | grep -cx ran
  0
  [1]

After the workload name, --help belongs to the workload: platter sweep
--help prints the workload's own usage, built by p.args from its spec, and
exits 0.

  $ platter sweep --help
  usage: platter sweep [options] [TARGET]
  Lewis 1988 block-size sweep: req/sec and bytes/sec per block size, cooked (page cache) and raw (O_DIRECT).
  
  options:
    -s, --size SIZE      size of the scratch file made when no TARGET is given (default 64m)
    --min SIZE           smallest block size, doubled up to --max (at least 1) (default 512)
    --max SIZE           largest block size (default 512k)
    -t, --tests LIST     tests to run, comma-separated (default random,reread,linear)
    -m, --modes LIST     cooked, raw or both (default cooked,raw)
    -d, --duration TIME  time spent on each cell (default 0.2s)
    --keep-cache         do not drop TARGET's cached pages before each cooked cell
  
  TARGET is a file or block device to read; without one, a scratch file of
  --size bytes is made in the current directory and removed at the end.
  $ platter sweep -h | cmp - <(platter sweep --help) && echo same
  same

Asking for help makes no scratch file.

  $ ls
