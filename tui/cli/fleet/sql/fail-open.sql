-- Calls a hook failed on and the runtime let through anyway (fail-open): by hook and
-- kind of failure, with the last time it happened.
SELECT
    hook,
    failure,
    count(*) AS calls,
    max(ts) AS last_seen
FROM calls
WHERE fail_open
GROUP BY hook, failure
ORDER BY calls DESC, hook, failure
