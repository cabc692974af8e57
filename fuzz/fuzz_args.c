/*
 * libFuzzer target: the workload argument parser, p.args (lua/platter/args.lua,
 * which calls the C unit parsers), on an argv made from the input (words
 * split at NUL bytes) against a fixed spec that uses every feature: short,
 * long and dd-style names, bundled flags, "-s100" and "--x=y" forms, every
 * value type, choices, repeated and counted options, positionals and the
 * keyvalue rule. A usage error (platter_usage) or --help (platter_exit) is a
 * normal outcome; any other error, or a result that breaks the spec, is a
 * bug and aborts. See docs/fuzzing.md.
 */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "clock.h"
#include "fuzz_lua.h"
#include "host.h"

static const char driver[] =
    "local args = require 'platter.args'\n"
    "return function(data)\n"
    "local function bug(fmt, ...) error('FUZZ BUG: ' .. string.format(fmt, ...), 0) end\n"
    "local argv, i = {}, 1\n"
    "while i <= #data + 1 and #argv < 48 do\n"
    "  local j = data:find('\\0', i, true) or #data + 1\n"
    "  argv[#argv + 1] = data:sub(i, j - 1)\n"
    "  i = j + 1\n"
    "end\n"
    "local spec = {\n"
    "  name = 'fuzz', usage = '[options] FILE [N]', summary = 'the spec of fuzz_args.c',\n"
    "  keyvalue = true,\n"
    "  options = {\n"
    "    { '-s', '--size', arg = 'SIZE', type = 'size', default = '64m', help = 'a size' },\n"
    "    { '-t', '--time', arg = 'TIME', type = 'time', default = '1s' },\n"
    "    { '-n', '--number', arg = 'N', type = 'number' },\n"
    "    { '-i', '--int', arg = 'N', type = 'int', default = 3 },\n"
    "    { '-m', '--mode', arg = 'MODE', choices = { 'cooked', 'raw' }, default = 'raw' },\n"
    "    { '-o', '--out', arg = 'FILE' },\n"
    "    { '-I', '--include', arg = 'X', multi = true },\n"
    "    { '-v', '--verbose', count = true },\n"
    "    { '-q', '--quiet' },\n"
    "    { '-T' },\n"
    "    { 'bs=', arg = 'BYTES', type = 'size' },\n"
    "    { 'count=', arg = 'N', type = 'int' },\n"
    "    { 'if=', arg = 'FILE' },\n"
    "    { '-html', key = 'html' },\n"
    "  },\n"
    "  positional = { { 'file', arg = 'FILE' }, { 'n', arg = 'N', type = 'int', optional = true } "
    "},\n"
    "  epilog = 'fuzz',\n"
    "}\n"
    "local unpack = unpack or table.unpack\n"
    "local ok, o = pcall(args.parse, spec, unpack(argv))\n"
    "if not ok then\n"
    "  if type(o) == 'table' and (type(o.platter_usage) == 'string' or o.platter_exit == 0) then\n"
    "    return\n"
    "  end\n"
    "  bug('p.args raised %s, not a usage error', tostring(o))\n"
    "end\n"
    "local function typed(k, want)\n"
    "  if o[k] ~= nil and type(o[k]) ~= want then bug('%s is a %s', k, type(o[k])) end\n"
    "end\n"
    "for _, k in ipairs { 'size', 'time', 'number', 'int', 'bs', 'count', 'verbose', 'n' } do\n"
    "  typed(k, 'number')\n"
    "end\n"
    "for _, k in ipairs { 'size', 'time', 'bs' } do\n"
    "  if o[k] and (o[k] < 0 or o[k] ~= o[k]) then bug('%s = %s', k, tostring(o[k])) end\n"
    "end\n"
    "for _, k in ipairs { 'int', 'count', 'n', 'verbose' } do\n"
    "  if o[k] and o[k] ~= math.floor(o[k]) then bug('%s = %s is not whole', k, o[k]) end\n"
    "end\n"
    "if o.mode ~= 'cooked' and o.mode ~= 'raw' then bug('mode = %s', tostring(o.mode)) end\n"
    "if type(o.include) ~= 'table' then bug('include is not a list') end\n"
    "if type(o.quiet) ~= 'boolean' or type(o.T) ~= 'boolean' then bug('flags') end\n"
    "if type(o.file) ~= 'string' then bug('file = %s', tostring(o.file)) end\n"
    "if o.size == nil or o.time == nil or o.int == nil then bug('a default is missing') end\n"
    "end\n";

static lua_State *state; /* p.args keeps nothing between calls: one state serves all */
static int parse_fn;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    pl_clock_init();
    pl_cfg.quiet = 1;
    pl_cfg.seed = 1;
    int null = open("/dev/null", O_WRONLY); /* --help text goes nowhere */
    if (null >= 0) {
        dup2(null, 1);
        close(null);
    }
    state = fuzz_new_state(0); /* lives across inputs: LuaJIT's own allocator */
    if (luaL_loadbufferx(state, driver, strlen(driver), "=fuzz_args", "t") != 0 ||
        lua_pcall(state, 0, 1, 0) != 0) {
        fprintf(stderr, "fuzz_args: driver: %s\n", lua_tostring(state, -1));
        abort();
    }
    parse_fn = luaL_ref(state, LUA_REGISTRYINDEX);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    lua_State *L = state;
    lua_rawgeti(L, LUA_REGISTRYINDEX, parse_fn);
    lua_pushlstring(L, (const char *)data, size);
    if (lua_pcall(L, 1, 0, 0) != 0) {
        const char *msg = lua_tostring(L, -1);
        fprintf(stderr, "fuzz_args: %s\n", msg ? msg : "(error object is not a string)");
        abort(); /* the driver catches p.args' own errors: anything here is a bug */
    }
    fuzz_prev_line = 0;
    return 0;
}
