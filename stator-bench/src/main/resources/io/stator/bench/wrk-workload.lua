-- stator-bench's script for wrk: replays a workload's requests, built and signed by stator-bench
-- beforehand (WrkGenerator.java writes them), picking each as the Java generator does.
-- Arguments after the URL: the requests file and a seed.
--
-- The requests file:
--   "stator-bench-requests <keys> <parts> <draws>"
--   the parts' cumulative shares (a mix's get and update), on one line
--   <draws> key indexes (from 0) to draw from, on one line (empty when 0: every key, uniformly)
--   then for each part, for each key: "<length>\n" and the request's <length> raw bytes.
--
-- No response() callback: with one, wrk hands every response's headers and body to Lua, which
-- costs more than the rest of its work. Errors are counted from wrk's summary instead.

local threads = 0

-- Runs in wrk's main Lua state, once per thread before its init: numbers the threads, so that
-- each draws its own sequence.
function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

local parts, shares, draws, keys, nparts, ndraws

-- Runs in each thread's own Lua state: each holds its own copy of the requests.
function init(args)
  local file = assert(io.open(args[1], "rb"))
  local data = file:read("*a")
  file:close()
  local pos = 1
  local function line()
    local nl = assert(string.find(data, "\n", pos, true), "truncated requests file " .. args[1])
    local text = string.sub(data, pos, nl - 1)
    pos = nl + 1
    return text
  end
  local magic, k, p, d = string.match(line(), "^(%S+) (%d+) (%d+) (%d+)$")
  assert(magic == "stator-bench-requests", "not a stator-bench requests file: " .. args[1])
  keys, nparts, ndraws = tonumber(k), tonumber(p), tonumber(d)
  shares = {}
  for s in string.gmatch(line(), "%S+") do shares[#shares + 1] = tonumber(s) end
  draws = {}
  for x in string.gmatch(line(), "%d+") do draws[#draws + 1] = tonumber(x) + 1 end
  assert(#draws == ndraws, "draws: expected " .. ndraws .. ", read " .. #draws)
  parts = {}
  for q = 1, nparts do
    local requests = {}
    for i = 1, keys do
      local length = tonumber(line())
      requests[i] = string.sub(data, pos, pos + length - 1)
      pos = pos + length
    end
    parts[q] = requests
  end
  data = nil
  collectgarbage()
  math.randomseed(tonumber(args[2]) + thread_number)
  -- Unbuffered: tells stator-bench this thread has loaded, so that the measurement is about to start.
  io.stderr:write("stator-bench: thread " .. thread_number .. " ready\n")
end

function request()
  local k
  if ndraws > 0 then k = draws[math.random(ndraws)] else k = math.random(keys) end
  if nparts == 1 then return parts[1][k] end
  local r = math.random()
  for q = 1, nparts - 1 do
    if r < shares[q] then return parts[q][k] end
  end
  return parts[nparts][k]
end

-- The percentiles stator-bench rebuilds its latency histogram from: dense near the tail.
local grid = {}
for i = 1, 99 do grid[#grid + 1] = i end
for i = 1, 9 do grid[#grid + 1] = 99 + i / 10 end
for i = 1, 9 do grid[#grid + 1] = 99.9 + i / 100 end
grid[#grid + 1] = 99.999

-- Runs in the main state after the run: the figures, one "name value" a line, read by WrkGenerator.
function done(summary, latency, requests)
  local e = summary.errors
  io.write("stator-bench-result\n")
  io.write(string.format("duration_us %d\nrequests %d\n", summary.duration, summary.requests))
  io.write(string.format("errors_status %d\nerrors_connect %d\nerrors_read %d\nerrors_write %d\nerrors_timeout %d\n",
      e.status, e.connect, e.read, e.write, e.timeout))
  for _, p in ipairs(grid) do
    io.write(string.format("latency_us %.3f %d\n", p, latency:percentile(p)))
  end
  io.write(string.format("latency_us 100 %d\n", latency.max))
end
