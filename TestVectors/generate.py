#!/usr/bin/env python3
"""Generate the App Store signed-data test vectors (test PKI, JWS files, manifest).

Usage (from the repository root):

    python3 TestVectors/generate.py

Requirements: Python 3.9+ and the `cryptography` package. The `openssl` command line tool is
used, when it is on PATH, for a self-check of the generated chain (`openssl verify -x509_strict`).

What it writes (paths relative to TestVectors/, the directory holding this script):

    pki/root.der          self-signed P-384 root (ecdsa-with-SHA384), 2024-01-01 .. 2049-01-01
    pki/intermediate.der  P-384 CA issued by root, 2024-01-01 .. 2044-01-01,
                          carries Apple's intermediate marker OID 1.2.840.113635.100.6.2.1
    pki/leaf.der          P-256 signing certificate issued by the intermediate,
                          2025-01-01 .. 2027-01-01, carries the receipt-signing marker OID
                          1.2.840.113635.100.6.11.1
    pki/other-root.der    an "impostor" root: same subject name as root.der, different key
    jws/<name>.jws        one compact JWS per file, a single line ending in a newline
    manifest.json         every vector with its verifier options and expected verdict

The PKI mirrors the shape and extensions of Apple's real chain (Apple Root CA - G3 ->
Apple Worldwide Developer Relations CA G6 -> "Prod ECC Mac App Store and iTunes Store Receipt
Signing") so that it passes OpenSSL's X509_V_FLAG_X509_STRICT checks exactly like the real one:
subject/authority key identifiers, critical basicConstraints and keyUsage, and the two Apple
marker extensions whose value is an ASN.1 NULL (05 00).

The script is idempotent: every run rewrites pki/, jws/ and manifest.json from scratch. Keys are
fresh random keys on every run (private keys are never written), so the bytes change, but the set
of files, the payloads and the expected verdicts are always the same.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature,
    encode_dss_signature,
)
from cryptography.x509.oid import NameOID

# --------------------------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------------------------

OUT_DIR = Path(__file__).resolve().parent
PKI_DIR = OUT_DIR / "pki"
JWS_DIR = OUT_DIR / "jws"
MANIFEST = OUT_DIR / "manifest.json"

# Apple's marker extensions (value: ASN.1 NULL, non-critical).
OID_LEAF_RECEIPT_SIGNING = x509.ObjectIdentifier("1.2.840.113635.100.6.11.1")
OID_INTERMEDIATE_WWDR = x509.ObjectIdentifier("1.2.840.113635.100.6.2.1")
OID_APPLE_CERT_POLICY = x509.ObjectIdentifier("1.2.840.113635.100.5.6.1")
ASN1_NULL = b"\x05\x00"

# Order of the P-256 group (for raw r||s manipulation).
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551

BUNDLE_ID = "com.example.app"
OTHER_BUNDLE_ID = "com.other.app"
APP_APPLE_ID = 1234567890


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, tzinfo=dt.timezone.utc)


def ms(when: dt.datetime) -> int:
    """Milliseconds since 1970, the App Store's date encoding."""
    return int(when.timestamp()) * 1000


ROOT_VALIDITY = (utc(2024, 1, 1), utc(2049, 1, 1))
INTERMEDIATE_VALIDITY = (utc(2024, 1, 1), utc(2044, 1, 1))
LEAF_VALIDITY = (utc(2025, 1, 1), utc(2027, 1, 1))

SIGNED_DATE = utc(2026, 3, 1, 12, 0)          # the normal signedDate of every payload
EXPIRED_SIGNED_DATE = utc(2027, 6, 1)         # after the leaf's notAfter
NOT_YET_VALID_SIGNED_DATE = utc(2024, 6, 1)   # before the leaf's notBefore (CAs already valid)
EXPLICIT_EFFECTIVE_DATE = "2026-06-01T00:00:00Z"
EXPLICIT_DATE_AFTER_EXPIRY = "2027-06-01T00:00:00Z"

ORG = "Example App Store Test PKI"
ROOT_NAME = ("Test Root CA - G3", "Test Certification Authority")
INTERMEDIATE_NAME = ("Test Worldwide Developer Relations Certification Authority", "G6")
LEAF_NAME = ("Test ECC Mac App Store and iTunes Store Receipt Signing",
             "Test Worldwide Developer Relations")


# --------------------------------------------------------------------------------------------
# Certificates
# --------------------------------------------------------------------------------------------

@dataclass
class Issued:
    """A certificate together with its private key (kept in memory only)."""
    cert: x509.Certificate
    key: ec.EllipticCurvePrivateKey

    @property
    def der(self) -> bytes:
        return self.cert.public_bytes(serialization.Encoding.DER)


@dataclass
class Chain:
    root: Issued
    intermediate: Issued
    leaf: Issued

    def x5c(self) -> list[bytes]:
        """[leaf, intermediate, root] as DER, the order Apple uses."""
        return [self.leaf.der, self.intermediate.der, self.root.der]


def make_name(common_name: str, unit: str, org: str = ORG) -> x509.Name:
    """CN, OU, O, C in Apple's order."""
    return x509.Name([
        x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, unit),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, org),
        x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
    ])


def new_key(curve: ec.EllipticCurve) -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(curve)


def _builder(subject: x509.Name, issuer: x509.Name, public_key, validity) -> x509.CertificateBuilder:
    return (x509.CertificateBuilder()
            .subject_name(subject)
            .issuer_name(issuer)
            .public_key(public_key)
            .serial_number(x509.random_serial_number())
            .not_valid_before(validity[0])
            .not_valid_after(validity[1]))


def _skid(public_key) -> x509.SubjectKeyIdentifier:
    return x509.SubjectKeyIdentifier.from_public_key(public_key)


def _akid(issuer: Issued) -> x509.AuthorityKeyIdentifier:
    """keyIdentifier only, copied from the issuer's SKID (what Apple's certificates carry)."""
    skid = issuer.cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    return x509.AuthorityKeyIdentifier(key_identifier=skid.digest,
                                       authority_cert_issuer=None,
                                       authority_cert_serial_number=None)


def _ca_key_usage() -> x509.KeyUsage:
    return x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                         data_encipherment=False, key_agreement=False, key_cert_sign=True,
                         crl_sign=True, encipher_only=False, decipher_only=False)


def _signing_key_usage() -> x509.KeyUsage:
    return x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                         data_encipherment=False, key_agreement=False, key_cert_sign=False,
                         crl_sign=False, encipher_only=False, decipher_only=False)


