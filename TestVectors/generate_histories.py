#!/usr/bin/env python3
"""Generate signed customer histories for the entitlement engine's tests.

Usage (from the repository root):

    python3 TestVectors/generate_histories.py

Requirements: as generate.py (Python 3.9+, `cryptography`). It reuses generate.py's PKI builder
and JWS signing, but with its OWN freshly generated test PKI of the same shape, written to
histories/pki/ (root.der, intermediate.der, leaf.der): the vectors under pki/ and jws/ are never
touched, because their private keys were never stored.

What it writes (paths relative to TestVectors/):

    histories/pki/*.der        the PKI the histories are signed with (trust histories/pki/root.der)
    histories/<name>.txt       one customer's signed data, one item per line: a transaction JWS,
                               a renewal-info JWS, a notification JWS or a notification POST body
                               {"signedPayload":"..."}; the order is deliberately not chronological
                               in some histories, and some lines repeat
    histories/manifest.json    every history: its rules, the engine configuration, the lines
                               expected to be rejected, and at several instants the expected state
                               of every product (what verify-jws entitlements and the engine must
                               answer)

The expectations are written here by hand, from the rules in the issue, not computed by a second
implementation: the Swift tests compare the engine with them.

Every run makes new keys, so every .der and .txt file changes; the manifest stays byte-identical.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import (  # noqa: E402  (the sibling generator, imported for its PKI and JWS helpers)
    BUNDLE_ID,
    Chain,
    b64url,
    build_good_pki,
    compact_json,
    es256_signature_valid,
    make_header,
    ms,
    sign_objects,
    split,
    utc,
)

OUT_DIR = Path(__file__).resolve().parent / "histories"
PKI_DIR = OUT_DIR / "pki"
MANIFEST = OUT_DIR / "manifest.json"

GROUP = "21000001"            # the subscription group of the "premium" products
BASIC = "com.example.app.basic.monthly"
PREMIUM = "com.example.app.premium.monthly"
PREMIUM_YEARLY = "com.example.app.premium.yearly"
LIFETIME = "com.example.app.lifetime"
COINS = "com.example.app.coins100"
SEASON = "com.example.app.season.pass"
SEASON_DAYS = 90

SUB = "Auto-Renewable Subscription"
NON_CONSUMABLE = "Non-Consumable"
CONSUMABLE = "Consumable"
NON_RENEWING = "Non-Renewing Subscription"


def day(month: int, d: int, hour: int = 0) -> dt.datetime:
    """An instant in 2026 (inside the test leaf's validity, 2025-01-01 .. 2027-01-01)."""
    return utc(2026, month, d, hour)


def iso(when: dt.datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


class Signer:
    """Signs payloads with the histories' own test PKI."""

    def __init__(self, chain: Chain):
        self.chain = chain
        self.header = make_header(chain.x5c())

    def sign(self, payload: dict) -> str:
        return sign_objects(self.header, payload, self.chain.leaf.key)


def transaction(tid: str, product: str, kind: str, purchase: dt.datetime, signed: Optional[dt.datetime] = None, *,
                original: Optional[str] = None, expires: Optional[dt.datetime] = None, group: Optional[str] = None,
                ownership: str = "PURCHASED", **extra) -> dict:
    """A JWSTransactionDecodedPayload."""
    payload = {
        "transactionId": tid,
        "originalTransactionId": original or tid,
        "bundleId": BUNDLE_ID,
        "productId": product,
        "purchaseDate": ms(purchase),
        "originalPurchaseDate": ms(purchase),
        "quantity": 1,
        "type": kind,
        "inAppOwnershipType": ownership,
        "signedDate": ms(signed or purchase),
        "environment": "Sandbox",
        "transactionReason": "PURCHASE",
        "storefront": "USA",
        "storefrontId": "143441",
        "price": 4990,
        "currency": "USD",
    }
    if kind == SUB:
        payload["subscriptionGroupIdentifier"] = group or GROUP
        payload["webOrderLineItemId"] = "9" + tid
    if expires is not None:
        payload["expiresDate"] = ms(expires)
    payload.update(extra)
    return payload


def revoked(payload: dict, when: dt.datetime, revocation_type: str = "REFUND_FULL") -> dict:
    """The same transaction re-signed by the App Store after a refund or revocation."""
    copy = dict(payload)
    copy.update(revocationDate=ms(when), revocationReason=0, revocationType=revocation_type,
                signedDate=ms(when))
    return copy


def renewal(original: str, product: str, signed: dt.datetime, *, auto_renew: int = 1,
            auto_renew_product: Optional[str] = None, retry: bool = False,
            grace: Optional[dt.datetime] = None, **extra) -> dict:
    """A JWSRenewalInfoDecodedPayload."""
    payload = {
        "originalTransactionId": original,
        "autoRenewProductId": auto_renew_product or product,
        "productId": product,
        "autoRenewStatus": auto_renew,
        "isInBillingRetryPeriod": retry,
        "signedDate": ms(signed),
        "environment": "Sandbox",
    }
    if grace is not None:
        payload["gracePeriodExpiresDate"] = ms(grace)
    payload.update(extra)
    return payload


class History:
    """One customer's lines and the expected answers."""

    def __init__(self, signer: Signer, name: str, description: str, rules: list[str]):
        self.signer = signer
        self.name = name
        self.description = description
        self.rules = rules
        self.lines: list[str] = []
        self.rejected: list[dict] = []
        self.checks: list[dict] = []
        self.configuration: dict = {"nonRenewingDurations": {}}
        self._uuid = 0

    def tx(self, payload: dict) -> str:
        jws = self.signer.sign(payload)
        self.lines.append(jws)
        return jws

    def info(self, payload: dict) -> str:
        jws = self.signer.sign(payload)
        self.lines.append(jws)
        return jws

    def notification(self, kind: str, subtype: Optional[str], signed: dt.datetime,
                     tx: Optional[dict] = None, info: Optional[dict] = None, *, body: bool = False) -> str:
        """A notification embedding freshly signed transaction and renewal info; `body=True` writes
        it the way Apple POSTs it."""
        self._uuid += 1
        data = {"bundleId": BUNDLE_ID, "bundleVersion": "42", "environment": "Sandbox", "status": 1}
        if tx is not None:
            data["signedTransactionInfo"] = self.signer.sign(tx)
        if info is not None:
            data["signedRenewalInfo"] = self.signer.sign(info)
        payload = {
            "notificationType": kind,
            "notificationUUID": f"00000000-0000-4000-8000-{self._uuid:012d}",
            "data": data,
            "version": "2.0",
            "signedDate": ms(signed),
        }
        if subtype:
            payload["subtype"] = subtype
        jws = self.signer.sign(payload)
        line = compact_json({"signedPayload": jws}).decode() if body else jws
        self.lines.append(line)
        return line

    def repeat(self, index: int) -> None:
        """Appends line `index` again (Apple retries, the app re-sends)."""
        self.lines.append(self.lines[index])

    def tampered(self, payload: dict, *, reason: str) -> None:
        """A genuinely signed transaction whose payload is replaced by `payload` afterwards."""
        genuine = self.signer.sign(dict(payload, price=0))
        h, _, sig = split(genuine)
        self.lines.append(f"{h}.{b64url(compact_json(payload))}.{sig}")
        self.rejected.append({"line": len(self.lines), "status": "unverified", "code": "invalidSignature",
                              "why": reason})

    def expect(self, at: dt.datetime, *statuses: tuple[str, str, str]) -> None:
        """At `at`, `statuses(at:)` is exactly these (productId, transactionId, state), any order."""
        self.checks.append({
            "at": iso(at),
            "statuses": sorted(({"productId": p, "transactionId": t, "state": s} for p, t, s in statuses),
                               key=lambda e: (e["productId"], e["transactionId"])),
        })

    def entry(self) -> dict:
        return {
            "name": self.name,
            "file": f"{self.name}.txt",
            "description": self.description,
            "rules": self.rules,
            "configuration": self.configuration,
            "lineCount": len(self.lines),
            "rejected": self.rejected,
            "checks": self.checks,
        }


# --------------------------------------------------------------------------------------------
# Histories
# --------------------------------------------------------------------------------------------

def histories(signer: Signer) -> list[History]:
    result: list[History] = []

    def new(name: str, description: str, rules: list[str]) -> History:
        h = History(signer, name, description, rules)
        result.append(h)
        return h

    # Renewal chain: three monthly periods, then auto-renew off and expiry.
    h = new("renewal-chain", "A monthly subscription renewed twice (DID_RENEW notifications), then "
            "auto-renew turned off: subscribed through each period, expired after the last.",
            ["auto-renewable: latest transaction in the group decides", "auto-renewable: subscribed while expiresDate > instant",
             "auto-renewable: expired"])
    t1 = transaction("100001", PREMIUM, SUB, day(1, 1), expires=day(2, 1))
    t2 = transaction("100002", PREMIUM, SUB, day(2, 1), original="100001", expires=day(3, 1), transactionReason="RENEWAL")
    t3 = transaction("100003", PREMIUM, SUB, day(3, 1), original="100001", expires=day(4, 1), transactionReason="RENEWAL")
    h.tx(t1)
    h.notification("DID_RENEW", None, day(2, 1), t2, renewal("100001", PREMIUM, day(2, 1)))
    h.notification("DID_RENEW", None, day(3, 1), t3, renewal("100001", PREMIUM, day(3, 1)))
    h.notification("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", day(3, 10), t3,
                   renewal("100001", PREMIUM, day(3, 10), auto_renew=0))
    h.expect(day(1, 15), (PREMIUM, "100001", "subscribed"))
    h.expect(day(2, 15), (PREMIUM, "100002", "subscribed"))
    h.expect(day(3, 15), (PREMIUM, "100003", "subscribed"))
    h.expect(day(4, 15), (PREMIUM, "100003", "expired"))
    h.expect(utc(2025, 12, 31), )

    # Refund then re-purchase, for a subscription and a non-consumable.
    h = new("refund-then-repurchase", "A subscription refunded (REFUND notification re-signs the "
            "transaction with revocationDate) and bought again; a non-consumable refunded and bought again.",
            ["revocation: revocationDate <= instant ends access", "per transactionId the latest signedDate wins",
             "auto-renewable: revoked", "non-consumable: until revoked"])
    s1 = transaction("200001", PREMIUM, SUB, day(1, 1), expires=day(2, 1))
    s2 = transaction("200002", PREMIUM, SUB, day(1, 20), expires=day(2, 20))
    l1 = transaction("200101", LIFETIME, NON_CONSUMABLE, day(1, 2))
    l2 = transaction("200102", LIFETIME, NON_CONSUMABLE, day(1, 12))
    h.tx(s1)
    h.tx(l1)
    h.notification("REFUND", None, day(1, 10), revoked(s1, day(1, 10)))
    h.notification("REFUND", None, day(1, 5), revoked(l1, day(1, 5)))
    h.tx(s2)
    h.tx(l2)
    h.expect(day(1, 4), (PREMIUM, "200001", "subscribed"), (LIFETIME, "200101", "purchased"))
    h.expect(day(1, 8), (PREMIUM, "200001", "subscribed"), (LIFETIME, "200101", "revoked"))
    h.expect(day(1, 15), (PREMIUM, "200001", "revoked"), (LIFETIME, "200102", "purchased"))
    h.expect(day(1, 25), (PREMIUM, "200002", "subscribed"), (LIFETIME, "200102", "purchased"))

    # Upgrade: basic -> premium immediately; the basic transaction is re-signed with isUpgraded.
    h = new("upgrade", "Basic monthly upgraded to premium mid-period: the App Store re-signs the basic "
            "transaction with isUpgraded and starts a premium transaction at once.",
            ["auto-renewable: upgraded transactions do not count", "auto-renewable: one entitlement per group"])
    b1 = transaction("300001", BASIC, SUB, day(1, 1), expires=day(2, 1))
    p1 = transaction("300002", PREMIUM, SUB, day(1, 15), original="300001", expires=day(2, 15))
    h.tx(b1)
    h.notification("DID_CHANGE_RENEWAL_PREF", "UPGRADE", day(1, 15), p1, renewal("300001", PREMIUM, day(1, 15)))
    h.tx(dict(b1, isUpgraded=True, signedDate=ms(day(1, 15))))
    h.expect(day(1, 10), (BASIC, "300001", "subscribed"))
    h.expect(day(1, 20), (PREMIUM, "300002", "subscribed"))
    h.expect(day(2, 20), (PREMIUM, "300002", "expired"))

    # Downgrade: premium -> basic at the next renewal.
    h = new("downgrade", "Premium monthly downgraded to basic: the renewal info names basic at once, "
            "premium stays until it expires, and the basic transaction starts at the renewal.",
            ["auto-renewable: latest transaction in the group decides", "auto-renewable: renewal info reported"])
    p1 = transaction("400001", PREMIUM, SUB, day(1, 1), expires=day(2, 1))
    b1 = transaction("400002", BASIC, SUB, day(2, 1), original="400001", expires=day(3, 1), transactionReason="RENEWAL")
    h.tx(p1)
    h.notification("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", day(1, 10), p1,
                   renewal("400001", PREMIUM, day(1, 10), auto_renew_product=BASIC))
    h.notification("DID_RENEW", None, day(2, 1), b1, renewal("400001", BASIC, day(2, 1)))
    h.expect(day(1, 20), (PREMIUM, "400001", "subscribed"))
    h.expect(day(2, 10), (BASIC, "400002", "subscribed"))

    # Crossgrade: monthly -> yearly (another duration: takes effect at the renewal).
    h = new("crossgrade", "Premium monthly crossgraded to premium yearly, which starts at the next "
            "renewal; the customer stays subscribed throughout, then has the yearly product.",
            ["auto-renewable: latest transaction in the group decides", "auto-renewable: one entitlement per group"])
    m1 = transaction("500001", PREMIUM, SUB, day(1, 1), expires=day(2, 1))
    y1 = transaction("500002", PREMIUM_YEARLY, SUB, day(2, 1), original="500001", expires=utc(2027, 2, 1))
    h.tx(m1)
    h.notification("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", day(1, 5), None,
                   renewal("500001", PREMIUM, day(1, 5), auto_renew_product=PREMIUM_YEARLY))
    h.notification("DID_RENEW", None, day(2, 1), y1, renewal("500001", PREMIUM_YEARLY, day(2, 1)))
    h.expect(day(1, 20), (PREMIUM, "500001", "subscribed"))
    h.expect(day(6, 1), (PREMIUM_YEARLY, "500002", "subscribed"))

    # Grace period: starts when the renewal fails, ends at gracePeriodExpiresDate.
    h = new("grace-period", "The renewal fails (DID_FAIL_TO_RENEW / GRACE_PERIOD): access continues "
            "until gracePeriodExpiresDate, then billing retry without access.",
            ["auto-renewable: inGracePeriod (billing retry, grace not ended)",
             "auto-renewable: inBillingRetryPeriod after the grace period"])
    g1 = transaction("600001", PREMIUM, SUB, day(1, 1), expires=day(2, 1))
    h.tx(g1)
    h.notification("DID_FAIL_TO_RENEW", "GRACE_PERIOD", day(2, 1), g1,
                   renewal("600001", PREMIUM, day(2, 1), retry=True, grace=day(2, 17)), body=True)
    h.expect(day(1, 20), (PREMIUM, "600001", "subscribed"))
    h.expect(day(2, 5), (PREMIUM, "600001", "inGracePeriod"))
    h.expect(day(2, 20), (PREMIUM, "600001", "inBillingRetryPeriod"))

    # Billing retry without grace period.
    h = new("billing-retry", "The renewal fails without a grace period: billing retry, no access.",
            ["auto-renewable: inBillingRetryPeriod without grace period"])
    r1 = transaction("700001", PREMIUM, SUB, day(1, 1), expires=day(2, 1))
    h.tx(r1)
    h.notification("DID_FAIL_TO_RENEW", None, day(2, 1), r1, renewal("700001", PREMIUM, day(2, 1), retry=True))
    h.expect(day(2, 5), (PREMIUM, "700001", "inBillingRetryPeriod"))

    # Billing recovery: the App Store renews after the retry period.
    h = new("billing-recovery", "After a failed renewal in grace period, the App Store recovers "
            "billing (DID_RENEW / BILLING_RECOVERY): subscribed on the new transaction.",
            ["auto-renewable: latest transaction in the group decides", "per originalTransactionId the latest renewal info wins"])
    c1 = transaction("710001", PREMIUM, SUB, day(1, 1), expires=day(2, 1))
    c2 = transaction("710002", PREMIUM, SUB, day(2, 10), original="710001", expires=day(3, 10), transactionReason="RENEWAL")
    h.notification("DID_RENEW", "BILLING_RECOVERY", day(2, 10), c2, renewal("710001", PREMIUM, day(2, 10)))
    h.tx(c1)
    h.notification("DID_FAIL_TO_RENEW", "GRACE_PERIOD", day(2, 1), c1,
                   renewal("710001", PREMIUM, day(2, 1), retry=True, grace=day(2, 17)))
    h.expect(day(2, 12), (PREMIUM, "710002", "subscribed"))
    h.expect(day(3, 20), (PREMIUM, "710002", "expired"))

    # Family Sharing, then revocation.
    h = new("family-share-revoke", "A non-consumable and a subscription shared by the family "
            "(inAppOwnershipType FAMILY_SHARED) count like purchases until REVOKE: the non-consumable's "
            "transaction is re-signed with revocationType FAMILY_REVOKE, the subscription's REVOKE "
            "notification carries its transaction without revocationDate (the notification's date ends it).",
            ["family sharing: FAMILY_SHARED counts like PURCHASED", "family sharing: REVOKE / FAMILY_REVOKE ends it"])
    f1 = transaction("800001", LIFETIME, NON_CONSUMABLE, day(1, 1), ownership="FAMILY_SHARED")
    f2 = transaction("800002", PREMIUM, SUB, day(1, 1), expires=day(2, 1), ownership="FAMILY_SHARED")
    h.tx(f1)
    h.tx(f2)
    h.notification("REVOKE", None, day(1, 20), revoked(f1, day(1, 20), "FAMILY_REVOKE"))
    h.notification("REVOKE", None, day(1, 15), dict(f2, signedDate=ms(day(1, 15))), body=True)
    h.expect(day(1, 10), (LIFETIME, "800001", "purchased"), (PREMIUM, "800002", "subscribed"))
    h.expect(day(1, 17), (LIFETIME, "800001", "purchased"), (PREMIUM, "800002", "revoked"))
    h.expect(day(1, 25), (LIFETIME, "800001", "revoked"), (PREMIUM, "800002", "revoked"))

    # Revoked non-consumable, and a refund reversed.
    h = new("revoked-non-consumable", "A non-consumable refunded (ONE_TIME_CHARGE, then REFUND), and "
            "another refunded and then reinstated by REFUND_REVERSED (re-signed without revocation).",
            ["non-consumable: until revoked", "per transactionId the latest signedDate wins"])
    n1 = transaction("900001", LIFETIME, NON_CONSUMABLE, day(1, 1))
    n2 = transaction("900002", "com.example.app.theme.dark", NON_CONSUMABLE, day(1, 1))
    h.notification("ONE_TIME_CHARGE", None, day(1, 1), n1)
    h.notification("REFUND", None, day(1, 10), revoked(n1, day(1, 10)))
    h.tx(n2)
    h.notification("REFUND", None, day(1, 10), revoked(n2, day(1, 10)))
    h.notification("REFUND_REVERSED", None, day(1, 20), dict(n2, signedDate=ms(day(1, 20))))
    h.expect(day(1, 5), ("com.example.app.theme.dark", "900002", "purchased"), (LIFETIME, "900001", "purchased"))
    h.expect(day(1, 25), ("com.example.app.theme.dark", "900002", "purchased"), (LIFETIME, "900001", "revoked"))

    # Consumables never appear.
    h = new("consumables", "Consumables bought twice (one in a ONE_TIME_CHARGE notification) never "
            "appear; the non-consumable beside them does.",
            ["consumables never appear"])
    h.tx(transaction("910001", COINS, CONSUMABLE, day(1, 1)))
    h.notification("ONE_TIME_CHARGE", None, day(1, 2), transaction("910002", COINS, CONSUMABLE, day(1, 2)))
    h.tx(transaction("910003", LIFETIME, NON_CONSUMABLE, day(1, 3)))
    h.expect(day(1, 10), (LIFETIME, "910003", "purchased"))

    # Non-renewing subscription with a configured duration.
    h = new("non-renewing", f"A non-renewing season pass with a configured duration of {SEASON_DAYS} days, "
            "bought twice; the later purchase lasts longest. A non-renewing product without a configured "
            "duration lasts until revoked.",
            ["non-renewing: app-supplied duration per product", "non-renewing: until revoked"])
    h.configuration = {"nonRenewingDurations": {SEASON: SEASON_DAYS * 86400}}
    h.tx(transaction("920001", SEASON, NON_RENEWING, day(1, 1)))
    h.tx(transaction("920002", SEASON, NON_RENEWING, day(2, 1)))
    h.tx(transaction("920003", "com.example.app.forever.pass", NON_RENEWING, day(1, 1)))
    h.expect(day(1, 15), ("com.example.app.forever.pass", "920003", "subscribed"), (SEASON, "920001", "subscribed"))
    h.expect(day(4, 15), ("com.example.app.forever.pass", "920003", "subscribed"), (SEASON, "920002", "subscribed"))
    h.expect(day(6, 1), ("com.example.app.forever.pass", "920003", "subscribed"), (SEASON, "920002", "expired"))

    # Out of order and duplicated: the refund arrives before the purchase, everything twice.
    h = new("out-of-order-duplicates", "The REFUND notification arrives before the purchase it "
            "refunds, the app re-sends the purchase, Apple retries notifications: every line appears "
            "twice and the order is not chronological.",
            ["order and repetition never matter", "per transactionId the latest signedDate wins"])
    o1 = transaction("930001", PREMIUM, SUB, day(1, 1), expires=day(2, 1))
    o2 = transaction("930002", PREMIUM, SUB, day(2, 1), original="930001", expires=day(3, 1), transactionReason="RENEWAL")
    h.notification("REFUND", None, day(2, 10), revoked(o2, day(2, 10)), body=True)
    h.notification("DID_RENEW", None, day(2, 1), o2, renewal("930001", PREMIUM, day(2, 1)))
    h.tx(o1)
    h.repeat(0)
    h.tx(o2)
    h.repeat(1)
    h.repeat(2)
    h.info(renewal("930001", PREMIUM, day(2, 10), auto_renew=0))
    h.repeat(0)
    h.expect(day(1, 20), (PREMIUM, "930001", "subscribed"))
    h.expect(day(2, 5), (PREMIUM, "930002", "subscribed"))
    h.expect(day(2, 15), (PREMIUM, "930002", "revoked"))

    # A tampered item among good ones.
    h = new("tampered-item", "Good purchases, plus a transaction for the lifetime product whose payload "
            "was changed after signing: it is rejected and grants nothing.",
            ["only verified data counts; unverified is rejected"])
    h.tx(transaction("940001", PREMIUM, SUB, day(1, 1), expires=day(2, 1)))
    h.tampered(transaction("940002", LIFETIME, NON_CONSUMABLE, day(1, 2)),
               reason="payload replaced after signing (price changed)")
    h.tx(transaction("940003", "com.example.app.theme.dark", NON_CONSUMABLE, day(1, 3)))
    h.expect(day(1, 10), ("com.example.app.theme.dark", "940003", "purchased"), (PREMIUM, "940001", "subscribed"))

    return result


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------

def check(signer: Signer, all_histories: list[History]) -> None:
    """Every line signed here verifies with `cryptography`, except the tampered ones."""
    key = signer.chain.leaf.cert.public_key()
    for h in all_histories:
        bad = {r["line"] for r in h.rejected}
        for number, line in enumerate(h.lines, start=1):
            jws = json.loads(line)["signedPayload"] if line.startswith("{") else line
            if es256_signature_valid(key, jws) == (number in bad):
                raise SystemExit(f"self-check failed: {h.name} line {number}")


def main() -> int:
    chain = build_good_pki()
    signer = Signer(chain)
    all_histories = histories(signer)
    names = [h.name for h in all_histories]
    assert len(names) == len(set(names)), "duplicate history names"
    check(signer, all_histories)
    PKI_DIR.mkdir(parents=True, exist_ok=True)
    (PKI_DIR / "root.der").write_bytes(chain.root.der)
    (PKI_DIR / "intermediate.der").write_bytes(chain.intermediate.der)
    (PKI_DIR / "leaf.der").write_bytes(chain.leaf.der)
    for stale in OUT_DIR.glob("*.txt"):
        stale.unlink()
    for h in all_histories:
        (OUT_DIR / f"{h.name}.txt").write_text("\n".join(h.lines) + "\n", encoding="ascii")
    manifest = {
        "description": (
            "Signed customer histories for the entitlement engine, over the test PKI in histories/pki/ "
            "(trust histories/pki/root.der; bundle com.example.app; Sandbox). Each check lists, at an "
            "instant, every product's expected state (EntitlementEngine.statuses(at:)); the granted ones "
            "(purchased, subscribed, inGracePeriod) are currentEntitlements(at:). Lines are 1-based. "
            "Regenerate with `python3 TestVectors/generate_histories.py`."
        ),
        "histories": [h.entry() for h in all_histories],
    }
    MANIFEST.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(all_histories)} histories ({sum(len(h.lines) for h in all_histories)} lines) to "
          f"{OUT_DIR.relative_to(OUT_DIR.parent.parent)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
