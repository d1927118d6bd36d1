import AppStoreVerificationTestSupport
import Foundation

// The table a reader of ReceiptOracleDifferentialTests.swift needs first: every receipt on which
// our answer differs from Apple's ReceiptUtility.extract_transaction_id_from_app_receipt on
// purpose, and why. A difference not listed here fails the test, and so does an entry whose input
// no longer differs.
//
// All of them go one way: Apple's utility extracts a transaction ID (or finds none and returns
// None) where we refuse the receipt. Apple's utility performs no validation (its doc comment:
// "*NO validation* is performed on the receipt"): it decodes the base64, reads the ContentInfo with
// the `asn1` package's Decoder (one element; whatever follows it is never looked at), walks to
// the content by position (content[0][2][1][0]), decodes the payload SET the same way, and returns
// the first 1703 or 1705 attribute of the first in-app purchase (17). It never reads the
// certificates, the signer or the signature, nor any attribute but 17, 1703 and 1705. We extract
// only from a receipt that verifies, so the entry's `ours` is always a refusal; the other direction
// (we extract, Apple throws) cannot be listed here and always fails the test.

/// A receipt on which our answer differs from Apple's ReceiptUtility, and why.
struct ReceiptOracleDifference: Sendable {
    /// The input: a minted vector's name (TestVectors/receipts/manifest.json), or a file of
    /// `../shared` with the configuration it is verified with.
    var input: String
    /// What Apple's utility returns: the transaction ID it extracts, `nil` when it finds none.
    var appleExtracts: String?
    /// Our verdict, "status code": `unverified` with a VerificationError code, or `malformed` with
    /// a SignedDataDecodingError code.
    var ours: String
    var reason: String
}

enum ReceiptOracleDifferences {
    private static let unverified = "Apple's utility does not validate the receipt; we extract only from a verified one (README, \"Why extraction happens only from verified receipts\")"

    private static func chain(_ input: String, _ defect: String, extracts id: String? = "2000000000000001") -> ReceiptOracleDifference {
        ReceiptOracleDifference(input: input, appleExtracts: id, ours: "unverified invalidCertificateChain",
                                reason: "\(defect). \(unverified): Apple never reads the certificates.")
    }

    private static func signature(_ input: String, _ defect: String) -> ReceiptOracleDifference {
        ReceiptOracleDifference(input: input, appleExtracts: "2000000000000001", ours: "unverified invalidSignature",
                                reason: "\(defect). \(unverified): Apple never checks the signature.")
    }

    private static func envelope(_ input: String, _ reason: String) -> ReceiptOracleDifference {
        ReceiptOracleDifference(input: input, appleExtracts: "2000000000000001", ours: "malformed malformedReceipt",
                                reason: "\(reason) We refuse a receipt that is not exactly the PKCS#7 shape an app receipt has (README, App receipts, step 1).")
    }

    private static func payload(_ input: String, extracts id: String? = "2000000000000001", _ reason: String) -> ReceiptOracleDifference {
        ReceiptOracleDifference(input: input, appleExtracts: id, ours: "malformed malformedReceipt",
                                reason: "\(reason) We decode the whole payload strictly (README, App receipts, step 2): a receipt two readers could read differently is refused.")
    }

