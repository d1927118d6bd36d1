#!/usr/bin/env python3
"""Generate the app receipt (PKCS#7) test vectors: an RSA test PKI and minted receipts.

Usage (from the repository root):

    python3 TestVectors/generate_receipts.py

Requirements: Python 3.9+ and the `cryptography` package.

It writes only TestVectors/receipts/ (generate.py's JWS files and manifest are left untouched):

    receipts/pki/root.der           RSA-2048 root "Test Apple Root CA", 2024-01-01 .. 2049-01-01
    receipts/pki/other-root.der     an impostor root: the same name, another key
    receipts/pki/storekit.der       a self-signed RSA "StoreKit" certificate, like Xcode's
    receipts/<name>.der             one receipt a file (DER or BER), or <name>.b64 (base64 text)
    receipts/manifest.json          every receipt with its verifier options and expected verdict

The chain mirrors Apple's receipt chain (Apple Root CA -> Apple Worldwide Developer Relations CA ->
"Mac App Store and iTunes Store Receipt Signing"): RSA keys, key identifiers, critical
basicConstraints and keyUsage, and Apple's marker extensions (value ASN.1 NULL): the intermediate's
1.2.840.113635.100.6.2.1, the leaf's 1.2.840.113635.100.6.11.1. The PKCS#7 SignedData and the
receipt payload are encoded by hand below, so that every malformation can be minted exactly.

Keys are fresh on every run (private keys are never written): the bytes change, the set of files,
the payloads and the expected verdicts do not.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import shutil
import uuid
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.x509.oid import NameOID

OUT_DIR = Path(__file__).resolve().parent / "receipts"
PKI_DIR = OUT_DIR / "pki"

OID_LEAF_RECEIPT_SIGNING = x509.ObjectIdentifier("1.2.840.113635.100.6.11.1")
OID_INTERMEDIATE_WWDR = x509.ObjectIdentifier("1.2.840.113635.100.6.2.1")

BUNDLE_ID = "com.example.app"
DEVICE_UUID = uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")
CREATED = dt.datetime(2025, 6, 1, 12, 0, 0, tzinfo=dt.timezone.utc)


def utc(year: int, month: int = 1, day: int = 1) -> dt.datetime:
    return dt.datetime(year, month, day, tzinfo=dt.timezone.utc)


# --------------------------------------------------------------------------------------------
# DER / BER encoding
# --------------------------------------------------------------------------------------------

def der_length(length: int) -> bytes:
    if length < 0x80:
        return bytes([length])
    octets = length.to_bytes((length.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(octets)]) + octets


def tlv(tag: int, contents: bytes) -> bytes:
    return bytes([tag]) + der_length(len(contents)) + contents


def indefinite(tag: int, contents: bytes) -> bytes:
    """BER: a constructed element with an indefinite length, closed by end-of-contents."""
    return bytes([tag | 0x20, 0x80]) + contents + b"\x00\x00"


def integer(value: int) -> bytes:
    length = max(1, (value.bit_length() + 8) // 8)
    return tlv(0x02, value.to_bytes(length, "big", signed=True))


def oid(dotted: str) -> bytes:
    parts = [int(p) for p in dotted.split(".")]
    body = bytearray([40 * parts[0] + parts[1]])
    for part in parts[2:]:
        chunk = [part & 0x7F]
        part >>= 7
        while part:
            chunk.append(0x80 | (part & 0x7F))
            part >>= 7
        body.extend(reversed(chunk))
    return tlv(0x06, bytes(body))


def seq(*items: bytes) -> bytes:
    return tlv(0x30, b"".join(items))


def set_of(*items: bytes) -> bytes:
    return tlv(0x31, b"".join(items))


def octets(data: bytes) -> bytes:
    return tlv(0x04, data)


def explicit(number: int, contents: bytes) -> bytes:
    return tlv(0xA0 | number, contents)


NULL = b"\x05\x00"
OID_DATA = "1.2.840.113549.1.7.1"
OID_SIGNED_DATA = "1.2.840.113549.1.7.2"
OID_ENVELOPED_DATA = "1.2.840.113549.1.7.3"
OID_CONTENT_TYPE = "1.2.840.113549.1.9.3"
OID_MESSAGE_DIGEST = "1.2.840.113549.1.9.4"
OID_SIGNING_TIME = "1.2.840.113549.1.9.5"
DIGESTS = {
    "sha256": ("2.16.840.1.101.3.4.2.1", hashes.SHA256),
    "sha1": ("1.3.14.3.2.26", hashes.SHA1),
    "md5": ("1.2.840.113549.2.5", hashes.MD5),
}
OID_RSA = "1.2.840.113549.1.1.1"
OID_ECDSA_SHA256 = "1.2.840.10045.4.3.2"


def algorithm(dotted: str, parameters: bytes | None = NULL) -> bytes:
    return seq(oid(dotted), parameters or b"")


# --------------------------------------------------------------------------------------------
# Receipt payload
# --------------------------------------------------------------------------------------------

def utf8(text: str) -> bytes:
    return tlv(0x0C, text.encode())


def ia5(text: str) -> bytes:
    return tlv(0x16, text.encode())


def attribute(type_: int, value: bytes, version: int = 1) -> bytes:
    return seq(integer(type_), integer(version), octets(value))


def rfc3339(when: dt.datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def in_app(transaction_id: str, *, extra: list[bytes] | None = None, date_text: str | None = None) -> bytes:
    purchase = date_text or "2025-05-01T10:00:00Z"
    fields = [
        attribute(1701, integer(1)),
        attribute(1702, utf8("com.example.subscription")),
        attribute(1703, utf8(transaction_id)),
        attribute(1704, ia5(purchase)),
        attribute(1705, utf8("2000000000000001")),
        attribute(1706, ia5(purchase)),
        attribute(1708, ia5("2025-06-01T10:00:00Z")),
        attribute(1711, integer(2000000000000123)),
        attribute(1712, ia5("")),
        attribute(1713, integer(0)),
        attribute(1719, integer(1)),
        attribute(1721, utf8("")),
        attribute(1707, utf8("undocumented")),
    ]
    return set_of(*(fields + (extra or [])))


def receipt_payload(*, bundle_id: str = BUNDLE_ID, environment: str = "ProductionSandbox",
                    created: str | None = None, extra: list[bytes] | None = None,
                    replace: dict[int, bytes] | None = None, purchases: list[bytes] | None = None) -> bytes:
    """A receipt attribute SET; `replace` swaps a field's whole attribute, `extra` appends."""
    opaque = bytes(range(16))
    bundle_value = utf8(bundle_id)
    sha1 = hashlib.sha1(DEVICE_UUID.bytes + opaque + bundle_value).digest()
    if purchases is None:
        purchases = [in_app("2000000000000001"), in_app("2000000000000002")]
    fields = {
        0: attribute(0, utf8(environment)),
        1: attribute(1, integer(0)),
        2: attribute(2, bundle_value),
        3: attribute(3, utf8("1.0")),
        4: attribute(4, opaque),
        5: attribute(5, sha1),
        12: attribute(12, ia5(created or rfc3339(CREATED))),
        18: attribute(18, ia5("2024-01-01T00:00:00Z")),
        19: attribute(19, utf8("1.0")),
        8: attribute(8, ia5("2025-06-01T12:00:00Z")),
        10: attribute(10, utf8("undocumented")),
    }
    for key, value in (replace or {}).items():
        fields[key] = value
    body = [value for value in fields.values() if value]
    body += [attribute(17, purchase) for purchase in purchases]
    body += extra or []
    return set_of(*body)


