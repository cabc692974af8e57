-- fio 3.33: run fio job files and command lines, and print what fio prints
--
--   platter fio job.fio
--   platter fio --name=rand --rw=randread --bs=4k --size=64m --runtime=10 --time_based
--   platter fio --output-format=json --output=result.json job.fio
--
-- The job file (or command line) is read by platter.fio_job with fio's rules;
-- each job, times numjobs, runs as one p.run in a p.parallel worker (jobs
-- between two stonewalls run together, as in fio); the report is fio's, from
-- platter.fio_report: normal, terse, json and json+. platter's own record
-- (--json FILE) keeps each group as a phase, so `platter compare` reads it.
--
-- This file reads the command line; lua/platter/fio_run.lua runs the jobs
-- (its `plan` turns each job into a p.run table). To make a job your own,
-- `platter fio --lua job.fio > job.lua` writes it as a script whose p.run
-- tables you can edit; docs/fio.md says what is supported and what differs.
local p = require "platter"
-- the manifest (platter describe, platter plan); the arguments are read below,
-- with the original tool's syntax
p.script({
  name = "fio", version = "1.0", api = "platter/1", args = "own",
  description = "fio 3.33: job files and command lines, fio's reports",
  params = {
    jobfile = { type = "path", positional = true, arg = "JOBFILE...", help = "fio job files (positional)" },
    output = { type = "path", flag = "--output", arg = "FILE", help = "write the report to FILE" },
    output_format = { type = "string", flag = "--output-format", arg = "FORMAT",
      help = "normal, terse, json or json+" },
    job = { type = "string", flag = "--name", arg = "JOB",
      help = "a job on the command line: --name=JOB --option=VALUE ..." },
  },
  needs = { write = true, device = "any" },
}, ...)
local fj = require "platter.fio_job"
local fio = require "platter.fio_run"

local argv = { ... }
-- --lua is platter's: write the job as a script instead of running it
local as_lua = false
for i = #argv, 1, -1 do
  if argv[i] == "--lua" then as_lua = true; table.remove(argv, i) end
end

-- fio's own options and every job option platter fio takes, for --help, the man
-- page and the bash completion. fio's command line is not p.args' kind (each
-- --name starts a job, order matters), so platter.fio_job reads it; p.args only
-- describes it here, called with no words.
local FIO_OPTIONS = {
  { "--output", arg = "FILE", help = "write the report to FILE (named on the command line) instead of stdout" },
  { "--output-format", arg = "FORMAT", help = "normal, terse, json or json+, or several joined by commas" },
  { "--terse-version", arg = "N", help = "terse format version: 2, 3 (default), 4 or 5" },
  { "--minimal", help = "the terse format only (--output-format=terse)" },
  { "--showcmd", help = "print the job files as command-line options, and stop" },
  { "--parse-only", help = "read the job files and options, check them, and stop" },
  { "--section", arg = "NAME", help = "run only the job section NAME of the first job file" },
  { "--version", help = "print fio's version (fio-3.33), and stop" },
  { "--eta", arg = "WHEN", help = "the status line while jobs run: auto (on a terminal, the default), always, never" },
  { "--eta-newline", arg = "TIME", help = "start a new status line every TIME" },
  { "--eta-interval", arg = "TIME", help = "rewrite the status line every TIME (default 1s, at least 250ms)" },
  { "--lua", help = "write the jobs as a platter Lua script (their p.run tables) instead of running them" },
}
local ARGS = { name = "fio", usage = "[fio options] [--name=JOB --option=VALUE ...] [JOBFILE ...]",
  summary = "fio 3.33: run fio job files and command lines, and print fio's reports.",
  options = {}, rest = true,
  epilog = "Job options are written --option=VALUE on the command line, as in fio; see docs/fio.md." }
for _, o in ipairs(FIO_OPTIONS) do ARGS.options[#ARGS.options + 1] = o end
for _, s in ipairs(fj.supported()) do
  ARGS.options[#ARGS.options + 1] = { "--" .. s.name, arg = "VALUE", help = s.help or "a fio job option" }
end
p.args(ARGS)

local ok, cfg = pcall(fj.parse, argv, { read_file = p.read_text, getenv = p.getenv, keywords = fj.keywords() })
if not ok then fio.parse_failed(cfg) end

if cfg.help then p.args(ARGS, "--help") end  -- prints the help and ends the script
if cfg.version then
  p.write("fio-3.33\n")
  p.exit(0)
end
if cfg.showcmd then
  p.write(fj.showcmd(cfg))
  p.exit(0)
end
if cfg.parse_only then p.exit(0) end

if as_lua then
  local source = #cfg.files > 0 and table.concat(cfg.files, " ") or "the command line's jobs"
  p.write(fio.lua(cfg, source))
  p.exit(0)
end

fio.run(cfg)
