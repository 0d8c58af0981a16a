"""Messages between the service and its Ray driver process: pickled tuples, each sent as
an 8-byte length and the pickle, over one stream socket.

Both ends are this package's own code (the service starts the driver from its own
interpreter), so pickle carries jobs and tallies as they are.
"""

from __future__ import annotations

import contextlib
import pickle
import socket
import struct
import threading
from typing import Any

_LENGTH = struct.Struct("!Q")


class FramedSocket:
    """One end of the socket: whole messages in, whole messages out (sends are locked, so
    threads may send at once; one thread receives)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._send_lock = threading.Lock()

    def send(self, *message: Any) -> None:
        payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        with self._send_lock:
            self.sock.sendall(_LENGTH.pack(len(payload)) + payload)

    def receive(self) -> tuple[Any, ...] | None:
        """The next message, or None once the other end has closed."""
        head = self._exactly(_LENGTH.size)
        if head is None:
            return None
        (length,) = _LENGTH.unpack(head)
        payload = self._exactly(length)
        if payload is None:
            return None
        message: tuple[Any, ...] = pickle.loads(payload)
        return message

    def _exactly(self, count: int) -> bytes | None:
        parts: list[bytes] = []
        while count:
            try:
                part = self.sock.recv(min(count, 1 << 20))
            except OSError:
                return None
            if not part:
                return None
            parts.append(part)
            count -= len(part)
        return b"".join(parts)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
