-- The hooks that take longest: median, 95th percentile (interpolated between the two
-- nearest values, as DuckDB's quantile_cont) and slowest call, in ms.
SELECT
    hook,
    count(*) AS calls,
    quantileExactInclusive(0.5)(duration_ms) AS p50_ms,
    quantileExactInclusive(0.95)(duration_ms) AS p95_ms,
    max(duration_ms) AS max_ms
FROM calls
GROUP BY hook
ORDER BY p95_ms DESC, hook
