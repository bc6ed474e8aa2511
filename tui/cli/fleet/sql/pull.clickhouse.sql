-- `hooktui pull`: the stored lines after a point (the record's time in ns, then its
-- uid), in that order, a page at a time. Body is the recorded line, unchanged.
SELECT
    Body,
    toUnixTimestamp64Nano(Timestamp) AS ns,
    LogAttributes['log.record.uid'] AS uid
FROM otel_logs
WHERE LogAttributes['hooktui.decision'] != ''
    AND Timestamp >= fromUnixTimestamp64Nano(toInt64({after_ns}))
    AND (toUnixTimestamp64Nano(Timestamp) > {after_ns}
        OR (toUnixTimestamp64Nano(Timestamp) = {after_ns} AND uid > {after_uid}))
ORDER BY ns, uid
LIMIT {limit}
