"""An http hook's POST as a Node runtime makes it (issue 19): it trusts what
NODE_EXTRA_CA_CERTS adds (the matrix's private-ca cells run it end to end), and it
reads a reply only as far as the runtime can: an endless body is cut there, an error
as the runtime's, not gigabytes in memory."""

from __future__ import annotations

import socket
import threading

import pytest
from hooktui.tap.base.reply import TOO_LONG, TooLong, read_body, tls_context

from tests.guarantee import network


def serving(size: int | None):
    """A real socket's reading end, its peer writing `size` bytes then closing (None:
    without end, until closed)."""
    ours, theirs = socket.socketpair()

    def write() -> None:
        sent = 0
        try:
            while size is None or sent < size:
                piece = 65536 if size is None else min(65536, size - sent)
                theirs.sendall(b"x" * piece)
                sent += piece
            theirs.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    threading.Thread(target=write, daemon=True).start()
    return ours, theirs


def test_an_endless_reply_is_cut_where_the_runtime_cuts_it():
    ours, theirs = serving(None)
    reader = ours.makefile("rb")
    try:
        with pytest.raises(TooLong) as raised:
            read_body(reader, limit=1 << 20)
        assert str(raised.value) == TOO_LONG
    finally:
        reader.close()
        ours.close()
        theirs.close()


def test_a_reply_within_the_bound_is_read_whole():
    ours, theirs = serving(300_000)
    with ours, theirs, ours.makefile("rb") as reader:
        assert read_body(reader, limit=300_000) == b"x" * 300_000


def test_node_extra_ca_certs_is_trusted_and_a_bad_file_is_left_out(tmp_path):
    ca, _, _ = network.make_ca(tmp_path)
    trusted = tls_context({"NODE_EXTRA_CA_CERTS": str(ca)})
    assert any(
        c["subject"] == ((("commonName", "hooktui guarantee CA"),),) for c in trusted.get_ca_certs()
    )
    (tmp_path / "bad.pem").write_text("not a certificate")
    assert tls_context({"NODE_EXTRA_CA_CERTS": str(tmp_path / "bad.pem")}).verify_mode