# --------------------------------------------------------------------------------------------
# PKI
# --------------------------------------------------------------------------------------------

class Issued:
    def __init__(self, key, cert: x509.Certificate):
        self.key = key
        self.cert = cert

    @property
    def der(self) -> bytes:
        return self.cert.public_bytes(serialization.Encoding.DER)


def name(common: str, unit: str) -> x509.Name:
    return x509.Name([
        x509.NameAttribute(NameOID.COMMON_NAME, common),
        x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, unit),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Test Apple Inc."),
        x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
    ])


def rsa_key():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def certificate(subject: x509.Name, key, issuer: Issued | None, *, ca: bool, marker: x509.ObjectIdentifier | None,
                not_before: dt.datetime, not_after: dt.datetime, issuer_name: x509.Name | None = None,
                issuer_key=None) -> Issued:
    signing_key = issuer.key if issuer else (issuer_key or key)
    issuer_subject = issuer.cert.subject if issuer else (issuer_name or subject)
    public = key.public_key()
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer_subject).public_key(public)
               .serial_number(x509.random_serial_number()).not_valid_before(not_before).not_valid_after(not_after)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False))
    if issuer is not None:
        builder = builder.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer.key.public_key()), critical=False)
    elif issuer_key is not None:
        builder = builder.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
    if ca:
        builder = builder.add_extension(x509.BasicConstraints(ca=True, path_length=None if issuer is None else 0), critical=True)
        builder = builder.add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
    else:
        builder = builder.add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        builder = builder.add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
    if marker is not None:
        builder = builder.add_extension(x509.UnrecognizedExtension(marker, NULL), critical=False)
    return Issued(key, builder.sign(signing_key, hashes.SHA256()))


