"""Beyond one machine: fleet replay (Dask, --part/--merge), SQL over streams (DuckDB,
ClickHouse), records as OpenTelemetry logs, and pulling a team's store. Plain commands:
nothing here imports Textual; each engine is an optional extra (see extras.py)."""
