#!/usr/bin/env python3
"""Payloads and preloading for load.sh (the ReceiptServer load benchmark).

    load_data.py payloads BIG SMALL DISTINCT CUSTOMERS > payloads.jsonl
        Transaction payload JSON, one per line, for `verify-jws mint transaction`: first BIG monthly
        renewals of one customer (the 2,000-item customer), then SMALL one-item customers, then
        DISTINCT purchases spread over CUSTOMERS customers (the POST-distinct load), then DISTINCT
        more renewals of the first customer (POSTs to a customer who has 2,000 items and more).
    load_data.py bodies TOKENS JWS OUT
        Joins the customer tokens (one per line) and the minted JWS (one per line) into request
        bodies {"signedTransaction", "appAccountToken"}, one per line.
    load_data.py preload URL BODIES COUNT TOKEN
        POSTs the first COUNT bodies to URL/transactions over one keep-alive connection; fails on
        any answer but 200.
"""
import http.client
import json
import sys
import urllib.parse
import uuid

BUNDLE_ID = "com.example.app"
START_MS = 1_767_225_600_000  # 2026-01-01
DAY_MS = 86_400_000


def transaction(transaction_id, original_id, product, kind, purchase_ms, expires_ms, token):
    payload = {
        "transactionId": str(transaction_id),
        "originalTransactionId": str(original_id),
        "webOrderLineItemId": str(transaction_id),
        "bundleId": BUNDLE_ID,
        "productId": product,
        "purchaseDate": purchase_ms,
        "originalPurchaseDate": purchase_ms,
        "quantity": 1,
        "type": kind,
        "inAppOwnershipType": "PURCHASED",
        "signedDate": purchase_ms,
        "environment": "Sandbox",
        "transactionReason": "PURCHASE",
        "storefront": "USA",
        "storefrontId": "143441",
        "price": 9990,
        "currency": "USD",
        "appAccountToken": token,
    }
    if expires_ms is not None:
        payload["expiresDate"] = expires_ms
        payload["subscriptionGroupIdentifier"] = "21000001"
    return payload


def payloads(big, small, distinct, customers):
    tokens = []
    lines = []
    big_token = str(uuid.UUID(int=1))
    for index in range(big):
        purchase = START_MS + index * 30 * DAY_MS // 100  # renewals close together: all signed before now
        lines.append(transaction(1_000_000 + index, 1_000_000, "com.example.monthly", "Auto-Renewable Subscription",
                                 purchase, purchase + 30 * DAY_MS, big_token))
        tokens.append(big_token)
    for index in range(small):
        token = str(uuid.UUID(int=2 + index))
        lines.append(transaction(2_000_000 + index, 2_000_000 + index, "com.example.pro", "Non-Consumable",
                                 START_MS + index, None, token))
        tokens.append(token)
    for index in range(distinct):
        token = str(uuid.UUID(int=1_000_000 + index % customers))
        lines.append(transaction(3_000_000 + index, 3_000_000 + index, "com.example.coins", "Consumable",
                                 START_MS + index, None, token))
        tokens.append(token)
    # Then as many more renewals of the 2,000-item customer's subscription (POSTs to a large customer).
    for index in range(distinct):
        purchase = START_MS + big * 30 * DAY_MS // 100 + index * 60_000  # a minute apart
        lines.append(transaction(5_000_000 + index, 1_000_000, "com.example.monthly", "Auto-Renewable Subscription",
                                 purchase, purchase + 30 * DAY_MS, big_token))
        tokens.append(big_token)
    return tokens, lines


def main():
    command = sys.argv[1]
    if command == "payloads":
        big, small, distinct, customers = map(int, sys.argv[2:6])
        tokens, lines = payloads(big, small, distinct, customers)
        with open(sys.argv[6], "w") as out:
            out.write("\n".join(tokens) + "\n")
        sys.stdout.write("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))
    elif command == "bodies":
        with open(sys.argv[2]) as tokens, open(sys.argv[3]) as jws, open(sys.argv[4], "w") as out:
            for token, signed in zip(tokens, jws):
                out.write(json.dumps({"signedTransaction": signed.strip(), "appAccountToken": token.strip()}) + "\n")
    elif command == "preload":
        url = urllib.parse.urlparse(sys.argv[2])
        count = int(sys.argv[4])
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        headers = {"Content-Type": "application/json"}
        with open(sys.argv[3]) as bodies:
            for number, body in enumerate(bodies):
                if number >= count:
                    break
                connection.request("POST", "/transactions", body=body.strip().encode(), headers=headers)
                response = connection.getresponse()
                answer = response.read()
                if response.status != 200:
                    sys.exit(f"preload: body {number + 1} answered {response.status}: {answer[:300]!r}")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
