-- The hooks that take longest: median, 95th percentile (interpolated between the two
-- nearest values, as ClickHouse's quantileExactInclusive) and slowest call, in ms.
SELECT
    hook,
    count(*) AS calls,
    quantile_cont(duration_ms, 0.5) AS p50_ms,
    quantile_cont(duration_ms, 0.95) AS p95_ms,
    max(duration_ms) AS max_ms
FROM calls
GROUP BY hook
ORDER BY p95_ms DESC, hook
