"""API tokens: minting them, the tokens file that holds their hashes, and checking one.

A token is ``cardroom.KEYID.SECRET``: a key id of 12 hex digits that names it in the
tokens file, and a secret of 256 random bits (43 characters of URL-safe base64).  The
server never stores a token: the tokens file holds, one line per token,

    KEYID NAMESPACE sha256:SALT:DIGEST [jobs=N] [trials=N] [weight=N]

with DIGEST the SHA-256 of SALT (16 random bytes, in hex) followed by the secret.  A slow
hash (scrypt, bcrypt) protects passwords a person chose, which can be guessed; a secret of
256 random bits cannot be, so one salted SHA-256 is as strong for it and costs a
microsecond per call.  The digests are compared in constant time.

NAMESPACE is the client the token belongs to: a client sees and cancels only the jobs
submitted in its namespace, and several tokens (an old and a new one, while rotating) may
share one.  ``jobs=N`` overrides the server's limit of jobs in flight for that namespace,
``trials=N`` its limit of trials in those jobs, and ``weight=N`` (1 to 1,000, default 1) is
the namespace's share of the workers beside the other namespaces' (the largest of its
lines' weights counts).

:class:`TokensFile` reads the file again when it changes on disk (a Kubernetes Secret
updated in place, a line added or removed), checking at most every
:data:`RELOAD_SECONDS`; a file that no longer reads keeps the tokens it had, and says so
in the log.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
import re
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from simulations.spec import echo

log = logging.getLogger(__name__)

TOKEN_PREFIX = "cardroom"
DEFAULT_NAMESPACE = "default"  # the namespace of a server without tokens, and of older jobs
RELOAD_SECONDS = 2.0
_KEY_ID = re.compile(r"[0-9a-f]{12}")
_SECRET = re.compile(r"[A-Za-z0-9_-]{43}")
_NAMESPACE = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
_HASH = re.compile(r"sha256:([0-9a-f]{32}):([0-9a-f]{64})")
NAMESPACE_RULE = (
    "1 to 63 lowercase letters, digits and '-', starting and ending with a letter or digit"
)
MAX_JOBS_OPTION = 10**6
MAX_TRIALS_OPTION = 10**18  # below 2**63: sums of trials stay exact in both stores
MAX_WEIGHT = 1000
DEFAULT_WEIGHT = 1
# Each option of a tokens file's line: its name, what it sets, and its largest value.
OPTIONS = {
    "jobs": ("max_jobs", MAX_JOBS_OPTION),
    "trials": ("max_trials", MAX_TRIALS_OPTION),
    "weight": ("weight", MAX_WEIGHT),
}
LINE_FORMAT = "KEYID NAMESPACE sha256:SALT:DIGEST [jobs=N] [trials=N] [weight=N]"


class TokensError(ValueError):
    """A tokens file that cannot be used; the message names the file, the line and field."""


@dataclass(frozen=True)
class Principal:
    """Who a call comes from: the namespace its jobs live in, the key id of its token
    ('' for a server without tokens), its own limits of jobs and of trials in flight, if
    any, and its token's weight (its namespace's share of the workers)."""

    namespace: str
    key_id: str = ""
    max_jobs: int | None = None
    max_trials: int | None = None
    weight: int = DEFAULT_WEIGHT


OPEN = Principal(DEFAULT_NAMESPACE)


@dataclass(frozen=True)
class TokenEntry:
    key_id: str
    namespace: str
    salt: bytes
    digest: bytes
    max_jobs: int | None = None
    max_trials: int | None = None
    weight: int | None = None

    def line(self) -> str:
        options = "".join(
            f" {name}={value}"
            for name, (attribute, _) in OPTIONS.items()
            if (value := getattr(self, attribute)) is not None
        )
        hashed = f"sha256:{self.salt.hex()}:{self.digest.hex()}"
        return f"{self.key_id} {self.namespace} {hashed}{options}"


def namespace_problem(namespace: str) -> str | None:
    if _NAMESPACE.fullmatch(namespace) is None:
        return f"namespace: must be {NAMESPACE_RULE}; got {echo(namespace)}"
    return None


def _digest(salt: bytes, secret: str) -> bytes:
    return hashlib.sha256(salt + secret.encode()).digest()


def mint(
    namespace: str,
    max_jobs: int | None = None,
    max_trials: int | None = None,
    weight: int | None = None,
) -> tuple[str, TokenEntry]:
    """A new token for ``namespace`` and the entry that admits it (for the tokens file)."""
    problem = namespace_problem(namespace)
    if problem is not None:
        raise TokensError(problem)
    given = {"jobs": max_jobs, "trials": max_trials, "weight": weight}
    for name, value in given.items():
        largest = OPTIONS[name][1]
        if value is not None and not 1 <= value <= largest:
            raise TokensError(f"{name}: must lie in 1..{largest:,}, got {value}")
    key_id = secrets.token_hex(6)
    secret = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("=")
    salt = secrets.token_bytes(16)
    digest = _digest(salt, secret)
    entry = TokenEntry(key_id, namespace, salt, digest, max_jobs, max_trials, weight)
    return f"{TOKEN_PREFIX}.{key_id}.{secret}", entry


def split_token(token: str) -> tuple[str, str] | None:
    """(key id, secret) of a token in cardroom's format; None for anything else."""
    prefix, _, rest = token.partition(".")
    key_id, _, secret = rest.partition(".")
    if prefix != TOKEN_PREFIX or not _KEY_ID.fullmatch(key_id) or not _SECRET.fullmatch(secret):
        return None
    return key_id, secret


