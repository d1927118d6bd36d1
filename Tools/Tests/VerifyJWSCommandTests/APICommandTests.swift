import AppStoreVerificationTestSupport
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

/// `verify-jws api`: the tool built beside these tests
/// against AppStoreServerAPITesting's fake App Store on 127.0.0.1, run as a process.
@Suite(.timeLimit(.minutes(2)))
struct APICommandTests {
    /// The tool's files for one test: the API key and the test PKI's root.
    struct Files {
        let directory: URL
        var key: String { directory.appendingPathComponent("AuthKey.p8").path }
        var root: String { directory.appendingPathComponent("root.der").path }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("api-cli-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(try APIHarness.apiKey.get().pemEncoded.utf8).write(to: URL(fileURLWithPath: key))
            try APIHarness.pki.get().write(to: directory)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    /// The credentials and verifier flags for the fake App Store.
    static func arguments(_ harness: APIHarness, _ files: Files) -> [String] {
        ["--key", files.key, "--key-id", APIHarness.keyId, "--issuer-id", APIHarness.issuerId, "--bundle-id", APIHarness.bundleId,
         "--environment", "Sandbox", "--root", files.root, "--base-url", harness.fake.baseURL, "--deadline", "10"]
    }

    static func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func historyWritesEveryItemOfEveryPageAsVerifyJWSDoes() async throws {
        let files = try Files()
        defer { files.remove() }
        try await APIHarness.with { harness in
            let items = try (1...5).map { try harness.transaction("\($0)", productId: "com.example.coins\($0)", type: .consumable) }
            harness.fake.setTransactionHistory(items, for: "1")
            // The binary, as users run it: `api` is asynchronous, its exit status comes from a task.
            let run = try Tool.runProcess(["api", "history", "1"] + Self.arguments(harness, files))
            #expect(run.status == 0, "\(run.stderr)")
            let lines = try Self.jsonLines(run.stdout)
            #expect(lines.count == 5)
            #expect(lines.map { $0["status"] as? String } == Array(repeating: "verified", count: 5))
            #expect(lines.map { $0["type"] as? String } == Array(repeating: "transaction", count: 5))
            #expect(lines.map { ($0["payload"] as? [String: Any])?["transactionId"] as? String } == ["1", "2", "3", "4", "5"])
            #expect(lines.map { $0["line"] as? Int } == [1, 2, 3, 4, 5])
            #expect(lines.first?["file"] as? String == "api history 1")
            #expect(harness.fake.requests.map { $0.queryValues("revision") } == [[], ["page-2"], ["page-4"]])
        }
    }

    @Test func aTamperedItemIsReportedUnverifiedBesideTheOthersAndExitsOne() async throws {
        let files = try Files()
        defer { files.remove() }
        try await APIHarness.with { harness in
            var items = try (1...3).map { try harness.transaction("\($0)") }
            items[1] = try APIHarness.tampered(items[1])
            harness.fake.setTransactionHistory(items, for: "1")
            let run = try await Tool.runAsync(["api", "history", "1"] + Self.arguments(harness, files))
            #expect(run.status == 1, "\(run.stderr)")
            let lines = try Self.jsonLines(run.stdout)
            #expect(lines.map { $0["status"] as? String } == ["verified", "unverified", "verified"])
            #expect(((lines[1]["error"] as? [String: Any])?["code"] as? String) == "invalidSignature")
        }
    }

    @Test func historyAsJWSPipesIntoEntitlements() async throws {
        let files = try Files()
        defer { files.remove() }
        try await APIHarness.with { harness in
            let items = [
                try harness.transaction("1", productId: "com.example.pro", type: .nonConsumable),
                try harness.transaction("2", productId: "com.example.coins", type: .consumable),
                try harness.transaction("3", productId: "com.example.monthly", originalTransactionId: "3", type: .autoRenewableSubscription,
                                        expiresDate: Date(timeIntervalSinceNow: 86_400), groupId: "g1"),
            ]
            harness.fake.setTransactionHistory(items, for: "1")
            let api = try await Tool.runAsync(["api", "history", "1", "--format", "jws"] + Self.arguments(harness, files))
            #expect(api.status == 0, "\(api.stderr)")
            #expect(api.stdout.split(separator: "\n").map(String.init) == items)

            let entitlements = try await Tool.runAsync(["entitlements", "--root", files.root, "--bundle-id", APIHarness.bundleId, "--environment", "Sandbox", "-"],
                                                         stdin: Data(api.stdout.utf8))
            #expect(entitlements.status == 0, "\(entitlements.stderr)")
            #expect(entitlements.stdout.contains("com.example.pro"))
            #expect(entitlements.stdout.contains("com.example.monthly"))
            #expect(!entitlements.stdout.contains("com.example.coins"))
        }
    }

    @Test func statusesTransactionOrderRefundsAndNotifications() async throws {
        let files = try Files()
        defer { files.remove() }
        try await APIHarness.with { harness in
            let subscription = try harness.transaction("11", productId: "com.example.monthly", originalTransactionId: "11", type: .autoRenewableSubscription,
                                                       expiresDate: Date(timeIntervalSinceNow: 86_400), groupId: "g1")
            let renewal = try harness.minter.renewalInfo(RenewalInfo(originalTransactionId: "11", productId: "com.example.monthly",
                                                                     autoRenewProductId: "com.example.monthly", autoRenewStatus: .on))
            let single = try harness.transaction("21")
            let notification = try harness.minter.notification(ResponseBodyV2DecodedPayload(notificationType: .refund), transaction: Transaction(transactionId: "31", productId: "com.example.pro",
                                                                                                  purchaseDate: Date(timeIntervalSinceNow: -3600), type: .nonConsumable))
            harness.fake.setSubscriptionStatuses([FakeAppStoreServerAPI.SubscriptionGroupStatus(subscriptionGroupIdentifier: "g1", lastTransactions: [
                FakeAppStoreServerAPI.LastTransaction(status: .active, originalTransactionId: "11", signedTransactionInfo: subscription, signedRenewalInfo: renewal),
            ])], for: "11")
            harness.fake.setTransactionInfo(single, for: "21")
            harness.fake.setOrder([single], for: "MK5TTTVWJH")
            harness.fake.setRefundHistory([single], for: "21")
            harness.fake.setNotificationHistory([FakeAppStoreServerAPI.NotificationHistoryEntry(signedPayload: notification)])
            let common = Self.arguments(harness, files)

            let statuses = try await Tool.runAsync(["api", "statuses", "11"] + common)
            #expect(statuses.status == 0, "\(statuses.stderr)")
            #expect(try Self.jsonLines(statuses.stdout).map { $0["type"] as? String } == ["transaction", "renewal"])

            for (command, id) in [("transaction", "21"), ("order", "MK5TTTVWJH"), ("refunds", "21")] {
                let run = try await Tool.runAsync(["api", command, id] + common)
                #expect(run.status == 0, "\(command): \(run.stderr)")
                let lines = try Self.jsonLines(run.stdout)
                #expect(lines.count == 1, "\(command)")
                #expect((lines.first?["payload"] as? [String: Any])?["transactionId"] as? String == "21", "\(command)")
            }

            let notifications = try await Tool.runAsync(["api", "notifications", "--start", "2020-01-01T00:00:00Z"] + common)
            #expect(notifications.status == 0, "\(notifications.stderr)")
            let lines = try Self.jsonLines(notifications.stdout)
            #expect(lines.count == 1)
            #expect(lines.first?["type"] as? String == "notification")
            #expect(((lines.first?["nested"] as? [String: Any])?["signedTransactionInfo"] as? [String: Any])?["status"] as? String == "verified")
            let sent = try #require(harness.fake.requests.last)
            let body = try #require(try JSONSerialization.jsonObject(with: sent.body) as? [String: Any])
            #expect((body["startDate"] as? NSNumber)?.int64Value == 1_577_836_800_000)
        }
    }

    @Test func failuresGetTheirExitStatusAndOneLine() async throws {
        let files = try Files()
        defer { files.remove() }
        try await APIHarness.with { harness in
            let common = Self.arguments(harness, files)
            // An unknown transaction: Apple's 404, the caller's to fix.
            let missing = try await Tool.runAsync(["api", "transaction", "404404"] + common)
            #expect(missing.status == 2)
            #expect(missing.stdout.isEmpty)
            #expect(missing.stderr.contains("4040010"), "\(missing.stderr)")

            // A key ID the fake does not know: 401, named.
            var wrongKey = common
            if let index = wrongKey.firstIndex(of: "--key-id") { wrongKey[index + 1] = "WRONGKEY99" }
            let unauthorized = try await Tool.runAsync(["api", "transaction", "1"] + wrongKey)
            #expect(unauthorized.status == 2)
            #expect(unauthorized.stderr.contains("401"), "\(unauthorized.stderr)")
            #expect(unauthorized.stderr.split(separator: "\n").count == 1)

            // Still rate limited after the retries: 3.
            harness.fake.enqueue(contentsOf: Array(repeating: .rateLimited(retryAfter: 0), count: 20))
            let limited = try await Tool.runAsync(["api", "transaction", "1"] + common)
            #expect(limited.status == 3, "\(limited.stderr)")
            #expect(limited.stderr.contains("429"), "\(limited.stderr)")
        }
    }

    @Test func credentialsComeFromTheEnvironmentAndMissingOnesAreNamed() async throws {
        let files = try Files()
        defer { files.remove() }
        try await APIHarness.with { harness in
            harness.fake.setTransactionInfo(try harness.transaction("21"), for: "21")
            let environment = [
                "APP_STORE_API_KEY_FILE": files.key, "APP_STORE_API_KEY_ID": APIHarness.keyId, "APP_STORE_API_ISSUER_ID": APIHarness.issuerId,
                "APP_STORE_BUNDLE_ID": APIHarness.bundleId, "APP_STORE_ENVIRONMENT": "Sandbox", "APP_STORE_API_BASE_URL": harness.fake.baseURL,
            ]
            let run = try await Tool.runAsync(["api", "transaction", "21", "--root", files.root, "--format", "jws"], environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.hasPrefix("eyJ"))

            var withoutIssuer = environment
            withoutIssuer["APP_STORE_API_ISSUER_ID"] = nil
            let missing = try await Tool.runAsync(["api", "transaction", "21", "--root", files.root], environment: withoutIssuer)
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("--issuer-id") && missing.stderr.contains("APP_STORE_API_ISSUER_ID"), "\(missing.stderr)")

            // http to anything but loopback is refused before a request is made.
            let remote = try await Tool.runAsync(["api", "transaction", "21", "--root", files.root, "--base-url", "http://example.com"], environment: environment)
            #expect(remote.status == 2)
            #expect(remote.stderr.contains("loopback"), "\(remote.stderr)")

            // A key that is not a key: one line, nothing on standard output, never the key's text.
            let garbage = files.directory.appendingPathComponent("garbage.p8")
            try Data("-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----\n".utf8).write(to: garbage)
            var badKey = environment
            badKey["APP_STORE_API_KEY_FILE"] = garbage.path
            let bad = try await Tool.runAsync(["api", "transaction", "21", "--root", files.root], environment: badKey)
            #expect(bad.status == 2)
            #expect(bad.stdout.isEmpty)
            #expect(!bad.stderr.contains("c2VjcmV0"))
        }
    }
}

/// `verify-jws api`'s failures in the tool's words, with the exit status that says whether to retry.
@Suite(.timeLimit(.minutes(2)))
struct APICommandFailureTests {
    @Test func anAnswerThatIsNotApplesJSONIsRetryableExitThree() async throws {
        let files = try APICommandTests.Files()
        defer { files.remove() }
        try await APIHarness.with { harness in
            let page = FakeAppStoreServerAPI.Response(status: 200, headers: [.init(name: "Content-Type", value: "text/html")],
                                                      body: Data("<html><body>502 Bad Gateway</body></html>".utf8))
            harness.fake.enqueue(.response(page))
            let run = try await Tool.runAsync(["api", "transaction", "1"] + APICommandTests.arguments(harness, files))
            #expect(run.status == 3, "\(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        }
    }

    @Test func aDeadlineMessageNamesTheDeadlineFlag() async throws {
        let files = try APICommandTests.Files()
        defer { files.remove() }
        try await APIHarness.with { harness in
            // Apple asks for 30 s; the tool may wait 2: it fails at once, and says what to raise.
            harness.fake.enqueue(.rateLimited(retryAfter: 30))
            var arguments = APICommandTests.arguments(harness, files)
            if let index = arguments.firstIndex(of: "--deadline") { arguments[index + 1] = "2" }
            let run = try await Tool.runAsync(["api", "transaction", "1"] + arguments)
            #expect(run.status == 3, "\(run.stderr)")
            #expect(run.stderr.contains("--deadline"), "\(run.stderr)")
            #expect(!run.stderr.contains("Options."), "\(run.stderr)")
            #expect(harness.fake.requests.count == 1)
        }
    }

    @Test func argumentErrorsNameTheFlagsAndVariables() async throws {
        let files = try APICommandTests.Files()
        defer { files.remove() }
        try await APIHarness.with { harness in
            var production = APICommandTests.arguments(harness, files)
            if let index = production.firstIndex(of: "--environment") { production[index + 1] = "Production" }
            let missing = try await Tool.runAsync(["api", "transaction", "1"] + production)
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("--app-apple-id"), "\(missing.stderr)")
            #expect(!missing.stderr.contains("appAppleId"), "\(missing.stderr)")

            var zero = APICommandTests.arguments(harness, files)
            if let index = zero.firstIndex(of: "--deadline") { zero[index + 1] = "0" }
            let deadline = try await Tool.runAsync(["api", "transaction", "1"] + zero)
            #expect(deadline.status == 2)
            #expect(deadline.stderr.contains("--deadline must be more than 0 and at most 3600 seconds"), "\(deadline.stderr)")
            #expect(CommandLineMessageTests.isBalanced(deadline.stderr), "\(deadline.stderr)")
            #expect(harness.fake.requests.isEmpty)
        }
    }
}
