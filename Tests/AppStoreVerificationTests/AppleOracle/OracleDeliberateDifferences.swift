import Foundation

// The table a reader of the differential test (AppleOracleDifferentialTests.swift) needs first:
// every kind of input on which our verdict differs from Apple's library on purpose, and why.

/// A named kind of input on which our verdict may differ from Apple's, and why.
struct OracleDifference: Sendable {
    enum Direction: String, Sendable {
        /// Apple's library verifies the input, ours does not.
        case appleVerifiesWeReject = "Apple verifies, we reject"
        /// Ours verifies the input, Apple's library does not.
        case weVerifyAppleRejects = "we verify, Apple rejects"
    }

    /// The trait an input carries (set by the generator, or found by inspecting the input).
    var trait: String
    var direction: Direction
    var reason: String
    /// For suspected bugs: whether the mismatch depends on the machine (the system OpenSSL's
    /// version), so that its absence is not a failure.
    var dependsOnEnvironment = false

    var id: String { "\(trait) (\(direction.rawValue))" }
}

enum OracleDifferences {
    /// Deliberate differences: a mismatch on an input with one of these traits, in this direction,
    /// is expected. Anything else is a bug (or a suspected bug below).
    static let deliberate: [OracleDifference] = [
        OracleDifference(
            trait: "transactionLacksRequiredMember", direction: .appleVerifiesWeReject,
            reason: "the transaction lacks a member every App Store transaction carries (transactionId, originalTransactionId, productId, purchaseDate, type, bundleId, environment, signedDate), or has it null. Apple's library decodes every field as optional and verifies it (a missing signedDate means the chain is checked now); we give those fields non-optional accessors, so a verified transaction must carry them: it is missingRequiredProperties, StoreKit's case for exactly this."),
        OracleDifference(
            trait: "trailingBytesAfterCertificateDER", direction: .appleVerifiesWeReject,
            reason: "x5c[0] or x5c[1] is a DER certificate followed by extra bytes. Apple's library loads it with OpenSSL's d2i_X509, which stops at the end of the first certificate and ignores the rest; the entry is then not a DER certificate, so we reject it (asv_x509_from_der requires the bytes to be exactly one certificate)."),
        OracleDifference(
            trait: "x5c2NotABase64String", direction: .appleVerifiesWeReject,
            reason: "x5c[2] is not a string of standard base64 (a number, null, an object, or text with characters outside the alphabet). Apple's library only counts x5c's entries and never reads x5c[2]; we do not use x5c[2] either, but we decode every x5c entry, and RFC 7515 section 4.1.6 makes each one a base64-encoded DER certificate: a header that breaks that is malformed."),
        OracleDifference(
            trait: "paddedBase64urlSegment", direction: .appleVerifiesWeReject,
            reason: "a JWS segment ends with '=' padding. RFC 7515 section 2 encodes JWS segments as base64url WITHOUT padding; PyJWT tolerates up to two '=', we decode strictly so that one signed text has one accepted form."),
        OracleDifference(
            trait: "critHeader", direction: .appleVerifiesWeReject,
            reason: "the header carries \"crit\" (here [\"b64\"] with \"b64\": true). PyJWT understands the b64 extension (RFC 7797); we understand no header extension, so RFC 7515 section 4.1.11 makes us reject any \"crit\". App Store data never carries one."),
        OracleDifference(
            trait: "payloadFieldOfWrongJSONType", direction: .appleVerifiesWeReject,
            reason: "a payload field has another JSON type than Apple documents (signedDate or price as a string, transactionId as a number, quantity as a fraction). Apple's library lets cattrs coerce it (int(\"1772366400000\"), str(123)); we decode Apple's documented types strictly and throw invalidPayload."),
        OracleDifference(
            trait: "nonStandardJSON", direction: .appleVerifiesWeReject,
            reason: "the payload is not RFC 8259 JSON (NaN or Infinity as a number). Python's json module accepts these JavaScript literals; we accept JSON only."),
        OracleDifference(
            trait: "jsonWithByteOrderMark", direction: .appleVerifiesWeReject,
            reason: "the payload JSON starts with a UTF-8 byte order mark. Python's json.loads(bytes) skips it (utf-8-sig); RFC 8259 section 8.1 says senders MUST NOT add one and lets parsers treat it as an error, which we do (the payload must start with '{')."),
        OracleDifference(
            trait: "jsonInUTF16", direction: .appleVerifiesWeReject,
            reason: "the payload JSON is encoded in UTF-16. Python's json.loads(bytes) detects UTF-16 and decodes it; RFC 8259 section 8.1 requires UTF-8 for JSON exchanged between systems, and Apple signs UTF-8, so we accept UTF-8 only."),
        OracleDifference(
            trait: "loneSurrogateEscape", direction: .appleVerifiesWeReject,
            reason: "a payload string holds an unpaired surrogate escape (\\ud800). Python keeps it as an unpaired surrogate; it names no Unicode character (RFC 8259 section 8.2 leaves the behaviour unpredictable), so our strict parser refuses the payload."),
        OracleDifference(
            trait: "deepJSONNesting", direction: .appleVerifiesWeReject,
            reason: "the payload nests arrays 600 deep in an unknown field. Foundation's JSON parser stops at 512 levels; App Store payloads nest three at most, and a depth limit keeps hostile input from exhausting the stack."),
        OracleDifference(
            trait: "duplicateJSONKey", direction: .appleVerifiesWeReject,
            reason: "the payload names a member twice (bundleId or environment, the good value last). Python keeps the last value and verifies; parsers disagree on which one wins, so a payload with duplicate names is ambiguous and we refuse it rather than pick one (TestVectors: payload-duplicate-keys)."),
        OracleDifference(
            trait: "signedDateAtLeafNotAfter", direction: .appleVerifiesWeReject,
            reason: "signedDate equal to the leaf's notAfter (to the second): Apple's library (pyca's bundled OpenSSL 4.x) verifies, RFC 5280 section 4.1.2.5 makes notAfter inclusive; we reject the leaf as expired because the system OpenSSL 3.0's X509_cmp_time treats notAfter == time as expired (and ValidatedChain's validity range is half-open). Depends on the system OpenSSL version; the difference is one second wide and in the safe direction (we refuse)."),
    ]

    /// Mismatches we believe are (or may be) bugs in our verifier: reported to the lead engineer and
    /// tracked with `withKnownIssue`, so the test still asserts everything else. When one is fixed,
    /// its entry makes the test fail ("known issue was not recorded"): delete the entry then.
    static let suspectedBugs: [OracleDifference] = [
    ]
}
