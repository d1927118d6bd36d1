import AppStoreVerification
import AppStoreVerificationTestSupport
import AppStoreVerificationTesting
import Foundation
import Testing

/// The verifier reads the time from its configuration's clock: a payload's `exp` refuses it once
/// that clock passes it, and `.now` checks certificates at that clock's instant, whatever the
/// machine's clock says.
@Suite struct VerifierClockTests {
    /// 2026-03-01T12:00:00Z, the minted transaction's signedDate.
    static let signedDate = Date(timeIntervalSince1970: 1_772_366_400)

    func verifier(_ minted: MintedJWS, clock: ManualClock, effectiveDate: EffectiveDatePolicy = .signedDate) throws -> SignedDataVerifier {
        try SignedDataVerifier(configuration: .init(
            trustedRoots: [try TrustedRoot(derEncoded: minted.pki.rootDER)], bundleId: "com.example.app", environment: .sandbox,
            effectiveDate: effectiveDate, clock: .manual(clock)))
    }

    @Test("a payload's exp refuses it once the verifier's clock reaches it")
    func expFollowsTheClock() throws {
        let minted = try MintedJWS()
        let jws = try minted.sign(MintedJWS.transaction(extra: [("exp", "\(Int(Self.signedDate.timeIntervalSince1970) + 60)")]))
        let clock = ManualClock(date: Self.signedDate)
        let verifier = try SignedDataVerifier(configuration: .init(
            trustedRoots: [try TrustedRoot(derEncoded: minted.pki.rootDER)], bundleId: "com.example.app", environment: .sandbox,
            clock: .manual(clock)))
        #expect(try verifier.verifyTransaction(jws).isVerified)
        clock.advance(by: .seconds(59))
        #expect(try verifier.verifyTransaction(jws).isVerified)
        clock.advance(by: .seconds(1))  // at exp: refused
        #expect(try verifier.verifyTransaction(jws).verificationError?.code == .invalidClaims)
    }

    @Test("effectiveDate .now checks the chain at the verifier's clock: valid in 2026, expired after the leaf's notAfter (2049-01-01)")
    func nowIsTheClocksInstant() throws {
        let minted = try MintedJWS()
        let clock = ManualClock(date: Self.signedDate)
        let verifier = try verifier(minted, clock: clock, effectiveDate: .now)
        let jws = try minted.sign(MintedJWS.transaction())
        #expect(try verifier.verifyTransaction(jws).isVerified)
        clock.date = Date(timeIntervalSince1970: 2_500_000_000)  // 2049-03-22: the leaf expired, the CAs did not
        let late = try verifier.verifyTransaction(jws)
        #expect(late.verificationError?.code == .invalidCertificateChain)
        #expect(late.verificationError?.message.contains("2049-03-22") == true, "\(String(describing: late.verificationError))")
    }
}
