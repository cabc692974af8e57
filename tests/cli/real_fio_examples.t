platter.fio_job against fio's own example job files, as Debian installs
them (/usr/share/doc/fio/examples, when fio and its examples are there):
each one that uses only what platter takes gives fio's --showcmd line byte
for byte; each other one is refused with an error naming what platter does
not take (an option, an engine), or as fio refuses it (an engine fio
cannot load).

  $ command -v fio >/dev/null || exit 80
  $ test -d /usr/share/doc/fio/examples || exit 80
  $ cat > sc.lua <<'EOF'
  > local fj = require "platter.fio_job"
  > local env = {
  >   read_file = function(p)
  >     local f = io.open(p)
  >     if not f then return nil end
  >     local s = f:read("*a")
  >     f:close()
  >     return s
  >   end,
  >   getenv = os.getenv,
  > }
  > local ok, cfg = pcall(fj.parse, { ... }, env)
  > if not ok then
  >   io.stderr:write(cfg, "\n")
  >   os.exit(1, true)  -- close the state: nothing left for LeakSanitizer
  > end
  > io.write(fj.showcmd(cfg))
  > EOF

  $ n=0; for f in /usr/share/doc/fio/examples/*.fio; do
  >   if platter --trust sc.lua --showcmd "$f" > ours.out 2> ours.err; then
  >     fio --showcmd "$f" > real.out 2>&1; cmp -s real.out ours.out && n=$((n+1)) || echo "differs: $f"
  >   else
  >     grep -q 'not supported by platter fio\|not loadable' ours.err || { echo "$f:"; cat ours.err; }
  >   fi
  > done; test "$n" -ge 15 && echo "at least 15 examples the same"
  at least 15 examples the same
