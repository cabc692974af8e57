-- p.args: the argument parser workloads use, with the flag styles of the
-- tools platter imitates, types, defaults, usage errors and --help.
local T = ...
local p = require "platter"

local function spec()
  return {
    name = "demo",
    usage = "[options] [FILE]",
    summary = "A demo workload.",
    options = {
      { "-s", "--size", arg = "N", type = "int", help = "size" },
      { "-t", help = "flag t" },
      { "-T", help = "flag T" },
      { "-o", "--offset", arg = "OFF", type = "size", default = "1m", help = "offset" },
      { "-html", help = "html output" },
      { "if=", arg = "FILE", help = "input file" },
      { "bs=", arg = "BYTES", type = "size", default = 512, help = "block size" },
      { "-f", "--file", arg = "F", multi = true, help = "a file (repeatable)" },
      { "-v", count = true, help = "verbosity" },
      { "--time", arg = "T", type = "time", default = "2s", help = "duration" },
      { "--mode", arg = "M", choices = { "read", "write" }, default = "read", help = "mode" },
      { "--ratio", arg = "R", type = "number", help = "ratio" },
      { "--dry-run", help = "do nothing" },
    },
    positional = { { "file", arg = "FILE", optional = true } },
    rest = true,
  }
end

local function parse(...) return p.args(spec(), ...) end

-- fn must raise a usage error (a table with platter_usage) containing sub.
local function usage(fn, sub)
  local ok, err = pcall(fn)
  T.eq(ok, false, "raised")
  T.eq(type(err), "table", "error is a table (" .. tostring(err) .. ")")
  T.eq(type(err.platter_usage), "string", "platter_usage")
  T.has(err.platter_usage, sub, "usage message")
  T.has(err.platter_usage, "Try 'platter demo --help'.", "hint")
  return err.platter_usage
end

local function script(body)
  local d = T.tmpdir()
  local path = d .. "/demo.lua"
  local fh = assert(io.open(path, "w"))
  fh:write(body)
  fh:close()
  return path, d
end

