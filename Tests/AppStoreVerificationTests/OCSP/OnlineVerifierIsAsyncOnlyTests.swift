import AppStoreVerificationTestSupport
import Foundation
import Testing

/// The online verifier's entry points cannot be called synchronously: a call without `await` does
/// not compile. Checked by type-checking a user's file against the built module with the
/// toolchain's `swiftc`, beside a control that must compile.
@Suite("OnlineSignedDataVerifier: online checks cannot be called synchronously")
struct OnlineVerifierIsAsyncOnlyTests {
    /// The directory of the built modules: beside the test bundle.
    static let binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    static let packageRoot = TestPaths.repositoryRoot

    static var canTypecheck: Bool {
        FileManager.default.fileExists(atPath: binDirectory.appendingPathComponent("Modules/AppStoreVerification.swiftmodule").path)
    }

    /// `swiftc -typecheck` of `source` against the built AppStoreVerification module: the exit
    /// status and what the compiler said.
    static func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("online-\(UUID().uuidString).swift")
        try Data(source.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let bin = binDirectory.path
        let arguments = ["swiftc", "-typecheck", "-I", "\(bin)/Modules",
                         "-Xcc", "-fmodule-map-file=\(bin)/CAppStoreOpenSSL.build/module.modulemap",
                         "-Xcc", "-fmodule-map-file=\(packageRoot.path)/Sources/COpenSSL/module.modulemap",
                         "-Xcc", "-I\(packageRoot.path)/Sources/CAppStoreOpenSSL/include", file.path]
        let run = try ProcessRunner.run("/usr/bin/env", arguments)
        return (run.status, run.output)
    }

    static let header = "import AppStoreVerification\nimport Foundation\n"

    @Test("awaited in an async function: compiles (the control)", .enabled(if: canTypecheck, "needs the built modules beside the test bundle"))
    func awaitedCompiles() throws {
        let result = try Self.typecheck(Self.header + """
            func handle(_ verifier: OnlineSignedDataVerifier, _ jws: String, _ body: Data) async throws {
                _ = try await verifier.verifyTransaction(jws)
                _ = try await verifier.verifyNotification(body)
                _ = try await verifier.verifyAppReceipt(body)
                _ = try await verifier.verify(jws, as: RenewalInfo.self)
            }
            """)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("called synchronously: does not compile, for every entry point",
          .enabled(if: canTypecheck, "needs the built modules beside the test bundle"),
          arguments: ["verifyTransaction(jws)", "verifyRenewalInfo(jws)", "verifyAppTransaction(jws)", "verifyNotification(jws)",
                      "verifyRealtimeRequest(jws)", "verifyAppReceipt(jws)", "verify(jws, as: Transaction.self)"])
    func synchronousCallDoesNotCompile(_ call: String) throws {
        let result = try Self.typecheck(Self.header + """
            func handle(_ verifier: OnlineSignedDataVerifier, _ jws: String) throws {
                _ = try verifier.\(call)
            }
            """)
        #expect(result.status != 0, "a synchronous call of \(call) compiled")
        #expect(result.output.contains("'async' call in a function that does not support concurrency"), "\(result.output)")
    }

    @Test("the offline verifier is synchronous: the same call compiles there (the control)", .enabled(if: canTypecheck, "needs the built modules beside the test bundle"))
    func offlineIsSynchronous() throws {
        let result = try Self.typecheck(Self.header + """
            func handle(_ verifier: SignedDataVerifier, _ jws: String) throws {
                _ = try verifier.verifyTransaction(jws)
            }
            """)
        #expect(result.status == 0, "\(result.output)")
    }
}
