import AppStoreVerificationTestSupport
import Foundation
import Testing

/// Numbers from signed data at and past the bounds of every conversion that handles them, through
/// the tool: a verdict and an exit status, never a trap (the root package's OutOfRangeNumberTests
/// check the library's verdicts on the same data).
@Suite("verify-jws on signed out-of-range numbers: verdicts, never traps")
struct OutOfRangeNumberCLITests {
    let minted: MintedJWS
    init() throws { minted = try MintedJWS() }

    /// JWT claims far outside Int64 (and time_t).
    static let claims: [(name: String, value: String)] = [
        ("nbf", "1e30"), ("nbf", "9.3e18"), ("nbf", "9.0e15"), ("nbf", "9.0000001e15"),
        ("iat", "1e30"), ("iat", "1.7976931348623157e308"),
        ("exp", "-1e30"), ("exp", "-9.3e18"), ("exp", "-9.0000001e15"),
    ]

    @Test("a signed JWT claim out of range is unverified (invalidClaims naming it), exit 1", arguments: claims.indices)
    func claimOutOfRange(_ index: Int) throws {
        let (name, value) = Self.claims[index]
        let jws = try minted.sign(MintedJWS.transaction(extra: [(name, value)]))
        let output = try Tool.run(["--root", minted.rootFile().path, "--format", "json", "-"], stdin: Data((jws + "\n").utf8))
        #expect(output.status == 1, "\(name)=\(value): exit \(output.status), \(output.stderr)")
        let line = try #require(output.jsonLines.first, "\(output.stdout)")
        #expect(line["status"] as? String == "unverified", "\(output.stdout)")
        let error = line["error"] as? [String: Any]
        #expect(error?["code"] as? String == "invalidClaims", "\(output.stdout)")
        #expect((error?["message"] as? String)?.contains("\"\(name)\"") == true, "\(output.stdout)")
    }

    @Test("model dates far outside any calendar print without trapping", arguments: ["1e30", "-1e30", "9.3e18", "-9.3e18", "1.7976931348623157e308"])
    func hugeModelDates(_ value: String) throws {
        let jws = try minted.sign(MintedJWS.transaction(["purchaseDate": value, "expiresDate": value, "originalPurchaseDate": value]))
        for format in ["text", "json"] {
            let output = try Tool.run(["--root", minted.rootFile().path, "--format", format, "-"], stdin: Data((jws + "\n").utf8))
            #expect(output.status == 0 || output.status == 1, "purchaseDate \(value), \(format): exit \(output.status), \(output.stderr)")
        }
    }
}
