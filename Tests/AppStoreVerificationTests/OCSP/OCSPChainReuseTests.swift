import Foundation
import Testing
@testable import AppStoreVerification

/// Online mode asks about the chain the offline checks validated: the certificates in x5c are read
/// once per verification of a new chain, and not at all once the chain is remembered.
@Suite("Online mode reuses the offline chain")
struct OCSPChainReuseTests {
    let pki: OCSPTestPKI
    init() throws { pki = try OCSPTestPKI.get() }

    @Test("a new chain: leaf and intermediate parsed once each, online and offline alike; a remembered chain: none")
    func oneParse() async throws {
        let online = try pki.verifier(OCSPTestPKI.options(CountingTransport()))
        let offline = try SignedDataVerifier(configuration: .init(
            trustedRoots: [try TrustedRoot(derEncoded: pki.rootDER)], bundleId: "com.example.app", environment: .sandbox, effectiveDate: .now))
        let jws = try pki.transaction(.good)

        let offlineCold = X509Certificate.ParseCounter()
        #expect(try X509Certificate.$parseCounter.withValue(offlineCold) { try offline.verifyTransaction(jws).isVerified })
        let onlineCold = X509Certificate.ParseCounter()
        #expect(try await X509Certificate.$parseCounter.withValue(onlineCold) { try await online.verifyTransaction(jws).isVerified })
        #expect(offlineCold.count == 2, "offline, a new chain: \(offlineCold.count) certificates parsed")
        #expect(onlineCold.count == offlineCold.count, "online parsed \(onlineCold.count), offline \(offlineCold.count)")

        let onlineWarm = X509Certificate.ParseCounter()
        #expect(try await X509Certificate.$parseCounter.withValue(onlineWarm) { try await online.verifyTransaction(jws).isVerified })
        #expect(onlineWarm.count == 0, "online, a remembered chain: \(onlineWarm.count) certificates parsed")
    }
}
