"""The frames tap and dashboard exchange: a 4-byte length, then one JSON object.

Bytes travel as base64 text (`binascii`, a C module); JSON goes through the
recorder's `_json`-only module (stdlib `json` pulls in `re`: tens of ms on
every tapped call while a dashboard listens). Both sides call these with a
connected socket object (the tap's `_socket.socket`, the dashboard's
`socket.socket`: the same methods).
"""

import binascii

from hooktui.tap.base import jsonio

MAX_FRAME = 64 << 20  # a call's request and answer; beyond this the peer is not ours


class WireError(Exception):
    pass


def b64(data: bytes) -> str:
    return binascii.b2a_base64(data, newline=False).decode("ascii")


def unb64(text: str) -> bytes:
    return binascii.a2b_base64(text.encode("ascii")) if text else b""


def send(sock, message: dict) -> None:
    body = jsonio.dumps(message)
    sock.sendall(len(body).to_bytes(4, "big") + body)


def receive(sock, wait=None) -> dict | None:
    """The next frame; None when the peer closed the connection cleanly between frames.

    `wait(sock)`, when given, is called before each read and returns once there is
    something to read (or raises: the tap's one deadline for the whole frame)."""
    head = _exactly(sock, 4, wait)
    if head is None:
        return None
    size = int.from_bytes(head, "big")
    if size > MAX_FRAME:
        raise WireError(f"a frame of {size} bytes")
    body = _exactly(sock, size, wait)
    if body is None:
        raise WireError("the connection closed inside a frame")
    try:
        message = jsonio.loads(body)
    except jsonio.NotJSON as exc:
        raise WireError(f"a frame that is not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise WireError("a frame that is not an object")
    return message


def _exactly(sock, size: int, wait=None) -> bytes | None:
    chunks, got = [], 0
    while got < size:
        if wait is not None:
            wait(sock)
        chunk = sock.recv(min(size - got, 1 << 20))
        if not chunk:
            if got:
                raise WireError("the connection closed inside a frame")
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def peer_uid(sock) -> int:
    """The uid of the process at the other end (SO_PEERCRED: pid, uid, gid as ints)."""
    import _socket

    creds = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
    return int.from_bytes(creds[4:8], "little" if _little() else "big")


def _little() -> bool:
    import sys

    return sys.byteorder == "little"