ROOT_NAME = name("Test Apple Root CA", "Test Apple Certification Authority")
WWDR_NAME = name("Test Apple Worldwide Developer Relations Certification Authority", "G5")
LEAF_NAME = name("Test Mac App Store and iTunes Store Receipt Signing", "Test Apple Worldwide Developer Relations")


def make_pki() -> dict[str, Issued]:
    pki: dict[str, Issued] = {}
    pki["root"] = certificate(ROOT_NAME, rsa_key(), None, ca=True, marker=None, not_before=utc(2024), not_after=utc(2049))
    pki["other-root"] = certificate(ROOT_NAME, rsa_key(), None, ca=True, marker=None, not_before=utc(2024), not_after=utc(2049))
    pki["intermediate"] = certificate(WWDR_NAME, rsa_key(), pki["root"], ca=True, marker=OID_INTERMEDIATE_WWDR,
                                      not_before=utc(2024), not_after=utc(2044))
    window = dict(not_before=utc(2025), not_after=utc(2027))
    pki["leaf"] = certificate(LEAF_NAME, rsa_key(), pki["intermediate"], ca=False, marker=OID_LEAF_RECEIPT_SIGNING, **window)
    # Chains for the failure modes.
    pki["other-intermediate"] = certificate(WWDR_NAME, rsa_key(), pki["other-root"], ca=True, marker=OID_INTERMEDIATE_WWDR,
                                            not_before=utc(2024), not_after=utc(2044))
    pki["other-leaf"] = certificate(LEAF_NAME, rsa_key(), pki["other-intermediate"], ca=False, marker=OID_LEAF_RECEIPT_SIGNING, **window)
    impostor_key = rsa_key()
    pki["impostor-intermediate"] = certificate(WWDR_NAME, impostor_key, None, ca=True, marker=OID_INTERMEDIATE_WWDR,
                                               not_before=utc(2024), not_after=utc(2044), issuer_name=ROOT_NAME,
                                               issuer_key=rsa_key())
    pki["impostor-leaf"] = certificate(LEAF_NAME, rsa_key(), pki["impostor-intermediate"], ca=False,
                                       marker=OID_LEAF_RECEIPT_SIGNING, **window)
    pki["intermediate-no-marker"] = certificate(WWDR_NAME, rsa_key(), pki["root"], ca=True, marker=None,
                                                not_before=utc(2024), not_after=utc(2044))
    pki["leaf-under-no-marker"] = certificate(LEAF_NAME, rsa_key(), pki["intermediate-no-marker"], ca=False,
                                              marker=OID_LEAF_RECEIPT_SIGNING, **window)
    pki["leaf-no-marker"] = certificate(LEAF_NAME, rsa_key(), pki["intermediate"], ca=False, marker=None, **window)
    pki["leaf-expired"] = certificate(LEAF_NAME, rsa_key(), pki["intermediate"], ca=False, marker=OID_LEAF_RECEIPT_SIGNING,
                                      not_before=utc(2023), not_after=utc(2024))
    pki["leaf-ec"] = certificate(LEAF_NAME, ec.generate_private_key(ec.SECP256R1()), pki["intermediate"], ca=False,
                                 marker=OID_LEAF_RECEIPT_SIGNING, **window)
    pki["leaf-by-root"] = certificate(LEAF_NAME, rsa_key(), pki["root"], ca=False, marker=OID_LEAF_RECEIPT_SIGNING, **window)
    storekit_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "StoreKit"),
                               x509.NameAttribute(NameOID.ORGANIZATION_NAME, "StoreKit")])
    storekit_key = rsa_key()
    pki["storekit"] = Issued(storekit_key, x509.CertificateBuilder().subject_name(storekit_name).issuer_name(storekit_name)
                             .public_key(storekit_key.public_key()).serial_number(x509.random_serial_number())
                             .not_valid_before(utc(2020)).not_valid_after(utc(2040))
                             .sign(storekit_key, hashes.SHA256()))
    return pki


