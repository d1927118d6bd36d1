import Foundation
import AppStoreVerificationTestSupport
import Testing
@testable import AppStoreVerification

extension ManifestVector {
    func makeVerifier() throws -> SignedDataVerifier {
        let roots = try options.roots.map(TrustedRoot.testVector)
        let effectiveDate = try EffectiveDatePolicy.manifest(options.effectiveDate)
        return try SignedDataVerifier(configuration: .init(
            trustedRoots: roots, bundleId: options.bundleId, appAppleId: options.appAppleId,
            environment: options.environment.map(AppStoreEnvironment.init(rawValue:)),
            effectiveDate: effectiveDate, strictChecks: options.strict ?? true))
    }

    /// Verifies the vector through the entry point its type names and reports (status, code), with
    /// the status and code of the first failing nested result for notifications.
    func verdict(with verifier: SignedDataVerifier) throws -> (status: String, code: String?) {
        let jws = try TestPaths.text(TestPaths.testVector(file))
        func summarize<P>(_ result: VerificationResult<P>) -> (String, String?) {
            switch result {
            case .verified: ("verified", nil)
            case .unverified(_, let error): ("unverified", error.code.description)
            }
        }
        do {
            switch type {
            case "transaction": return summarize(try verifier.verifyTransaction(jws))
            case "renewal": return summarize(try verifier.verifyRenewalInfo(jws))
            case "app-transaction": return summarize(try verifier.verifyAppTransaction(jws))
            case "realtime-request": return summarize(try verifier.verifyRealtimeRequest(jws))
            case "notification":
                let result = try verifier.verifyNotification(jws)
                let outer = summarize(result)
                guard outer.0 == "verified" else { return outer }
                let notification = result.unsafePayloadValue
                let nested: [Result<(String, String?), SignedDataDecodingError>] = [
                    notification.transactionInfo.map { $0.map(summarize) },
                    notification.renewalInfo.map { $0.map(summarize) },
                    notification.appTransactionInfo.map { $0.map(summarize) },
                ].compactMap { $0 }
                for inner in nested {
                    switch inner {
                    case .success(let verdict) where verdict.0 != "verified": return verdict
                    case .failure(let error): return ("malformed", error.code.description)
                    default: continue
                    }
                }
                return outer
            default:
                Issue.record("unknown vector type \(type)")
                return ("?", nil)
            }
        } catch {
            return ("malformed", error.code.description)
        }
    }
}

@Suite("TestVectors/manifest.json")
struct TestVectorManifestTests {
    @Test("the manifest lists vectors of every verdict")
    func manifestIsComplete() {
        let statuses = Set(ManifestVector.all.map(\.expected.status))
        #expect(ManifestVector.all.count >= 60)
        #expect(statuses == ["verified", "unverified", "malformed"])
    }

    @Test("each vector gets its expected verdict and error code", arguments: ManifestVector.all)
    func vector(_ vector: ManifestVector) throws {
        let verifier = try vector.makeVerifier()
        let verdict = try vector.verdict(with: verifier)
        #expect(verdict.status == vector.expected.status, "\(vector.name): \(vector.description)")
        #expect(verdict.code == vector.expected.code, "\(vector.name): \(vector.description)")
    }

    @Test("each vector gets the same verdict from a warm cache, in any order")
    func warmCacheAgrees() throws {
        // One verifier per option set, every vector twice, forwards then backwards: a cached chain
        // must never change a verdict.
        var verifiers: [String: SignedDataVerifier] = [:]
        for vector in ManifestVector.all + ManifestVector.all.reversed() {
            let key = "\(vector.options.roots)|\(vector.options.bundleId ?? "")|\(vector.options.environment ?? "")|\(vector.options.appAppleId ?? 0)|\(vector.options.effectiveDate ?? "")"
            let verifier = try verifiers[key] ?? vector.makeVerifier()
            verifiers[key] = verifier
            let verdict = try vector.verdict(with: verifier)
            #expect(verdict.status == vector.expected.status, "\(vector.name)")
            #expect(verdict.code == vector.expected.code, "\(vector.name)")
        }
    }
}
