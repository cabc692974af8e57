-- platter.plan: the report of 'platter plan' (docs/sharing.md). The run itself
-- happened on the simulated disk, with every name it touched noted in C at the
-- chokepoints (src/core/plan.c); this module reads those notes (core._plan()),
-- sets them beside the script's manifest (p.script keeps it here as M.manifest)
-- and prints the plan, as text or JSON, followed by what the run printed.
local core = require "platter.core"

local M = {}

M.SHOWN = 40  -- paths listed in the text; the JSON has them all

-- the order a path's kinds of access are shown in
local ACCESS = { "mkdir", "read", "write", "create", "truncate", "remove", "rmdir", "scratch",
  "output", "block", "missing", "refused" }

local function bytes(n)
  local units = { "KiB", "MiB", "GiB", "TiB" }
  if n < 1024 then return string.format("%d bytes", n) end
  local v, u = n / 1024, 1
  while v >= 1024 and u < #units do v, u = v / 1024, u + 1 end
  local s = v == math.floor(v) and string.format("%d", v) or string.format("%.1f", v)
  return string.format("%d bytes (%s %s)", n, s, units[u])
end

local STATUS = { [0] = "ran to its end", [1] = "stopped with an error", [2] = "refused its arguments",
  [130] = "was interrupted" }

-- the last "platter: ..." line of the run's output: why it stopped
local function reason(output)
  local last
  for line in output:gmatch("[^\n]+") do
    if line:match("^platter: ") and not line:match("^platter: warning: ") then last = line end
  end
  return last
end