T.test("defaults", function()
  local o = parse()
  T.eq(o.size, nil, "no default: nil")
  T.eq(o.t, false, "flag default false")
  T.eq(o.T, false, "flag T default false")
  T.eq(o.offset, 1048576, "size default given as a string is converted")
  T.eq(o.bs, 512, "numeric default")
  T.eq(o.time, 2, "time default")
  T.eq(o.mode, "read", "choices default")
  T.eq(o.v, 0, "count default")
  T.eq(type(o.file), "table", "multi default is a table")
  T.eq(#o.file, 0, "multi default is empty")
  T.eq(o.html, false, "single-dash long default")
  T.eq(o.dry_run, false, "dashes become underscores in keys")
end)

T.test("-s 100 and -s100 and --size 100 and --size=100", function()
  T.eq(parse("-s", "100").size, 100, "-s 100")
  T.eq(parse("-s100").size, 100, "-s100")
  T.eq(parse("--size", "100").size, 100, "--size 100")
  T.eq(parse("--size=100").size, 100, "--size=100")
  T.eq(parse("-s", "1", "-s", "2").size, 2, "repeated: last wins")
end)

T.test("bundled flags -tT, and a value at the end of a bundle", function()
  local o = parse("-tT")
  T.eq(o.t, true, "-t")
  T.eq(o.T, true, "-T")
  o = parse("-t")
  T.eq(o.t, true, "-t alone")
  T.eq(o.T, false, "-T not set")
  o = parse("-ts7")
  T.eq(o.t, true, "-t in -ts7")
  T.eq(o.size, 7, "-s7 in -ts7")
  o = parse("-Ts", "8")
  T.eq(o.T, true, "-T in -Ts 8")
  T.eq(o.size, 8, "-s 8 after a bundle")
end)

T.test("--offset 2 and --offset=2 (sizes)", function()
  T.eq(parse("--offset", "2").offset, 2, "--offset 2")
  T.eq(parse("--offset=2").offset, 2, "--offset=2")
  T.eq(parse("--offset=4k").offset, 4096, "--offset=4k")
  T.eq(parse("-o", "1g").offset, 1073741824, "-o 1g")
  usage(function() parse("--offset=") end, "bad value '' for --offset: bad size '': empty")
end)

T.test("single-dash long option -html", function()
  T.eq(parse("-html").html, true, "-html")
  T.eq(parse("-html").t, false, "-html is not -h -t -m -l")
end)

T.test("dd style key=value: if=x bs=4k", function()
  local o = parse("if=x", "bs=4k")
  T.eq(o["if"], "x", "if")
  T.eq(o.bs, 4096, "bs")
  T.eq(parse("if=a=b")["if"], "a=b", "a value containing '='")
  T.eq(parse("if=")["if"], "", "empty value")
  local o1 = parse("if=", "bs=1k")
  T.eq(o1["if"], "", "an empty value does not take the next word")
  T.eq(o1.bs, 1024, "the next word is still an operand")
  -- an unknown key=value is a positional unless the spec says keyvalue
  local o2 = parse("foo=1")
  T.eq(o2[1], "foo=1", "positional")
  local s = spec()
  s.keyvalue = true
  local ok, err = pcall(p.args, s, "foo=1")
  T.eq(ok, false, "keyvalue spec refuses unknown operands")
  T.has(err.platter_usage, "unknown operand 'foo'", "message")
end)

T.test("repeated options: multi collects, count counts", function()
  local o = parse("-f", "a", "--file", "b", "--file=c", "-fd")
  T.eq(#o.file, 4, "four files")
  T.eq(table.concat(o.file, ","), "a,b,c,d", "in order")
  T.eq(parse("-v", "-v", "-v").v, 3, "-v -v -v")
  T.eq(parse("-vvv").v, 3, "-vvv")
  T.eq(parse("-vtv").v, 2, "-vtv")
end)

T.test("types: size, int, time, number, choices", function()
  local o = parse("--time", "500ms", "--mode", "write", "--ratio", "0.25", "-s", "12")
  T.eq(o.time, 0.5, "time")
  T.eq(o.mode, "write", "choice")
  T.eq(o.ratio, 0.25, "number")
  T.eq(o.size, 12, "int")
end)

T.test("type errors are usage errors naming the option and value", function()
  usage(function() parse("-s", "1.5") end, "bad value '1.5' for -s: not an integer")
  usage(function() parse("--size=abc") end, "bad value 'abc' for --size: not an integer")
  usage(function() parse("-o", "12q") end, "bad value '12q' for -o: bad size '12q': unknown unit 'q'")
  usage(function() parse("bs=-1") end, "bad value '-1' for bs=: bad size '-1': negative")
  usage(function() parse("--time", "5d") end, "bad value '5d' for --time: bad duration '5d'")
  usage(function() parse("--mode", "append") end,
    "bad value 'append' for --mode: expected one of read, write")
  usage(function() parse("--ratio", "lots") end, "bad value 'lots' for --ratio: not a number")
end)

T.test("other usage errors", function()
  usage(function() parse("--nope") end, "unknown option '--nope'")
  usage(function() parse("--nope=1") end, "unknown option '--nope'")
  usage(function() parse("-x") end, "unknown option '-x'")
  usage(function() parse("-tx") end, "unknown option '-x'")
  usage(function() parse("-s") end, "option '-s' needs a value")
  usage(function() parse("--size") end, "option '--size' needs a value")
  usage(function() parse("--dry-run=yes") end, "option '--dry-run' takes no value")
  local s = spec()
  s.rest = nil
  local ok, err = pcall(p.args, s, "a", "b")
  T.eq(ok, false, "too many positionals")
  T.has(err.platter_usage, "unexpected argument 'b'", "message")
  s.positional = { { "file", arg = "FILE" } }
  ok, err = pcall(p.args, s)
  T.eq(ok, false, "missing positional")
  T.has(err.platter_usage, "missing FILE", "message")
  T.raises(function() p.args("nope") end, "bad argument #1 to 'args' (table expected, got string)")
end)

T.test("a malformed spec is named at the script's line, never inside platter.args", function()
  -- each of these stopped inside lua/platter/args.lua ("attempt to index local 'n'",
  -- "bad argument #1 to 'ipairs'", "table index is nil", ...)
  local NAME = "a name such as \"-s\", \"--size\" or \"bs=\" expected"
  local cases = {
    { { options = "x" }, "options: a list of entries expected, got string" },
    { { options = { "-s" } }, "options[1]: a table expected, got string" },
    { { options = { { 5, arg = "N" } } }, "options[1][1]: " .. NAME .. ", got number" },
    { { options = { { "size" } } }, "options[1][1]: " .. NAME .. ", got 'size'" },
    { { options = { { arg = "N" } } }, "options[1]: no name" },
    { { options = { { "-s", type = "bytes" } } },
      "options[1].type: \"string\", \"size\", \"time\", \"number\" or \"int\" expected, got 'bytes'" },
    { { options = { { "-s", choices = "ab" } } }, "options[1].choices: a list expected, got string" },
    { { options = { { "-s", choices = { {} } } } }, "options[1].choices[1]: a string or number expected, got table" },
    { { options = { { "-s", key = 5 } } }, "options[1].key: a string expected, got number" },
    { { positional = true }, "positional: a list of entries expected, got boolean" },
    { { positional = { { 1 } } }, "positional[1][1]: a name expected, got number" },
    { { name = {} }, "name: a string expected, got table" },
    { { rest = "yes" }, "rest: a boolean expected, got string" },
    { { long_only = 1 }, "long_only: a boolean expected, got number" },
    { { options = { { "-J", unsupported = true } } },
      "options[1].unsupported: a string expected, got boolean" },
  }
  for _, c in ipairs(cases) do
    local e = T.raises(function() p.args(c[1], "-s", "4k") end, "bad argument #1 to 'args' (" .. c[2] .. ")",
      c[2])
    T.ok(e:find("test_args.lua:", 1, true) and not e:find("platter/args.lua", 1, true),
      "at the script's line: " .. e)
  end
end)

T.test("long_only: single-dash long names and abbreviations, as getopt_long_only", function()
  local function lo(...)
    return p.args({ name = "demo", long_only = true, rest = true, options = {
      { "-c", "--count", arg = "N", type = "int" }, { "-C", "--cached" },
      { "-q", "--quiet" }, { "-s", "--size", arg = "S" }, { "-D", "--direct" },
      { "-r", "--rate-limit", arg = "R", unsupported = "a rate limit" }, { "-R", "--rapid" },
    } }, ...)
  end
  local o = lo("-count", "3", "-quiet", "-size=4k", "x")
  T.eq(o.count, 3, "-count 3")
  T.eq(o.quiet, true, "-quiet")
  T.eq(o.size, "4k", "-size=4k")
  T.eq(o[1], "x", "positional")
  T.eq(lo("-cou", "5").count, 5, "a unique abbreviation")
  T.eq(lo("-ca").cached, true, "-ca is --cached")
  T.eq(lo("-c", "7").count, 7, "a declared letter stays short")
  local b = lo("-qD", "-s4k")
  T.ok(b.quiet and b.direct and b.size == "4k", "no long name: short options")
  T.eq(lo("--count=2").count, 2, "--count=2 as ever")
  usage(function() lo("-ra") end, "option '-ra' is ambiguous; possibilities: '-rate-limit' '-rapid'")
  usage(function() lo("-quiet=1") end, "option '-quiet' takes no value")
  usage(function() lo("-rate", "5") end,
    "option '-rate' is not supported by platter's demo: a rate limit")
  usage(function() lo("-r", "5") end, "option '-r' is not supported by platter's demo: a rate limit")
  usage(function() lo("-xyz") end, "unknown option '-xyz'")
  -- without long_only, -count is -c with the value "ount"
  usage(function() p.args({ name = "demo", options = { { "-c", "--count", arg = "N", type = "int" } } },
    "-count") end, "bad value 'ount' for -c")
end)

T.test("positionals, negative numbers and --", function()
  local o = parse("a.dat", "-t", "b", "c")
  T.eq(o.file, "a.dat", "named positional")
  T.eq(o[1], "a.dat", "positional 1")
  T.eq(o[2], "b", "positional 2")
  T.eq(o[3], "c", "positional 3")
  T.eq(o.t, true, "an option between positionals")
  o = parse("-5")
  T.eq(o[1], "-5", "a negative number is a positional")
  o = parse("-t", "--", "-s", "--size=3", "x")
  T.eq(o.t, true, "before --")
  T.eq(o.size, nil, "after -- nothing is an option")
  T.eq(o[1], "-s", "positional after --")
  T.eq(o[2], "--size=3", "positional after --")
  T.eq(o[3], "x", "positional after --")
  T.eq(o.file, "-s", "named positional after --")
end)

T.test("typed positionals are converted", function()
  local s = {
    name = "demo",
    positional = { { "count", arg = "N", type = "int" }, { "size", type = "size", optional = true,
      default = 7 } },
  }
  local o = p.args(s, "5")
  T.eq(o.count, 5, "int positional")
  T.eq(o.size, 7, "default of an optional positional")
  T.eq(p.args(s, "5", "2k").size, 2048, "size positional")
  local ok, err = pcall(p.args, s, "five")
  T.eq(ok, false, "bad positional")
  T.has(err.platter_usage, "bad value 'five' for N: not an integer", "message")
end)

T.test("usage errors through platter: exit 2 and 'platter: demo: ...'", function()
  local path, d = script([[
    local p = require "platter"
    local o = p.args({ name = "demo", options = { { "-s", arg = "N", type = "int" } } }, ...)
    print("size", o.s)
  ]])
  local out, err, rc = T.platter({ path, "-s", "12" }, { cwd = d })
  T.eq(rc, 0, "good args (" .. err .. ")")
  T.eq(out, "size\t12\n", "output")
  out, err, rc = T.platter({ path, "-s", "x" }, { cwd = d })
  T.eq(rc, 2, "exit status of a usage error")
  T.eq(err, "platter: demo: bad value 'x' for -s: not an integer\nTry 'platter demo --help'.\n",
    "stderr")
  T.eq(out, "", "nothing on stdout")
  err, rc = select(2, T.platter({ path, "--bogus" }, { cwd = d }))
  T.eq(rc, 2, "unknown option status")
  T.has(err, "platter: demo: unknown option '--bogus'", "stderr")
end)

T.test("--help prints the help text and exits 0", function()
  local path, d = script([[
    local p = require "platter"
    p.args({
      name = "demo", usage = "[options] FILE", summary = "Reads FILE in a pattern.",
      options = {
        { "-s", "--size", arg = "N", type = "size", default = "4k", help = "block size" },
        { "-t", help = "time it" },
        { "bs=", arg = "BYTES", help = "dd block size" },
      },
      epilog = "See docs/api.md.",
    }, ...)
    print("not reached")
  ]])
  for _, flag in ipairs { "--help", "-h" } do
    local out, err, rc = T.platter({ path, flag }, { cwd = d })
    T.eq(rc, 0, flag .. " status (" .. err .. ")")
    T.eq(err, "", flag .. " stderr")
    T.eq(out, table.concat({
      "usage: platter demo [options] FILE",
      "Reads FILE in a pattern.",
      "",
      "options:",
      "  -s, --size N  block size (default 4k)",
      "  -t            time it",
      "  bs=BYTES      dd block size",
      "",
      "See docs/api.md.",
      "",
    }, "\n"), flag .. " output")
  end
  -- --help after other arguments works too; a bad argument before it wins
  local out, _, rc = T.platter({ path, "-t", "--help" }, { cwd = d })
  T.eq(rc, 0, "-t --help status")
  T.has(out, "usage: platter demo", "help text")
  local _, err2, rc2 = T.platter({ path, "-s", "4q", "--help" }, { cwd = d })
  T.eq(rc2, 2, "bad value before --help")
  T.has(err2, "bad value '4q'", "message")
end)

T.test("a spec may define -h itself", function()
  local o = p.args({ name = "demo", options = { { "-h", help = "human" } } }, "-h")
  T.eq(o.h, true, "-h as an ordinary flag")
end)
