#!/usr/bin/env python3
"""Generate the online (OCSP) benchmark corpus: a chain whose certificates name OCSP responders,
a transaction it signs, and genuine signed OCSP answers about its leaf and intermediate.

Usage (from the repository root):

    python3 Benchmarks/Scripts/make-online-corpus.py

Requirements: Python 3.9+, the `cryptography` package and the `openssl` command line tool (which
signs the OCSP answers, as the `openssl ocsp` responders of the OCSP tests do, and checks them).

The chain comes from TestVectors/generate.py's builders (imported, not copied), the shape of Apple's:
P-384 root -> P-384 intermediate (marker OID, AIA OCSP http://ocsp.example.invalid/test-root-g3)
-> P-256 leaf (marker OID, AIA OCSP http://ocsp.example.invalid/test-wwdrg6). Online verification
checks the chain at the current time, not at the payload's signedDate, so the leaf here is valid
2026-01-01 .. 2036-01-01 (the test vectors' leaf expires 2027-01-01) and the answers are good for
3650 days from the day this script runs (`openssl ocsp -ndays 3650`).

What it writes (Benchmarks/Corpus/):

    online-root.der    the trusted root the online benchmarks configure
    online.jws         one Sandbox transaction signed 2026-03-01T12:00:00Z by the leaf, x5c
                       [leaf, intermediate, root]
    online-ocsp.txt    one line per responder: "URL BASE64-DER-OCSPResponse", the leaf's answer
                       (signed by the intermediate) and the intermediate's (signed by the root),
                       both "good"; the benchmarks' in-process transport serves them by URL

Keys are fresh on every run and not saved: the bytes change, the shape does not.
"""

from __future__ import annotations

import base64
import datetime as dt
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHMARKS_DIR = HERE.parent
REPO_ROOT = BENCHMARKS_DIR.parent
CORPUS_DIR = BENCHMARKS_DIR / "Corpus"

sys.dont_write_bytecode = True  # leave no __pycache__ in TestVectors/
sys.path.insert(0, str(REPO_ROOT / "TestVectors"))
import generate as tv  # noqa: E402  (TestVectors/generate.py: builders only; its main() does not run)

from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402

LEAF_VALIDITY = (tv.utc(2026, 1, 1), tv.utc(2036, 1, 1))
ANSWER_DAYS = 3650


def responder_url(cert: x509.Certificate) -> str:
    """The certificate's AIA OCSP URI (the one the verifier asks)."""
    access = cert.extensions.get_extension_for_class(x509.AuthorityInformationAccess).value
    for description in access:
        if description.access_method == x509.AuthorityInformationAccessOID.OCSP:
            return description.access_location.value
    raise SystemExit(f"{cert.subject.rfc4514_string()} names no OCSP responder")


def openssl(*arguments: str, cwd: Path) -> str:
    process = subprocess.run(["openssl", *arguments], cwd=cwd, capture_output=True, text=True)
    if process.returncode != 0:
        raise SystemExit(f"openssl {' '.join(arguments)} failed: {process.stdout}{process.stderr}")
    return process.stdout + process.stderr


def write_pem(directory: Path, name: str, issued: tv.Issued) -> None:
    (directory / f"{name}.pem").write_bytes(issued.cert.public_bytes(serialization.Encoding.PEM))
    (directory / f"{name}.key").write_bytes(issued.key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))


