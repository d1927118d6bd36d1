#if ServerAPIClient
import AppStoreVerification
import Foundation

/// A fake App Store Server API: checks the bearer token as Apple documents it and answers from the
/// data a test put in, paginating, or with the failures a test scripted. Routing is pure; the HTTP
/// side is ``FakeAppStoreServer``.
final class FakeAppStore: @unchecked Sendable {
    /// A request as the server saw it.
    struct Request: Sendable {
        let method: String
        let path: String
        let query: [(name: String, value: String)]
        let authorization: String?
        var contentType: String? = nil
        let body: Data
        let receivedAt: ContinuousClock.Instant

        func queryValues(_ name: String) -> [String] { query.filter { $0.name == name }.map(\.value) }

        /// The segments `*` captured when this request is `pattern` ("METHOD /a/*/b"; each `*`
        /// captures one path segment), else `nil`.
        func match(_ pattern: String) -> [String]? {
            let parts = pattern.split(separator: " ")
            guard parts.count == 2, parts[0] == method else { return nil }
            let expected = parts[1].split(separator: "/").map(String.init)
            let segments = path.split(separator: "/").map(String.init)
            guard expected.count == segments.count else { return nil }
            var captured: [String] = []
            for (want, have) in zip(expected, segments) {
                if want == "*" { captured.append(have) } else if want != have { return nil }
            }
            return captured
        }
    }

    /// An answer.
    struct Reply: Sendable {
        var status: Int
        var headers: [(String, String)] = []
        var body: Data = Data()
        /// Never answer (the connection stays open).
        var stall = false

        static func json(_ object: Any, status: Int = 200) -> Reply {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return Reply(status: status, headers: [("Content-Type", "application/json")], body: data)
        }

        static func apiError(_ status: Int, code: Int64, message: String) -> Reply {
            json(["errorCode": code, "errorMessage": message], status: status)
        }

        static let stalled = Reply(status: 0, stall: true)
    }

    let keyId: String
    let issuerId: String
    let bundleId: String
    private let publicKey: PublicKey
    private let lock = NSLock()

    // Data (set by tests before calls); read and changed only under `lock`.
    var storage = Storage()

    struct Storage {
        var pageSize = 2
        var history: [String: [String]] = [:]
        var refunds: [String: [String]] = [:]
        var notifications: [String] = []
        var transactions: [String: String] = [:]
        var appTransactions: [String: String] = [:]
        var statuses: [String: [[String: Any]]] = [:]
        var orders: [String: [String]] = [:]
        var testNotification: (token: String, signedPayload: String)?
        var scripted: [Reply] = []
        var requests: [Request] = []
        var acceptedTokens: [String] = []
        var extensions: [String: [String: Any]] = [:]
        var appAccountTokens: [String: String] = [:]
        var consumption: [String: [String: Any]] = [:]
        var environment = "Sandbox"
        /// Mass extensions, consumption V1, finished transactions, retention messaging.
        var more = MoreState()
        /// The Advanced Commerce API.
        var advancedCommerce = AdvancedCommerceState()
    }

    init(apiPublicKeyDER: Data, keyId: String, issuerId: String, bundleId: String) throws {
        self.publicKey = try PublicKey(subjectPublicKeyInfo: apiPublicKeyDER)
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
    }

