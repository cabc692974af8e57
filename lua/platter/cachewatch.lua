-- platter.cachewatch: was the page cache answering? At the start and end of
-- every phase (no per-I/O cost, no wrapped functions) the page-cache residency
-- of the files p.open made is taken. A buffered phase on a data set under
-- twice RAM is tainted when its files were partly cached at its start, or when
-- it moved more bytes than came into the cache during it (the rest was
-- answered from the cache: a small file read over and over after a drop); the
-- first one that did I/O prints one warning. A phase given { cache = true }
-- measures the cache on purpose and is left alone. It also numbers the files it
-- sees, in first-seen order: the record's `files`. Used by platter.recorder,
-- which calls it from the host hooks; see docs/results.md ("The cache warning").

local resultfile = require "platter.resultfile"
local machine = require "platter.machine"

local format = string.format

local M = {}

local Watch = {}
Watch.__index = Watch

--- new(core, sim) -> a watch over the files core.open makes (sim: a virtual target,
-- --sim or --target null, where the storage counters mean nothing). Its fields files (entries {id, info, direct,
-- path} in first-seen order) and warnings (texts) are for the record.
function M.new(core, sim)
  local methods = core._file_methods or {}
  return setmetatable({
    core = core,
    sim = sim,
    ram = core.ram and core.ram() or 0,
    known = core._files or {},  -- weak set of every file p.open made
    info_of = methods.info,
    size_of = methods.size,
    resident_of = methods.resident,
    files = {}, by_key = {},                      -- file entries, in first-seen order
    open = setmetatable({}, { __mode = "k" }),    -- file object -> entry (once seen)
    starts = setmetatable({}, { __mode = "k" }),  -- stats object -> phase-start snapshot
    warned = false, warnings = {},
  }, Watch)
end