# --------------------------------------------------------------------------------------------
# PKCS#7 SignedData
# --------------------------------------------------------------------------------------------

def issuer_and_serial(cert: x509.Certificate) -> bytes:
    return seq(cert.issuer.public_bytes(), integer(cert.serial_number))


def sign(key, data: bytes, digest: str) -> bytes:
    hash_class = DIGESTS[digest][1]
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return key.sign(data, ec.ECDSA(hash_class()))
    return key.sign(data, padding.PKCS1v15(), hash_class())


def signer_info(signer: Issued, payload: bytes, *, digest: str = "sha256", attributes: str | None = None,
                signature_digest: str | None = None, signed_cert: x509.Certificate | None = None) -> bytes:
    """One SignerInfo. `attributes`: None (the signature covers the payload), "good", "wrong-digest",
    "signature-over-content" (attributes present, signature over the payload), "tampered" (an
    attribute changed after signing)."""
    digest_oid, hash_class = DIGESTS[digest]
    signing_digest = signature_digest or digest
    signed_attributes = b""
    if attributes is None:
        signature = sign(signer.key, payload, signing_digest)
    else:
        content_digest = hashlib.new(hash_class.name, payload).digest()
        if attributes == "wrong-digest":
            content_digest = bytes(len(content_digest))
        items = [
            seq(oid(OID_CONTENT_TYPE), set_of(oid(OID_DATA))),
            seq(oid(OID_SIGNING_TIME), set_of(tlv(0x17, b"250601120000Z"))),
            seq(oid(OID_MESSAGE_DIGEST), set_of(octets(content_digest))),
        ]
        as_set = set_of(*items)
        signature = sign(signer.key, payload if attributes == "signature-over-content" else as_set, signing_digest)
        if attributes == "tampered":
            items[1] = seq(oid(OID_SIGNING_TIME), set_of(tlv(0x17, b"250601120001Z")))
            as_set = set_of(*items)
        signed_attributes = bytes([0xA0]) + as_set[1:]  # [0] IMPLICIT SET OF Attribute
    signature_algorithm = algorithm(OID_ECDSA_SHA256, b"") if isinstance(signer.key, ec.EllipticCurvePrivateKey) else algorithm(OID_RSA)
    return seq(integer(1), issuer_and_serial(signed_cert or signer.cert), algorithm(digest_oid), signed_attributes,
               signature_algorithm, octets(signature))


def signed_data(payload: bytes, certificates: list[Issued], signers: list[bytes], *, digest: str = "sha256",
                detached: bool = False, content_type: str = OID_DATA) -> bytes:
    content = seq(oid(content_type)) if detached else seq(oid(content_type), explicit(0, octets(payload)))
    certs = tlv(0xA0, b"".join(c.der for c in certificates)) if certificates else b""
    body = seq(integer(1), set_of(algorithm(DIGESTS[digest][0])), content, certs, set_of(*signers))
    return seq(oid(OID_SIGNED_DATA), explicit(0, body))


def ber_signed_data(payload: bytes, certificates: list[Issued], signer: bytes, *, chunk: int = 100) -> bytes:
    """The same SignedData in BER as Xcode writes it: indefinite lengths everywhere, the content as
    a constructed OCTET STRING of chunks."""
    chunks = b"".join(octets(payload[i:i + chunk]) for i in range(0, len(payload), chunk))
    content = indefinite(0x30, oid(OID_DATA) + indefinite(0xA0, indefinite(0x04, chunks)))
    certs = indefinite(0xA0, b"".join(c.der for c in certificates))
    body = indefinite(0x30, integer(1) + set_of(algorithm(DIGESTS["sha256"][0])) + content + certs + set_of(signer))
    return indefinite(0x30, oid(OID_SIGNED_DATA) + indefinite(0xA0, body))


