import AppStoreVerificationTestSupport
import Foundation
import Testing

/// Apple's App Store Server Library (Python) as the oracle for signatures: it signs the same inputs
/// and checks ours.
///
/// The script below reads a JSON file (the key file, the inputs, and our signatures), and prints one
/// JSON object: Apple's V1 signed text (captured by wrapping the library's key object) and signature,
/// Apple's JWS for each kind (its nonce and clock pinned by replacing `uuid` and `datetime` in
/// `appstoreserverlibrary.jws_signature_creator`), and whether each of our signatures verifies under
/// Python's `cryptography` and PyJWT.
enum AppleSigningOracle {
    /// Whether python3 can import Apple's library (and PyJWT, attrs, cryptography, which it needs).
    static let isAvailable: Bool = {
        (try? ProcessRunner.run("/usr/bin/env", ["python3", "-c", "import appstoreserverlibrary.jws_signature_creator, jwt, attr, cryptography"]))?.status == 0
    }()

    static let skipComment: Comment = "needs python3 with Apple's library: python3 -m pip install app-store-server-library"

    /// Runs the script over `input` (a JSON object) and returns its output object.
    static func run(_ input: [String: Any], in directory: URL) throws -> [String: Any] {
        let script = directory.appendingPathComponent("apple_sign.py")
        let inputFile = directory.appendingPathComponent("input.json")
        try Data(self.script.utf8).write(to: script)
        try JSONSerialization.data(withJSONObject: input).write(to: inputFile)
        let run = try ProcessRunner.run("/usr/bin/env", ["python3", script.path, inputFile.path])
        let output = run.stdout
        guard run.status == 0 else {
            throw FixtureError("apple_sign.py exited with \(run.status): \(String(decoding: run.stderr, as: UTF8.self).suffix(3000))")
        }
        guard let object = try JSONSerialization.jsonObject(with: output) as? [String: Any] else {
            throw FixtureError("apple_sign.py printed no JSON object: \(String(decoding: output, as: UTF8.self))")
        }
        return object
    }

    static let script = #"""
import base64, datetime as real_datetime, json, sys, types, uuid

import attr
import jwt
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

from appstoreserverlibrary import jws_signature_creator as jsc
from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator

inp = json.load(open(sys.argv[1]))
key_pem = open(inp["keyFile"], "rb").read()
public_key = serialization.load_pem_private_key(key_pem, password=None).public_key()

def verifies_der(signature_der, data):
    try:
        public_key.verify(signature_der, data, ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False

def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

class RecordingKey:
    """Apple's key object, recording the bytes Apple's library signs."""
    def __init__(self, key):
        self.key = key
        self.signed = []
    def sign(self, data, algorithm):
        self.signed.append(bytes(data))
        return self.key.sign(data, algorithm)

out = {"v1": [], "jws": {}}

# V1 promotional offers.
creator = PromotionalOfferSignatureCreator(key_pem, inp["keyId"], inp["bundleId"])
recorder = RecordingKey(creator._signing_key)
creator._signing_key = recorder
for case in inp["v1"]:
    signature = creator.create_signature(case["productId"], case["offerId"], case["applicationUsername"],
                                         uuid.UUID(case["nonce"]), case["timestamp"])
    signed = recorder.signed[-1]
    out["v1"].append({
        "signedText": base64.b64encode(signed).decode(),
        "signature": signature,
        # Our signature, over the bytes Apple's library signs.
        "oursVerifies": verifies_der(base64.b64decode(case["ourSignature"]), signed),
    })

# The JWS kinds, with Apple's nonce and clock pinned.
fixed_now = real_datetime.datetime.fromtimestamp(inp["issuedAt"], tz=real_datetime.timezone.utc)
jsc.uuid = types.SimpleNamespace(uuid4=lambda: uuid.UUID(inp["nonce"]), UUID=uuid.UUID)
jsc.datetime = types.SimpleNamespace(
    datetime=types.SimpleNamespace(now=lambda tz=None: fixed_now), timezone=real_datetime.timezone)

@attr.define
class TestInAppRequest(jsc.AdvancedCommerceAPIInAppRequest):
    operation: str
    version: str
    requestInfo: dict

args = (key_pem, inp["keyId"], inp["issuerId"], inp["bundleId"])
made = {}
for case in inp["jws"]:
    kind = case["kind"]
    if kind.startswith("promotionalOfferV2"):
        made[case["name"]] = (jsc.PromotionalOfferV2SignatureCreator(*args).create_signature(
            case["productId"], case["offerIdentifier"], case.get("transactionId")), "promotional-offer")
    elif kind == "introductoryOfferEligibility":
        made[case["name"]] = (jsc.IntroductoryOfferEligibilitySignatureCreator(*args).create_signature(
            case["productId"], case["allowIntroductoryOffer"], case["transactionId"]), "introductory-offer-eligibility")
    elif kind == "advancedCommerce":
        request = TestInAppRequest(**json.loads(case["requestText"]))
        made[case["name"]] = (jsc.AdvancedCommerceAPIInAppSignatureCreator(*args).create_signature(request), "advanced-commerce-api")

for case in inp["jws"]:
    apple, audience = made[case["name"]]
    ours = case["ours"]
    header, payload, signature = ours.split(".")
    raw = b64url_decode(signature)
    der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    decoded = None
    try:
        decoded = jwt.decode(ours, public_key, algorithms=["ES256"], audience=audience,
                             issuer=inp["issuerId"], options={"require": ["iat", "aud", "iss"]})
    except Exception as error:
        decoded = "PyJWT refused our JWS: %r" % (error,)
    out["jws"][case["name"]] = {
        "apple": apple,
        "oursVerifies": len(raw) == 64 and verifies_der(der, (header + "." + payload).encode()),
        "oursDecoded": decoded,
        "oursHeader": jwt.get_unverified_header(ours),
    }

print(json.dumps(out))
"""#
}
