import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

/// Numbers from signed data at and past the bounds of every conversion that handles them: a valid
/// signature must never carry a value that traps the process.
@Suite("Signed out-of-range numbers: verdicts, never traps")
struct OutOfRangeNumberTests {
    let minted: MintedJWS
    init() throws { minted = try MintedJWS() }

    /// JWT claims far outside Int64 (and time_t): each is refused as invalidClaims naming the claim.
    static let claims: [(name: String, value: String)] = [
        ("nbf", "1e30"), ("nbf", "9.3e18"), ("nbf", "9.0e15"), ("nbf", "9.0000001e15"),
        ("iat", "1e30"), ("iat", "1.7976931348623157e308"),
        ("exp", "-1e30"), ("exp", "-9.3e18"), ("exp", "-9.0000001e15"),
    ]

    /// (The command-line tool's verdicts on the same data: Tools/Tests/VerifyJWSCommandTests.)
    @Test("a signed JWT claim out of range is invalidClaims naming it: sync and online", arguments: claims.indices)
    func claimOutOfRange(_ index: Int) async throws {
        let (name, value) = Self.claims[index]
        let jws = try minted.sign(MintedJWS.transaction(extra: [(name, value)]))
        let verifier = try minted.verifier()
        // Refused offline, so the online verifier never asks a responder.
        let online = try OnlineSignedDataVerifier(configuration: verifier.configuration)
        for result in [try verifier.verifyTransaction(jws), try await online.verifyTransaction(jws)] {
            guard case .unverified(_, .invalidClaims(let message)) = result else {
                Issue.record("\(name)=\(value): expected invalidClaims, got \(result)")
                continue
            }
            #expect(message.contains("\"\(name)\""), "\(message)")
        }
    }

    @Test("claims at the edge of the calendar are written as dates, beyond it as seconds")
    func claimText() {
        #expect(DateText.iso8601(secondsSince1970: 0) == "1970-01-01T00:00:00Z")
        #expect(DateText.iso8601(secondsSince1970: 253_402_300_799.5) == "9999-12-31T23:59:59Z")
        #expect(DateText.iso8601(secondsSince1970: 9.0e15) == "285200616-07-24T16:00:00Z")  // the last value converted
        #expect(DateText.iso8601(secondsSince1970: 9.0000001e15) == "9000000100000000.0 s since 1970")
        #expect(DateText.iso8601(secondsSince1970: -1e30) == "-1e+30 s since 1970")
        #expect(DateText.iso8601(secondsSince1970: .infinity) == "inf s since 1970")
        #expect(DateText.iso8601(secondsSince1970: .nan) == "nan s since 1970")
        #expect(DateText.iso8601(Date(timeIntervalSince1970: 1e300)) == "1e+300 s since 1970")
    }

    /// signedDate sets the instant the chain is checked at: the last instant certificate times can
    /// express is an expired chain; one millisecond-second past it is out of range, said as such.
    @Test("a signedDate at and past the last expressible certificate time")
    func signedDateBounds() throws {
        let verifier = try minted.verifier()
        let cases: [(String, String)] = [
            ("253402300799000", "has expired"), ("253402300800000", "out of the range certificate times can express"),
            ("9000000000000000", "out of the range certificate times can express"),
            ("1e30", "out of the range certificate times can express"),
            ("-62167219200000", "not yet valid"), ("-62167219201000", "out of the range certificate times can express"),
        ]
        for (signedDate, expected) in cases {
            let jws = try minted.sign(MintedJWS.transaction(["signedDate": signedDate]))
            let result = try verifier.verifyTransaction(jws)
            guard case .unverified(_, .invalidCertificateChain(let message)) = result else {
                Issue.record("signedDate \(signedDate): expected invalidCertificateChain, got \(result)")
                continue
            }
            #expect(message.contains(expected), "signedDate \(signedDate): \(message)")
            #expect(!message.contains("format error"), "signedDate \(signedDate): \(message)")
        }
    }

    @Test("model dates far outside any calendar decode, print and encode without trapping")
    func hugeModelDates() throws {
        let verifier = try minted.verifier()
        for value in ["1e30", "-1e30", "9.3e18", "-9.3e18", "1.7976931348623157e308"] {
            let jws = try minted.sign(MintedJWS.transaction(["purchaseDate": value, "expiresDate": value, "originalPurchaseDate": value]))
            let result = try verifier.verifyTransaction(jws)
            let transaction = result.unsafePayloadValue
            _ = try AppStoreJSON.makeEncoder().encode(transaction)
            var engine = EntitlementEngine()
            _ = engine.ingest(result)
            _ = engine.currentEntitlements(at: Date())
            _ = engine.statuses(at: Date(timeIntervalSince1970: 1e15))
        }
    }
}
