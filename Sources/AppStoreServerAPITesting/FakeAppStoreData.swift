import AppStoreVerification
import AppStoreServerAPI
import Foundation

/// What a ``FakeAppStoreServerAPI`` serves, as a test set it.
struct FakeAppStoreData: Sendable {
    var pageSize = 20
    /// Signed transactions by the transaction ID a history request names.
    var history: [String: [String]] = [:]
    var refunds: [String: [String]] = [:]
    var transactions: [String: String] = [:]
    var appTransactions: [String: String] = [:]
    var statuses: [String: [FakeAppStoreServerAPI.SubscriptionGroupStatus]] = [:]
    var notifications: [FakeAppStoreServerAPI.NotificationHistoryEntry] = []
    var orders: [String: [String]] = [:]
    var testNotification: (token: String, entry: FakeAppStoreServerAPI.NotificationHistoryEntry)?
    /// Send Consumption Information requests accepted, in order (`FakeAppStoreServerAPI+Consumption.swift`).
    var consumptionRequests: [FakeAppStoreServerAPI.ReceivedConsumptionRequest] = []
}

/// The routes of the endpoints the fake serves itself, over its data: pure, called under the
/// fake's lock once the bearer token passed.
struct FakeAppStoreRoutes {
    let data: FakeAppStoreData
    let bundleId: String
    let appAppleId: Int64?
    let environment: AppStoreEnvironment

    typealias Response = FakeAppStoreServerAPI.Response

    /// The answer to `request`, or `nil` when no route of the fake's own matches it.
    func answer(_ request: FakeAppStoreServerAPI.Request) -> Response? {
        if let ids = request.match("GET /inApps/v2/history/*") ?? request.match("GET /inApps/v1/history/*") {
            guard let items = data.history[ids[0]] else { return Self.notFound(.transactionIdNotFound) }
            return historyPage(items, revision: request.queryValues("revision").first, withApp: true)
        }
        if let ids = request.match("GET /inApps/v2/refund/lookup/*") {
            guard let items = data.refunds[ids[0]] else { return Self.notFound(.transactionIdNotFound) }
            return historyPage(items, revision: request.queryValues("revision").first, withApp: false)
        }
        if let ids = request.match("GET /inApps/v1/transactions/appTransactions/*") {
            guard let jws = data.appTransactions[ids[0]] else { return Self.notFound(.transactionIdNotFound) }
            return Self.json(APIResponseBodies.AppTransactionInfo(signedAppTransactionInfo: jws))
        }
        if let ids = request.match("GET /inApps/v1/transactions/*") {
            guard let jws = data.transactions[ids[0]] else { return Self.notFound(.transactionIdNotFound) }
            return Self.json(APIResponseBodies.TransactionInfo(signedTransactionInfo: jws))
        }
        if let ids = request.match("GET /inApps/v1/subscriptions/*") {
            return statuses(transactionId: ids[0], wanted: request.queryValues("status"))
        }
        if request.match("POST /inApps/v1/notifications/history") != nil {
            return notificationHistory(request)
        }
        if let ids = request.match("GET /inApps/v1/lookup/*") {
            guard let items = data.orders[ids[0]] else { return Self.json(APIResponseBodies.OrderLookup(status: 1, signedTransactions: [])) }
            return Self.json(APIResponseBodies.OrderLookup(status: 0, signedTransactions: items))
        }
        if request.match("POST /inApps/v1/notifications/test") != nil {
            guard let test = data.testNotification else { return Self.apiError(500, .generalInternal) }
            return Self.json(APIResponseBodies.TestNotificationToken(testNotificationToken: test.token))
        }
        if let ids = request.match("GET /inApps/v1/notifications/test/*") {
            guard let test = data.testNotification, test.token == ids[0] else { return Self.notFound(.testNotificationNotFound) }
            return Self.json(APIResponseBodies.TestNotificationStatus(signedPayload: test.entry.signedPayload, sendAttempts: test.entry.sendAttempts))
        }
        return nil
    }

    /// A page of a history: `revision` tokens are `page-N`, N the index of the page's first item.
    private func historyPage(_ items: [String], revision: String?, withApp: Bool) -> Response {
        guard let start = Self.start(of: revision, count: items.count) else { return Self.apiError(400, .invalidRequestRevision) }
        let end = min(start + max(1, data.pageSize), items.count)
        return Self.json(APIResponseBodies.History(
            revision: "page-\(end)", hasMore: end < items.count, bundleId: withApp ? bundleId : nil,
            appAppleId: withApp ? appAppleId : nil, environment: withApp ? environment.rawValue : nil,
            signedTransactions: Array(items[start..<end])))
    }

    private func statuses(transactionId: String, wanted: [String]) -> Response {
        guard var groups = data.statuses[transactionId] else { return Self.notFound(.transactionIdNotFound) }
        let filter = Set(wanted)
        if !filter.isEmpty {
            groups = groups.map { group in
                var filtered = group
                filtered.lastTransactions = group.lastTransactions.filter { filter.contains(String($0.status.rawValue)) }
                return filtered
            }
        }
        return Self.json(APIResponseBodies.Statuses(environment: environment.rawValue, bundleId: bundleId, appAppleId: appAppleId, data: groups))
    }

    /// Get Notification History: the body must hold `startDate` and `endDate` (milliseconds, the
    /// start not after the end); the entries whose payload's `signedDate` is in
    /// `startDate ..< endDate` are served, as Apple does (an entry whose date cannot be read is
    /// served whatever the range).
    private func notificationHistory(_ request: FakeAppStoreServerAPI.Request) -> Response {
        guard let range = request.notificationHistoryRange else { return Self.apiError(400, .invalidStartDate) }
        let items = data.notifications.filter { entry in
            FakeAppStoreServerAPI.signedDate(of: entry.signedPayload).map { range.contains($0) } ?? true
        }
        guard let start = Self.start(of: request.queryValues("paginationToken").first, count: items.count) else {
            return Self.apiError(400, .invalidPaginationToken)
        }
        let end = min(start + max(1, data.pageSize), items.count)
        return Self.json(APIResponseBodies.NotificationHistory(paginationToken: "page-\(end)", hasMore: end < items.count,
                                                              notificationHistory: Array(items[start..<end])))
    }

    /// The first index a `page-N` token names (0 without a token), or `nil` for a token this fake
    /// did not give.
    private static func start(of token: String?, count: Int) -> Int? {
        guard let token else { return 0 }
        guard token.hasPrefix("page-"), let index = Int(token.dropFirst(5)), index >= 0, index <= count else { return nil }
        return index
    }

    static func notFound(_ code: APIErrorCode) -> Response {
        apiError(404, code)
    }

    static func apiError(_ status: Int, _ code: APIErrorCode) -> Response {
        .apiError(status: status, code: code, message: APIErrorMessages.message(for: code))
    }

    static func json(_ value: some Encodable) -> Response {
        // The fake's own bodies are strings, numbers and arrays of them: they always encode.
        (try? Response.json(value)) ?? Response(status: 500)
    }
}
