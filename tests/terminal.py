"""A command run on a pseudo-terminal, as a user at a terminal runs it: its output is a
terminal (progress bars show), and Ctrl-C is the byte the terminal turns into SIGINT for
the command's whole process group, not a signal sent to one process by the test."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

CTRL_C = b"\x03"


def _controlling_terminal() -> None:
    """In the child: a session of its own with the pseudo-terminal as its terminal, and
    Ctrl-C delivered as a shell delivers it (a signal the test runner ignores or blocks
    would be inherited)."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@dataclass
class Terminal:
    """A command on a pseudo-terminal of 40 rows and 120 columns."""

    command: Sequence[str]
    cwd: Path
    env: Mapping[str, str]
    output: bytes = b""
    process: subprocess.Popen[bytes] = field(init=False)
    _master: int = field(init=False)

    def __post_init__(self) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.process = subprocess.Popen(
            list(self.command),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=self.cwd,
            env=dict(self.env),
            preexec_fn=_controlling_terminal,
        )
        os.close(slave)
        self._master = master

    @property
    def text(self) -> str:
        return self.output.decode(errors="replace")

    def _read(self, timeout: float) -> bool:
        """Read what the command wrote within ``timeout`` s; False once it is all read."""
        ready, _, _ = select.select([self._master], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self._master, 65536)
        except OSError:  # EIO: the command and every process on the terminal are gone
            return False
        self.output += chunk
        return bool(chunk)

    def wait_for(self, phrase: str, timeout: float) -> None:
        """Read until ``phrase`` has been written; fail with the output if it is not."""
        deadline = time.monotonic() + timeout
        while phrase.encode() not in self.output:
            assert time.monotonic() < deadline, f"{phrase!r} not written:\n{self.text}"
            if not self._read(0.2) and self.process.poll() is not None:
                raise AssertionError(f"exited before {phrase!r}:\n{self.text}")

    def press_ctrl_c(self) -> None:
        os.write(self._master, CTRL_C)

    def finish(self, timeout: float) -> int:
        """Read to the end; the exit code.  A command still running after ``timeout`` s is
        killed (its session, by its own id) and the test fails."""
        deadline = time.monotonic() + timeout
        while self._read(0.2):
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"still running after {timeout} s:\n{self.text}")
            if self.process.poll() is not None and not self._read(0.2):
                break
        os.close(self._master)
        return self.process.wait(timeout=30)

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
