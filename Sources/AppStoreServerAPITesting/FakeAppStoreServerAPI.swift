import AppStoreVerification
import AppStoreVerificationTesting
import Foundation

/// A fake App Store Server API on 127.0.0.1, for tests of code that calls Apple's API: your
/// `AppStoreServerAPIClient` (or any client) talks to it at ``baseURL`` as it would to Apple.
///
/// It checks each request's bearer token as Apple does (an ES256 JWT signed by the key whose public
/// half you gave, with your key ID, issuer ID, bundle ID, audience `appstoreconnect-v1` and an
/// expiry within the hour; else 401), then answers from the data the test set, with Apple's JSON
/// and pagination:
///
/// | endpoint | data | pagination |
/// | --- | --- | --- |
/// | Get Transaction History (v1, v2) | ``setTransactionHistory(_:for:)`` | `revision`, `hasMore`, ``pageSize`` items a page |
/// | Get Refund History | ``setRefundHistory(_:for:)`` | `revision`, `hasMore` |
/// | Get Transaction Info, Get App Transaction Info | ``setTransactionInfo(_:for:)``, ``setAppTransactionInfo(_:for:)`` | |
/// | Get All Subscription Statuses (and its `status` filter) | ``setSubscriptionStatuses(_:for:)`` | |
/// | Get Notification History | ``setNotificationHistory(_:)`` | `paginationToken`, `hasMore` |
/// | Look Up Order ID | ``setOrder(_:for:)`` | |
/// | Request a Test Notification, Get Test Notification Status | ``setTestNotification(token:_:)`` | |
/// | Send Consumption Information (v2): answered 202 and recorded | ``consumptionRequests`` | |
///
/// An ID it has no data for is answered 404 with Apple's error code (4040010, transaction ID not
/// found). ``enqueue(_:)`` queues Apple's other answers for the next requests: 401, 404 with any
/// of Apple's codes, 429 with `Retry-After`, 5xx, no answer, or any ``Response``. A route for an
/// endpoint it does not serve can be added with ``setFallbackRoute(_:)``. ``requests`` keeps every
/// request, to check what your code sent.
///
/// ```swift
/// try await FakeAppStoreServerAPI.withServer(keyId: "KEY123", issuerId: issuerId, bundleId: "com.example.app",
///                                            publicKey: signingKey.publicKeyDER) { fake in
///     fake.setTransactionHistory([jws1, jws2, jws3], for: "1")
///     let client = AppStoreServerAPIClient(signingKey: signingKey, keyId: "KEY123", issuerId: issuerId, bundleId: "com.example.app",
///                                          environment: try .baseURL(fake.baseURL), verifier: .offline(verifier))
///     for try await transaction in client.transactionHistory(transactionId: "1") { ... }
/// }
/// ```
///
/// Stop it with ``stop()`` (``withServer(keyId:issuerId:bundleId:publicKey:environment:appAppleId:isolation:_:)``
/// does): it closes its listening socket and every open connection.
public final class FakeAppStoreServerAPI: Sendable {
    /// `http://127.0.0.1:PORT`: the base URL to give your client.
    public let baseURL: String
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The key ID tokens must name in their header (`kid`).
    public let keyId: String
    /// The issuer ID tokens must name (`iss`).
    public let issuerId: String
    /// The bundle ID tokens must name (`bid`), and the answers carry.
    public let bundleId: String
    /// The environment the answers name (`environment`).
    public let environment: AppStoreEnvironment
    /// The App Apple ID the answers name (`appAppleId`), if any.
    public let appAppleId: Int64?

    let state: FakeAppStoreState
    private let server: LoopbackHTTPServer

    private init(state: FakeAppStoreState, server: LoopbackHTTPServer, port: Int, keyId: String, issuerId: String,
                 bundleId: String, environment: AppStoreEnvironment, appAppleId: Int64?) {
        self.state = state
        self.server = server
        self.port = port
        self.baseURL = "http://127.0.0.1:\(port)"
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.environment = environment
        self.appAppleId = appAppleId
    }

