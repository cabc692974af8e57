-- platter verify NAME.platter [--sha256 HEX] [--json]: check a pack (platter pack,
-- docs/sharing.md) and print its members and their hashes: every member against its
-- sha256, the content against the closing sha256, and with --sha256 the whole file
-- against the hash its sender published. Exit status 0 when intact, 1 otherwise.
-- Built-in command: runs trusted, arguments in `...`.
if select("#", ...) == 1 and (...) == "platter.cmd.verify" then
  error("platter.cmd.verify is the 'platter verify' command, not a module", 2)
end

local p = require "platter"
local packfile = require "platter.packfile"

local format = string.format

local o = p.args({
  name = "verify",
  usage = "NAME.platter [--sha256 HEX] [--json]",
  summary = "Check a pack's hashes and list its members.",
  options = {
    { "--sha256", arg = "HEX", help = "the sha256 its sender published: the whole file must "
      .. "have it (as sha256sum prints it)" },
    { "--json", help = "print the result as one JSON object" },
  },
  positional = { { "pack", arg = "NAME.platter" } },
  epilog = "The hashes inside a pack find damage and hand edits; only a hash published\n"
    .. "apart from the pack (--sha256) shows that it is the one its sender made.",
}, ...)

local want = o.sha256 and o.sha256:lower()
if want and not want:match("^" .. ("%x"):rep(64) .. "$") then
  p.usage_error("verify", format("--sha256 %s: a sha256 is 64 hex digits", o.sha256))
end

local f, ferr = io.open(o.pack, "rb")
if not f then
  p.ewrite("platter: verify: cannot read ", ferr, "\n")
  p.exit(1)
end
local text = f:read("*a")
f:close()

local pack, err, partial = packfile.parse(text, o.pack)
local info = pack or partial or {}
if pack and want and pack.sha256 ~= want then
  err = format("%s: its sha256 is %s, not the published %s", o.pack, pack.sha256, want)
end

if o.json then
  local members = {}
  for i, m in ipairs(info.members or {}) do
    members[i] = { name = m.name, size = m.size, sha256 = m.sha256, ok = m.ok or false }
  end
  local doc = { file = o.pack, intact = err == nil, error = err, format = info.format,
    sha256 = info.sha256, size = info.size, entry = info.entry,
    content_sha256 = info.content_sha256, published_sha256 = want,
    members = #members > 0 and members or nil }
  if want then doc.matches_published = info.sha256 == want end
  local cjson = require("cjson").new()
  p.write(cjson.encode(doc), "\n")
  if err then p.exit(1) end
  return
end

if err then
  p.ewrite("platter: verify: ", err, "\n")
  p.exit(1)
end
p.write(format("%s: intact (platter-pack %d, %d member%s, entry %s)\n", o.pack, pack.format,
  #pack.members, #pack.members == 1 and "" or "s", pack.entry))
p.write(format("sha256 %s%s\n", pack.sha256, want and " (the published one)" or ""))
local w = 0
for _, m in ipairs(pack.members) do w = math.max(w, #format("%d", m.size)) end
for _, m in ipairs(pack.members) do
  p.write(format("  %s  %" .. w .. "d  %s\n", m.sha256, m.size, m.name))
end
