-- wrk: POST /transactions with the bodies of the file BODIES (one JSON body per line), each thread
-- taking every Nth line (N = $THREADS, wrk's -t) from its own offset and never repeating one until it
-- has used them all; with REPEAT set, repeating is the point and goes unreported.
local threads = {}
local counter = 0

function setup(thread)
    thread:set("id", counter)
    counter = counter + 1
    table.insert(threads, thread)
end

function init(args)
    local path = os.getenv("BODIES")
    local total = tonumber(os.getenv("THREADS") or "1")
    bodies = {}
    local index = 0
    for line in io.lines(path) do
        if index % total == id % total then table.insert(bodies, line) end
        index = index + 1
    end
    next_body = 1
    wrapped = 0
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/json"
end

function request()
    local body = bodies[next_body]
    next_body = next_body + 1
    if next_body > #bodies then
        next_body = 1
        wrapped = wrapped + 1
    end
    return wrk.format("POST", "/transactions", nil, body)
end

function done(summary, latency, requests)
    if os.getenv("REPEAT") then return end
    for _, thread in ipairs(threads) do
        local times = thread:get("wrapped")
        if times and times > 0 then
            io.stderr:write("post_bodies.lua: a thread used its bodies " .. (times + 1) .. " times: later requests were re-sends\n")
        end
    end
end
