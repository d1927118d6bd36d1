#!/usr/bin/env python3
"""A fake App Store Server API for the console's browser test, on 127.0.0.1 only.

Serves Get Transaction History v2 (GET /inApps/v2/history/{transactionId}) for one customer: every
transaction ID of the history answers the whole history, two transactions a page, with Apple's
`revision` tokens. Get Notification History (POST /inApps/v1/notifications/history, which the
server's backfill asks at start) answers that there is nothing the server missed. Like Apple, it wants a bearer token: an ES256 JWT with kid, iss, aud
"appstoreconnect-v1", bid, iat and exp, signed by the key whose private half the server was given
(the signature checked with `openssl dgst -verify`). Anything else is answered 401.

    fake_app_store.py --history apple-history.json --key api-key.p8 --port-file PORT_FILE
        --key-id KEY_ID --issuer-id ISSUER --bundle-id com.example.app

It writes the port it listens on to PORT_FILE once it listens, and serves until SIGTERM.
"""
import argparse
import base64
import http.server
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def der_signature(raw):
    """r || s (32 bytes each) as the DER SEQUENCE openssl reads."""
    def integer(value):
        value = value.lstrip(b"\0") or b"\0"
        if value[0] & 0x80:
            value = b"\0" + value
        return bytes([0x02, len(value)]) + value
    body = integer(raw[:32]) + integer(raw[32:])
    return bytes([0x30, len(body)]) + body


class Checker:
    def __init__(self, public_key_path, key_id, issuer_id, bundle_id):
        self.public_key_path = public_key_path
        self.key_id = key_id
        self.issuer_id = issuer_id
        self.bundle_id = bundle_id

    def refusal(self, authorization):
        """Why the Authorization header is refused, or None."""
        if not authorization or not authorization.startswith("Bearer "):
            return "no bearer token"
        parts = authorization[len("Bearer "):].split(".")
        if len(parts) != 3:
            return "not a JWS"
        try:
            header = json.loads(b64url_decode(parts[0]))
            claims = json.loads(b64url_decode(parts[1]))
            signature = b64url_decode(parts[2])
        except ValueError:
            return "not a JWS"
        if header.get("alg") != "ES256" or header.get("typ") != "JWT" or header.get("kid") != self.key_id:
            return "header"
        if claims.get("aud") != "appstoreconnect-v1" or claims.get("iss") != self.issuer_id or claims.get("bid") != self.bundle_id:
            return "claims"
        now = time.time()
        if not (claims.get("exp", 0) > now and claims.get("iat", now + 120) <= now + 60 and claims["exp"] - claims["iat"] <= 3600):
            return "lifetime"
        if len(signature) != 64:
            return "signature length"
        with tempfile.TemporaryDirectory() as directory:
            signed = os.path.join(directory, "signed")
            der = os.path.join(directory, "signature.der")
            with open(signed, "wb") as handle:
                handle.write(f"{parts[0]}.{parts[1]}".encode())
            with open(der, "wb") as handle:
                handle.write(der_signature(signature))
            result = subprocess.run(["openssl", "dgst", "-sha256", "-verify", self.public_key_path, "-signature", der, signed],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30, check=False)
        return None if result.returncode == 0 else "signature"


def make_handler(history, transaction_ids, checker, bundle_id, page_size=2):
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, format, *args):  # requests are not logged (the test reads the answers)
            pass

        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            url = urllib.parse.urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(min(length, 1 << 20))
            if url.path != "/inApps/v1/notifications/history":
                return self.answer(404, {"errorCode": 4040000, "errorMessage": "Not found."})
            refusal = checker.refusal(self.headers.get("Authorization"))
            if refusal:
                sys.stderr.write(f"fake App Store: token refused ({refusal})\n")
                return self.answer(401, {"errorCode": 4010000, "errorMessage": "Unauthenticated"})
            self.answer(200, {"notificationHistory": [], "hasMore": False})

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            prefix = "/inApps/v2/history/"
            if not url.path.startswith(prefix):
                return self.answer(404, {"errorCode": 4040000, "errorMessage": "Not found."})
            refusal = checker.refusal(self.headers.get("Authorization"))
            if refusal:
                sys.stderr.write(f"fake App Store: token refused ({refusal})\n")
                return self.answer(401, {"errorCode": 4010000, "errorMessage": "Unauthenticated"})
            if url.path[len(prefix):] not in transaction_ids:
                return self.answer(404, {"errorCode": 4040010, "errorMessage": "Transaction id not found."})
            revision = urllib.parse.parse_qs(url.query).get("revision", ["page-0"])[0]
            try:
                start = int(revision.removeprefix("page-"))
            except ValueError:
                return self.answer(400, {"errorCode": 4000005, "errorMessage": "Invalid request revision."})
            end = min(start + page_size, len(history))
            self.answer(200, {"revision": f"page-{end}", "hasMore": end < len(history), "bundleId": bundle_id,
                              "appAppleId": 1234, "environment": "Sandbox", "signedTransactions": history[start:end]})
    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--history", required=True)
    parser.add_argument("--key", required=True, help="the .p8 private key the server signs its tokens with")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--issuer-id", required=True)
    parser.add_argument("--bundle-id", default="com.example.app")
    args = parser.parse_args()

    with open(args.history) as handle:
        history = json.load(handle)["signedTransactions"]
    transaction_ids = set()
    for jws in history:
        payload = json.loads(b64url_decode(jws.split(".")[1]))
        transaction_ids.update([payload["transactionId"], payload["originalTransactionId"]])
    public_key = os.path.join(os.path.dirname(os.path.abspath(args.key)), "api-key-public.pem")
    subprocess.run(["openssl", "pkey", "-in", args.key, "-pubout", "-out", public_key], check=True, timeout=30)
    checker = Checker(public_key, args.key_id, args.issuer_id, args.bundle_id)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(history, transaction_ids, checker, args.bundle_id))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with open(args.port_file + ".tmp", "w") as handle:
        handle.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
