"""What a server checks before it listens: whether its address is loopback only, its TLS
certificate and key (and the CA of its clients' certificates, for mutual TLS), and that an
address other hosts can reach is never served without a way to tell clients apart.

- ``--tokens FILE``: every call but health needs a bearer token of the file.
- ``--tls-cert``/``--tls-key``: the server speaks TLS; with ``--tls-client-ca`` too, only
  clients with a certificate that CA signed get a connection (mutual TLS).
- A server without tokens serves everyone who reaches it as one namespace; on a loopback
  address (127.0.0.0/8, ::1, a name that resolves only to those) that is this machine's
  users.  On any other address it refuses to start unless it has tokens, or a client CA,
  or is told ``--insecure``.
- The server's certificate is not served once expired (every client would refuse it): the
  server refuses to start on one, warns from :data:`EXPIRY_WARNING_DAYS` days before, and
  exports the date (:func:`check_certificate`, :func:`expiry_notice`).
"""

from __future__ import annotations

import datetime
import ipaddress
import logging
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path

import grpc

log = logging.getLogger(__name__)

EXPIRY_WARNING_DAYS = 30


class SecurityError(ValueError):
    """A setting that cannot be used; the message names the flag."""


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` stands for is a loopback address."""
    bare = host.strip("[]")
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        pass
    if not bare:
        return False
    try:
        infos = socket.getaddrinfo(bare, None, type=socket.SOCK_STREAM)
    except OSError:
        return False
    addresses = {info[4][0] for info in infos}
    return bool(addresses) and all(
        ipaddress.ip_address(str(a).split("%")[0]).is_loopback for a in addresses
    )


@dataclass(frozen=True)
class TlsFiles:
    cert: Path | None = None
    key: Path | None = None
    client_ca: Path | None = None


def _read(path: Path, flag: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise SecurityError(f"{flag} {path}: cannot read it: {err.strerror}") from None


def server_credentials(files: TlsFiles) -> grpc.ServerCredentials | None:
    """The server's TLS credentials, checked now (a key that does not match its
    certificate, a file that is not PEM); None for a server without TLS."""
    if files.cert is None and files.key is None:
        if files.client_ca is not None:
            raise SecurityError("--tls-client-ca needs --tls-cert and --tls-key")
        return None
    if files.cert is None or files.key is None:
        raise SecurityError("--tls-cert and --tls-key go together: give both")
    cert = _read(files.cert, "--tls-cert")
    key = _read(files.key, "--tls-key")
    probe = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        probe.load_cert_chain(files.cert, files.key)
    except ssl.SSLError as err:
        raise SecurityError(
            f"--tls-cert {files.cert} / --tls-key {files.key}: not a PEM certificate and "
            f"its private key ({err.reason or err})"
        ) from None
    client_ca: bytes | None = None
    if files.client_ca is not None:
        client_ca = _read(files.client_ca, "--tls-client-ca")
        try:
            probe.load_verify_locations(cadata=client_ca.decode("ascii", "replace"))
        except (ssl.SSLError, ValueError) as err:
            raise SecurityError(
                f"--tls-client-ca {files.client_ca}: not PEM certificates ({err})"
            ) from None
    return grpc.ssl_server_credentials(
        [(key, cert)], root_certificates=client_ca, require_client_auth=client_ca is not None
    )


def check_exposure(host: str, *, tokens: bool, client_ca: bool, insecure: bool) -> None:
    """Refuse to serve an address other hosts reach with nothing telling clients apart."""
    if tokens or client_ca or insecure or is_loopback(host):
        return
    raise SecurityError(
        f"--listen {host}: not a loopback address, and without --tokens anyone who reaches "
        "it could submit and cancel jobs; give --tokens FILE (tokens from `cardroom token`), "
        "or --tls-client-ca for mutual TLS, or --insecure to serve it open"
    )


def certificate_expiry(path: Path) -> datetime.datetime:
    """When the first certificate of a PEM file (the server's own, before its chain)
    stops being valid, in UTC; ``SecurityError`` naming the flag if it does not read."""
    try:
        from cryptography import x509
    except ImportError:  # cryptography is optional at run time: the standard library's parser
        return _stdlib_expiry(path)
    try:
        cert = x509.load_pem_x509_certificate(path.read_bytes())
    except (OSError, ValueError) as err:
        raise SecurityError(f"--tls-cert {path}: cannot read its certificate ({err})") from None
    return cert.not_valid_after_utc


def _stdlib_expiry(path: Path) -> datetime.datetime:
    # The ssl module's own certificate decoder (what getpeercert() returns, for a file):
    # CPython's, not a documented API, and the one parser the standard library has.
    decode = getattr(ssl, "_ssl")._test_decode_cert  # noqa: B009
    try:
        not_after = decode(str(path))["notAfter"]
        seconds = ssl.cert_time_to_seconds(not_after)
    except (OSError, ssl.SSLError, KeyError, ValueError) as err:
        raise SecurityError(f"--tls-cert {path}: cannot read its certificate ({err})") from None
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC)


def expiry_notice(
    path: Path, expires: datetime.datetime, now: datetime.datetime | None = None
) -> tuple[int, str] | None:
    """What to log of a certificate expiring at ``expires``: (logging.ERROR, ...) once
    it has expired, (logging.WARNING, ...) within EXPIRY_WARNING_DAYS, else None."""
    now = now or datetime.datetime.now(datetime.UTC)
    when = expires.strftime("%Y-%m-%d %H:%M UTC")
    if expires <= now:
        return (
            logging.ERROR,
            f"--tls-cert {path}: the certificate expired on {when}; clients refuse it. "
            "Renew it and restart the server",
        )
    left = expires - now
    if left <= datetime.timedelta(days=EXPIRY_WARNING_DAYS):
        days = left.total_seconds() / 86_400
        return (
            logging.WARNING,
            f"--tls-cert {path}: the certificate expires on {when}, in {days:.1f} days; "
            "renew it and restart the server before then",
        )
    return None


def check_certificate(path: Path) -> datetime.datetime:
    """A server certificate's expiry, checked at start: ``SecurityError`` (one line naming
    the file and the date) once expired, a WARNING in the log within EXPIRY_WARNING_DAYS."""
    expires = certificate_expiry(path)
    notice = expiry_notice(path, expires)
    if notice is not None:
        level, message = notice
        if level >= logging.ERROR:
            raise SecurityError(message)
        log.log(level, message)
    return expires
