-- The `calls` view on ClickHouse, over the table the OpenTelemetry Collector's
-- ClickHouse exporter writes (otel_logs), with records mapped as otelcol.yaml and
-- `hooktui export --otlp-json` map them. The same columns, with the same types, as the
-- DuckDB view over the streams themselves (duckdb_calls.sql). Run it in the exporter's
-- database:  clickhouse-client --database hooktui --multiquery < clickhouse_calls.sql
CREATE VIEW IF NOT EXISTS calls AS
SELECT
    LogAttributes['log.record.uid'] AS id,
    toDateTime64(Timestamp, 6, 'UTC') AS ts,
    LogAttributes['hooktui.runtime'] AS runtime,
    LogAttributes['hooktui.runtime.version'] AS runtime_version,
    LogAttributes['hooktui.event'] AS event,
    LogAttributes['hooktui.native_event'] AS native_event,
    LogAttributes['gen_ai.tool.name'] AS tool_name,
    LogAttributes['hooktui.hook.label'] AS hook,
    LogAttributes['hooktui.decision'] AS decision,
    LogAttributes['hooktui.reason'] AS reason,
    LogAttributes['hooktui.failure'] AS failure,
    LogAttributes['hooktui.effect'] AS effect,
    CAST(decision = 'failure' AND effect != 'blocks', 'Bool') AS fail_open,
    toInt32OrNull(LogAttributes['process.exit.code']) AS exit_code,
    toFloat64OrZero(LogAttributes['hooktui.duration_ms']) AS duration_ms,
    LogAttributes['hooktui.summary'] AS summary,
    LogAttributes['session.id'] AS session_id,
    LogAttributes['gen_ai.agent.id'] AS agent_id,
    LogAttributes['gen_ai.tool.call.id'] AS tool_call_id,
    LogAttributes['hooktui.cwd'] AS cwd,
    toInt64OrNull(LogAttributes['hooktui.hook.timeout_ms']) AS hook_timeout_ms,
    LogAttributes['hooktui.hook.fails'] AS hook_fails,
    toInt32OrNull(LogAttributes['hooktui.record.v']) AS v
FROM otel_logs
WHERE LogAttributes['hooktui.decision'] != '';
