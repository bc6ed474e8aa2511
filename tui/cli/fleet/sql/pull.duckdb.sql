-- `hooktui pull` from a DuckDB file holding otel_logs (`hooktui export --duckdb`): the
-- stored lines after a point (time in ns, then uid), in that order, a page at a time.
SELECT
    Body,
    epoch_ns(Timestamp) AS ns,
    coalesce(LogAttributes['log.record.uid'], '') AS uid
FROM otel_logs
WHERE coalesce(LogAttributes['hooktui.decision'], '') <> ''
    AND (epoch_ns(Timestamp) > {after_ns}
        OR (epoch_ns(Timestamp) = {after_ns} AND coalesce(LogAttributes['log.record.uid'], '') > {after_uid}))
ORDER BY ns, uid
LIMIT {limit}