    /// Starts a fake on 127.0.0.1, on a port the kernel chooses.
    ///
    /// - Parameters:
    ///   - keyId: Your In-App Purchase key's ID, which tokens must name.
    ///   - issuerId: Your issuer ID, which tokens must name.
    ///   - bundleId: Your app's bundle ID, which tokens must name.
    ///   - publicKey: The public half of the key your client signs its tokens with, as a DER
    ///     SubjectPublicKeyInfo: `signingKey.publicKeyDER`.
    ///   - environment: The environment its answers name; the sandbox by default.
    ///   - appAppleId: The App Apple ID its answers name; 1234 by default, `nil` for none.
    /// - Throws: ``FakeAppStoreServerAPIError`` when the public key is not a P-256
    ///   SubjectPublicKeyInfo, or no socket can listen on 127.0.0.1.
    public static func start(keyId: String, issuerId: String, bundleId: String, publicKey: Data,
                             environment: AppStoreEnvironment = .sandbox, appAppleId: Int64? = 1234) async throws(FakeAppStoreServerAPIError) -> FakeAppStoreServerAPI {
        let key: PublicKey
        do {
            key = try PublicKey(subjectPublicKeyInfo: publicKey)
        } catch {
            throw FakeAppStoreServerAPIError(.invalidPublicKey, "the public key is not a DER SubjectPublicKeyInfo (\(error.message)); pass signingKey.publicKeyDER of the key your client signs with")
        }
        let state = FakeAppStoreState(tokenCheck: BearerTokenCheck(keyId: keyId, issuerId: issuerId, bundleId: bundleId, publicKey: key),
                                      bundleId: bundleId, appAppleId: appAppleId, environment: environment)
        let server: LoopbackHTTPServer
        do {
            server = try LoopbackHTTPServer.start(maximumBodyLength: 16 << 20) { request in
                guard let response = state.handle(FakeAppStoreServerAPI.Request(request)) else { return .stall }
                return .respond(status: response.status, headers: response.headers.map { ($0.name, $0.value) }, body: response.body)
            }
        } catch {
            throw FakeAppStoreServerAPIError(.cannotListen, "cannot listen on 127.0.0.1: \(error.message)")
        }
        return FakeAppStoreServerAPI(state: state, server: server, port: Int(server.port), keyId: keyId, issuerId: issuerId,
                                     bundleId: bundleId, environment: environment, appAppleId: appAppleId)
    }

    /// Runs `body` with a started fake, and stops the fake when `body` returns or throws.
    ///
    /// - Parameters:
    ///   - keyId: See ``start(keyId:issuerId:bundleId:publicKey:environment:appAppleId:)``.
    ///   - issuerId: See ``start(keyId:issuerId:bundleId:publicKey:environment:appAppleId:)``.
    ///   - bundleId: See ``start(keyId:issuerId:bundleId:publicKey:environment:appAppleId:)``.
    ///   - publicKey: See ``start(keyId:issuerId:bundleId:publicKey:environment:appAppleId:)``.
    ///   - environment: See ``start(keyId:issuerId:bundleId:publicKey:environment:appAppleId:)``.
    ///   - appAppleId: See ``start(keyId:issuerId:bundleId:publicKey:environment:appAppleId:)``.
    ///   - isolation: The caller's actor, inherited (leave the default): `body` runs there.
    ///   - body: The test.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``FakeAppStoreServerAPIError`` when the fake cannot start.
    public static func withServer<Result>(keyId: String, issuerId: String, bundleId: String, publicKey: Data,
                                          environment: AppStoreEnvironment = .sandbox, appAppleId: Int64? = 1234,
                                          isolation: isolated (any Actor)? = #isolation,
                                          _ body: (FakeAppStoreServerAPI) async throws -> Result) async throws -> Result {
        let fake = try await start(keyId: keyId, issuerId: issuerId, bundleId: bundleId, publicKey: publicKey,
                                   environment: environment, appAppleId: appAppleId)
        do {
            let result = try await body(fake)
            await fake.stop()
            return result
        } catch {
            await fake.stop()
            throw error
        }
    }

    /// Stops listening and closes every open connection (a request waiting on ``ScriptedAnswer/noAnswer``
    /// sees its connection closed).
    public func stop() async {
        await server.stop()
    }

    // MARK: - Data

    /// How many items a page of a history (transactions, refunds, notifications) holds; 20 by
    /// default.
    public var pageSize: Int {
        get { state.read(\.pageSize) }
        set { state.update { $0.pageSize = max(1, newValue) } }
    }

