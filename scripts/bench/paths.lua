-- wrk script for scripts/bench.sh and bench-ab.sh: every thread walks the same list of request paths
-- round robin (each thread starting at a different offset), and done() prints one
-- machine-readable line the shell script parses.
--
-- The list file is named by the environment variable BENCH_PATHS (one path a line).
-- No response() hook on purpose: defining one makes wrk hand every response's headers and
-- body to Lua, which costs the client more than the servers we measure.

local paths = {}
local file = assert(io.open(os.getenv("BENCH_PATHS") or "paths.txt", "r"))
for line in file:lines() do
  if line:match("^/") then paths[#paths + 1] = line end
end
file:close()
assert(#paths > 0, "no paths in the list")

-- Prebuilt request strings (in init(), once wrk knows the Host): request() is a table lookup.
local requests = {}

local counter = 0
local next_thread = 0

-- Runs in the main Lua state, once per thread: hands each thread its number (a global there).
function setup(thread)
  thread:set("bench_thread", next_thread)
  next_thread = next_thread + 1
end

-- BENCH_HEADERS=browser: each request also carries the fields Chromium sends with an image
-- (browser-headers.txt beside this script), not Host alone.
local headers = nil
if os.getenv("BENCH_HEADERS") == "browser" then
  headers = {}
  local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
  for line in io.lines(here .. "browser-headers.txt") do
    local name, value = line:match("^([^:]+):%s*(.*)$")
    if name then headers[name] = value end
  end
elseif (os.getenv("BENCH_HEADERS") or "") ~= "" then
  error("BENCH_HEADERS must be empty or browser")
end

function init(args)
  for i, p in ipairs(paths) do
    requests[i] = wrk.format("GET", p, headers)
  end
  -- Spread the threads over the list so they do not ask for the same tile in lock step.
  counter = ((bench_thread or 0) * 7919) % #requests
end

function request()
  counter = counter + 1
  if counter > #requests then counter = 1 end
  return requests[counter]
end

function done(summary, latency, requests_)
  local seconds = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    "BENCH requests=%d seconds=%.3f rps=%.1f p50_us=%d p90_us=%d p99_us=%d max_us=%d " ..
    "err_connect=%d err_read=%d err_write=%d err_status=%d err_timeout=%d bytes=%d\n",
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout, summary.bytes))
end