# --------------------------------------------------------------------------------------------
# Vectors
# --------------------------------------------------------------------------------------------

def main() -> None:
    if OUT_DIR.exists():
        shutil.rmtree(OUT_DIR)
    PKI_DIR.mkdir(parents=True)
    pki = make_pki()
    for key in ("root", "other-root", "storekit"):
        (PKI_DIR / f"{key}.der").write_bytes(pki[key].der)

    chain = [pki["leaf"], pki["intermediate"], pki["root"]]
    payload = receipt_payload()
    vectors: list[dict] = []

    def add(name: str, data: bytes, description: str, status: str, code: str | None = None, *,
            options: dict | None = None, as_base64: bool = False, device: str | None = None,
            device_verdict: str | None = None) -> None:
        file = f"{name}.b64" if as_base64 else f"{name}.der"
        (OUT_DIR / file).write_bytes((base64.b64encode(data) + b"\n") if as_base64 else data)
        merged = {"receiptRoots": ["receipts/pki/root.der"], "bundleId": BUNDLE_ID, "environment": "Sandbox"}
        merged.update(options or {})
        vector = {"name": name, "file": f"receipts/{file}", "description": description, "options": merged,
                  "expected": {"status": status, "code": code}}
        if device is not None:
            vector["device"] = device
            vector["expectedDevice"] = device_verdict
        vectors.append(vector)

    def receipt(body: bytes = payload, certs: list[Issued] = chain, signer: Issued | None = None, **kwargs) -> bytes:
        signer = signer or certs[0]
        digest = kwargs.pop("digest", "sha256")
        return signed_data(body, certs, [signer_info(signer, body, digest=digest, **kwargs)], digest=digest)

    # Valid receipts.
    add("valid-sha256", receipt(), "SHA-256, no signed attributes, like current App Store receipts", "verified",
        device=str(DEVICE_UUID), device_verdict="verified")
    add("valid-sha1", receipt(digest="sha1"), "SHA-1, like receipts before 2023", "verified")
    add("valid-signed-attributes", receipt(attributes="good"),
        "signed attributes (content type, signing time, message digest); the signature covers them", "verified")
    add("valid-ber-indefinite", ber_signed_data(payload, chain, signer_info(pki["leaf"], payload)),
        "BER as Xcode writes it: indefinite lengths, the content as a constructed OCTET STRING of chunks", "verified")
    add("valid-base64", receipt(), "the same receipt as base64 text", "verified", as_base64=True)
    offset_payload = receipt_payload(created="2025-06-01T13:00:00+0100",
                                     purchases=[in_app("2000000000000009", date_text="2025-05-01T10:00:00.250+01:00")])
    add("valid-offset-dates", receipt(offset_payload), "dates with +0100 / +01:00 offsets and fractional seconds (Xcode style)", "verified")
    add("valid-no-in-app", receipt(receipt_payload(purchases=[])), "no in-app purchase", "verified")
    many = [attribute(1000 + (i % 500), integer(i)) for i in range(5000)]
    add("valid-huge-set", receipt(receipt_payload(extra=many)), "5,000 undocumented attributes: kept raw, bounded work", "verified")
    deep = b"\x05\x00"
    for _ in range(2000):
        deep = set_of(deep)
    add("valid-deeply-nested-raw-value", receipt(receipt_payload(purchases=[in_app("2000000000000001", extra=[attribute(17, deep)])])),
        "an in-app attribute of type 17 holding 2,000 nested SETs: unknown inside a purchase, kept raw, never traversed", "verified")
    add("device-mismatch", receipt(), "a valid receipt checked against another device", "verified",
        device="ffffffff-4455-6677-8899-aabbccddeeff", device_verdict="invalidDeviceVerification")

    # Chain failures.
    add("wrong-root", receipt(certs=[pki["other-leaf"], pki["other-intermediate"], pki["other-root"]]),
        "a complete chain under an impostor root with the trusted root's name", "unverified", "invalidCertificateChain")
    add("untrusted-root-configured", receipt(), "the genuine chain, but only the impostor root is trusted", "unverified",
        "invalidCertificateChain", options={"receiptRoots": ["receipts/pki/other-root.der"]})
    add("impostor-intermediate", receipt(certs=[pki["impostor-leaf"], pki["impostor-intermediate"], pki["root"]]),
        "an intermediate with the real one's name and marker, not issued by the root", "unverified", "invalidCertificateChain")
    add("intermediate-missing-marker", receipt(certs=[pki["leaf-under-no-marker"], pki["intermediate-no-marker"], pki["root"]]),
        "the intermediate lacks 1.2.840.113635.100.6.2.1", "unverified", "invalidCertificateChain")
    add("leaf-missing-marker", receipt(certs=[pki["leaf-no-marker"], pki["intermediate"], pki["root"]]),
        "the leaf lacks 1.2.840.113635.100.6.11.1", "unverified", "invalidCertificateChain")
    add("expired-leaf-at-creation", receipt(certs=[pki["leaf-expired"], pki["intermediate"], pki["root"]]),
        "the leaf expired (2024-01-01) before the receipt's creation date (2025-06-01)", "unverified", "invalidCertificateChain")
    add("leaf-not-yet-valid-at-creation", receipt(receipt_payload(created="2024-06-01T00:00:00Z")),
        "the receipt's creation date precedes the leaf's notBefore", "unverified", "invalidCertificateChain")
    add("valid-at-fixed-date", receipt(), "a fixed effective date inside the leaf's validity", "verified",
        options={"effectiveDate": "2026-06-01T00:00:00Z"})
    add("expired-at-fixed-date", receipt(), "a fixed effective date after the leaf's notAfter", "unverified",
        "invalidCertificateChain", options={"effectiveDate": "2027-06-01T00:00:00Z"})
    add("leaf-ec-key", receipt(certs=[pki["leaf-ec"], pki["intermediate"], pki["root"]]),
        "a P-256 leaf signing with ECDSA: receipts are RSA", "unverified", "invalidCertificateChain")
    add("leaf-signed-by-root", receipt(certs=[pki["leaf-by-root"], pki["intermediate"], pki["root"]]),
        "the leaf is issued by the root directly, not by the embedded intermediate", "unverified", "invalidCertificateChain")
    add("two-certificates", receipt(certs=[pki["leaf"], pki["intermediate"]]),
        "only leaf and intermediate embedded", "unverified", "invalidCertificateChain")
    add("four-certificates", receipt(certs=chain + [pki["other-root"]]),
        "an extra certificate embedded", "unverified", "invalidCertificateChain")
    add("signer-not-first", receipt(certs=[pki["intermediate"], pki["leaf"], pki["root"]], signer=pki["leaf"]),
        "the signer's certificate is embedded second", "unverified", "invalidCertificateChain")
    add("xcode-claimed-apple-chain", receipt(receipt_payload(environment="Xcode")),
        "environment Xcode with no Xcode receipt certificate configured: never verified", "unverified",
        "invalidCertificateChain", options={"environment": None})
    storekit_receipt = receipt(receipt_payload(environment="Xcode"), certs=[pki["storekit"]])
    add("xcode-storekit-configured", storekit_receipt, "an Xcode receipt with its StoreKit certificate configured", "verified",
        options={"environment": "Xcode", "xcodeReceiptCertificate": "receipts/pki/storekit.der"})
    add("xcode-storekit-not-configured", storekit_receipt, "the same Xcode receipt without the certificate", "unverified",
        "invalidCertificateChain", options={"environment": "Xcode"})
    add("xcode-storekit-as-receipt-root", storekit_receipt, "trusting the StoreKit certificate as a receipt root does not verify Xcode receipts",
        "unverified", "invalidCertificateChain", options={"environment": "Xcode", "receiptRoots": ["receipts/pki/storekit.der"]})

    # Signature failures.
    tampered = bytearray(receipt())
    index = tampered.find(b"com.example.app")
    tampered[index:index + 15] = b"com.example.apq"
    add("tampered-content", bytes(tampered), "one payload byte changed after signing", "unverified", "invalidSignature",
        options={"bundleId": None})
    add("signed-attributes-wrong-digest", receipt(attributes="wrong-digest"),
        "the messageDigest attribute does not match the content", "unverified", "invalidSignature")
    add("signed-attributes-signature-over-content", receipt(attributes="signature-over-content"),
        "signed attributes present, but the signature covers the content instead of them", "unverified", "invalidSignature")
    add("signed-attributes-tampered", receipt(attributes="tampered"),
        "a signed attribute changed after signing", "unverified", "invalidSignature")
    add("sha1-declared-sha256-signed", receipt(digest="sha1", signature_digest="sha256"),
        "the digest algorithm says SHA-1, the signature was made over SHA-256", "unverified", "invalidSignature")
    add("md5-digest", receipt(digest="md5"), "digest MD5: receipts use SHA-256 or SHA-1", "unverified", "invalidSignature")
    add("signed-by-other-key", signed_data(payload, chain, [signer_info(pki["other-leaf"], payload, signed_cert=pki["leaf"].cert)]),
        "names the leaf as signer, signed by another key", "unverified", "invalidSignature")

    # Claim failures.
    add("wrong-bundle-id", receipt(receipt_payload(bundle_id="com.other.app")), "another app's receipt", "unverified",
        "invalidAppIdentifier")
    add("wrong-environment", receipt(receipt_payload(environment="Production")), "a Production receipt, Sandbox expected",
        "unverified", "invalidEnvironment")

    # Malformed PKCS#7.
    add("two-signers", signed_data(payload, chain, [signer_info(pki["leaf"], payload), signer_info(pki["leaf"], payload)]),
        "two SignerInfos", "malformed", "malformedReceipt")
    add("detached-content", signed_data(payload, chain, [signer_info(pki["leaf"], payload)], detached=True),
        "the content is absent (a detached signature)", "malformed", "malformedReceipt")
    add("trailing-bytes", receipt() + b"\x00", "one byte after the ContentInfo", "malformed", "malformedReceipt")
    add("trailing-garbage-base64", receipt() + b"garbage", "bytes after the ContentInfo, as base64 text", "malformed",
        "malformedReceipt", as_base64=True)
    add("no-certificates", receipt(certs=[], signer=pki["leaf"]), "no embedded certificate", "malformed", "malformedReceipt")
    add("content-not-data", signed_data(payload, chain, [signer_info(pki["leaf"], payload)], content_type=OID_ENVELOPED_DATA),
        "the signed content type is not id-data", "malformed", "malformedReceipt")
    add("signer-certificate-absent", signed_data(payload, chain, [signer_info(pki["leaf"], payload, signed_cert=pki["other-leaf"].cert)]),
        "the signer's issuer and serial match no embedded certificate", "malformed", "malformedReceipt")
    valid_ber = ber_signed_data(payload, chain, signer_info(pki["leaf"], payload))
    add("ber-unterminated", valid_ber[:-2], "an indefinite length never closed", "malformed", "malformedReceipt")
    add("ber-trailing-after-eoc", valid_ber + b"\x00\x00", "an extra end-of-contents after the BER ContentInfo", "malformed",
        "malformedReceipt")
    overlong = bytearray(receipt())
    overlong[2:4] = (int.from_bytes(overlong[2:4], "big") + 50).to_bytes(2, "big")
    add("length-past-end", bytes(overlong), "the outer length claims 50 bytes more than there are", "malformed", "malformedReceipt")
    nested_octets = octets(payload)
    for _ in range(64):
        nested_octets = indefinite(0x04, nested_octets)
    deep_ber = indefinite(0x30, oid(OID_SIGNED_DATA) + indefinite(0xA0, indefinite(0x30,
        integer(1) + set_of(algorithm(DIGESTS["sha256"][0])) + indefinite(0x30, oid(OID_DATA) + indefinite(0xA0, nested_octets))
        + indefinite(0xA0, b"".join(c.der for c in chain)) + set_of(signer_info(pki["leaf"], payload)))))
    add("ber-deeply-nested-octet-strings", deep_ber, "the content nested in 64 constructed OCTET STRINGs", "malformed", "malformedReceipt")
    (OUT_DIR / "not-base64.b64").write_text("MIIT%%%not base64\n")
    vectors.append({"name": "not-base64", "file": "receipts/not-base64.b64", "description": "text that is not base64",
                    "options": {"receiptRoots": ["receipts/pki/root.der"], "bundleId": BUNDLE_ID, "environment": "Sandbox"},
                    "expected": {"status": "malformed", "code": "malformedReceipt"}})
    add("oversized", receipt(), "a valid receipt over a verifier input limit of 2,048 bytes", "malformed", "inputTooLarge",
        options={"maximumInputLength": 2048})

    # Malformed payloads (validly signed).
    def payload_vector(name: str, body: bytes, description: str) -> None:
        add(name, receipt(body), description, "malformed", "malformedReceipt")

    payload_vector("payload-trailing-bytes", payload + b"\x00", "a byte after the payload's attribute SET")
    payload_vector("payload-indefinite-length", bytes([0x31, 0x80]) + payload[2 + (payload[1] & 0x7F if payload[1] >= 0x80 else 0):] + b"\x00\x00",
                   "the payload SET uses an indefinite length (DER only inside)")
    payload_vector("payload-not-a-set", bytes([0x30]) + payload[1:], "the payload is a SEQUENCE, not a SET")
    payload_vector("payload-length-past-end", payload[:-1], "the payload SET's length runs past the content")
    payload_vector("payload-non-minimal-length", bytes([0x31, 0x84]) + len(payload[4:]).to_bytes(4, "big") + payload[4:]
                   if payload[1] == 0x82 else payload + b"!", "a length in 4 octets where 2 suffice")
    payload_vector("duplicate-bundle-id", receipt_payload(extra=[attribute(2, utf8("com.example.app"))]),
                   "the bundle ID attribute twice")
    payload_vector("duplicate-creation-date", receipt_payload(extra=[attribute(12, ia5("2025-06-02T00:00:00Z"))]),
                   "the creation date twice")
    payload_vector("duplicate-in-app-transaction-id", receipt_payload(purchases=[in_app("1", extra=[attribute(1703, utf8("2"))])]),
                   "an in-app purchase with two transaction IDs")
    payload_vector("wrong-type-bundle-id", receipt_payload(replace={2: attribute(2, ia5(BUNDLE_ID))}),
                   "the bundle ID as an IA5String, not a UTF8String")
    payload_vector("wrong-type-creation-date", receipt_payload(replace={12: attribute(12, utf8("2025-06-01T12:00:00Z"))}),
                   "the creation date as a UTF8String, not an IA5String")
    payload_vector("wrong-type-quantity", receipt_payload(purchases=[set_of(attribute(1701, utf8("1")))]),
                   "an in-app quantity as a UTF8String, not an INTEGER")
    payload_vector("wrong-type-in-app", receipt_payload(purchases=[utf8("not a set")]),
                   "an in-app purchase attribute that is not a SET")
    payload_vector("bad-date", receipt_payload(created="2025-13-01T12:00:00Z"), "month 13")
    payload_vector("value-trailing-bytes", receipt_payload(replace={3: attribute(3, utf8("1.0") + b"\x00")}),
                   "a byte after the application version's UTF8String")
    payload_vector("attribute-extra-element", receipt_payload(extra=[seq(integer(99), integer(1), octets(b""), NULL)]),
                   "an attribute SEQUENCE with a fourth element")
    payload_vector("non-minimal-integer", receipt_payload(replace={1: attribute(1, tlv(0x02, b"\x00\x01"))}),
                   "the app item ID INTEGER with a leading zero octet")
    payload_vector("flag-out-of-range", receipt_payload(purchases=[set_of(attribute(1713, integer(2)))]),
                   "is-trial-period 2 (a flag is 0 or 1)")

    manifest = {
        "comment": "Generated by TestVectors/generate_receipts.py. Each vector: the receipt file, the verifier "
                   "options (receiptRoots, bundleId, environment (null: none), effectiveDate, xcodeReceiptCertificate) "
                   "and the expected verdict: verified, unverified with a VerificationError code, or malformed with "
                   "a SignedDataDecodingError code. `device`: a device identifier (UUID) to check verified receipts "
                   "against; the receipts are minted for " + str(DEVICE_UUID) + ".",
        "deviceIdentifier": str(DEVICE_UUID),
        "vectors": vectors,
    }
    (OUT_DIR / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {len(vectors)} receipt vectors to {OUT_DIR}")


if __name__ == "__main__":
    main()
