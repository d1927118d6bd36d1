#!/usr/bin/env python3
"""Generate the benchmark corpus: a small test PKI and the JWS the benchmarks verify.

Usage (from the repository root):

    python3 Benchmarks/Scripts/make-corpus.py [--cold-count 256]

Requirements: Python 3.9+ and the `cryptography` package (the `openssl` command line tool, when on
PATH, self-checks one generated chain with `openssl verify -x509_strict`).

The private keys behind TestVectors/pki are never saved, so this script builds its own PKI of the
same shape with the certificate builders of TestVectors/generate.py (imported, not copied):
P-384 root -> P-384 intermediate (marker OID 1.2.840.113635.100.6.2.1) -> P-256 leaves (marker OID
1.2.840.113635.100.6.11.1), with key identifiers and critical basicConstraints/keyUsage, so every
chain passes the verifier's strict checks exactly like the test vectors do.

What it writes (Benchmarks/Corpus/):

    root.der           the trusted root the benchmarks configure
    warm.jws           one Sandbox transaction (the warm path: the same chain every time)
    cold.jws           --cold-count lines, each a transaction signed by its own freshly issued leaf
                       (same intermediate), so no two lines share an x5c
    notification.jws   a DID_RENEW / BILLING_RECOVERY notification whose data.signedTransactionInfo
                       and data.signedRenewalInfo are JWS signed by the same PKI

Every payload is signed 2026-03-01T12:00:00Z (inside every certificate's validity), so the
verifier's default effective date (the payload's signedDate) works. Keys are fresh on every run:
the bytes change, the shape does not.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHMARKS_DIR = HERE.parent
REPO_ROOT = BENCHMARKS_DIR.parent
CORPUS_DIR = BENCHMARKS_DIR / "Corpus"

sys.dont_write_bytecode = True  # leave no __pycache__ in TestVectors/
sys.path.insert(0, str(REPO_ROOT / "TestVectors"))
import generate as tv  # noqa: E402  (TestVectors/generate.py: builders only; its main() does not run)

from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402

NOTIFICATION_UUID = "6b1f9c3e-2d4a-4f8b-9c7e-1a2b3c4d5e6f"


def notification_payload(signed_transaction: str, signed_renewal: str) -> dict:
    """A ResponseBodyV2DecodedPayload: a subscription renewed after a billing retry."""
    return {
        "notificationType": "DID_RENEW",
        "subtype": "BILLING_RECOVERY",
        "notificationUUID": NOTIFICATION_UUID,
        "version": "2.0",
        "signedDate": tv.ms(tv.SIGNED_DATE),
        "data": {
            "appAppleId": tv.APP_APPLE_ID,
            "bundleId": tv.BUNDLE_ID,
            "bundleVersion": "1.0",
            "environment": "Sandbox",
            "signedTransactionInfo": signed_transaction,
            "signedRenewalInfo": signed_renewal,
            "status": 1,
        },
    }


def new_leaf(intermediate: tv.Issued) -> tv.Issued:
    return tv.build_leaf(tv.make_name(*tv.LEAF_NAME), tv.new_key(ec.SECP256R1()), intermediate)


def transaction_jws(chain: tv.Chain, **overrides) -> str:
    return tv.sign_objects(tv.make_header(chain.x5c()), tv.transaction_payload(**overrides),
                           chain.leaf.key)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cold-count", type=int, default=256,
                        help="JWS in cold.jws, each with its own leaf (default 256)")
    args = parser.parse_args()
    if args.cold_count < 1:
        parser.error("--cold-count must be at least 1")

    good = tv.build_good_pki()
    root, intermediate = good.root, good.intermediate

    warm = transaction_jws(good)

    cold = []
    leaves = []
    for i in range(args.cold_count):
        chain = tv.Chain(root, intermediate, new_leaf(intermediate))
        leaves.append(chain.leaf)
        # A distinct transaction per line too, as a real stream would carry.
        cold.append(transaction_jws(chain, transactionId=str(2000000200000000 + i),
                                    webOrderLineItemId=str(2000000300000000 + i)))
    assert len({jws.split(".")[0] for jws in cold}) == len(cold), "two cold JWS share a header"

    header = tv.make_header(good.x5c())
    signed_transaction = tv.sign_objects(header, tv.transaction_payload(), good.leaf.key)
    signed_renewal = tv.sign_objects(header, tv.renewal_payload(), good.leaf.key)
    notification = tv.sign_objects(header,
                                   notification_payload(signed_transaction, signed_renewal),
                                   good.leaf.key)

    # Self-checks: every signature verifies; one chain passes OpenSSL's strict path validation.
    key = good.leaf.cert.public_key()
    for name, jws in [("warm", warm), ("transaction", signed_transaction),
                      ("renewal", signed_renewal), ("notification", notification)]:
        if not tv.es256_signature_valid(key, jws):
            raise SystemExit(f"self-check failed: {name} signature does not verify")
    for i, (leaf, jws) in enumerate(zip(leaves, cold)):
        if not tv.es256_signature_valid(leaf.cert.public_key(), jws):
            raise SystemExit(f"self-check failed: cold line {i + 1} signature does not verify")
    if tv.shutil.which("openssl"):
        ok, output = tv.openssl_verify([root], intermediate, leaves[0], tv.SIGNED_DATE)
        if not ok:
            raise SystemExit(f"self-check failed: openssl rejects a cold chain: {output}")
        print(f"openssl verify -x509_strict, first cold chain: {output}")

    CORPUS_DIR.mkdir(parents=True, exist_ok=True)
    (CORPUS_DIR / "root.der").write_bytes(root.der)
    (CORPUS_DIR / "warm.jws").write_text(warm + "\n", encoding="ascii")
    (CORPUS_DIR / "cold.jws").write_text("".join(j + "\n" for j in cold), encoding="ascii")
    (CORPUS_DIR / "notification.jws").write_text(notification + "\n", encoding="ascii")

    total = sum(p.stat().st_size for p in CORPUS_DIR.iterdir() if p.is_file())
    print(f"wrote {CORPUS_DIR.relative_to(REPO_ROOT)}/: root.der, warm.jws, "
          f"cold.jws ({len(cold)} JWS, {len(cold)} distinct leaves), notification.jws; "
          f"{total / 1024:.0f} KiB in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
