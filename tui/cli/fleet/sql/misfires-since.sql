-- Which hooks misfired (did not answer: a crash, a timeout, an answer the runtime could
-- not read) since a time: how, how often, in how many sessions, first and last seen.
SELECT
    hook,
    failure,
    count(*) AS misfires,
    count(DISTINCT session_id) AS sessions,
    min(ts) AS first_seen,
    max(ts) AS last_seen
FROM calls
WHERE decision = 'failure' AND ts >= {since}
GROUP BY hook, failure
ORDER BY misfires DESC, hook, failure