def build_root(name: x509.Name, key: ec.EllipticCurvePrivateKey,
               skid_override: Optional[bytes] = None) -> Issued:
    """Self-signed P-384 root like Apple Root CA - G3: SKID, critical CA:TRUE, critical keyUsage
    keyCertSign+cRLSign, no AKID."""
    skid = x509.SubjectKeyIdentifier(skid_override) if skid_override else _skid(key.public_key())
    cert = (_builder(name, name, key.public_key(), ROOT_VALIDITY)
            .add_extension(skid, critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(_ca_key_usage(), critical=True)
            .sign(key, hashes.SHA384()))
    return Issued(cert, key)


def build_intermediate(name: x509.Name, key: ec.EllipticCurvePrivateKey, issuer: Issued, *,
                       ca: bool = True, apple_oid: bool = True) -> Issued:
    """P-384 CA like Apple WWDR G6: critical CA:TRUE pathlen:0, AKID, AIA (OCSP), CRL DP, SKID,
    critical keyUsage keyCertSign+cRLSign, and the intermediate marker OID."""
    constraints = (x509.BasicConstraints(ca=True, path_length=0) if ca
                   else x509.BasicConstraints(ca=False, path_length=None))
    builder = (_builder(name, issuer.cert.subject, key.public_key(), INTERMEDIATE_VALIDITY)
               .add_extension(constraints, critical=True)
               .add_extension(_akid(issuer), critical=False)
               .add_extension(x509.AuthorityInformationAccess([
                   x509.AccessDescription(x509.AuthorityInformationAccessOID.OCSP,
                                          x509.UniformResourceIdentifier(
                                              "http://ocsp.example.invalid/test-root-g3")),
               ]), critical=False)
               .add_extension(x509.CRLDistributionPoints([
                   x509.DistributionPoint(
                       full_name=[x509.UniformResourceIdentifier(
                           "http://crl.example.invalid/test-root-g3.crl")],
                       relative_name=None, reasons=None, crl_issuer=None),
               ]), critical=False)
               .add_extension(_skid(key.public_key()), critical=False)
               .add_extension(_ca_key_usage(), critical=True))
    if apple_oid:
        builder = builder.add_extension(
            x509.UnrecognizedExtension(OID_INTERMEDIATE_WWDR, ASN1_NULL), critical=False)
    return Issued(builder.sign(issuer.key, hashes.SHA384()), key)


def build_leaf(name: x509.Name, key: ec.EllipticCurvePrivateKey, issuer: Issued, *,
               apple_oid: bool = True, validity=None) -> Issued:
    """Signing certificate like Apple's receipt-signing leaf: critical CA:FALSE, AKID, AIA,
    certificate policy, SKID, critical keyUsage digitalSignature, and the leaf marker OID.
    Signed with ecdsa-with-SHA384 by `issuer` (the intermediate, or the root for a bad chain)."""
    policy = x509.PolicyInformation(OID_APPLE_CERT_POLICY, [
        x509.UserNotice(notice_reference=None, explicit_text=(
            "Test certificate. Reliance on this certificate by any party is for testing only.")),
        "http://www.example.invalid/certificateauthority/",
    ])
    builder = (_builder(name, issuer.cert.subject, key.public_key(), validity or LEAF_VALIDITY)
               .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
               .add_extension(_akid(issuer), critical=False)
               .add_extension(x509.AuthorityInformationAccess([
                   x509.AccessDescription(x509.AuthorityInformationAccessOID.CA_ISSUERS,
                                          x509.UniformResourceIdentifier(
                                              "http://certs.example.invalid/test-wwdrg6.der")),
                   x509.AccessDescription(x509.AuthorityInformationAccessOID.OCSP,
                                          x509.UniformResourceIdentifier(
                                              "http://ocsp.example.invalid/test-wwdrg6")),
               ]), critical=False)
               .add_extension(x509.CertificatePolicies([policy]), critical=False)
               .add_extension(_skid(key.public_key()), critical=False)
               .add_extension(_signing_key_usage(), critical=True))
    if apple_oid:
        builder = builder.add_extension(
            x509.UnrecognizedExtension(OID_LEAF_RECEIPT_SIGNING, ASN1_NULL), critical=False)
    return Issued(builder.sign(issuer.key, hashes.SHA384()), key)


def build_good_pki() -> Chain:
    """The trusted test PKI written to pki/: P-384 root -> P-384 intermediate -> P-256 leaf."""
    root = build_root(make_name(*ROOT_NAME), new_key(ec.SECP384R1()))
    intermediate = build_intermediate(make_name(*INTERMEDIATE_NAME), new_key(ec.SECP384R1()), root)
    leaf = build_leaf(make_name(*LEAF_NAME), new_key(ec.SECP256R1()), intermediate)
    return Chain(root, intermediate, leaf)


def build_impostor_chain(same_skid_as: Optional[Issued] = None) -> Chain:
    """A root with the good root's exact subject name but another key, and an intermediate and
    leaf (with the good names too) issued under it. With `same_skid_as`, the impostor root also
    copies that root's subject key identifier, so AKID matching cannot tell the two apart."""
    skid = None
    if same_skid_as is not None:
        skid = same_skid_as.cert.extensions.get_extension_for_class(
            x509.SubjectKeyIdentifier).value.digest
    root = build_root(make_name(*ROOT_NAME), new_key(ec.SECP384R1()), skid_override=skid)
    intermediate = build_intermediate(make_name(*INTERMEDIATE_NAME), new_key(ec.SECP384R1()), root)
    leaf = build_leaf(make_name(*LEAF_NAME), new_key(ec.SECP256R1()), intermediate)
    return Chain(root, intermediate, leaf)


def build_rogue_chain() -> Chain:
    """A complete, internally valid, separate PKI with its own names and its own root."""
    org = "Rogue Test PKI"
    root = build_root(make_name("Rogue Root CA", "Rogue Certification Authority", org),
                      new_key(ec.SECP384R1()))
    intermediate = build_intermediate(make_name("Rogue Intermediate CA", "G6", org),
                                      new_key(ec.SECP384R1()), root)
    leaf = build_leaf(make_name("Rogue Receipt Signing", "Rogue Developer Relations", org),
                      new_key(ec.SECP256R1()), intermediate)
    return Chain(root, intermediate, leaf)


def build_variant_chains(good: Chain) -> dict[str, Chain]:
    """Chains with exactly one defect each, built around the good PKI."""
    variants: dict[str, Chain] = {}
    variants["impostor"] = build_impostor_chain()
    variants["impostor-same-skid"] = build_impostor_chain(same_skid_as=good.root)
    variants["rogue"] = build_rogue_chain()

    # Leaf without the receipt-signing marker, issued by the good intermediate.
    variants["leaf-missing-oid"] = Chain(good.root, good.intermediate, build_leaf(
        make_name(*LEAF_NAME), new_key(ec.SECP256R1()), good.intermediate, apple_oid=False))

    # Intermediate without the WWDR marker (issued by the good root), and a good leaf under it.
    bare_intermediate = build_intermediate(make_name(*INTERMEDIATE_NAME), new_key(ec.SECP384R1()),
                                           good.root, apple_oid=False)
    variants["intermediate-missing-oid"] = Chain(good.root, bare_intermediate, build_leaf(
        make_name(*LEAF_NAME), new_key(ec.SECP256R1()), bare_intermediate))

    # Intermediate with basicConstraints CA:FALSE, and a leaf "issued" by it.
    not_ca = build_intermediate(make_name(*INTERMEDIATE_NAME), new_key(ec.SECP384R1()),
                                good.root, ca=False)
    variants["intermediate-not-ca"] = Chain(good.root, not_ca, build_leaf(
        make_name(*LEAF_NAME), new_key(ec.SECP256R1()), not_ca))

    # Leaf issued directly by the root; the x5c still lists the good intermediate.
    variants["leaf-signed-by-root"] = Chain(good.root, good.intermediate, build_leaf(
        make_name(*LEAF_NAME), new_key(ec.SECP256R1()), good.root))

    # Leaf that expired long ago (2024-01-01 .. 2025-06-01), for the "no signedDate" fallback.
    variants["leaf-expired-2025"] = Chain(good.root, good.intermediate, build_leaf(
        make_name(*LEAF_NAME), new_key(ec.SECP256R1()), good.intermediate,
        validity=(utc(2024, 1, 1), utc(2025, 6, 1))))

    # Leaf whose key is P-384 (an ES256 header cannot be verified with it).
    variants["leaf-p384-key"] = Chain(good.root, good.intermediate, build_leaf(
        make_name(*LEAF_NAME), new_key(ec.SECP384R1()), good.intermediate))
    return variants


# --------------------------------------------------------------------------------------------
# JWS encoding and signing
# --------------------------------------------------------------------------------------------

def b64url(data: bytes) -> str:
    """base64url without padding (RFC 7515)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64std(der: bytes) -> str:
    """Standard base64 with padding, as the x5c header uses (RFC 7515 section 4.1.6)."""
    return base64.b64encode(der).decode("ascii")


def compact_json(value) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def make_header(certs: Optional[list[bytes]], alg: str = "ES256", extra: Optional[dict] = None) -> dict:
    """{"alg": ..., "x5c": [...]} with keys in Apple's order; `certs=None` omits x5c."""
    header: dict = {"alg": alg}
    if certs is not None:
        header["x5c"] = [b64std(der) for der in certs]
    if extra:
        header.update(extra)
    return header


def ecdsa_sign(key: ec.EllipticCurvePrivateKey, message: bytes) -> tuple[int, int]:
    """ECDSA with SHA-256 (whatever the curve); returns (r, s) with s normalised to low-S when
    the key is P-256."""
    r, s = decode_dss_signature(key.sign(message, ec.ECDSA(hashes.SHA256())))
    if isinstance(key.curve, ec.SECP256R1) and s > P256_N // 2:
        s = P256_N - s
    return r, s


def raw_signature(r: int, s: int, size: int = 32) -> bytes:
    """JOSE raw signature: r || s, each big-endian, left-padded to `size` bytes."""
    return r.to_bytes(size, "big") + s.to_bytes(size, "big")


def signing_input(header_segment: str, payload_segment: str) -> bytes:
    return f"{header_segment}.{payload_segment}".encode("ascii")


def es256_jws(header_segment: str, payload_segment: str, key: ec.EllipticCurvePrivateKey, *,
              high_s: bool = False) -> str:
    """Signs the two (already encoded) segments with ES256 and returns the compact JWS."""
    r, s = ecdsa_sign(key, signing_input(header_segment, payload_segment))
    if high_s:
        s = P256_N - s
    return f"{header_segment}.{payload_segment}.{b64url(raw_signature(r, s))}"


def sign_objects(header: dict, payload, key: ec.EllipticCurvePrivateKey, **kwargs) -> str:
    """Encodes a header dict and a payload (dict, or raw bytes) and signs them with ES256."""
    payload_bytes = payload if isinstance(payload, bytes) else compact_json(payload)
    return es256_jws(b64url(compact_json(header)), b64url(payload_bytes), key, **kwargs)


def split(jws: str) -> list[str]:
    return jws.split(".")


def replace_signature(jws: str, signature: bytes) -> str:
    h, p, _ = split(jws)
    return f"{h}.{p}.{b64url(signature)}"


def es256_signature_valid(public_key: ec.EllipticCurvePublicKey, jws: str) -> bool:
    """Independent check of a compact JWS's ES256 signature (raw r||s) with `cryptography`."""
    parts = split(jws)
    if len(parts) != 3:
        return False
    signature = b64url_decode(parts[2])
    if len(signature) != 64:
        return False
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    if not (1 <= r < P256_N and 1 <= s < P256_N):
        return False
    try:
        public_key.verify(encode_dss_signature(r, s), signing_input(parts[0], parts[1]),
                          ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


# --------------------------------------------------------------------------------------------
# Payloads
# --------------------------------------------------------------------------------------------

def transaction_payload(signed_date: Optional[dt.datetime] = SIGNED_DATE, **overrides) -> dict:
    """A JWSTransactionDecodedPayload for a monthly auto-renewable subscription. Dates are
    relative to `signed_date`; `signed_date=None` omits signedDate."""
    base = signed_date or SIGNED_DATE
    payload = {
        "transactionId": "2000000123456789",
        "originalTransactionId": "2000000100000001",
        "webOrderLineItemId": "2000000045678901",
        "bundleId": BUNDLE_ID,
        "productId": "com.example.app.premium.monthly",
        "subscriptionGroupIdentifier": "21456789",
        "purchaseDate": ms(base - dt.timedelta(minutes=1)),
        "originalPurchaseDate": ms(base - dt.timedelta(days=59, minutes=1)),
        "expiresDate": ms(base - dt.timedelta(minutes=1) + dt.timedelta(days=31)),
        "quantity": 1,
        "type": "Auto-Renewable Subscription",
        "inAppOwnershipType": "PURCHASED",
        "signedDate": ms(base),
        "environment": "Sandbox",
        "transactionReason": "PURCHASE",
        "storefront": "USA",
        "storefrontId": "143441",
        "price": 9990,
        "currency": "USD",
        "appTransactionId": "704289572311837765",
    }
    if signed_date is None:
        del payload["signedDate"]
    payload.update(overrides)
    return payload


def renewal_payload(**overrides) -> dict:
    """A JWSRenewalInfoDecodedPayload (no bundleId: Apple does not put one in renewal info)."""
    payload = {
        "originalTransactionId": "2000000100000001",
        "autoRenewProductId": "com.example.app.premium.monthly",
        "productId": "com.example.app.premium.monthly",
        "autoRenewStatus": 1,
        "signedDate": ms(SIGNED_DATE),
        "environment": "Sandbox",
        "recentSubscriptionStartDate": ms(SIGNED_DATE - dt.timedelta(days=59)),
        "renewalDate": ms(SIGNED_DATE + dt.timedelta(days=31)),
        "appTransactionId": "704289572311837765",
    }
    payload.update(overrides)
    return payload


def app_transaction_payload(**overrides) -> dict:
    """A JWSAppTransactionDecodedPayload. The environment is `receiptType`; the chain's default
    effective date is `receiptCreationDate` (equal to signedDate here)."""
    payload = {
        "receiptType": "Sandbox",
        "bundleId": BUNDLE_ID,
        "applicationVersion": "42",
        "versionExternalIdentifier": 0,
        "receiptCreationDate": ms(SIGNED_DATE),
        "requestDate": ms(SIGNED_DATE),
        "originalPurchaseDate": ms(utc(2025, 6, 1)),
        "originalApplicationVersion": "1",
        "deviceVerification": "VGhpcyBpcyBub3QgYSByZWFsIGRldmljZSB2ZXJpZmljYXRpb24gdmFsdWUu",
        "deviceVerificationNonce": "5b6c9a2e-3f1d-4c8e-9a7b-1d2e3f4a5b6c",
        "appTransactionId": "704289572311837765",
        "originalPlatform": "iOS",
        "signedDate": ms(SIGNED_DATE),
    }
    payload.update(overrides)
    return payload


def notification_payload(signed_transaction: str, signed_renewal: str, **data_overrides) -> dict:
    """A ResponseBodyV2DecodedPayload (SUBSCRIBED / INITIAL_BUY) whose data carries the given
    signed transaction and renewal info."""
    data = {
        "bundleId": BUNDLE_ID,
        "bundleVersion": "42",
        "environment": "Sandbox",
        "signedTransactionInfo": signed_transaction,
        "signedRenewalInfo": signed_renewal,
        "status": 1,
    }
    data.update(data_overrides)
    return {
        "notificationType": "SUBSCRIBED",
        "subtype": "INITIAL_BUY",
        "notificationUUID": "3f1c2b9e-8a4d-4e6f-9b1a-2c3d4e5f6a7b",
        "data": data,
        "version": "2.0",
        "signedDate": ms(SIGNED_DATE),
    }


# --------------------------------------------------------------------------------------------
# Vectors
# --------------------------------------------------------------------------------------------

# How the self-check treats a vector's signature.
SIG_VALID = "valid"        # must verify under `signer` (the leaf key or another P-256 key)
SIG_INVALID = "invalid"    # must NOT verify under `signer`
SIG_SKIP = None            # not an ES256 signature worth checking (alg none, HS256, P-384 key...)


@dataclass
class Vector:
    name: str
    type: str
    description: str
    jws: str
    status: str                          # verified | unverified | malformed
    code: Optional[str] = None
    options: dict = field(default_factory=dict)
    signature: Optional[str] = SIG_VALID
    signer: Optional[ec.EllipticCurvePublicKey] = None   # defaults to the good leaf's key

    def manifest_entry(self) -> dict:
        options = {
            "roots": ["pki/root.der"],
            "bundleId": BUNDLE_ID,
            "environment": "Sandbox",
            "appAppleId": None,
            "effectiveDate": "signed",
            "strict": True,
        }
        options.update(self.options)
        return {
            "name": self.name,
            "file": f"jws/{self.name}.jws",
            "type": self.type,
            "description": self.description,
            "options": options,
            "expected": {"status": self.status, "code": self.code},
        }


def valid_vectors(good: Chain) -> list[Vector]:
    header = make_header(good.x5c())
    leaf = good.leaf.key
    transaction = sign_objects(header, transaction_payload(), leaf)
    renewal = sign_objects(header, renewal_payload(), leaf)
    return [
        Vector("transaction-valid", "transaction",
               "A well-formed Sandbox transaction signed by the test leaf; chain valid at signedDate "
               "(2026-03-01T12:00:00Z).",
               transaction, "verified"),
        Vector("transaction-high-s", "transaction",
               "Same as transaction-valid but the signature uses s' = n - s (high-S). ECDSA accepts "
               "both (r, s) and (r, n - s), so this must verify.",
               sign_objects(header, transaction_payload(), leaf, high_s=True), "verified"),
        Vector("transaction-production", "transaction",
               "A Production transaction verified with environment Production and appAppleId "
               "1234567890 (transactions carry no appAppleId, so only bundleId is compared).",
               sign_objects(header, transaction_payload(environment="Production"), leaf), "verified",
               options={"environment": "Production", "appAppleId": APP_APPLE_ID}),
        Vector("transaction-valid-explicit-date", "transaction",
               "transaction-valid checked at an explicit effective date (2026-06-01T00:00:00Z, "
               "inside every certificate's validity).",
               transaction, "verified", options={"effectiveDate": EXPLICIT_EFFECTIVE_DATE}),
        Vector("transaction-valid-two-roots", "transaction",
               "transaction-valid with two trusted roots that share a subject name (other-root.der "
               "first, then root.der); the verifier must pick the root whose key signed the "
               "intermediate.",
               transaction, "verified", options={"roots": ["pki/other-root.der", "pki/root.der"]}),
        Vector("expired-signed-date-explicit-effective-date", "transaction",
               "signedDate (2027-06-01) is after the leaf's notAfter, but options give an explicit "
               "effective date (2026-06-01T00:00:00Z) inside the validity: verified.",
               sign_objects(header, transaction_payload(EXPIRED_SIGNED_DATE), leaf), "verified",
               options={"effectiveDate": EXPLICIT_EFFECTIVE_DATE}),
        Vector("missing-signed-date-explicit-date", "transaction",
               "No signedDate in the payload; options give an explicit effective date, so the chain "
               "and signature check out, but every App Store transaction carries signedDate: "
               "missingRequiredProperties.",
               sign_objects(header, transaction_payload(None), leaf), "unverified", "missingRequiredProperties",
               options={"effectiveDate": EXPLICIT_EFFECTIVE_DATE}),
        Vector("renewal-valid", "renewal",
               "A well-formed Sandbox JWSRenewalInfoDecodedPayload; renewal info has no bundleId, so "
               "the bundle check does not apply.",
               renewal, "verified"),
        Vector("app-transaction-valid", "app-transaction",
               "A well-formed Sandbox app transaction (receiptType Sandbox, no appAppleId); the "
               "default effective date is receiptCreationDate (2026-03-01T12:00:00Z).",
               sign_objects(header, app_transaction_payload(), leaf), "verified"),
        Vector("app-transaction-production", "app-transaction",
               "A Production app transaction whose appAppleId (1234567890) matches the options.",
               sign_objects(header, app_transaction_payload(receiptType="Production",
                                                            appAppleId=APP_APPLE_ID), leaf),
               "verified", options={"environment": "Production", "appAppleId": APP_APPLE_ID}),
        Vector("notification-valid", "notification",
               "A SUBSCRIBED/INITIAL_BUY App Store Server Notification V2 (Sandbox) whose data "
               "embeds transaction-valid and renewal-valid.",
               sign_objects(header, notification_payload(transaction, renewal), leaf), "verified"),
    ]


def signature_vectors(good: Chain) -> list[Vector]:
    header = make_header(good.x5c())
    leaf = good.leaf.key
    base = sign_objects(header, transaction_payload(), leaf)
    h, p, sig = split(base)
    raw = b64url_decode(sig)
    r, s = int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")

    tampered_payload = b64url(compact_json(transaction_payload(price=0)))
    other_key = new_key(ec.SECP256R1())

    alg_none_header = b64url(compact_json(make_header(good.x5c(), alg="none")))
    hs256_header = b64url(compact_json(make_header(good.x5c(), alg="HS256")))
    leaf_spki = good.leaf.cert.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    hs256_mac = hmac.new(leaf_spki, signing_input(hs256_header, p), hashlib.sha256).digest()

    return [
        Vector("tampered-payload", "transaction",
               "The payload (price changed to 0) was replaced after signing; the signature covers "
               "the original payload.",
               f"{h}.{tampered_payload}.{sig}", "unverified", "invalidSignature",
               signature=SIG_INVALID),
        Vector("resigned-other-key", "transaction",
               "Good x5c chain, but the JWS is signed by a fresh P-256 key that is not the leaf's.",
               sign_objects(header, transaction_payload(), other_key), "unverified",
               "invalidSignature", signature=SIG_INVALID),
        Vector("alg-none", "transaction",
               "Header alg \"none\" with an empty signature segment (good x5c).",
               f"{alg_none_header}.{p}.", "unverified", "invalidSignature", signature=SIG_SKIP),
        Vector("alg-hs256", "transaction",
               "Header alg \"HS256\"; the signature is HMAC-SHA256 keyed with the leaf's "
               "SubjectPublicKeyInfo DER (algorithm-confusion attack).",
               f"{hs256_header}.{p}.{b64url(hs256_mac)}", "unverified", "invalidSignature",
               signature=SIG_SKIP),
        Vector("alg-es384-label", "transaction",
               "Header alg \"ES384\" but otherwise a valid ES256 signature by the leaf; only ES256 "
               "is accepted.",
               sign_objects(make_header(good.x5c(), alg="ES384"), transaction_payload(), leaf),
               "unverified", "invalidSignature"),
        Vector("signature-der", "transaction",
               "The signature segment carries the ASN.1 DER ECDSA-Sig-Value instead of raw r||s.",
               replace_signature(base, encode_dss_signature(r, s)), "unverified",
               "invalidSignature", signature=SIG_INVALID),
        Vector("signature-63-bytes", "transaction",
               "The raw r||s signature truncated to 63 bytes (last byte dropped).",
               replace_signature(base, raw[:63]), "unverified", "invalidSignature",
               signature=SIG_INVALID),
        Vector("signature-r-zero", "transaction",
               "Raw signature with r = 0 (out of range [1, n-1]) and the original s.",
               replace_signature(base, raw_signature(0, s)), "unverified", "invalidSignature",
               signature=SIG_INVALID),
        Vector("signature-s-equals-n", "transaction",
               "Raw signature with the original r and s = n, the P-256 group order (out of range).",
               replace_signature(base, raw_signature(r, P256_N)), "unverified", "invalidSignature",
               signature=SIG_INVALID),
    ]


def encoding_vectors(good: Chain) -> list[Vector]:
    leaf = good.leaf.key
    crit = sign_objects(make_header(good.x5c(), extra={"crit": ["exp"], "exp": 1}),
                        transaction_payload(), leaf)

    # A header segment using the standard-base64 '+' where base64url has '-'. A lenient decoder
    # would recover the very same header; the signature is valid over the altered text, so only
    # strict base64url decoding can reject it. Plain ASCII JSON only encodes to '-' (sextet 62)
    # for a '>' or '~' at a byte offset of 2 mod 3, so the header carries a harmless "kid" of
    # three '~' (one of them always lands there).
    header_segment = b64url(compact_json(make_header(good.x5c(), extra={"kid": "~~~"})))
    assert "-" in header_segment, "header encoding has no '-' to replace"
    plus_header = header_segment.replace("-", "+", 1)
    bad_header = es256_jws(plus_header, b64url(compact_json(transaction_payload())), leaf)

    return [
        Vector("crit-unknown", "transaction",
               "Header lists \"crit\": [\"exp\"] (with \"exp\": 1), an extension the verifier does "
               "not understand (RFC 7515 section 4.1.11); signature and chain otherwise valid.",
               crit, "unverified", "invalidEncoding"),
        Vector("header-bad-base64", "transaction",
               "The header segment contains '+' (standard base64) where base64url has '-'; a "
               "lenient decoder would read a good header (alg ES256, good x5c, kid \"~~~\"). The "
               "signature is valid over the segment as sent.",
               bad_header, "unverified", "invalidEncoding"),
    ]


def chain_vectors(good: Chain, variants: dict[str, Chain]) -> list[Vector]:
    leaf = good.leaf.key
    tx = transaction_payload()

    def signed_by(chain: Chain, certs: Optional[list[bytes]] = None, payload=tx) -> str:
        return sign_objects(make_header(chain.x5c() if certs is None else certs), payload,
                            chain.leaf.key)

    def chain_vector(name: str, description: str, jws: str, chain: Chain, **options) -> Vector:
        return Vector(name, "transaction", description, jws, "unverified",
                      "invalidCertificateChain", options=options,
                      signer=chain.leaf.cert.public_key())

    impostor = variants["impostor"]
    same_skid = variants["impostor-same-skid"]
    p384 = variants["leaf-p384-key"]
    # ES256 header, signature made by the P-384 leaf key (ECDSA/SHA-256, 48+48 raw bytes).
    p384_header = b64url(compact_json(make_header(p384.x5c())))
    p384_payload = b64url(compact_json(tx))
    pr, ps = ecdsa_sign(p384.leaf.key, signing_input(p384_header, p384_payload))
    p384_jws = f"{p384_header}.{p384_payload}.{b64url(raw_signature(pr, ps, 48))}"

    vectors = [
        chain_vector("rechained-untrusted",
                     "Signed by the leaf of a complete, internally valid, separate PKI whose root "
                     "(\"Rogue Root CA\") is not among the trusted roots.",
                     signed_by(variants["rogue"]), variants["rogue"]),
        chain_vector("impostor-root-same-name",
                     "Intermediate and leaf issued under other-root.der, which has root.der's exact "
                     "subject name but a different key (and SKID); x5c ends with other-root.",
                     signed_by(impostor), impostor),
        chain_vector("impostor-root-same-name-and-skid",
                     "Like impostor-root-same-name, but the impostor root also copies root.der's "
                     "subject key identifier, so name and AKID both point at the trusted root; only "
                     "the intermediate's signature tells them apart.",
                     signed_by(same_skid), same_skid),
        chain_vector("expired-leaf",
                     "signedDate 2027-06-01T00:00:00Z is after the leaf's notAfter "
                     "(2027-01-01T00:00:00Z); effective date is signedDate.",
                     signed_by(good, payload=transaction_payload(EXPIRED_SIGNED_DATE)), good),
        chain_vector("transaction-explicit-date-after-expiry",
                     "transaction-valid checked at an explicit effective date "
                     "(2027-06-01T00:00:00Z) after the leaf's notAfter.",
                     signed_by(good), good, effectiveDate=EXPLICIT_DATE_AFTER_EXPIRY),
        chain_vector("not-yet-valid",
                     "signedDate 2024-06-01T00:00:00Z is before the leaf's notBefore "
                     "(2025-01-01T00:00:00Z), while both CAs are already valid.",
                     signed_by(good, payload=transaction_payload(NOT_YET_VALID_SIGNED_DATE)), good),
        chain_vector("leaf-missing-oid",
                     "The leaf (issued by the good intermediate) lacks the receipt-signing marker "
                     "extension 1.2.840.113635.100.6.11.1; the X.509 path itself is valid.",
                     signed_by(variants["leaf-missing-oid"]), variants["leaf-missing-oid"]),
        chain_vector("intermediate-missing-oid",
                     "The intermediate (issued by the good root) lacks the marker extension "
                     "1.2.840.113635.100.6.2.1; the X.509 path itself is valid.",
                     signed_by(variants["intermediate-missing-oid"]),
                     variants["intermediate-missing-oid"]),
        chain_vector("leaf-signed-by-root",
                     "The leaf was issued directly by the root (its AKID names the root); x5c is "
                     "[leaf, good intermediate, root]. OpenSSL alone builds leaf -> root and accepts "
                     "it; the verifier must insist that the validated path is exactly the x5c.",
                     signed_by(variants["leaf-signed-by-root"]), variants["leaf-signed-by-root"]),
        chain_vector("intermediate-not-ca",
                     "The intermediate has basicConstraints CA:FALSE (critical) yet issued the leaf.",
                     signed_by(variants["intermediate-not-ca"]), variants["intermediate-not-ca"]),
        chain_vector("x5c-two-certs",
                     "x5c is [leaf, intermediate] (root missing); exactly three certificates are "
                     "required.",
                     signed_by(good, [good.leaf.der, good.intermediate.der]), good),
        chain_vector("x5c-four-certs",
                     "x5c is [leaf, intermediate, root, root]; exactly three certificates are "
                     "required.",
                     signed_by(good, good.x5c() + [good.root.der]), good),
        chain_vector("x5c-missing",
                     "The header has no x5c at all ({\"alg\":\"ES256\"}); signed by the good leaf.",
                     sign_objects(make_header(None), tx, leaf), good),
        chain_vector("x5c-reordered",
                     "x5c is [intermediate, leaf, root]; signed by the good leaf.",
                     signed_by(good, [good.intermediate.der, good.leaf.der, good.root.der]), good),
        Vector("leaf-p384-key", "transaction",
               "ES256 header, but the leaf's key is P-384 (chain otherwise valid, both marker OIDs "
               "present); the signature is ECDSA/SHA-256 with that P-384 key as 48+48 raw bytes.",
               p384_jws, "unverified", "invalidCertificateChain", signature=SIG_SKIP),
        chain_vector("cert-trailing-bytes",
                     "x5c[0] is the good leaf's DER followed by two extra bytes (00 00); signature "
                     "otherwise valid.",
                     signed_by(good, [good.leaf.der + b"\x00\x00", good.intermediate.der,
                                      good.root.der]), good),
    ]
    return vectors


def policy_vectors(good: Chain, variants: dict[str, Chain]) -> list[Vector]:
    expired = variants["leaf-expired-2025"]
    header = make_header(good.x5c())
    leaf = good.leaf.key
    transaction = sign_objects(header, transaction_payload(), leaf)
    renewal = sign_objects(header, renewal_payload(), leaf)
    return [
        Vector("wrong-bundle-id", "transaction",
               "Validly signed transaction for bundleId com.other.app; options expect "
               "com.example.app.",
               sign_objects(header, transaction_payload(bundleId=OTHER_BUNDLE_ID), leaf),
               "unverified", "invalidAppIdentifier"),
        Vector("wrong-environment", "transaction",
               "Validly signed transaction with environment Production while options say Sandbox.",
               sign_objects(header, transaction_payload(environment="Production"), leaf),
               "unverified", "invalidEnvironment"),
        Vector("missing-signed-date", "transaction",
               "Transaction without signedDate while the effective date is \"signed\": as in "
               "Apple's library the chain is then checked now, and this leaf expired on "
               "2025-06-01.",
               sign_objects(make_header(expired.x5c()), transaction_payload(None), expired.leaf.key),
               "unverified", "invalidCertificateChain", signer=expired.leaf.cert.public_key()),
        Vector("app-transaction-wrong-app-apple-id", "app-transaction",
               "Production app transaction with appAppleId 999999 while options expect 1234567890.",
               sign_objects(header, app_transaction_payload(receiptType="Production",
                                                            appAppleId=999999), leaf),
               "unverified", "invalidAppIdentifier",
               options={"environment": "Production", "appAppleId": APP_APPLE_ID}),
        Vector("notification-wrong-bundle-id", "notification",
               "Validly signed notification whose data.bundleId is com.other.app.",
               sign_objects(header, notification_payload(transaction, renewal,
                                                         bundleId=OTHER_BUNDLE_ID), leaf),
               "unverified", "invalidAppIdentifier"),
    ]


def malformed_vectors(good: Chain) -> list[Vector]:
    header_segment = b64url(compact_json(make_header(good.x5c())))
    leaf = good.leaf.key

    # A payload whose base64url length is 2 mod 4 ... make it 3 mod 4 by padding the JSON text
    # with trailing spaces (valid JSON whitespace), so a single '=' is exactly the padding standard
    # base64 would use: only a strict base64url decoder rejects it.
    text = compact_json(transaction_payload())
    while len(text) % 3 != 2:
        text += b" "
    padded_payload = b64url(text) + "="

    def signed(payload) -> str:
        return sign_objects(make_header(good.x5c()), payload, leaf)

    return [
        Vector("two-segments", "transaction",
               "Only two segments (header.payload); a compact JWS has exactly three.",
               ".".join(split(signed(transaction_payload()))[:2]), "malformed", "malformedJWS",
               signature=SIG_SKIP),
        Vector("payload-bad-base64", "transaction",
               "The payload segment ends with '=' padding (correct for standard base64, forbidden "
               "in base64url); the signature is valid over the segment as sent.",
               es256_jws(header_segment, padded_payload, leaf), "malformed", "malformedJWS"),
        Vector("payload-not-json", "transaction",
               "Validly signed, but the payload is the text \"this is not JSON\".",
               signed(b"this is not JSON"), "malformed", "invalidJSON"),
        Vector("payload-json-array", "transaction",
               "Validly signed, but the payload is the JSON array [1,2], not an object.",
               signed(b"[1,2]"), "malformed", "invalidJSON"),
        Vector("payload-wrong-types", "transaction",
               "Validly signed transaction whose signedDate is the string \"yesterday\".",
               signed(transaction_payload(signedDate="yesterday")), "malformed", "invalidPayload"),
        Vector("payload-bundle-id-number", "transaction",
               "Validly signed transaction whose bundleId is the number 5.",
               signed(transaction_payload(bundleId=5)), "malformed", "invalidPayload"),
    ]


def notification_vectors(good: Chain) -> list[Vector]:
    """Server Notifications V2 beyond the plain one: nested data that fails, summary and external
    purchase token notifications, types Apple may add later, and payloads handed to the wrong
    entry point."""
    header = make_header(good.x5c())
    leaf = good.leaf.key
    transaction = sign_objects(header, transaction_payload(), leaf)
    renewal = sign_objects(header, renewal_payload(), leaf)
    # The inner transaction, changed after signing: its own signature no longer holds.
    h, _, sig = split(transaction)
    tampered = f"{h}.{b64url(compact_json(transaction_payload(productId='com.example.app.lifetime')))}.{sig}"
    other_app = sign_objects(header, transaction_payload(bundleId=OTHER_BUNDLE_ID), leaf)

    def notification(payload: dict) -> str:
        return sign_objects(header, payload, leaf)

    summary = {
        "notificationType": "RENEWAL_EXTENSION", "subtype": "SUMMARY",
        "notificationUUID": "0b4b1a57-2f6e-4d0c-8a55-6a0f0c1d2e3f", "version": "2.0",
        "signedDate": ms(SIGNED_DATE),
        "summary": {"requestIdentifier": "efb27071-45a4-4aca-9854-2a1e9146f265",
                    "environment": "Sandbox", "appAppleId": APP_APPLE_ID, "bundleId": BUNDLE_ID,
                    "productId": "com.example.app.premium.monthly",
                    "storefrontCountryCodes": ["USA", "CAN"], "failedCount": 2,
                    "succeededCount": 1500},
    }
    token = {
        "notificationType": "EXTERNAL_PURCHASE_TOKEN", "subtype": "UNREPORTED",
        "notificationUUID": "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f", "version": "2.0",
        "signedDate": ms(SIGNED_DATE),
        "externalPurchaseToken": {"externalPurchaseId": "SANDBOX_b2158121-7af9-49d4-9561-1f588205523e",
                                  "tokenCreationDate": ms(SIGNED_DATE), "appAppleId": APP_APPLE_ID,
                                  "bundleId": BUNDLE_ID},
    }
    future = notification_payload(transaction, renewal)
    future.update({"notificationType": "SOMETHING_APPLE_ADDS_IN_2027", "subtype": "BRAND_NEW_SUBTYPE"})
    test = {"notificationType": "TEST", "notificationUUID": "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6",
            "version": "2.0", "signedDate": ms(SIGNED_DATE),
            "data": {"bundleId": BUNDLE_ID, "environment": "Sandbox", "appAppleId": APP_APPLE_ID}}
    realtime = {"originalTransactionId": "2000000100000001", "appAppleId": APP_APPLE_ID,
                "productId": "com.example.app.premium.monthly", "userLocale": "en-US",
                "requestIdentifier": "3db5c98d-8acf-4e29-831e-8e1f82f9f6e9",
                "environment": "Sandbox", "signedDate": ms(SIGNED_DATE)}
    summary_other = json.loads(json.dumps(summary))
    summary_other["summary"]["bundleId"] = OTHER_BUNDLE_ID
    return [
        Vector("notification-tampered-inner", "notification",
               "A genuine notification whose data.signedTransactionInfo was changed after Apple "
               "signed it: the outer JWS verifies, the nested transaction does not.",
               notification(notification_payload(tampered, renewal)), "unverified", "invalidSignature"),
        Vector("notification-inner-other-app", "notification",
               "A genuine notification for this app whose nested transaction names another "
               "bundle ID.",
               notification(notification_payload(other_app, renewal)), "unverified",
               "invalidAppIdentifier"),
        Vector("notification-summary", "notification",
               "A RENEWAL_EXTENSION/SUMMARY notification: the identity comes from `summary`.",
               notification(summary), "verified"),
        Vector("notification-summary-other-app", "notification",
               "A SUMMARY notification whose summary.bundleId is another app's.",
               notification(summary_other), "unverified", "invalidAppIdentifier"),
        Vector("notification-external-purchase-token", "notification",
               "An EXTERNAL_PURCHASE_TOKEN notification: identity from externalPurchaseToken, "
               "environment Sandbox from the SANDBOX_ prefix of its id.",
               notification(token), "verified"),
        Vector("notification-future-type", "notification",
               "A notification type and subtype Apple may add later: decoded and verified, the "
               "values kept as they are.",
               notification(future), "verified"),
        Vector("notification-test", "notification",
               "A TEST notification: data without nested signed data.",
               notification(test), "verified"),
        Vector("realtime-request-valid", "realtime-request",
               "A retention-messaging realtime request body.",
               sign_objects(header, realtime, leaf), "verified"),
        Vector("wrong-decoder-notification-as-transaction", "transaction",
               "A notification handed to the transaction entry point: said plainly, not reported "
               "as a bundle or environment mismatch.",
               notification(test), "malformed", "wrongPayloadType"),
        Vector("wrong-decoder-transaction-as-notification", "notification",
               "A transaction handed to the notification entry point.",
               transaction, "malformed", "wrongPayloadType"),
        Vector("wrong-decoder-renewal-as-transaction", "transaction",
               "Renewal info handed to the transaction entry point.",
               renewal, "malformed", "wrongPayloadType"),
        Vector("renewal-wrong-environment", "renewal",
               "Production renewal info while the options say Sandbox.",
               sign_objects(header, renewal_payload(environment="Production"), leaf), "unverified",
               "invalidEnvironment"),
        Vector("xcode-environment-claimed", "transaction",
               "A transaction claiming environment Xcode, signed by the test chain: Xcode data is "
               "verified only against a configured Xcode certificate, so it is not verified.",
               sign_objects(header, transaction_payload(environment="Xcode"), leaf), "unverified",
               "invalidCertificateChain", options={"environment": None}),
        Vector("local-testing-environment-claimed", "transaction",
               "A transaction claiming environment LocalTesting: never verified.",
               sign_objects(header, transaction_payload(environment="LocalTesting"), leaf),
               "unverified", "invalidCertificateChain", options={"environment": None}),
    ]


def attack_vectors(good: Chain, variants: dict[str, Chain]) -> list[Vector]:
    """The adversarial suite beyond the basic failure modes: header injection, x5c shapes, forged
    certificates, signature encodings, base64 variants, and hostile payload JSON."""
    leaf = good.leaf.key
    tx = transaction_payload()
    header = make_header(good.x5c())
    base = sign_objects(header, tx, leaf)
    h, p, sig = split(base)
    raw = b64url_decode(sig)
    r, s = int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
    attacker = new_key(ec.SECP256R1())
    attacker_jwk = {"kty": "EC", "crv": "P-256",
                    "x": b64url(attacker.public_key().public_numbers().x.to_bytes(32, "big")),
                    "y": b64url(attacker.public_key().public_numbers().y.to_bytes(32, "big"))}
    leaf_der, intermediate_der, root_der = good.x5c()

    def chain_vector(name, description, certs, key=leaf, code="invalidCertificateChain", signer=None):
        return Vector(name, "transaction", description, sign_objects(make_header(certs), tx, key),
                      "unverified", code, signer=signer)

    def unverified(name, description, jws, code, **kwargs):
        return Vector(name, "transaction", description, jws, "unverified", code, **kwargs)

    def malformed(name, description, jws, code):
        return Vector(name, "transaction", description, jws, "malformed", code, signature=SIG_SKIP)

    def with_payload_text(text: bytes) -> str:
        return sign_objects(header, text, leaf)

    # Forged certificates around the good PKI.
    impostor_intermediate = build_intermediate(make_name(*INTERMEDIATE_NAME), new_key(ec.SECP384R1()),
                                               Issued(good.root.cert, new_key(ec.SECP384R1())))
    impostor_leaf = build_leaf(make_name(*LEAF_NAME), new_key(ec.SECP256R1()), impostor_intermediate)
    swapped_intermediate = build_intermediate(make_name(*INTERMEDIATE_NAME), new_key(ec.SECP384R1()),
                                              good.root, apple_oid=False)
    swapped_intermediate = Issued(
        _builder(swapped_intermediate.cert.subject, good.root.cert.subject,
                 swapped_intermediate.key.public_key(), INTERMEDIATE_VALIDITY)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_akid(good.root), critical=False)
        .add_extension(_skid(swapped_intermediate.key.public_key()), critical=False)
        .add_extension(_ca_key_usage(), critical=True)
        .add_extension(x509.UnrecognizedExtension(OID_LEAF_RECEIPT_SIGNING, ASN1_NULL), critical=False)
        .sign(good.root.key, hashes.SHA384()), swapped_intermediate.key)
    swapped_leaf_key = new_key(ec.SECP256R1())
    swapped_leaf = Issued(
        _builder(make_name(*LEAF_NAME), swapped_intermediate.cert.subject, swapped_leaf_key.public_key(),
                 LEAF_VALIDITY)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_akid(swapped_intermediate), critical=False)
        .add_extension(_skid(swapped_leaf_key.public_key()), critical=False)
        .add_extension(_signing_key_usage(), critical=True)
        .add_extension(x509.UnrecognizedExtension(OID_INTERMEDIATE_WWDR, ASN1_NULL), critical=False)
        .sign(swapped_intermediate.key, hashes.SHA384()), swapped_leaf_key)

    high_s_raw = raw_signature(r, P256_N - s)
    return [
        # Header parameters.
        unverified("alg-missing", "Header without \"alg\" (good x5c, valid ES256 signature).",
                   sign_objects({"x5c": header["x5c"]}, tx, leaf), "invalidEncoding"),
        unverified("jwk-injection", "Header carries the attacker's key as \"jwk\" and the JWS is signed "
                   "with it; the key must come from the validated x5c leaf only.",
                   sign_objects(make_header(good.x5c(), extra={"jwk": attacker_jwk}), tx, attacker),
                   "invalidSignature", signer=attacker.public_key()),
        unverified("jku-x5u-injection", "Header points \"jku\" and \"x5u\" at attacker URLs and is signed "
                   "by the attacker; nothing is fetched.",
                   sign_objects(make_header(good.x5c(), extra={"jku": "https://attacker.invalid/jwks",
                                                                "x5u": "https://attacker.invalid/x5c"}),
                                tx, attacker), "invalidSignature", signer=attacker.public_key()),
        Vector("kid-ignored", "transaction", "Header with an extra \"kid\" and \"typ\", genuinely "
               "signed by the leaf: key-locating hints are ignored, so it verifies.",
               sign_objects(make_header(good.x5c(), extra={"kid": "Apple_Xcode_Key", "typ": "JWT"}), tx, leaf),
               "verified"),
        unverified("header-not-object", "The header is the JSON array [\"ES256\"].",
                   sign_objects(["ES256"], tx, leaf), "invalidEncoding"),
        unverified("header-alg-number", "Header \"alg\": 256.",
                   sign_objects(make_header(good.x5c(), alg=256), tx, leaf), "invalidEncoding"),
        unverified("x5c-not-array", "Header \"x5c\" is one base64 string, not an array.",
                   sign_objects({"alg": "ES256", "x5c": b64std(leaf_der)}, tx, leaf), "invalidCertificateChain"),
        unverified("x5c-entry-base64url", "x5c[0] is base64url (with '-' and '_') instead of standard base64.",
                   sign_objects({"alg": "ES256", "x5c": [b64url(leaf_der) + "-_", b64std(intermediate_der),
                                                          b64std(root_der)]}, tx, leaf),
                   "invalidCertificateChain"),
        # x5c shapes.
        chain_vector("x5c-empty", "x5c is an empty array.", []),
        chain_vector("x5c-one-cert", "x5c holds only the leaf.", [leaf_der]),
        chain_vector("x5c-leaf-duplicated", "x5c = [leaf, leaf, root].", [leaf_der, leaf_der, root_der]),
        Vector("x5c-third-ignored", "transaction", "x5c = [leaf, intermediate, intermediate]: the third "
               "certificate is informational (Apple's library never reads it either); the path is built "
               "to the configured root, so it verifies.",
               sign_objects(make_header([leaf_der, intermediate_der, intermediate_der]), tx, leaf), "verified"),
        chain_vector("impostor-intermediate", "An intermediate with the real intermediate's name, claiming the "
                     "trusted root as issuer but signed by another key, and a leaf under it.",
                     [impostor_leaf.cert.public_bytes(serialization.Encoding.DER),
                      impostor_intermediate.cert.public_bytes(serialization.Encoding.DER), root_der],
                     key=impostor_leaf.key, signer=impostor_leaf.cert.public_key()),
        chain_vector("marker-oids-swapped", "The leaf carries the intermediate's marker OID and the "
                     "intermediate the leaf's (otherwise a valid chain under the trusted root).",
                     [swapped_leaf.cert.public_bytes(serialization.Encoding.DER),
                      swapped_intermediate.cert.public_bytes(serialization.Encoding.DER), root_der],
                     key=swapped_leaf.key, signer=swapped_leaf.cert.public_key()),
        chain_vector("leaf-truncated", "x5c[0] is the leaf's DER cut to half its length.",
                     [leaf_der[: len(leaf_der) // 2], intermediate_der, root_der]),
        chain_vector("intermediate-trailing-bytes", "x5c[1] is the intermediate's DER followed by 00 00.",
                     [leaf_der, intermediate_der + b"\x00\x00", root_der]),
        chain_vector("root-as-leaf", "x5c = [root, intermediate, root].", [root_der, intermediate_der, root_der]),
        # Signature encodings.
        unverified("signature-65-bytes", "Raw r||s with one extra zero byte.",
                   replace_signature(base, raw + b"\x00"), "invalidSignature", signature=SIG_INVALID),
        unverified("signature-r-equals-n", "r = n (out of range).",
                   replace_signature(base, raw_signature(P256_N, s)), "invalidSignature", signature=SIG_INVALID),
        unverified("signature-s-above-n", "s = n + 1... represented in 32 bytes as s + n would overflow, so "
                   "s = 2^256 - 1 (above n).",
                   replace_signature(base, raw_signature(r, 2 ** 256 - 1)), "invalidSignature", signature=SIG_INVALID),
        unverified("signature-s-zero", "s = 0.", replace_signature(base, raw_signature(r, 0)),
                   "invalidSignature", signature=SIG_INVALID),
        unverified("signature-empty", "Empty signature segment.", f"{h}.{p}.", "invalidSignature",
                   signature=SIG_SKIP),
        Vector("signature-high-s-twin", "transaction", "The same signature with s replaced by n - s "
               "(its high-S twin): ECDSA, and Apple, accept both.",
               replace_signature(base, high_s_raw), "verified"),
        # Base64 variants of the signature segment.
        unverified("signature-padded", "The signature segment ends with '=' padding.",
                   f"{h}.{p}.{sig}==", "invalidEncoding", signature=SIG_SKIP),
        unverified("signature-standard-alphabet", "The signature segment in standard base64 ('+', '/').",
                   f"{h}.{p}.{b64std(raw).rstrip('=')}" if any(c in b64std(raw) for c in "+/")
                   else f"{h}.{p}.{sig[:-2]}+/", "invalidEncoding", signature=SIG_SKIP),
        unverified("signature-whitespace", "A space inside the signature segment.",
                   f"{h}.{p}.{sig[:20]} {sig[20:]}", "invalidEncoding", signature=SIG_SKIP),
        unverified("signature-noncanonical-last-char", "The signature's last character has non-zero unused "
                   "bits (decodes to the same bytes in a lenient decoder).",
                   f"{h}.{p}.{sig[:-1]}{'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.index(sig[-1]) | 1)]}",
                   "invalidEncoding", signature=SIG_SKIP),
        # Payload encodings and JSON.
        malformed("payload-padded", "The payload segment ends with '=' padding.", f"{h}.{p}=.{sig}", "malformedJWS"),
        malformed("payload-whitespace", "A line break inside the payload segment.", f"{h}.{p[:30]}\r{p[30:]}.{sig}",
                  "malformedJWS"),
        malformed("payload-duplicate-keys", "The payload names \"bundleId\" twice (com.other.app, then "
                  "com.example.app): parsers disagree on which wins, so it is refused.",
                  with_payload_text(compact_json(tx)[:-1] + b',"bundleId":"com.other.app"}'), "invalidJSON"),
        malformed("payload-trailing-garbage", "The payload JSON is followed by more text.",
                  with_payload_text(compact_json(tx) + b"{}"), "invalidJSON"),
        malformed("payload-empty", "The payload segment is empty.", f"{h}..{sig}", "invalidJSON"),
        malformed("payload-null", "The payload is JSON null.", with_payload_text(b"null"), "invalidJSON"),
        malformed("payload-quantity-fraction", "\"quantity\": 1.5 where Apple documents an integer.",
                  with_payload_text(compact_json(transaction_payload(quantity=1.5))), "invalidPayload"),
        malformed("jwe-five-segments", "Five segments, as a JWE has.", f"{h}.{p}.{sig}.AA.AA", "malformedJWS"),
    ]


def build_vectors(good: Chain, variants: dict[str, Chain]) -> list[Vector]:
    vectors = (valid_vectors(good) + signature_vectors(good) + encoding_vectors(good)
               + chain_vectors(good, variants) + policy_vectors(good, variants) + malformed_vectors(good)
               + notification_vectors(good) + attack_vectors(good, variants))
    names = [v.name for v in vectors]
    assert len(names) == len(set(names)), "duplicate vector names"
    return vectors


# --------------------------------------------------------------------------------------------
# Self-checks
# --------------------------------------------------------------------------------------------

def check_signatures(vectors: list[Vector], good: Chain) -> None:
    """Every signature meant to be valid verifies with `cryptography`; every one meant to be bad
    does not."""
    for v in vectors:
        if v.signature is SIG_SKIP:
            continue
        key = v.signer or good.leaf.cert.public_key()
        ok = es256_signature_valid(key, v.jws)
        if ok != (v.signature == SIG_VALID):
            raise SystemExit(f"self-check failed: {v.name}: signature valid={ok}, "
                             f"expected {v.signature}")


def _pem(cert: x509.Certificate, path: Path) -> str:
    path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return str(path)


def openssl_verify(roots: list[Issued], intermediate: Issued, leaf: Issued,
                   at: dt.datetime) -> tuple[bool, str]:
    """`openssl verify -x509_strict -attime <at> -CAfile <roots> -untrusted <intermediate> <leaf>`."""
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        ca_file = d / "roots.pem"
        ca_file.write_bytes(b"".join(r.cert.public_bytes(serialization.Encoding.PEM) for r in roots))
        cmd = ["openssl", "verify", "-x509_strict", "-attime", str(int(at.timestamp())),
               "-CAfile", str(ca_file),
               "-untrusted", _pem(intermediate.cert, d / "intermediate.pem"),
               _pem(leaf.cert, d / "leaf.pem")]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        output = (proc.stdout + proc.stderr).replace(str(d) + os.sep, "")
        return proc.returncode == 0, output.strip()


def _summary(output: str) -> str:
    """The first `error N at D depth lookup: ...` line, else the last line."""
    lines = output.splitlines()
    return next((line for line in lines if " depth lookup:" in line), lines[-1] if lines else "")


def check_chains_with_openssl(good: Chain, variants: dict[str, Chain]) -> None:
    """The good chain must pass OpenSSL's strict path validation at signedDate; the chains broken
    at the X.509 level must not; the chains whose defect only the verifier's own checks see (chain
    shape, marker OIDs, key curve) must still pass OpenSSL, or their vectors would test nothing."""
    if shutil.which("openssl") is None:
        print("openssl not found: skipping the OpenSSL chain self-check", file=sys.stderr)
        return
    ok, output = openssl_verify([good.root], good.intermediate, good.leaf, SIGNED_DATE)
    print(f"openssl verify -x509_strict, good chain at signedDate {SIGNED_DATE:%Y-%m-%dT%H:%M:%SZ} "
          f"(-attime {int(SIGNED_DATE.timestamp())}): {output}")
    if not ok:
        raise SystemExit("self-check failed: the good chain does not verify with openssl")

    def chain(name: str, at: dt.datetime = SIGNED_DATE, roots=None):
        c = variants[name] if name != "good" else good
        return (roots or [good.root], c.intermediate, c.leaf, at)

    expectations = [
        ("good chain, roots other-root + root", True,
         chain("good", roots=[variants["impostor"].root, good.root])),
        ("expired-leaf", False, chain("good", EXPIRED_SIGNED_DATE)),
        ("not-yet-valid", False, chain("good", NOT_YET_VALID_SIGNED_DATE)),
        ("rechained-untrusted", False, chain("rogue")),
        ("impostor-root-same-name", False, chain("impostor")),
        ("impostor-root-same-name-and-skid", False, chain("impostor-same-skid")),
        ("intermediate-not-ca", False, chain("intermediate-not-ca")),
        ("leaf-signed-by-root (caught by the chain-shape check)", True,
         chain("leaf-signed-by-root")),
        ("leaf-missing-oid (caught by the OID check)", True, chain("leaf-missing-oid")),
        ("intermediate-missing-oid (caught by the OID check)", True,
         chain("intermediate-missing-oid")),
        ("leaf-p384-key (caught by the key-curve check)", True, chain("leaf-p384-key")),
    ]
    for label, expected, args in expectations:
        ok, output = openssl_verify(*args)
        if ok != expected:
            raise SystemExit(f"self-check failed: openssl {'accepted' if ok else 'rejected'} "
                             f"the {label} chain: {output}")
        print(f"openssl verify, {label}: {'OK' if ok else _summary(output)}")


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------

def write_pki(good: Chain, variants: dict[str, Chain]) -> None:
    PKI_DIR.mkdir(parents=True, exist_ok=True)
    for stale in PKI_DIR.glob("*.der"):
        stale.unlink()
    (PKI_DIR / "root.der").write_bytes(good.root.der)
    (PKI_DIR / "intermediate.der").write_bytes(good.intermediate.der)
    (PKI_DIR / "leaf.der").write_bytes(good.leaf.der)
    (PKI_DIR / "other-root.der").write_bytes(variants["impostor"].root.der)


def write_vectors(vectors: list[Vector]) -> None:
    JWS_DIR.mkdir(parents=True, exist_ok=True)
    for stale in JWS_DIR.glob("*.jws"):
        stale.unlink()
    for v in vectors:
        assert "\n" not in v.jws
        (JWS_DIR / f"{v.name}.jws").write_text(v.jws + "\n", encoding="ascii")


def write_manifest(vectors: list[Vector]) -> None:
    manifest = {
        "description": (
            "App Store signed-data (compact JWS, ES256, x5c) test vectors over a test PKI shaped "
            "like Apple's: P-384 root (pki/root.der) -> P-384 intermediate with marker OID "
            "1.2.840.113635.100.6.2.1 -> P-256 leaf with marker OID 1.2.840.113635.100.6.11.1. "
            "pki/other-root.der has root.der's subject name and a different key. Paths are "
            "relative to TestVectors/. effectiveDate \"signed\" means the payload's default date "
            "(signedDate; receiptCreationDate for app transactions). Regenerate with "
            "`python3 TestVectors/generate.py`."
        ),
        "vectors": [v.manifest_entry() for v in vectors],
    }
    MANIFEST.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> int:
    good = build_good_pki()
    variants = build_variant_chains(good)
    vectors = build_vectors(good, variants)
    check_signatures(vectors, good)
    check_chains_with_openssl(good, variants)
    write_pki(good, variants)
    write_vectors(vectors)
    write_manifest(vectors)
    counts: dict[str, int] = {}
    for v in vectors:
        counts[v.status] = counts.get(v.status, 0) + 1
    print(f"wrote {len(vectors)} vectors to {JWS_DIR.relative_to(OUT_DIR.parent)}/ "
          f"({', '.join(f'{n} {s}' for s, n in sorted(counts.items()))}), "
          f"the PKI to {PKI_DIR.relative_to(OUT_DIR.parent)}/ and "
          f"{MANIFEST.relative_to(OUT_DIR.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
