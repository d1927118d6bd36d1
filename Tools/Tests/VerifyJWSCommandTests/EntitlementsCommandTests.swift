import AppStoreVerificationTestSupport
import Foundation
import Testing

@Suite("verify-jws entitlements")
struct EntitlementsCommandTests {
    static let options = ["entitlements", "--root", "TestVectors/histories/pki/root.der", "--bundle-id", "com.example.app", "--environment", "Sandbox"]

    static func arguments(for history: SignedHistory, at: String) -> [String] {
        var arguments = options + ["--at", at]
        for (product, seconds) in history.configuration.nonRenewingDurations.sorted(by: { $0.key < $1.key }) {
            arguments += ["--non-renewing-duration", "\(product)=\(Int(seconds))"]
        }
        return arguments
    }

    static func object(_ output: Tool.Output) throws -> [String: Any] {
        let lines = output.stdout.split(separator: "\n")
        try #require(lines.count == 1, "stdout: \(output.stdout) stderr: \(output.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    }

    @Test("each signed history: one JSON object with the granted entitlements at every checked instant, the rejected lines, exit 0 or 1", arguments: SignedHistory.all)
    func history(_ history: SignedHistory) throws {
        for check in history.checks {
            let output = try Tool.run(Self.arguments(for: history, at: check.at) + ["TestVectors/histories/\(history.file)"])
            let object = try Self.object(output)
            #expect(output.status == (history.rejected.isEmpty ? 0 : 1), "stderr: \(output.stderr)")
            #expect((object["at"] as? NSNumber)?.int64Value == Int64(check.instant.timeIntervalSince1970 * 1000))
            let entitlements = try #require(object["entitlements"] as? [[String: Any]])
            let granted = check.statuses.filter { ["purchased", "subscribed", "inGracePeriod"].contains($0.state) }
            #expect(entitlements.map { SignedHistory.Status(productId: $0["productId"] as? String ?? "", transactionId: $0["transactionId"] as? String ?? "", state: $0["state"] as? String ?? "") } == granted, "\(check.at)")
            for entitlement in entitlements {
                for key in ["productId", "productType", "transactionId", "originalTransactionId", "expiresDate", "state", "ownershipType", "reason"] {
                    #expect(entitlement.keys.contains(key), "missing \(key)")
                }
            }
            let rejected = try #require(object["rejected"] as? [[String: Any]])
            #expect(rejected.map { $0["line"] as? Int ?? 0 } == history.rejected.map(\.line))
            #expect(rejected.map { $0["status"] as? String ?? "" } == history.rejected.map(\.status))
            #expect(rejected.map { ($0["error"] as? [String: Any])?["code"] as? String ?? "" } == history.rejected.map(\.code))
        }
    }

    @Test("standard input in another order, every line twice, gives the same entitlements")
    func orderAndDuplicatesOnStandardInput() throws {
        let history = try #require(SignedHistory.all.first { $0.name == "refund-then-repurchase" })
        let lines = try history.lines()
        let check = try #require(history.checks.last)
        let inOrder = try Tool.run(Self.arguments(for: history, at: check.at) + ["TestVectors/histories/\(history.file)"])
        let scrambled = (lines.reversed() + lines).joined(separator: "\n\n")
        let fromStandardInput = try Tool.run(Self.arguments(for: history, at: check.at) + ["-"], stdin: Data(scrambled.utf8))
        #expect(inOrder.status == 0 && fromStandardInput.status == 0)
        #expect(try Self.object(inOrder)["entitlements"] as? NSArray == Self.object(fromStandardInput)["entitlements"] as? NSArray)
        #expect(inOrder.stdout == fromStandardInput.stdout)
    }

    @Test("nothing granted still exits 0 with an empty list; --at now is accepted")
    func nothingGranted() throws {
        let output = try Tool.run(Self.options + ["--at", "2025-06-01T00:00:00Z", "TestVectors/histories/renewal-chain.txt"])
        #expect(output.status == 0)
        let object = try Self.object(output)
        #expect((object["entitlements"] as? [Any])?.isEmpty == true)
        #expect((object["rejected"] as? [Any])?.isEmpty == true)
        #expect(object["at"] as? Int == 1_748_736_000_000)

        let empty = try Tool.run(Self.options + ["--at", "now"], stdin: Data("\n\n".utf8))
        #expect(empty.status == 0)
        #expect((try Self.object(empty)["entitlements"] as? [Any])?.isEmpty == true)
    }

    @Test("a malformed line, or signed data that is not about entitlements, is rejected as malformed: exit 2")
    func malformedLines() throws {
        let good = try SignedHistory.all.first { $0.name == "consumables" }.map { try $0.lines() } ?? []
        let appTransaction = try TestPaths.text(TestPaths.testVector("jws/app-transaction-valid.jws"))
        let input = (good + ["not a jws", appTransaction]).joined(separator: "\n")
        let output = try Tool.run(Self.options + ["--at", "2026-01-10T00:00:00Z", "-"], stdin: Data(input.utf8))
        #expect(output.status == 2)
        let object = try Self.object(output)
        let rejected = try #require(object["rejected"] as? [[String: Any]])
        #expect(rejected.map { $0["line"] as? Int ?? 0 } == [good.count + 1, good.count + 2])
        #expect(rejected.allSatisfy { $0["status"] as? String == "malformed" })
        #expect(rejected.map { ($0["error"] as? [String: Any])?["code"] as? String ?? "" } == ["malformedJWS", "wrongPayloadType"])
        // The good lines still count.
        #expect((object["entitlements"] as? [[String: Any]])?.map { $0["productId"] as? String } == ["com.example.app.lifetime"])
    }

    @Test("data signed by another PKI is unverified: exit 1, nothing granted from it")
    func untrustedRoot() throws {
        let output = try Tool.run(["entitlements", "--root", "TestVectors/pki/root.der", "--at", "2026-01-10T00:00:00Z", "TestVectors/histories/consumables.txt"])
        #expect(output.status == 1)
        let object = try Self.object(output)
        #expect((object["entitlements"] as? [Any])?.isEmpty == true)
        #expect((object["rejected"] as? [[String: Any]])?.count == 3)
    }

    @Test("bad arguments exit with status 2 and say what is wrong", arguments: [
        ["--at", "yesterday"], ["--at", "signed"], ["--non-renewing-duration", "pass"], ["--non-renewing-duration", "pass=-3d"],
        ["--root", "no/such/file.der"], ["--environment", "Staging"], ["--unknown-flag"], ["no/such/input.txt"],
        ["--environment", "Production"], ["a.txt", "b.txt"],
    ])
    func badArguments(_ arguments: [String]) throws {
        let output = try Tool.run(["entitlements"] + arguments, stdin: Data())
        #expect(output.status == 2, "stderr: \(output.stderr)")
        #expect(!output.stderr.isEmpty)
        #expect(output.stdout.isEmpty)
    }

    @Test("verify-jws FILE and its options work as before beside the subcommand")
    func rootCommandUnchanged() throws {
        let output = try Tool.run(["--root", "TestVectors/pki/root.der", "--bundle-id", "com.example.app", "--environment", "Sandbox", "--no-strict", "--format", "json", "TestVectors/jws/transaction-valid.jws"])
        #expect(output.status == 0)
        #expect(output.jsonLines.first?["status"] as? String == "verified")
        let help = try Tool.run(["entitlements", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--at"))
        #expect(help.stdout.contains("--bundle-id"))
    }
}