-- {====================================================================
-- Files and their residency
-- =====================================================================

local function file_info(w, f)
  local ok, info = pcall(w.info_of, f)
  if ok and type(info) == "table" then return info end
  return nil
end

-- entries are shared by every handle with the same path and mode, so repetitions
-- reuse them
local function entry_key(info)
  return tostring(info.path) .. (info.direct and "\0direct" or "")
end

local function add_entry(w, f, info)
  local key = entry_key(info)
  local e = w.by_key[key]
  if not e then
    local abs = w.core._resolve and info.path and w.core._resolve(info.path) or nil
    e = { id = #w.files + 1, info = info, direct = info.direct and true or false,
          path = info.path, abs_path = abs }
    w.files[#w.files + 1] = e
    w.by_key[key] = e
  else
    e.info = info
  end
  if f then w.open[f] = e end
  return e
end

-- a file object's entry, made on first sight; nil when its info cannot be had
local function entry(w, f)
  local e = w.open[f]
  if e then return e end
  local info = file_info(w, f)
  return info and add_entry(w, f, info)
end

-- true, size when f is still open
local function is_open(w, f)
  local ok, size = pcall(w.size_of, f)
  return ok and type(size) == "number", size
end

-- Pages of f in the page cache, as a percentage of [off, off + len) (whole file by
-- default), then the resident and total page counts; nil when not worth measuring
-- (direct, empty, or 2 x RAM and more).
local function residency(w, f, e, size, off, len)
  local ram = w.ram
  if size == 0 and not e.direct then return nil, 0, 0 end  -- empty: nothing cached yet
  if e.direct or not size or (ram > 0 and size >= 2 * ram) then return nil end
  local ok, res, total = pcall(w.resident_of, f, off, len)
  if not ok or type(res) ~= "number" or not total or total == 0 then return nil end
  return 100 * res / total, res, total
end

-- The residency of a file that is closed now, by its path (opened for the look
-- only): pct, res, total, size; nil when it cannot be had (removed, direct use).
local function residency_of_path(w, path)
  local look = w.core._resident_path
  -- not under --sim: the look would cost the simulated disk time between phases
  if w.sim or not look or not path then return nil end
  local ok, res, total, size = pcall(look, path)
  if not ok or type(res) ~= "number" or not total or total == 0 then return nil end
  if w.ram > 0 and size >= 2 * w.ram then return nil end
  return 100 * res / total, res, total, size
end

-- the entry of a buffered file known by its path only (opened and closed in a phase)
local function entry_of_path(w, path)
  return w.by_key[path] or add_entry(w, nil, { path = path })
end

-- at most this many files opened and closed inside one phase are looked at
local CLOSED_LOOKS = 64

local function by_key(a, b) return a.key < b.key end
local function by_id(a, b) return a.entry.id < b.entry.id end

-- every open file p.open made, with its entry, in the order of the entries. pairs()
-- over file objects follows their memory addresses, which change from run to run:
-- files first seen here get their entries in order of path, then mode, so the
-- record numbers them the same way every time.
local function open_files(w)
  local out, unseen = {}, {}
  for f in pairs(w.known) do
    local e = w.open[f]
    if e then
      if is_open(w, f) then out[#out + 1] = { f = f, entry = e } end
    else
      local info = file_info(w, f)
      if info then unseen[#unseen + 1] = { f = f, info = info, key = entry_key(info) } end
    end
  end
  table.sort(unseen, by_key)
  for _, u in ipairs(unseen) do
    local e = add_entry(w, u.f, u.info)
    if is_open(w, u.f) then out[#out + 1] = { f = u.f, entry = e } end
  end
  table.sort(out, by_id)
  return out
end

-- }====================================================================

-- {====================================================================
-- Before: what a p.run or a p.phase will find in the cache
-- =====================================================================

--- w:run_files(t) -> the files of p.run spec t, measured before it starts:
-- { {entry, size, pct, res, total}, ... } (size and residency of t.range when given)
function Watch:run_files(t)
  local list = t.files or { t.file }
  local lo, hi
  if type(t.range) == "table" then
    lo = tonumber(t.range[1]) or self.core.parse_size(t.range[1])
    hi = tonumber(t.range[2]) or self.core.parse_size(t.range[2])
  end
  local files = {}
  for _, f in ipairs(list) do
    local e = entry(self, f)
    if e then
      local open, size = is_open(self, f)
      local c = { entry = e, size = size }
      if open and not e.direct then
        local off, len = 0, nil
        if lo and hi and hi > lo then
          off, len = lo, hi - lo
          c.size = len
        end
        c.f, c.off, c.len = f, off, len
        c.pct, c.res, c.total = residency(self, f, e, size, off, len)
      end
      files[#files + 1] = c
    end
  end
  if not self.sim then files.io = machine.storage_bytes() end
  return files
end

--- w:run_end(files): the residency of p.run's files (as run_files gave them) at
-- its end, into each one's res_end, pct_end and size_end; files.moved: the bytes the
-- storage moved meanwhile, when the counters tell
function Watch:run_end(files)
  local now = files.io and machine.storage_bytes()
  files.moved = now and now - files.io or nil
  for _, c in ipairs(files) do
    if c.f and c.res then
      local open, size = is_open(self, c.f)
      if open then
        local len = c.len
        c.size_end = len or size
        c.pct_end, c.res_end, c.total_end = residency(self, c.f, c.entry, size, c.off, len)
      end
    end
  end
end

--- w:phase_start(s): at the start of p.phase s, the residency of every open
-- buffered file under 2 x RAM
function Watch:phase_start(s)
  local snap = { files = {}, direct_open = false }
  for _, o in ipairs(open_files(self)) do
    local f, e = o.f, o.entry
    if e.direct then
      snap.direct_open = true
    else
      local _, size = is_open(self, f)
      local pct, res, total = residency(self, f, e, size)
      snap.files[#snap.files + 1] = { f = f, entry = e, size = size, pct = pct, res = res,
        total = total }
    end
  end
  -- the storage counters: how much of what the phase moved came from the storage
  -- (pages read in and then evicted again count there, not in the residency), and,
  -- with both kinds of file open, which kind a phase used
  if not self.sim then snap.io = machine.storage_bytes() end
  local closed = self.core._closed_files and self.core._closed_files()
  snap.closed0 = closed and #closed or 0
  self.starts[s] = snap
end

-- }====================================================================

-- {====================================================================
-- After: which files a phase used, and the verdict
-- =====================================================================

--- w:phase_files(s) -> the buffered files p.phase s used, as run_files gives them
-- (with their residency at the end too: res_end, pct_end, size_end): those whose
-- residency grew (reads bring pages in, writes dirty new ones) or fell (see below), that it closed
-- (looked at again by path), or that it opened (still open, or closed again:
-- core._closed_files). Of a file it opened, the residency at the start is not
-- known (start_unknown): only the storage counters can tell what the cache
-- answered. Without such evidence, the open buffered files; but when a direct
-- file was open too, only if the storage moved less than a tenth of the phase's
-- bytes (/proc/self/io), that is, the page cache answered: else the phase is
-- taken as direct. The second result is the bytes the storage moved during the
-- phase (/proc/self/io; nil under --sim or without the counters).
function Watch:phase_files(s)
  local snap = self.starts[s]
  if not snap then return {} end
  local seen, used, all = {}, {}, {}
  for _, c in ipairs(snap.files) do
    seen[c.entry] = true
    local open, size = is_open(self, c.f)
    if open then
      c.size_end = size
      c.pct_end, c.res_end, c.total_end = residency(self, c.f, c.entry, size)
      c.size = (c.size or 0) > 0 and c.size or size
      all[#all + 1] = c
      -- pages coming in are use; pages going out are use too, unless a direct handle
      -- was open, where the kernel evicting them (memory pressure) looks the same as
      -- use, and the storage counters below decide (a raw phase beside a cooked
      -- handle, on a loaded machine); the simulated disk evicts only for its I/O
      local res0, res1 = c.res or 0, c.res_end or 0
      if res1 > res0 or (res1 < res0 and (self.sim or not snap.direct_open)) then
        used[#used + 1] = c
      end
    else
      -- closed during the phase: it was in use; its end, by its path
      c.pct_end, c.res_end, c.total_end, c.size_end = residency_of_path(self, c.entry.path)
      used[#used + 1] = c
    end
  end
  local direct = snap.direct_open
  for _, o in ipairs(open_files(self)) do  -- opened during the phase: residency at its end
    local f, e = o.f, o.entry
    if not seen[e] then
      seen[e] = true
      if e.direct then
        direct = true
      else
        local _, size = is_open(self, f)
        local pct, res, total = residency(self, f, e, size)
        used[#used + 1] = { entry = e, size = size, start_unknown = true, size_end = size,
          pct_end = pct, res_end = res, total_end = total }
      end
    end
  end
  local closed = self.core._closed_files and self.core._closed_files()
  local looks = 0
  for i = (snap.closed0 or 0) + 1, closed and #closed or 0 do  -- opened and closed again
    local path = closed[i]
    local e = self.by_key[path]
    if not (e and seen[e]) and looks < CLOSED_LOOKS then
      looks = looks + 1
      local pct, res, total, size = residency_of_path(self, path)
      if size and size > 0 then
        e = entry_of_path(self, path)
        seen[e] = true
        used[#used + 1] = { entry = e, size = size, start_unknown = true, size_end = size,
          pct_end = pct, res_end = res, total_end = total }
      end
    end
  end
  local moved = snap.io and machine.storage_bytes()
  moved = moved and moved - snap.io
  if #used > 0 then return used, moved end
  if direct then
    local bytes = s.bytes or 0
    if moved and bytes > 0 and moved < 0.1 * bytes then return all, moved end
    return {}
  end
  return all
end

local function warn(w, r, worst)
  w.warned = true
  local e = worst.entry
  local why, advice
  if worst.served and worst.start_unknown then  -- opened inside the phase
    why = format("about %.0f%% of the %s it moved came from the page cache (the phase opened "
      .. "the file; %.0f%% of it was in the cache at the end)", worst.served,
      resultfile.size_text(r.bytes or 0), worst.pct_end or 0)
    advice = "open it with direct = true, or use a data set over twice RAM"
  elseif worst.served then
    why = format("about %.0f%% of the %s it moved came from the page cache (%.0f%% of the "
      .. "file was in the cache at the start, %.0f%% at the end)", worst.served,
      resultfile.size_text(r.bytes or 0), worst.pct or 0, worst.pct_end or 0)
    advice = "open it with direct = true, or use a data set over twice RAM"
  else
    why = format("%.0f%% of it was in the page cache at the start", worst.pct)
    advice = "drop it with f:drop_cache() first, open it with direct = true, or use a data "
      .. "set over twice RAM"
  end
  local msg = format("phase '%s' used %s (%s) through the page cache with %s of RAM, "
    .. "and %s: the cache may be answering (%s)",
    r.name or "?", e.path or "?", resultfile.size_text(worst.size),
    resultfile.size_text(w.ram), why, advice)
  w.warnings[#w.warnings + 1] = msg
  -- at a line boundary, never mid-row; under mpirun rank 0 speaks for all ranks
  local mpi = w.core.mpi
  if not (type(mpi) == "table" and (mpi.rank or 0) ~= 0) then
    w.core._notice("platter: warning: ", msg, "\n")
  end
end

-- The share of the bytes phase record r moved that no storage I/O can account for,
-- in percent: r.bytes less what came into the page cache during it (the growth of
-- its files' residency) or, when known and more, what the storage moved. When a
-- file's residency at either end is unknown (opened or closed inside the phase),
-- only the storage counters tell: nil without them.
local function served_pct(r, candidates, moved)
  local bytes = r.bytes or 0
  if bytes <= 0 then return nil end
  local pulled, unknown = 0, false
  for _, c in ipairs(candidates) do
    if c.res and c.res_end then
      local pages = math.max(c.total or 0, c.total_end or 0)
      local size = math.max(c.size or 0, c.size_end or 0)
      local page = pages > 0 and size / pages or 4096
      pulled = pulled + math.max(0, c.res_end - c.res) * page
    else
      unknown = true
    end
  end
  if unknown and not moved then return nil end
  local from_storage = math.max(pulled, moved or 0)
  return math.max(0, bytes - from_storage) / bytes * 100
end

--- w:judge(r, candidates [, opts]): the cache verdict of finished phase record r,
-- whose files are candidates (as run_files or phase_files give them, with their
-- residency at the end). A buffered file under twice RAM taints the phase when more
-- than 1% of it was in the page cache at the start (a range dropped with
-- f:drop_cache or p.drop_caches holds ~0%), or when more than half of the bytes
-- the phase moved did not come into the cache during it (so the cache answered
-- them; half, so that a partial estimate, with pages evicted again under --sim's
-- small cache, does not warn). opts.intended (p.phase's { cache = true }) records the facts but never
-- taints; opts.moved is the bytes the storage moved meanwhile, when known.
-- Sets r.cache, r.cache_tainted and r.resident_pct; the first tainted phase that
-- did I/O warns.
function Watch:judge(r, candidates, opts)
  opts = opts or {}
  local ram = self.ram
  local worst, tainted, dataset, facts, maxpct = nil, false, 0, {}, nil
  local small_files = {}
  for _, c in ipairs(candidates) do
    local e = c.entry
    local size = math.max(c.size or 0, c.size_end or 0)
    if not e.direct and size > 0 then
      dataset = dataset + size
      local small = ram == 0 or size < 2 * ram
      local t = small and not c.start_unknown and (c.pct or 0) > 1 and not opts.intended
      facts[#facts + 1] = { file = e.id, size = size, resident_pct = c.pct,
        resident_end_pct = c.pct_end, tainted = t }
      if small then small_files[#small_files + 1] = c end
      if c.pct and (not maxpct or c.pct > maxpct) then maxpct = c.pct end
      if t then
        tainted = true
        if not worst or (c.pct or 0) > (worst.pct or 0) then worst = c end
      end
    end
  end
  if #facts == 0 then return end
  local served = #small_files == #facts and served_pct(r, candidates, opts.moved) or nil
  r.cache = { files = facts, dataset_bytes = dataset, ram = ram, tainted = tainted,
    served_pct = served, intended = opts.intended or nil }
  if served and served > 50 and not opts.intended then
    tainted = true
    r.cache.tainted = true
    if not worst then
      for _, c in ipairs(small_files) do
        if not worst or (c.res_end or 0) > (worst.res_end or 0) then worst = c end
      end
      worst = setmetatable({ served = served, size = math.max(worst.size or 0,
        worst.size_end or 0) }, { __index = worst })
    end
  end
  r.cache_tainted = tainted
  r.resident_pct = maxpct
  if tainted and not self.warned and (r.ops or 0) > 0 then warn(self, r, worst) end
end

-- }====================================================================

return M