def _entry(fields: list[str]) -> TokenEntry:
    if len(fields) < 3:
        raise TokensError(f"must be {LINE_FORMAT}")
    key_id, namespace, hashed, *options = fields
    if not _KEY_ID.fullmatch(key_id):
        raise TokensError(f"key id: must be 12 lowercase hex digits, got {echo(key_id)}")
    problem = namespace_problem(namespace)
    if problem is not None:
        raise TokensError(problem)
    found = _HASH.fullmatch(hashed)
    if found is None:
        raise TokensError(
            "hash: must be sha256:SALT:DIGEST (32 and 64 hex digits, as `cardroom token` "
            f"writes it), got {echo(hashed)}"
        )
    values: dict[str, int] = {}
    for option in options:
        name, sep, value = option.partition("=")
        if name not in OPTIONS or not sep:
            raise TokensError(f"{echo(option)}: the only options are jobs=N, trials=N and weight=N")
        if name in values:
            raise TokensError(f"{name}: given twice")
        largest = OPTIONS[name][1]
        # At most 19 digits before int(): a 5,000-digit value is refused, not converted.
        if not value.isdigit() or len(value) > 19 or not 1 <= int(value) <= largest:
            raise TokensError(
                f"{name}: must be a whole number in 1..{largest:,}, got {echo(value)}"
            )
        values[name] = int(value)
    salt, digest = bytes.fromhex(found[1]), bytes.fromhex(found[2])
    return TokenEntry(
        key_id,
        namespace,
        salt,
        digest,
        values.get("jobs"),
        values.get("trials"),
        values.get("weight"),
    )


def parse_tokens(text: str, source: str) -> dict[str, TokenEntry]:
    """The entries of a tokens file's text by key id; ``TokensError`` names the line."""
    entries: dict[str, TokenEntry] = {}
    lines: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            entry = _entry(line.split())
        except TokensError as err:
            raise TokensError(f"{source}: line {number}: {err}") from None
        if entry.key_id in entries:
            raise TokensError(
                f"{source}: line {number}: key id {entry.key_id} given twice "
                f"(first on line {lines[entry.key_id]})"
            )
        entries[entry.key_id] = entry
        lines[entry.key_id] = number
    if not entries:
        raise TokensError(f"{source}: holds no tokens (add one with `cardroom token NAMESPACE`)")
    return entries


def check(entries: Mapping[str, TokenEntry], token: str) -> Principal | None:
    """The principal a token stands for; None for a token that is not one of ``entries``."""
    parts = split_token(token)
    if parts is None:
        return None
    key_id, secret = parts
    entry = entries.get(key_id)
    if entry is None or not hmac.compare_digest(_digest(entry.salt, secret), entry.digest):
        return None
    return Principal(
        entry.namespace,
        entry.key_id,
        entry.max_jobs,
        entry.max_trials,
        entry.weight or DEFAULT_WEIGHT,
    )


def weights(entries: Mapping[str, TokenEntry]) -> dict[str, int]:
    """Each namespace's weight: the largest ``weight=N`` of its lines, 1 when none."""
    found: dict[str, int] = {}
    for entry in entries.values():
        weight = entry.weight or DEFAULT_WEIGHT
        found[entry.namespace] = max(found.get(entry.namespace, weight), weight)
    return found


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise TokensError(f"--tokens {path}: is not UTF-8 text") from None
    except OSError as err:
        raise TokensError(f"--tokens {path}: cannot read it: {err.strerror}") from None


class TokensFile:
    """The tokens of a file, read again when the file changes (see the module's text)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp = self._stat()
        self._entries = parse_tokens(_read(path), f"--tokens {path}")
        self._weights = weights(self._entries)
        self._checked = time.monotonic()

    def _stat(self) -> tuple[int, int, int] | None:
        try:
            # Stat through the path, so that a Secret's symlink swapped to a new file counts.
            status = os.stat(self.path)
        except OSError:
            return None
        return status.st_ino, status.st_size, status.st_mtime_ns

    def entries(self) -> Mapping[str, TokenEntry]:
        now = time.monotonic()
        if now - self._checked >= RELOAD_SECONDS:
            self._checked = now
            stamp = self._stat()
            if stamp != self._stamp:
                self._stamp = stamp
                self._reload()
        return self._entries

    def _reload(self) -> None:
        try:
            entries = parse_tokens(_read(self.path), f"--tokens {self.path}")
        except TokensError as err:
            log.error("tokens file not reloaded, the tokens read before still apply: %s", err)
            return
        self._entries = entries
        self._weights = weights(entries)
        log.info("tokens file reloaded: %d tokens", len(entries))

    def principal(self, token: str) -> Principal | None:
        return check(self.entries(), token)

    def weight(self, namespace: str) -> int:
        """The namespace's share of the workers: the largest ``weight=N`` of its lines in
        the file as it is now; 1 for a namespace without one, or without tokens."""
        self.entries()  # the file read again if it changed
        return self._weights.get(namespace, DEFAULT_WEIGHT)
