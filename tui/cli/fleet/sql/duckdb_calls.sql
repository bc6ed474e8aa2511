-- The `calls` view on DuckDB: one row per recorded call, read from the streams' JSON
-- lines ({streams}: the files or URLs, filled in by `hooktui sql`). Its columns are the
-- record's summary fields, the same, with the same types, as the view ClickHouse gets
-- over the OpenTelemetry exporter's otel_logs (clickhouse_calls.sql). Lines that are not
-- JSON are skipped, as every hooktui reader skips them.
CREATE OR REPLACE TEMP VIEW calls AS
SELECT
    id,
    CAST(ts AS TIMESTAMP) AS ts,
    coalesce(runtime, '') AS runtime,
    coalesce(runtime_version, '') AS runtime_version,
    coalesce(event, '') AS event,
    coalesce(native_event, '') AS native_event,
    coalesce(tool_name, '') AS tool_name,
    coalesce(hook.label, '') AS hook,
    decision,
    coalesce(reason, '') AS reason,
    coalesce(failure, '') AS failure,
    coalesce(effect, '') AS effect,
    (decision = 'failure' AND coalesce(effect, '') <> 'blocks') AS fail_open,
    exit_code,
    coalesce(duration_ms, 0) AS duration_ms,
    coalesce(summary, '') AS summary,
    coalesce(session_id, '') AS session_id,
    coalesce(agent_id, '') AS agent_id,
    coalesce(tool_call_id, '') AS tool_call_id,
    coalesce(cwd, '') AS cwd,
    hook.timeout_ms AS hook_timeout_ms,
    coalesce(hook.fails, '') AS hook_fails,
    v
FROM read_json(
    {streams},
    format = 'newline_delimited',
    ignore_errors = true,
    columns = {
        'v': 'INTEGER', 'id': 'VARCHAR', 'ts': 'VARCHAR', 'runtime': 'VARCHAR',
        'runtime_version': 'VARCHAR', 'event': 'VARCHAR', 'native_event': 'VARCHAR',
        'tool_name': 'VARCHAR', 'decision': 'VARCHAR', 'reason': 'VARCHAR',
        'exit_code': 'INTEGER', 'duration_ms': 'DOUBLE', 'failure': 'VARCHAR',
        'effect': 'VARCHAR', 'summary': 'VARCHAR', 'session_id': 'VARCHAR',
        'agent_id': 'VARCHAR', 'tool_call_id': 'VARCHAR', 'cwd': 'VARCHAR',
        'hook': 'STRUCT(label VARCHAR, timeout_ms BIGINT, fails VARCHAR)'
    }
)
WHERE id IS NOT NULL AND ts IS NOT NULL AND decision IS NOT NULL;
