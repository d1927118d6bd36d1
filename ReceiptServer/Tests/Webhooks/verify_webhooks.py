#!/usr/bin/env python3
"""Verifies Standard Webhooks 1.0 signatures, independently of the server's Swift code.

Usage: verify_webhooks.py REQUESTS.json
REQUESTS.json: {"secret": "whsec_...", "requests": [{"id": ..., "timestamp": ..., "signature": ..., "body": ...}]}
(the headers webhook-id, webhook-timestamp and webhook-signature and the raw body of each request
a receiver got). Exits 0 when every signature verifies, else prints each failure and exits 1.
Only the standard library: base64, hmac, hashlib.
"""
import base64
import hashlib
import hmac
import json
import sys
import time

TOLERANCE_SECONDS = 5 * 60


def verify(secret: str, msg_id: str, timestamp: str, signature_header: str, body: str, now: float) -> str | None:
    """None when the request verifies, else why not."""
    if not secret.startswith("whsec_"):
        return "secret is not whsec_..."
    key = base64.b64decode(secret[len("whsec_"):])
    try:
        sent = int(timestamp)
    except ValueError:
        return f"webhook-timestamp {timestamp!r} is not an integer"
    if abs(now - sent) > TOLERANCE_SECONDS:
        return f"webhook-timestamp {sent} is more than {TOLERANCE_SECONDS} s from now"
    signed = f"{msg_id}.{timestamp}.".encode() + body.encode()
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    for candidate in signature_header.split(" "):
        version, _, value = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return None
    return "no v1 signature matches"


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as handle:
        document = json.load(handle)
    now = time.time()
    failures = []
    for request in document["requests"]:
        why = verify(document["secret"], request["id"], request["timestamp"], request["signature"], request["body"], now)
        if why is not None:
            failures.append(f"{request['id']}: {why}")
    for failure in failures:
        print(failure)
    print(f"verified {len(document['requests']) - len(failures)} of {len(document['requests'])}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
