import Foundation
import Testing

/// `verify-jws --online` against real `openssl ocsp` responders on loopback (``OnlineTestPKI``).
@Suite("verify-jws --online")
struct VerifyJWSOnlineTests {
    private func run(_ leaves: [OnlineTestPKI.Leaf], _ extra: [String] = []) async throws -> Tool.Output {
        let pki = try await OnlineTestPKI.get()
        let input = try leaves.map { try pki.transaction($0) }.joined(separator: "\n") + "\n"
        return try await Tool.runAsync(["--online", "--root", pki.rootFile, "--format", "json", "--jobs", "1"] + extra, stdin: Data(input.utf8))
    }

    @Test("good: verified, exit 0; revoked: unverified with revokedCertificate, exit 1")
    func verdicts() async throws {
        let good = try await run([.good])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.jsonLines.first?["status"] as? String == "verified")
        let revoked = try await run([.good, .revoked])
        #expect(revoked.status == 1)
        let error = revoked.jsonLines.last?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "revokedCertificate")
    }

    @Test("responder down: unavailable with revocationCheckUnavailable, exit 3; unverified wins over unavailable")
    func unavailable() async throws {
        let down = try await run([.good, .down], ["--ocsp-timeout", "2"])
        #expect(down.status == 3, "\(down.stderr)")
        #expect(down.jsonLines.last?["status"] as? String == "unavailable")
        let error = down.jsonLines.last?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "revocationCheckUnavailable")
        let mixed = try await run([.down, .revoked])
        #expect(mixed.status == 1)
    }

    @Test("one malformed line and one unavailable line: malformed wins, exit 2")
    func malformedWinsOverUnavailable() async throws {
        let pki = try await OnlineTestPKI.get()
        let input = "not a JWS\n" + (try pki.transaction(.down)) + "\n"
        let output = try await Tool.runAsync(["--online", "--ocsp-timeout", "2", "--root", pki.rootFile, "--format", "json", "--jobs", "1"], stdin: Data(input.utf8))
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.jsonLines.map { $0["status"] as? String } == ["malformed", "unavailable"])
    }

    @Test("--help: the exit status paragraph (--online's status 3) reads as prose, with no run of spaces")
    func helpText() throws {
        let output = try Tool.run(["--help"], stdin: Data())
        #expect(output.status == 0)
        // Lines rewrapped by the argument parser joined back: one space between words everywhere.
        let prose = output.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(prose.contains("3 when (with --online) none of those happened but a revocation check could not be made (status 'unavailable': retry later)."), "\(output.stdout)")
    }

    @Test("app receipts online: good verified (exit 0), revoked signing certificate unverified with revokedCertificate (exit 1)")
    func receipts() async throws {
        let pki = try await OnlineTestPKI.get()
        func run(_ leaves: [OnlineTestPKI.Leaf]) async throws -> Tool.Output {
            let input = try leaves.map { try pki.receipt($0).base64EncodedString() }.joined(separator: "\n") + "\n"
            return try await Tool.runAsync(["--online", "--type", "app-receipt", "--root", pki.receiptRootFile, "--format", "json", "--jobs", "1"], stdin: Data(input.utf8))
        }
        let good = try await run([.good])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.jsonLines.first?["status"] as? String == "verified")
        let revoked = try await run([.good, .revoked])
        #expect(revoked.status == 1, "\(revoked.stderr)")
        let error = revoked.jsonLines.last?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "revokedCertificate")
    }

    @Test("--ocsp-timeout without --online is an argument error (exit 2)")
    func timeoutNeedsOnline() throws {
        let output = try Tool.run(["--ocsp-timeout", "2"], stdin: Data())
        #expect(output.status == 2)
    }
}