    /// Serves `signedTransactions` (JWS, oldest first) as the transaction history of
    /// `transactionId` (Get Transaction History, v1 and v2), in pages of ``pageSize``.
    public func setTransactionHistory(_ signedTransactions: [String], for transactionId: String) {
        state.update { $0.history[transactionId] = signedTransactions }
    }

    /// Serves `signedTransactions` as the refund history of `transactionId` (Get Refund History).
    public func setRefundHistory(_ signedTransactions: [String], for transactionId: String) {
        state.update { $0.refunds[transactionId] = signedTransactions }
    }

    /// Serves `signedTransaction` as the transaction info of `transactionId` (Get Transaction Info).
    public func setTransactionInfo(_ signedTransaction: String, for transactionId: String) {
        state.update { $0.transactions[transactionId] = signedTransaction }
    }

    /// The signed transaction ``setTransactionInfo(_:for:)`` set for `transactionId`, if any (for a
    /// fallback route that needs to know the transaction).
    public func transactionInfo(for transactionId: String) -> String? {
        state.read { $0.transactions[transactionId] }
    }

    /// Serves `signedAppTransaction` as the app transaction of `transactionId` (Get App Transaction
    /// Info).
    public func setAppTransactionInfo(_ signedAppTransaction: String, for transactionId: String) {
        state.update { $0.appTransactions[transactionId] = signedAppTransaction }
    }

    /// Serves `groups` as the subscription statuses of `transactionId` (Get All Subscription
    /// Statuses; its `status` query filters each group's last transactions).
    public func setSubscriptionStatuses(_ groups: [SubscriptionGroupStatus], for transactionId: String) {
        state.update { $0.statuses[transactionId] = groups }
    }

    /// Serves `entries` (oldest first) as the notification history (Get Notification History):
    /// those whose payload's `signedDate` is in the request's `startDate ..< endDate`, as Apple
    /// does, whatever its other filters, in pages of ``pageSize``; the request must carry
    /// `startDate` and `endDate`, as Apple requires.
    public func setNotificationHistory(_ entries: [NotificationHistoryEntry]) {
        state.update { $0.notifications = entries }
    }

    /// Serves `signedTransactions` for the order ID `orderId` (Look Up Order ID answers status 0);
    /// another order ID is answered status 1 (invalid).
    public func setOrder(_ signedTransactions: [String], for orderId: String) {
        state.update { $0.orders[orderId] = signedTransactions }
    }

    /// Makes Request a Test Notification answer `token`, and Get Test Notification Status answer
    /// `entry` for it.
    public func setTestNotification(token: String, _ entry: NotificationHistoryEntry) {
        state.update { $0.testNotification = (token, entry) }
    }

    // MARK: - Apple's other answers

    /// Queues `answers` for the next requests whose bearer token passes, one each, before any
    /// route: `enqueue(.rateLimited(retryAfter: 1))` makes the next request a 429 and the one after
    /// it served as usual.
    public func enqueue(_ answers: ScriptedAnswer...) {
        state.enqueue(answers)
    }

    /// Queues `answers`, as ``enqueue(_:)`` does.
    public func enqueue(contentsOf answers: [ScriptedAnswer]) {
        state.enqueue(answers)
    }

    /// Answers requests no route of the fake serves (after the bearer token passed) with `route`,
    /// when it returns a response; `nil` routes are answered 404. Called on the fake's event loop:
    /// return quickly.
    public func setFallbackRoute(_ route: (@Sendable (Request) -> Response?)?) {
        state.setFallback(route)
    }

    // MARK: - What was sent

    /// The `signedDate` (milliseconds since 1970) in the payload of `jws`, read without
    /// verification, or `nil` when it has none.
    public static func signedDate(of jws: String) -> Int64? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = try? Base64.decodeURL(parts[1].utf8),
              let object = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any] else { return nil }
        return (object["signedDate"] as? NSNumber)?.int64Value
    }

    /// Every request received, in order (refused ones too).
    public var requests: [Request] { state.requests }

    /// Returns once the fake has received `count` requests (at once if it has): a test waits for
    /// its client's request to arrive, rather than for a fixed time. Bound the wait in your test
    /// (a time limit), since it waits as long as no request comes.
    public func waitForRequests(_ count: Int) async {
        await state.waitForRequests(count)
    }

    /// The distinct bearer tokens accepted so far, in order: to see that a client reuses its token.
    public var acceptedTokens: [String] { state.acceptedTokens }
}
