-- wrk script for scripts/soak.sh. Arguments: PATHS_FILE REQUESTS_PER_THREAD.
-- PATHS_FILE lines: class <TAB> path <TAB> If-None-Match or "-" <TAB> expected signature.
-- The path "DEBUG" stands for a random debug-layer tile (a cache miss almost every time).
-- A response's signature is status|max-age|PNG width; it names the class that answered, so the
-- status is checked per path class even though wrk does not say which request a response is for.
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

function init(args)
  entries, expect, sent, got, odd = {}, {}, {}, {}, {}
  unexpected, badlength, responses = 0, 0, 0
  limit = tonumber(args[2])
  for line in io.lines(args[1]) do
    local class, path, etag, signature = line:match("^(%S+)\t(%S+)\t(%S+)\t(%S+)$")
    table.insert(entries, {class = class, path = path, etag = etag})
    expect[signature] = class
    sent[class], got[class] = 0, 0
  end
  math.randomseed(os.time() * 100 + id)
end

function request()
  local entry = entries[math.random(#entries)]
  local path = entry.path
  if path == "DEBUG" then
    local z = math.random(12, 22)
    path = string.format("/debug/%d/%d/%d.png", z, math.random(0, 2 ^ z - 1), math.random(0, 2 ^ z - 1))
  end
  sent[entry.class] = sent[entry.class] + 1
  if entry.etag ~= "-" then
    return wrk.format("GET", path, {["If-None-Match"] = entry.etag})
  end
  return wrk.format("GET", path)
end

function response(status, headers, body)
  responses = responses + 1
  local age, length = "-", nil
  for name, value in pairs(headers) do
    local lower = name:lower()
    if lower == "cache-control" then age = value:match("max%-age=(%d+)") or "-" end
    if lower == "content-length" then length = tonumber(value) end
  end
  local width = "-"
  if status == 200 and #body >= 24 and body:sub(2, 4) == "PNG" then
    width = tostring(((body:byte(17) * 256 + body:byte(18)) * 256 + body:byte(19)) * 256 + body:byte(20))
  end
  local signature = status .. "|" .. age .. "|" .. width
  local class = expect[signature]
  if class then
    got[class] = got[class] + 1
  else
    unexpected = unexpected + 1
    odd[signature] = (odd[signature] or 0) + 1
  end
  if status ~= 304 and status ~= 204 and length ~= #body then badlength = badlength + 1 end
  if responses >= limit then wrk.thread:stop() end
end

function done(summary, latency, requests)
  local totals = {sent = {}, got = {}, odd = {}}
  local unexpected_total, badlength_total = 0, 0
  for _, thread in ipairs(threads) do
    for class, n in pairs(thread:get("sent")) do totals.sent[class] = (totals.sent[class] or 0) + n end
    for class, n in pairs(thread:get("got")) do totals.got[class] = (totals.got[class] or 0) + n end
    for sig, n in pairs(thread:get("odd")) do totals.odd[sig] = (totals.odd[sig] or 0) + n end
    unexpected_total = unexpected_total + thread:get("unexpected")
    badlength_total = badlength_total + thread:get("badlength")
  end
  for class, n in pairs(totals.sent) do io.write(string.format("SOAK class %s sent %d got %d\n", class, n, totals.got[class] or 0)) end
  for sig, n in pairs(totals.odd) do io.write(string.format("SOAK odd %s %d\n", sig, n)) end
  io.write(string.format("SOAK unexpected %d\nSOAK badlength %d\n", unexpected_total, badlength_total))
  local e = summary.errors
  io.write(string.format("SOAK requests %d duration_us %d errors connect %d read %d write %d timeout %d status %d\n",
    summary.requests, summary.duration, e.connect, e.read, e.write, e.timeout, e.status))
  io.write(string.format("SOAK latency_us p50 %d p99 %d max %d\n",
    latency:percentile(50), latency:percentile(99), latency.max))
end