    /// Every input on which we refuse and Apple's utility extracts.
    static let deliberate: [ReceiptOracleDifference] = [
        // Chain: the receipt is well formed, its certificates do not lead to a trusted root under Apple's rules.
        chain("wrong-root", "a complete chain under an impostor root with the trusted root's name"),
        chain("untrusted-root-configured", "the genuine chain, but only the impostor root is trusted"),
        chain("impostor-intermediate", "an intermediate not issued by the root"),
        chain("intermediate-missing-marker", "the intermediate lacks Apple's marker extension 1.2.840.113635.100.6.2.1"),
        chain("leaf-missing-marker", "the leaf lacks Apple's marker extension 1.2.840.113635.100.6.11.1"),
        chain("expired-leaf-at-creation", "the leaf had expired at the receipt's creation date"),
        chain("leaf-not-yet-valid-at-creation", "the leaf was not yet valid at the receipt's creation date"),
        chain("expired-at-fixed-date", "the configured effective date is after the leaf's notAfter"),
        chain("leaf-ec-key", "an EC leaf: receipts are signed with RSA"),
        chain("leaf-signed-by-root", "the leaf is issued by the root, not by the embedded intermediate"),
        chain("two-certificates", "only leaf and intermediate embedded"),
        chain("four-certificates", "four certificates embedded; a receipt embeds exactly three"),
        chain("signer-not-first", "the signer's certificate is not embedded first"),
        chain("xcode-claimed-apple-chain", "environment Xcode without a configured Xcode receipt certificate: never verified"),
        chain("xcode-storekit-not-configured", "an Xcode receipt with no Xcode receipt certificate configured"),
        chain("xcode-storekit-as-receipt-root", "an Xcode receipt whose StoreKit certificate is configured as a receipt root, not as the Xcode receipt certificate"),
        chain("xcode-app-receipt-empty without the StoreKit certificate", "Xcode's own receipt, no Xcode receipt certificate configured", extracts: nil),
        chain("xcode-app-receipt-with-transaction without the StoreKit certificate", "Xcode's own receipt, no Xcode receipt certificate configured", extracts: "0"),

        // Signature.
        signature("tampered-content", "one payload byte changed after signing"),
        signature("signed-attributes-wrong-digest", "the messageDigest attribute does not match the content"),
        signature("signed-attributes-signature-over-content", "signed attributes present, the signature over the content instead of them"),
        signature("signed-attributes-tampered", "a signed attribute changed after signing"),
        signature("sha1-declared-sha256-signed", "the declared digest is SHA-1, the signature is over SHA-256"),
        signature("md5-digest", "an MD5 digest"),
        signature("signed-by-other-key", "signed by a key that is not the named signer's"),

        // App and environment.
        ReceiptOracleDifference(input: "wrong-bundle-id", appleExtracts: "2000000000000001", ours: "unverified invalidAppIdentifier",
                                reason: "another app's receipt. \(unverified): Apple never reads the bundle ID."),
        ReceiptOracleDifference(input: "wrong-environment", appleExtracts: "2000000000000001", ours: "unverified invalidEnvironment",
                                reason: "a Production receipt where Sandbox is configured. \(unverified): Apple never reads the environment."),

        // The PKCS#7 envelope.
        envelope("two-signers", "Two SignerInfos: Apple never reads the signers. Which one vouches for the receipt would be ambiguous."),
        envelope("trailing-bytes", "One byte after the ContentInfo: Apple's Decoder reads one element and ignores what follows."),
        envelope("trailing-garbage-base64", "Bytes after the ContentInfo, in base64 text: ignored by Apple's Decoder as above."),
        envelope("no-certificates", "No certificate embedded: Apple never reads the certificates; nothing could vouch for the signature."),
        envelope("content-not-data", "The content type is envelopedData, not id-data: Apple never compares the content type; OpenSSL's PKCS#7 decoder refuses the content as an EnvelopedData."),
        envelope("signer-certificate-absent", "The signer names no embedded certificate: Apple never reads the signer."),
        envelope("ber-trailing-after-eoc", "An extra end-of-contents after the BER ContentInfo: ignored by Apple's Decoder."),
        envelope("ber-deeply-nested-octet-strings", "The content nested in 64 constructed OCTET STRINGs: Apple's Decoder concatenates them; OpenSSL refuses nesting that deep (nested asn1 string), as a bound on hostile input."),
        ReceiptOracleDifference(input: "oversized", appleExtracts: "2000000000000001", ours: "malformed inputTooLarge",
                                reason: "A valid receipt over the verifier's configured input limit (2,048 bytes in this vector): Apple's utility has no input limit; ours refuses before reading (Configuration.maximumInputLength)."),

        // The payload: Apple reads only the in-app purchases' transaction IDs.
        payload("payload-trailing-bytes", "A byte after the payload's SET: Apple's Decoder ignores it."),
        payload("payload-indefinite-length", "The payload SET has a BER indefinite length: Apple's Decoder accepts BER; the payload is DER."),
        payload("payload-not-a-set", "The payload is a SEQUENCE, not a SET: Apple iterates any constructed element."),
        payload("payload-non-minimal-length", "A length in 4 octets where 2 suffice: BER, which Apple's Decoder accepts; DER forbids it."),
        payload("duplicate-bundle-id", "The bundle ID twice: Apple never reads it; which one is the receipt's is ambiguous."),
        payload("duplicate-creation-date", "The creation date twice: Apple never reads it; which one the chain is checked at is ambiguous."),
        payload("duplicate-in-app-transaction-id", extracts: "1", "An in-app purchase with two transaction IDs (\"1\" and \"2\"): Apple returns the first; which one the purchase has is ambiguous."),
        payload("wrong-type-bundle-id", "The bundle ID as an IA5String: Apple never reads it."),
        payload("wrong-type-creation-date", "The creation date as a UTF8String: Apple never reads it."),
        payload("wrong-type-quantity", extracts: nil, "An in-app quantity as a UTF8String (and no transaction ID): Apple reads neither and returns None."),
        payload("wrong-type-in-app", extracts: nil, "An in-app purchase attribute holding a UTF8String, not a SET: Apple iterates the string's characters, finds no transaction ID and returns None."),
        payload("bad-date", "Creation date month 13: Apple never reads it."),
        payload("value-trailing-bytes", "A byte after the application version's UTF8String: Apple never reads it."),
        payload("attribute-extra-element", "An attribute SEQUENCE with a fourth element: Apple reads elements 0 and 2 of attributes only."),
        payload("non-minimal-integer", "The app item ID INTEGER with a leading zero octet: Apple never reads it."),
        payload("flag-out-of-range", extracts: nil, "is-trial-period 2 (and no transaction ID): Apple never reads the flag and returns None."),
    ]
}
