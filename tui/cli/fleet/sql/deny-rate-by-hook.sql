-- How often each hook denies: calls, denies, and their share.
SELECT
    hook,
    count(*) AS calls,
    sum(CASE WHEN decision = 'deny' THEN 1 ELSE 0 END) AS denies,
    sum(CASE WHEN decision = 'deny' THEN 1 ELSE 0 END) / count(*) AS deny_rate
FROM calls
GROUP BY hook
ORDER BY deny_rate DESC, calls DESC, hook