--- build(status, output [, budget]) -> the plan as a plain table (the JSON's shape);
-- budget: the seconds of planning after which the run was stopped (--budget), if it was
function M.build(status, output, budget)
  local notes = core._plan() or { entries = {}, dropped = 0, written = 0, root = "" }
  local cfg = core._config()
  local plan = { script = core._script().name, sim = cfg.sim, status = status,
    completed = status == 0 and not budget, paths = {}, written = notes.written,
    unlisted = notes.dropped > 0, budget_spent = budget and true or nil, budget_s = budget }
  local wrote, destroy, block, file = notes.written > 0, {}, false, false
  local blocked = {}  -- what would stop the real run that the simulated disk lets through
  for _, e in ipairs(notes.entries) do
    local w = e.what
    local access = {}
    for _, k in ipairs(ACCESS) do
      if w[k] then access[#access + 1] = k end
    end
    if w.missing and #access > 1 then  -- a probe before it was made: not worth a word
      table.remove(access, #access - (w.refused and 1 or 0))
      w.missing = nil
    end
    if #access > 0 then
      plan.paths[#plan.paths + 1] = { path = e.path, access = access, written = e.written,
        output = e.output, existed = w.existed or nil, destroy = w.destroy or nil, why = e.why,
        absent = w.absent or nil, busy = w.busy or nil }
      if w.absent then
        blocked[#blocked + 1] = e.path .. " does not exist on this machine: the run cannot open it"
      end
      if w.busy then
        blocked[#blocked + 1] = (e.why or e.path) .. ": the run refuses to write to it even with --destroy"
      end
      if w.create or w.truncate or w.remove or w.output or w.mkdir or w.rmdir then wrote = true end
      if w.destroy then destroy[#destroy + 1] = e.path end
      if w.block and not w.refused then block = true end
      if (w.read or w.write) and not w.block and not w.missing and not w.refused
        and e.path ~= "/dev/null" and e.path ~= "/dev/zero" then
        file = true
      end
    end
  end
  local root = {}
  for r in (notes.root or ""):gmatch("[^;]+") do root[#root + 1] = (r:gsub("^ ", "")) end
  plan.needs = { write = wrote, destroy = #destroy > 0, destroy_paths = destroy,
    destroy_given = cfg.destroy or false, root = #root > 0, root_why = root,
    device = block and file and "block and file" or block and "block" or file and "file" or "none" }
  local m = M.manifest
  plan.underdeclared = {}
  if m then
    plan.manifest = { name = m.name, version = m.version, api = m.api, needs = m.needs }
    local under = plan.underdeclared
    if wrote and not m.needs.write then
      under[#under + 1] = string.format("needs.write is false, but the run wrote%s",
        notes.written > 0 and (" " .. bytes(notes.written)) or " (created or removed files)")
    end
    if block and m.needs.device == "file" then
      under[#under + 1] = "needs.device is \"file\", but the run opened a block device"
    end
    if file and m.needs.device == "block" then
      under[#under + 1] = "needs.device is \"block\", but the run used files"
    end
    if #root > 0 and not m.needs.root then
      under[#under + 1] = "needs.root is false, but the run " .. table.concat(root, "; ")
    end
  end
  plan.blocked = blocked
  plan.env = notes.env or {} -- the variables p.getenv asked for: { name, read, refused }
  plan.stopped = status ~= 0 and reason(output) or nil
  if budget then
    plan.stopped = string.format("the plan's budget of %g s ran out: what it touched so far; the whole "
      .. "run may touch more and write more (platter plan --budget 0 runs it to its end)", budget)
  end
  plan.output = output
  return plan
end

local function text(plan)
  local out = {}
  local function add(fmt, ...) out[#out + 1] = string.format(fmt, ...) end
  add("plan: %s on --sim %s (a dry run: nothing on this machine was written)", plan.script, plan.sim)
  if plan.manifest then
    local m, n = plan.manifest, plan.manifest.needs
    add("manifest: %s%s (%s), needs write %s, device %s, root %s", m.name,
      m.version and (" " .. m.version) or "", m.api, n.write and "yes" or "no", n.device,
      n.root and "yes" or "no")
  else
    add("manifest: none (no valid p.script)")
  end
  add("run: %s (exit status %d)%s", plan.budget_spent and "was stopped by the plan's budget"
    or STATUS[plan.status] or "ended", plan.status,
    plan.stopped and (": " .. plan.stopped:gsub("^platter: ", "")) or "")
  add("")
  if #plan.paths == 0 then
    add("paths: none")
  else
    add("paths:")
    local width = 0
    for _, e in ipairs(plan.paths) do width = math.max(width, math.min(#e.path, 48)) end
    for i, e in ipairs(plan.paths) do
      if i > M.SHOWN and #plan.paths > M.SHOWN + 1 then
        add("  ... and %d more (platter plan --json lists every one)", #plan.paths - M.SHOWN)
        break
      end
      local what = table.concat(e.access, ", ")
      local notes = {}
      if e.written > 0 then notes[#notes + 1] = "wrote " .. bytes(e.written) end
      if e.output then notes[#notes + 1] = "wrote " .. bytes(e.output) .. " of text" end
      if e.existed then notes[#notes + 1] = "exists" end
      if e.destroy then notes[#notes + 1] = "needs --destroy" end
      if e.absent then notes[#notes + 1] = "not on this machine" end
      if e.why then notes[#notes + 1] = e.why end
      add("  %-" .. width .. "s  %s%s", e.path, what,
        #notes > 0 and ("; " .. table.concat(notes, "; ")) or "")
    end
  end
  if plan.unlisted then add("  ... and more paths, past the 4096 a plan notes (their bytes are counted)") end
  add("written: %s", plan.written > 0 and bytes(plan.written) or "nothing")
  local read, refused = {}, {}
  for _, v in ipairs(plan.env) do
    if v.read then read[#read + 1] = v.name end
    if v.refused then refused[#refused + 1] = v.name end
  end
  if #read > 0 then add("environment read: %s", table.concat(read, ", ")) end
  if #refused > 0 then
    add("environment refused: %s (grant one with --env NAME)", table.concat(refused, ", "))
  end
  local n = plan.needs
  add("needs --destroy: %s", n.destroy and ("yes (" .. table.concat(n.destroy_paths, ", ")
    .. (n.destroy_given and ", given" or ": refused without it") .. ")") or "no")
  add("needs root: %s", n.root and ("yes (" .. table.concat(n.root_why, "; ") .. ")") or "no")
  add("observed: write %s, device %s, root %s", n.write and "yes" or "no", n.device,
    n.root and "yes" or "no")
  for _, u in ipairs(plan.underdeclared) do add("the manifest under-declares: %s", u) end
  for _, b in ipairs(plan.blocked) do add("the real run would stop: %s", b) end
  return table.concat(out, "\n") .. "\n"
end

--- report(status, output, json [, budget]): print the plan (platter plan, after the run)
function M.report(status, output, json, budget)
  local plan = M.build(status, output, budget)
  if json then
    local cjson = require "cjson"
    -- an empty list is left out (lua-cjson would write it as an object)
    if #plan.paths == 0 then plan.paths = nil end
    if #plan.underdeclared == 0 then plan.underdeclared = nil end
    if #plan.blocked == 0 then plan.blocked = nil end
    if #plan.env == 0 then plan.env = nil end
    if #plan.needs.destroy_paths == 0 then plan.needs.destroy_paths = nil end
    if #plan.needs.root_why == 0 then plan.needs.root_why = nil end
    core.write(cjson.encode(plan), "\n")
    return
  end
  core.write(text(plan))
  if #output > 0 then
    core.write(string.format("\n--- what the run printed (on --sim %s) ---\n", plan.sim), output)
    if output:sub(-1) ~= "\n" then core.write("\n") end
  end
end

return M