    /// Changes the data under the lock.
    func update(_ body: (inout Storage) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&storage)
    }

    /// Reads the data under the lock.
    func read<T>(_ body: (Storage) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(storage)
    }

    var requests: [Request] { read { $0.requests } }
    var acceptedTokens: [String] { read { $0.acceptedTokens } }

    /// Answers one request.
    func handle(_ request: Request) -> Reply {
        lock.lock()
        defer { lock.unlock() }
        storage.requests.append(request)
        if let failure = checkToken(request.authorization) {
            return Reply(status: 401, headers: [("X-Reason", failure)])
        }
        if !storage.scripted.isEmpty {
            return storage.scripted.removeFirst()
        }
        return route(request)
    }

    // MARK: - Bearer token, as Apple checks it

    /// Why the token is refused, or `nil` when it is good.
    private func checkToken(_ authorization: String?) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let token = String(authorization.dropFirst("Bearer ".count))
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerData = try? Base64.decodeURL(parts[0].utf8), let claimsData = try? Base64.decodeURL(parts[1].utf8),
              let signature = try? Base64.decodeURL(parts[2].utf8),
              let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
              let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any]
        else { return "not a JWS" }
        guard header["alg"] as? String == "ES256", header["typ"] as? String == "JWT" else { return "header alg/typ" }
        guard header["kid"] as? String == keyId else { return "kid" }
        do {
            try publicKey.verifyES256(signature: signature, over: Array("\(parts[0]).\(parts[1])".utf8))
        } catch {
            return "signature"
        }
        guard claims["aud"] as? String == "appstoreconnect-v1" else { return "aud" }
        guard claims["iss"] as? String == issuerId else { return "iss" }
        guard claims["bid"] as? String == bundleId else { return "bid" }
        guard let exp = (claims["exp"] as? NSNumber)?.int64Value, let iat = (claims["iat"] as? NSNumber)?.int64Value else { return "exp/iat" }
        let now = Int64(Date().timeIntervalSince1970)
        guard exp > now else { return "expired" }
        guard exp - iat <= 3600, exp > iat else { return "lifetime" }
        if !storage.acceptedTokens.contains(token) { storage.acceptedTokens.append(token) }
        return nil
    }

    // MARK: - Routes

    static let notFound = Reply.apiError(404, code: 4040010, message: "Transaction id not found.")

    private func route(_ request: Request) -> Reply {
        switch () {
        case _ where request.match("GET /inApps/v2/history/*") != nil:
            let id = request.match("GET /inApps/v2/history/*")?.first ?? ""
            guard let items = storage.history[id] else { return Self.notFound }
            return page(items, token: request.queryValues("revision").first, tokenName: "revision",
                        extra: ["bundleId": bundleId, "appAppleId": 1234, "environment": storage.environment])
        case _ where request.match("GET /inApps/v2/refund/lookup/*") != nil:
            let id = request.match("GET /inApps/v2/refund/lookup/*")?.first ?? ""
            guard let items = storage.refunds[id] else { return Self.notFound }
            return page(items, token: request.queryValues("revision").first, tokenName: "revision", extra: [:])
        case _ where request.match("POST /inApps/v1/notifications/history") != nil:
            guard let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
                  body["startDate"] is NSNumber, body["endDate"] is NSNumber
            else { return .apiError(400, code: 4000015, message: "Invalid start date.") }
            return page(storage.notifications, token: request.queryValues("paginationToken").first, tokenName: "paginationToken",
                        itemName: "notificationHistory", wrap: { ["signedPayload": $0, "sendAttempts": [["attemptDate": 1_700_000_000_000, "sendAttemptResult": "SUCCESS"]]] })
        case _ where request.match("GET /inApps/v1/transactions/appTransactions/*") != nil:
            let id = request.match("GET /inApps/v1/transactions/appTransactions/*")?.first ?? ""
            guard let jws = storage.appTransactions[id] else { return Self.notFound }
            return .json(["signedAppTransactionInfo": jws])
        case _ where request.match("GET /inApps/v1/transactions/*") != nil:
            let id = request.match("GET /inApps/v1/transactions/*")?.first ?? ""
            guard let jws = storage.transactions[id] else { return Self.notFound }
            return .json(["signedTransactionInfo": jws])
        case _ where request.match("GET /inApps/v1/subscriptions/*") != nil:
            let id = request.match("GET /inApps/v1/subscriptions/*")?.first ?? ""
            guard var groups = storage.statuses[id] else { return Self.notFound }
            let wanted = Set(request.queryValues("status"))
            if !wanted.isEmpty {
                groups = groups.map { group in
                    var filtered = group
                    let items = (group["lastTransactions"] as? [[String: Any]]) ?? []
                    filtered["lastTransactions"] = items.filter { wanted.contains(String(describing: $0["status"] ?? "")) }
                    return filtered
                }
            }
            return .json(["environment": storage.environment, "bundleId": bundleId, "appAppleId": 1234, "data": groups])
        case _ where request.match("GET /inApps/v1/lookup/*") != nil:
            let orderId = request.match("GET /inApps/v1/lookup/*")?.first ?? ""
            guard let items = storage.orders[orderId] else { return .json(["status": 1]) }
            return .json(["status": 0, "signedTransactions": items])
        case _ where request.match("POST /inApps/v1/notifications/test") != nil:
            guard let test = storage.testNotification else { return .apiError(500, code: 5000000, message: "An unknown error occurred.") }
            return .json(["testNotificationToken": test.token])
        case _ where request.match("GET /inApps/v1/notifications/test/*") != nil:
            let token = request.match("GET /inApps/v1/notifications/test/*")?.first ?? ""
            guard let test = storage.testNotification, test.token == token else {
                return .apiError(404, code: 4040008, message: "Invalid test notification token.")
            }
            return .json(["signedPayload": test.signedPayload, "sendAttempts": [["attemptDate": 1_700_000_000_000, "sendAttemptResult": "NO_RESPONSE"]]])
        case _ where request.match("PUT /inApps/v1/subscriptions/extend/*") != nil:
            let id = request.match("PUT /inApps/v1/subscriptions/extend/*")?.first ?? ""
            guard let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
                  let days = (body["extendByDays"] as? NSNumber)?.intValue, (1...90).contains(days),
                  body["extendReasonCode"] is NSNumber, body["requestIdentifier"] is String
            else { return .apiError(400, code: 4000009, message: "Invalid extend by days value.") }
            storage.extensions[id] = body
            return .json(["originalTransactionId": id, "webOrderLineItemId": "wo-\(id)", "success": true, "effectiveDate": 1_800_000_000_000])
        case _ where request.match("PUT /inApps/v1/transactions/*/appAccountToken") != nil:
            let id = request.match("PUT /inApps/v1/transactions/*/appAccountToken")?.first ?? ""
            guard let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
                  let token = body["appAccountToken"] as? String, UUID(uuidString: token) != nil
            else { return .apiError(400, code: 4000183, message: "Invalid appAccountToken.") }
            storage.appAccountTokens[id] = token
            return Reply(status: 200)
        case _ where request.match("PUT /inApps/v2/transactions/consumption/*") != nil:
            let id = request.match("PUT /inApps/v2/transactions/consumption/*")?.first ?? ""
            guard let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
                  body["customerConsented"] as? Bool == true, body["sampleContentProvided"] is Bool, body["deliveryStatus"] is String
            else { return .apiError(400, code: 4000035, message: "Invalid customer consented value.") }
            storage.consumption[id] = body
            return Reply(status: 202)
        default:
            return moreRoutes(request) ?? advancedCommerceRoutes(request)
                ?? .apiError(404, code: 4040000, message: "Not found: \(request.method) \(request.path)")
        }
    }

    /// A page of `items`: tokens are "page-N" (N the index of the page's first item).
    func page(_ items: [String], token: String?, tokenName: String, itemName: String = "signedTransactions",
                      wrap: (String) -> Any = { $0 }, extra: [String: Any] = [:]) -> Reply {
        var start = 0
        if let token {
            guard token.hasPrefix("page-"), let index = Int(token.dropFirst(5)), index >= 0, index <= items.count else {
                return .apiError(400, code: 4000005, message: "Invalid request revision.")
            }
            start = index
        }
        let end = min(start + storage.pageSize, items.count)
        var object = extra
        object[itemName] = items[start..<end].map(wrap)
        object["hasMore"] = end < items.count
        object[tokenName] = "page-\(end)"
        return .json(object)
    }
}
#endif
