"""The server's TLS certificate and its expiry: read by cryptography and by the standard
library alike; an expired one refused at start in one line naming the file and the date,
before Ray starts; one about to expire warned of (and its date exported: the end-to-end
check is in tests/test_ops_metrics.py)."""

from __future__ import annotations

import datetime
import ipaddress
import logging
from dataclasses import dataclass
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from service.security import (
    EXPIRY_WARNING_DAYS,
    SecurityError,
    _stdlib_expiry,
    certificate_expiry,
    check_certificate,
    expiry_notice,
)
from tests.certs import Authority
from tests.harness import cardroom

DAY = datetime.timedelta(days=1)


@dataclass(frozen=True)
class CertPair:
    cert: Path
    key: Path


def certificate_pair(
    folder: Path,
    stem: str,
    expires: datetime.datetime,
    *,
    authority: Authority | None = None,
) -> CertPair:
    """A server certificate for 127.0.0.1 valid until ``expires`` (from a day before),
    signed by ``authority`` (the test CA of tests/certs.py), or self-signed."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, stem)])
    names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    issuer, signer = subject, key
    if authority is not None:  # the CA's own certificate and key, as it signs with them
        issuer, signer = authority._cert.subject, authority._key
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(min(expires, datetime.datetime.now(datetime.UTC)) - DAY)
        .not_valid_after(expires)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .sign(signer, hashes.SHA256())
    )
    pair = CertPair(folder / f"{stem}.crt", folder / f"{stem}.key")
    pair.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    pair.key.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return pair


def _in(days: float) -> datetime.datetime:
    moment = datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=days)
    return moment.replace(microsecond=0)


def test_the_expiry_reads_alike_with_cryptography_and_the_standard_library(
    tmp_path: Path,
) -> None:
    expires = _in(42)
    pair = certificate_pair(tmp_path, "server", expires)
    assert certificate_expiry(pair.cert) == expires
    assert _stdlib_expiry(pair.cert) == expires
    # A chain file: the server's own certificate comes first, and counts.
    chain = tmp_path / "chain.crt"
    later = certificate_pair(tmp_path, "other", _in(400))
    chain.write_bytes(pair.cert.read_bytes() + later.cert.read_bytes())
    assert certificate_expiry(chain) == _stdlib_expiry(chain) == expires
    not_pem = tmp_path / "not.crt"
    not_pem.write_text("hello")
    for read in (certificate_expiry, _stdlib_expiry):
        with pytest.raises(SecurityError, match=f"--tls-cert {not_pem}: cannot read"):
            read(not_pem)


def test_expired_and_expiring_certificates_are_told_apart(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "server.crt"
    now = datetime.datetime(2030, 6, 1, 12, 0, tzinfo=datetime.UTC)
    expired = expiry_notice(path, now - datetime.timedelta(seconds=1), now)
    assert expired == (
        logging.ERROR,
        f"--tls-cert {path}: the certificate expired on 2030-06-01 11:59 UTC; clients "
        "refuse it. Renew it and restart the server",
    )
    soon = expiry_notice(path, now + datetime.timedelta(days=10), now)
    assert soon is not None and soon[0] == logging.WARNING
    assert "expires on 2030-06-11 12:00 UTC, in 10.0 days" in soon[1]
    edge = now + datetime.timedelta(days=EXPIRY_WARNING_DAYS)
    assert expiry_notice(path, edge, now) is not None
    assert expiry_notice(path, edge + datetime.timedelta(minutes=1), now) is None
    # At start: an expired certificate is refused, one expiring soon is logged.
    gone = certificate_pair(tmp_path, "gone", _in(-3))
    with pytest.raises(SecurityError, match="the certificate expired on"):
        check_certificate(gone.cert)
    fine = certificate_pair(tmp_path, "fine", _in(90))
    with caplog.at_level(logging.WARNING, logger="service.security"):
        assert check_certificate(fine.cert) == certificate_expiry(fine.cert)
        assert not caplog.records
        check_certificate(certificate_pair(tmp_path, "soon", _in(5)).cert)
    assert [r.levelno for r in caplog.records] == [logging.WARNING]


def test_a_server_with_an_expired_certificate_does_not_start(tmp_path: Path) -> None:
    expires = _in(-2)
    pair = certificate_pair(tmp_path, "expired", expires)
    done = cardroom(
        "serve",
        *("--listen", "127.0.0.1:0", "--metrics-listen", ""),
        *("--data-dir", str(tmp_path / "data")),
        *("--tls-cert", str(pair.cert), "--tls-key", str(pair.key)),
        timeout=120,
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    day = expires.strftime("%Y-%m-%d")
    assert lines == [
        f"cardroom: cannot start the server: --tls-cert {pair.cert}: the certificate "
        f"expired on {day} {expires:%H:%M} UTC; clients refuse it. Renew it and restart "
        "the server"
    ]
    # Refused before anything was made: the data directory (and so Ray) never started.
    assert not (tmp_path / "data").exists()
