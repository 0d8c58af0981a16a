"""Why a client cannot reach a server, in one line.

grpc reports every failure to connect the same way — the channel never becomes ready —
and logs the cause, if at all, as C-core lines on the terminal.  The client commands
therefore check for themselves, with the standard library alone:

* :func:`nothing_listening` before grpc is asked, a plain TCP connection: a refused
  connection means no server at all, the most common slip, and is told at once;
* :func:`diagnose` once grpc's channel has failed: a TLS handshake as grpc would make it,
  which names the certificate that is missing or not trusted, or says that the server
  speaks TLS to a plaintext client (or the other way round).

Addresses grpc reads in other forms (``unix:``, ``dns:///``) are left to grpc.
"""

from __future__ import annotations

import socket
import ssl
from pathlib import Path

PROBE_TIMEOUT = 3.0  # seconds for the probe's connection and handshake
# Alerts a server's TLS stack sends when a client certificate is missing or not trusted,
# as OpenSSL names them in SSLError.reason.
_NO_CLIENT_CERTIFICATE = ("CERTIFICATE_REQUIRED", "HANDSHAKE_FAILURE")
_CLIENT_CERTIFICATE_REFUSED = (
    "UNKNOWN_CA",
    "BAD_CERTIFICATE",
    "CERTIFICATE_UNKNOWN",
    "DECRYPT_ERROR",
    "ACCESS_DENIED",
)
# What a TLS client reads from a server that does not speak TLS.
_NOT_TLS = ("WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "PACKET_LENGTH_TOO_LONG", "HTTP")


def host_port(address: str) -> tuple[str, int] | None:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a pair; None for other forms."""
    if "://" in address or address.split(":", 1)[0] in ("unix", "unix-abstract", "dns"):
        return None
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        return None
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host, int(port)


def nothing_listening(address: str) -> str | None:
    """The line to print when no TCP connection to ``address`` can be made; None when one
    can (or ``address`` is not HOST:PORT)."""
    parts = host_port(address)
    if parts is None:
        return None
    try:
        socket.create_connection(parts, timeout=PROBE_TIMEOUT).close()
    except ConnectionRefusedError:
        return (
            f"cannot reach a cardroom server: nothing is listening at {address} "
            "(`cardroom serve` starts one; --address or $CARDROOM_ADDRESS names another)"
        )
    except socket.gaierror as err:
        return f"cannot reach a cardroom server at {address}: {err.strerror or err}"
    except TimeoutError:
        return f"cannot reach a cardroom server at {address}: no answer in {PROBE_TIMEOUT:g} s"
    except OSError as err:
        return f"cannot reach a cardroom server at {address}: {err.strerror or err}"
    return None


def diagnose(
    address: str,
    *,
    tls: bool,
    ca: Path | None = None,
    cert: Path | None = None,
    key: Path | None = None,
) -> str | None:
    """Why a channel to ``address`` does not connect, when a TLS handshake made as grpc
    makes it tells (a certificate missing or not trusted, TLS on one side only); None
    when it does not."""
    parts = host_port(address)
    if parts is None:
        return None
    try:
        raw = socket.create_connection(parts, timeout=PROBE_TIMEOUT)
    except OSError:
        return nothing_listening(address)
    with raw:
        if tls:
            return _tls_problem(raw, parts[0], address, ca, cert, key)
        return _serves_tls(raw, parts[0], address)


def _reason(err: ssl.SSLError) -> str:
    return (err.reason or str(err)).upper()


def _context() -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.set_alpn_protocols(["h2"])  # as grpc asks: a gRPC server refuses anything else
    return context


def _tls_problem(
    raw: socket.socket,
    host: str,
    address: str,
    ca: Path | None,
    cert: Path | None,
    key: Path | None,
) -> str | None:
    context = _context()
    try:
        if ca is not None:
            context.load_verify_locations(cafile=str(ca))
        else:
            context.load_default_certs()
        if cert is not None and key is not None:
            context.load_cert_chain(str(cert), str(key))
    except (OSError, ssl.SSLError, ValueError):
        return None  # grpc read these files itself; what it made of them is its to say
    try:
        with context.wrap_socket(raw, server_hostname=host) as secured:
            # TLS 1.3 finishes the client's handshake before the server has judged the
            # client's certificate: its verdict is the first record read after it, an alert
            # or (grpc's servers) the connection closed without a word.  A server that
            # admits the client speaks first: HTTP/2's settings.
            secured.settimeout(PROBE_TIMEOUT)
            if not secured.recv(1):
                return _certificate_refused(address, cert)
    except ssl.SSLCertVerificationError as err:
        signer = f"--tls-ca {ca}" if ca is not None else "any CA this system trusts"
        detail = err.verify_message or _reason(err).lower()
        if "hostname" in detail.lower() or "ip address mismatch" in detail.lower():
            return f"the server at {address} has a certificate for another name ({detail})"
        return f"the server at {address} has a certificate that {signer} did not sign ({detail})"
    except ssl.SSLError as err:
        reason = _reason(err)
        if any(word in reason for word in _NOT_TLS):
            return (
                f"the server at {address} does not serve TLS: leave out --tls, --tls-ca, "
                "--tls-cert and --tls-key (and their $CARDROOM_TLS* variables)"
            )
        if any(word in reason for word in (*_NO_CLIENT_CERTIFICATE, *_CLIENT_CERTIFICATE_REFUSED)):
            return _certificate_refused(address, cert)
        return None
    except OSError:
        return None
    return None


def _certificate_refused(address: str, cert: Path | None) -> str:
    if cert is None:
        return (
            f"the server at {address} asks for a client certificate (mutual TLS): give "
            "--tls-cert and --tls-key"
        )
    return (
        f"the server at {address} refuses the client certificate --tls-cert {cert}: it "
        "admits only certificates its client CA signed"
    )


def _serves_tls(raw: socket.socket, host: str, address: str) -> str | None:
    """A plaintext client's failure: does the server answer a TLS handshake?"""
    context = _context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # only whether it speaks TLS, not whom to trust
    try:
        with context.wrap_socket(raw, server_hostname=host):
            pass
    except ssl.SSLError as err:
        if any(word in _reason(err) for word in _NOT_TLS):
            return None
    except OSError:
        return None
    return (
        f"the server at {address} serves TLS: connect with --tls-ca CA_FILE (the CA that "
        "signed its certificate), or --tls for a certificate of a public CA"
    )