def good_answer(directory: Path, subject: str, issuer: str) -> bytes:
    """A signed "good" OCSPResponse about `subject`, signed by `issuer` itself, as `openssl ocsp`
    serving an `openssl ca` index answers; then checked with `openssl ocsp -respin`."""
    expiry = openssl("x509", "-in", f"{subject}.pem", "-noout", "-enddate", cwd=directory).strip().split("=", 1)[1]
    not_after = dt.datetime.strptime(expiry, "%b %d %H:%M:%S %Y %Z")
    serial = openssl("x509", "-in", f"{subject}.pem", "-noout", "-serial", cwd=directory).strip().split("=", 1)[1]
    name = openssl("x509", "-in", f"{subject}.pem", "-noout", "-subject", "-nameopt", "compat",
                   cwd=directory).strip().removeprefix("subject=")
    (directory / f"{subject}-index.txt").write_text(
        f"V\t{not_after.strftime('%y%m%d%H%M%SZ')}\t\t{serial}\tunknown\t{name}\n", encoding="utf-8")
    openssl("ocsp", "-issuer", f"{issuer}.pem", "-cert", f"{subject}.pem", "-no_nonce",
            "-reqout", f"{subject}.req", cwd=directory)
    openssl("ocsp", "-index", f"{subject}-index.txt", "-CA", f"{issuer}.pem", "-rsigner", f"{issuer}.pem",
            "-rkey", f"{issuer}.key", "-ndays", str(ANSWER_DAYS), "-reqin", f"{subject}.req",
            "-respout", f"{subject}.ocsp", cwd=directory)
    # Self-check: signed by the issuer, about this certificate, good.
    status = openssl("ocsp", "-respin", f"{subject}.ocsp", "-issuer", f"{issuer}.pem", "-cert", f"{subject}.pem",
                     "-VAfile", f"{issuer}.pem", "-no_nonce", cwd=directory)
    if "Response verify OK" not in status or f"{subject}.pem: good" not in status:
        raise SystemExit(f"self-check failed: the OCSP answer about {subject}: {status}")
    return (directory / f"{subject}.ocsp").read_bytes()


def main() -> int:
    if not tv.shutil.which("openssl"):
        raise SystemExit("the openssl command line tool is required (it signs the OCSP answers)")
    root = tv.build_root(tv.make_name(*tv.ROOT_NAME), tv.new_key(ec.SECP384R1()))
    intermediate = tv.build_intermediate(tv.make_name(*tv.INTERMEDIATE_NAME), tv.new_key(ec.SECP384R1()), root)
    leaf = tv.build_leaf(tv.make_name(*tv.LEAF_NAME), tv.new_key(ec.SECP256R1()), intermediate,
                         validity=LEAF_VALIDITY)
    chain = tv.Chain(root, intermediate, leaf)
    jws = tv.sign_objects(tv.make_header(chain.x5c()), tv.transaction_payload(), leaf.key)

    # Self-checks: the signature verifies; the chain passes OpenSSL's strict path validation at the
    # payload's signedDate (offline) and now (online).
    if not tv.es256_signature_valid(leaf.cert.public_key(), jws):
        raise SystemExit("self-check failed: online.jws does not verify")
    for when in (tv.SIGNED_DATE, dt.datetime.now(dt.timezone.utc)):
        ok, output = tv.openssl_verify([root], intermediate, leaf, when)
        if not ok:
            raise SystemExit(f"self-check failed: openssl rejects the chain at {when}: {output}")

    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        for name, issued in (("root", root), ("intermediate", intermediate), ("leaf", leaf)):
            write_pem(directory, name, issued)
        answers = [
            (responder_url(leaf.cert), good_answer(directory, "leaf", "intermediate")),
            (responder_url(intermediate.cert), good_answer(directory, "intermediate", "root")),
        ]
    if answers[0][0] == answers[1][0]:
        raise SystemExit("the leaf and the intermediate name the same responder; the transport serves by URL")

    CORPUS_DIR.mkdir(parents=True, exist_ok=True)
    (CORPUS_DIR / "online-root.der").write_bytes(root.der)
    (CORPUS_DIR / "online.jws").write_text(jws + "\n", encoding="ascii")
    (CORPUS_DIR / "online-ocsp.txt").write_text(
        "".join(f"{url} {base64.b64encode(der).decode('ascii')}\n" for url, der in answers), encoding="ascii")
    sizes = ", ".join(f"{url} {len(der)} bytes" for url, der in answers)
    print(f"wrote {CORPUS_DIR.relative_to(REPO_ROOT)}/: online-root.der, online.jws, online-ocsp.txt ({sizes}); "
          f"answers good for {ANSWER_DAYS} days, leaf valid until {LEAF_VALIDITY[1].date()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
