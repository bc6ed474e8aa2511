"""A stand-in for ClickHouse's HTTP interface, on loopback, answered by the ClickHouse
engine itself (chDB): our code, not ClickHouse's server (Debian's clickhouse-server is
18.16, too old for the exporter's otel_logs; no newer one installs here). It does what
`hooktui pull` relies on: the query in a POST body, `?database=`, the X-ClickHouse-User
/ X-ClickHouse-Key headers (checked when `password` is set), the result as the query's
FORMAT asks, and an error as status 500 with ClickHouse's `Code: N. DB::Exception: …`
text."""

from __future__ import annotations

import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ChdbHTTP:
    def __init__(self, session, *, user: str = "", password: str = "") -> None:
        self.session = session
        self.lock = threading.Lock()
        self.queries: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                query = self.rfile.read(length).decode()
                params = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                database = params.get("database", ["default"])[0]
                if password and (
                    self.headers.get("X-ClickHouse-User") != user
                    or self.headers.get("X-ClickHouse-Key") != password
                ):
                    return self.reply(
                        516, f"Code: 516. DB::Exception: {user}: Authentication failed"
                    )
                try:
                    with outer.lock:
                        outer.queries.append(query)
                        outer.session.query(f"USE {database}")
                        body = outer.session.query(query).bytes()
                except Exception as exc:  # the engine's refusal, as ClickHouse words it
                    return self.reply(500, f"Code: 60. DB::Exception: {exc}".replace("\n", " "))
                self.reply(200, body)

            def reply(self, status: int, body) -> None:
                data = body if isinstance(body, bytes) else body.encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args) -> None:  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, database: str, auth: str = "") -> str:
        return f"http://{auth}127.0.0.1:{self.port}/?database={database}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)
