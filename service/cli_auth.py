"""The CLI's side of authentication: ``cardroom token`` mints a token, and the client
commands' connection flags (the token to send, TLS) become a :class:`~service.client.Target`.

``cardroom token NAMESPACE`` prints the token on standard output, once, and the line
that admits it — its key id, namespace and salted hash, never the token — on standard
error, or appends that line to ``--file`` (created readable by its owner only).  The
client commands send ``$CARDROOM_TOKEN``, or the first line of ``--token-file``; neither
is a command-line argument, which other users of the machine could read in ``ps``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from service import client
from service.auth import TokensError, mint, parse_tokens

# The flag, its environment variable, and its help.
CONNECTION_FLAGS = (
    ("--token-file", "CARDROOM_TOKEN_FILE", "the bearer token's file (else $CARDROOM_TOKEN)"),
    ("--tls-ca", "CARDROOM_TLS_CA", "connect with TLS, trusting certificates this CA signed"),
    ("--tls-cert", "CARDROOM_TLS_CERT", "this client's certificate, for mutual TLS (PEM)"),
    ("--tls-key", "CARDROOM_TLS_KEY", "this client's private key, for mutual TLS (PEM)"),
)


def add_connection_flags(parser: argparse.ArgumentParser, *, after_command: bool) -> None:
    """The connection flags; after a command they override the ones before it (SUPPRESS
    leaves the main parser's value when absent), as ``--address`` does."""
    for flag, variable, text in CONNECTION_FLAGS:
        default = argparse.SUPPRESS if after_command else os.environ.get(variable) or None
        parser.add_argument(flag, metavar="FILE", type=Path, default=default, help=text)
    tls_default = argparse.SUPPRESS if after_command else os.environ.get("CARDROOM_TLS") == "1"
    parser.add_argument(
        "--tls",
        action="store_true",
        default=tls_default,
        help="connect with TLS, trusting the system's CAs ($CARDROOM_TLS=1)",
    )


def _token(args: argparse.Namespace) -> str | None:
    path: Path | None = args.token_file
    if path is None:
        return os.environ.get("CARDROOM_TOKEN", "").strip() or None
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        raise client.ClientError(
            f"--token-file {path}: cannot read it: {reason}", client.EXIT_BAD_INPUT
        ) from None
    token = lines[0].strip() if lines else ""
    if not token:
        raise client.ClientError(f"--token-file {path}: is empty", client.EXIT_BAD_INPUT)
    return token


def target_of(args: argparse.Namespace) -> client.Target:
    return client.Target(
        address=args.address,
        token=_token(args),
        tls=args.tls,
        tls_ca=args.tls_ca,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
    )


def _jobs(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    token = commands.add_parser(
        "token",
        help="mint an API token: the token on stdout, its tokens-file line on stderr or --file",
    )
    token.add_argument("namespace", help="the client's namespace: its jobs are its own")
    token.add_argument(
        "--jobs", type=_jobs, help="this namespace's limit of jobs in flight (else the server's)"
    )
    token.add_argument(
        "--trials",
        type=_jobs,
        help="this namespace's limit of trials in its jobs queued or running (else the server's)",
    )
    token.add_argument(
        "--weight", type=_jobs, help="this namespace's share of the workers, 1..1000 (default 1)"
    )
    token.add_argument(
        "--file", type=Path, help="append the line to this tokens file (made owner-only)"
    )


def cmd_token(args: argparse.Namespace) -> int:
    try:
        secret, entry = mint(args.namespace, args.jobs, args.trials, args.weight)
    except TokensError as err:
        raise ValueError(str(err)) from None
    line = entry.line()
    if args.file is None:
        print(line, file=sys.stderr)
        print(secret)
        return 0
    path: Path = args.file
    try:
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if old.strip():  # the file as it will be must still read: a key id clash, a bad line
            parse_tokens(old + "\n" + line + "\n", str(path))
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(descriptor, "a", encoding="utf-8") as out:
            if old and not old.endswith("\n"):
                out.write("\n")
            out.write(line + "\n")
    except TokensError as err:
        raise ValueError(f"--file: {err}") from None
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        raise ValueError(f"--file {path}: {reason}") from None
    print(secret)
    print(f"cardroom: token {entry.key_id} for {entry.namespace} added to {path}", file=sys.stderr)
    return 0
