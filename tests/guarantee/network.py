"""The http hooks' servers: one plain, one behind a private CA, answering each runtime's deny.

`POST /<runtime>` gets that runtime's deny for its guard event, as the body of a
200 (what the runtime reads from an http hook as a command's stdout). The CA is
made here with `openssl` (no other party trusts it).
"""

from __future__ import annotations

import ssl
import subprocess
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from hooktui.tap.canonical import Verdict
from hooktui.tap.runtimes import registry

from tests.guarantee.forms import FORMS


@dataclass
class Network:
    http_port: int
    https_port: int
    ca_file: str

    def url(self, runtime: str, tls: bool) -> str:
        if tls:
            return f"https://127.0.0.1:{self.https_port}/{runtime}"
        return f"http://127.0.0.1:{self.http_port}/{runtime}"


def deny_body(runtime_name: str) -> bytes:
    from tests.guarantee.harness import example_call

    runtime = registry.get_adapter(runtime_name)
    call = example_call(runtime, "/")
    return runtime.encode(call, Verdict(decision="deny", reason="guarantee: denied"))[0]


def _handler(bodies: dict[str, bytes]):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # quiet
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = bodies.get(self.path.lstrip("/"), b"")
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler


def make_ca(folder: Path) -> tuple[Path, Path, Path]:
    """(CA certificate, server certificate, server key) for 127.0.0.1."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True, timeout=60)

    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    openssl(
        "req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
        "-subj", "/CN=hooktui guarantee CA",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    )  # fmt: skip
    openssl("req", *ec, "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=127.0.0.1")
    (folder / "srv.ext").write_text(
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
        "keyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n"
        "authorityKeyIdentifier=keyid\nsubjectKeyIdentifier=hash\n"
    )
    openssl(
        "x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "srv.pem", "-days", "2", "-extfile", "srv.ext",
    )  # fmt: skip
    return folder / "ca.pem", folder / "srv.pem", folder / "srv.key"


_SHARED: list[Network] = []


def shared() -> Network:
    """This test process's servers, started on first use and stopped at its exit.
    Not a session fixture: with one, pytest-xdist would keep every cell of a module on
    one worker (tests/conftest.py groups tests sharing a wider fixture)."""
    if not _SHARED:
        import atexit
        import shutil
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="hkg-ca-"))
        found, stop = start(folder)
        atexit.register(shutil.rmtree, folder, True)
        atexit.register(stop)
        _SHARED.append(found)
    return _SHARED[0]


def start(folder: Path):
    """(Network, stop()) : both servers, answering for every runtime of FORMS."""
    bodies = {name: deny_body(name) for name in {form.runtime for form in FORMS}}
    plain = ThreadingHTTPServer(("127.0.0.1", 0), _handler(bodies))
    tls = ThreadingHTTPServer(("127.0.0.1", 0), _handler(bodies))
    ca, cert, key = make_ca(folder)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    tls.socket = context.wrap_socket(tls.socket, server_side=True)
    for server in (plain, tls):
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()

    def stop() -> None:
        for server in (plain, tls):
            server.shutdown()
            server.server_close()

    return Network(plain.server_address[1], tls.server_address[1], str(ca)), stop
