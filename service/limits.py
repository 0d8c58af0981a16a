"""The server's limits on what one client may hold or send, and their defaults (docs/service.md,
"Limits and their errors").  Trials per job and the sizes of job files, game files and
scenario requests are checked where those are read (service/jobfile.py, service/games.py,
service/verify_service.py)."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX_JOBS = 100  # jobs queued or running per namespace
DEFAULT_MAX_WATCHES = 64  # WatchJob streams open per namespace
DEFAULT_MAX_MESSAGE_BYTES = 4 * 2**20  # grpc's own default for a received message
DEFAULT_CALL_TIMEOUT = 60.0  # seconds a unary call may run


@dataclass(frozen=True)
class ClientLimits:
    """What one namespace may hold at once: jobs queued or running, the trials in them
    (None: no limit but each job's), WatchJob streams.  A token's ``jobs=N`` and
    ``trials=N`` (in the tokens file) override ``jobs`` and ``trials`` for its namespace."""

    jobs: int = DEFAULT_MAX_JOBS
    watches: int = DEFAULT_MAX_WATCHES
    trials: int | None = None
