-- wrk script: POST /v1/recognize with the inks of a JSON Lines file (one body per line), in turn.
-- Counts the answers that are not 200.
local bodies = {}
local counter = 1
local errors = 0

function init(args)
  local path = args[1] or "inks.jsonl"
  for line in io.lines(path) do
    if #line > 0 then bodies[#bodies + 1] = line end
  end
  counter = math.random(#bodies)
end

function request()
  counter = counter % #bodies + 1
  return wrk.format("POST", "/v1/recognize", { ["Content-Type"] = "application/json" }, bodies[counter])
end

function response(status, headers, body)
  if status ~= 200 then errors = errors + 1 end
end

function done(summary, latency, requests)
  local p = function(q) return latency:percentile(q) / 1000 end
  io.write(string.format("requests %d, errors (non-2xx or socket) %d, %.1f requests/s, latency p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests / (summary.duration / 1e6), p(50), p(90), p(99), latency.max / 1000))
end
