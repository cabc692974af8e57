-- platter.machine: what the system says about this machine and this process,
-- for the result record and the cache watch: kernel, OS and CPU, the process
-- id (p.parallel's workers are forks) and the bytes the storage moved for it.
-- Trusted: reads /proc and /etc/os-release. Every reader gives nil when the
-- file is missing or unreadable.

local M = {}

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

local function trim(s)
  return s and (s:gsub("^%s+", ""):gsub("%s+$", "")) or nil
end

--- cpu() -> model name, number of processors (/proc/cpuinfo)
function M.cpu()
  local text = read_file("/proc/cpuinfo") or ""
  local model, count = nil, 0
  for line in text:gmatch("[^\n]+") do
    local k, v = line:match("^([^:]-)%s*:%s*(.-)%s*$")
    if k == "processor" then count = count + 1 end
    if not model and (k == "model name" or k == "Model" or k == "cpu model") then model = v end
  end
  if count == 0 then count = nil end
  return model, count
end

--- os_name() -> the distribution's PRETTY_NAME (/etc/os-release)
function M.os_name()
  local text = read_file("/etc/os-release") or ""
  return text:match('PRETTY_NAME="([^"\n]*)"') or text:match("PRETTY_NAME=([^\n]*)")
end

--- kernel() -> release, version, architecture (/proc/sys/kernel)
function M.kernel()
  return trim(read_file("/proc/sys/kernel/osrelease")),
    trim(read_file("/proc/sys/kernel/version")), trim(read_file("/proc/sys/kernel/arch"))
end

--- pid() -> this process's id, as text (/proc/self/stat)
function M.pid()
  local stat = read_file("/proc/self/stat")
  return stat and stat:match("^(%d+)")
end

--- storage_bytes() -> bytes this process had the storage read and write (/proc/self/io)
function M.storage_bytes()
  local text = read_file("/proc/self/io")
  local r = text and tonumber(text:match("read_bytes:%s*(%d+)"))
  local w = text and tonumber(text:match("\nwrite_bytes:%s*(%d+)"))
  return r and w and r + w or nil
end

return M
