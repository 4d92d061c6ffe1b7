-- wrk script for scripts/bench-imagery.sh: every request asks for a tile not asked before in
-- the run (cold): thread i of n takes paths i, i+n, i+2n… of BENCH_PATHS (one path a line), so
-- no two requests share a tile while the list lasts; done() prints one line the script parses,
-- with how many requests went past the end of the list (they wrap around and are then warm).
local paths = {}
for line in io.lines(os.getenv("BENCH_PATHS")) do
  if line:match("^/") then paths[#paths + 1] = line end
end
assert(#paths > 0, "no paths in the list")

local threads, next_thread = {}, 0
function setup(thread)
  thread:set("bench_thread", next_thread)
  next_thread = next_thread + 1
  threads[#threads + 1] = thread
end

local index, stride = 0, 1
past = 0  -- a global: done() reads it from each thread
function init(args)
  index = bench_thread or 0
  stride = tonumber(os.getenv("BENCH_THREADS") or "2")
end

function request()
  index = index + stride
  if index > #paths then index = index - #paths; past = past + 1 end
  return wrk.format("GET", paths[index])
end

function done(summary, latency, requests)
  local wrapped = 0
  for _, thread in ipairs(threads) do wrapped = wrapped + (thread:get("past") or 0) end
  local seconds = summary.duration / 1e6
  io.write(string.format("BENCH requests=%d seconds=%.3f rps=%.1f p50_us=%d p99_us=%d errors=%d non2xx=%d wrapped=%d\n",
    summary.requests, seconds, summary.requests / seconds, latency:percentile(50), latency:percentile(99),
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status, wrapped))
end
