/// One row of Apple's *Identifying rate limits* table: an endpoint and the requests per second
/// Apple allows it in production, "enforced on an hourly basis", per app. The sandbox allows 10 %.
///
/// | endpoint | per second |
/// | --- | --- |
/// | Get Transaction Info, Get Transaction History (v1, v2), Get All Subscription Statuses, Send Consumption Information (v1, v2), Get Notification History, Finish Transaction, Get App Transaction Info | 50 |
/// | Extend a Subscription Renewal Date, Set App Account Token | 20 |
/// | Look Up Order ID, Get Refund History (v1, v2) | 10 |
/// | Extend Subscription Renewal Dates for All Active Subscribers, Request a Test Notification, Get Test Notification Status | 1 |
///
/// Endpoints Apple's table does not list (the status of a mass extension, Advanced Commerce,
/// Retention Messaging) are not paced.
package struct PublishedRateLimit: Sendable, Hashable {
    /// The endpoint's name in Apple's documentation.
    package let endpoint: String
    /// Requests per second in production.
    package let perSecond: Int
    /// The method and the path, `*` for a caller-given segment.
    let method: String
    let pattern: [Substring]

    private init(_ endpoint: String, _ perSecond: Int, _ method: String, _ pattern: String) {
        self.endpoint = endpoint
        self.perSecond = perSecond
        self.method = method
        self.pattern = pattern.split(separator: "/")
    }

    /// Apple's table, one row per method and path.
    package static let published: [PublishedRateLimit] = [
        PublishedRateLimit("Get Transaction Info", 50, "GET", "/inApps/v1/transactions/*"),
        PublishedRateLimit("Get App Transaction Info", 50, "GET", "/inApps/v1/transactions/appTransactions/*"),
        PublishedRateLimit("Get Transaction History", 50, "GET", "/inApps/v2/history/*"),
        PublishedRateLimit("Get Transaction History V1", 50, "GET", "/inApps/v1/history/*"),
        PublishedRateLimit("Get All Subscription Statuses", 50, "GET", "/inApps/v1/subscriptions/*"),
        PublishedRateLimit("Send Consumption Information", 50, "PUT", "/inApps/v2/transactions/consumption/*"),
        PublishedRateLimit("Send Consumption Information V1", 50, "PUT", "/inApps/v1/transactions/consumption/*"),
        PublishedRateLimit("Get Notification History", 50, "POST", "/inApps/v1/notifications/history"),
        PublishedRateLimit("Finish Transaction", 50, "POST", "/inApps/v1/transactions/*/finish"),
        PublishedRateLimit("Extend a Subscription Renewal Date", 20, "PUT", "/inApps/v1/subscriptions/extend/*"),
        PublishedRateLimit("Set App Account Token", 20, "PUT", "/inApps/v1/transactions/*/appAccountToken"),
        PublishedRateLimit("Look Up Order ID", 10, "GET", "/inApps/v1/lookup/*"),
        PublishedRateLimit("Get Refund History", 10, "GET", "/inApps/v2/refund/lookup/*"),
        PublishedRateLimit("Get Refund History V1", 10, "GET", "/inApps/v1/refund/lookup/*"),
        PublishedRateLimit("Extend Subscription Renewal Dates for All Active Subscribers", 1, "POST", "/inApps/v1/subscriptions/extend/mass"),
        PublishedRateLimit("Request a Test Notification", 1, "POST", "/inApps/v1/notifications/test"),
        PublishedRateLimit("Get Test Notification Status", 1, "GET", "/inApps/v1/notifications/test/*"),
    ]

    /// The row for a request of `method` to `path` (without its query), or `nil` for an endpoint
    /// Apple's table does not list. A literal segment wins over `*`, so `…/transactions/appTransactions/1`
    /// is Get App Transaction Info, not Get Transaction Info.
    package static func matching(method: String, path: String) -> PublishedRateLimit? {
        let segments = path.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "/") } ?? []
        var best: (row: PublishedRateLimit, literals: Int)?
        for row in published where row.method == method && row.pattern.count == segments.count {
            var literals = 0
            var matches = true
            for (expected, actual) in zip(row.pattern, segments) {
                if expected == "*" { continue }
                guard expected == actual else {
                    matches = false
                    break
                }
                literals += 1
            }
            if matches, literals > best?.literals ?? -1 { best = (row, literals) }
        }
        return best?.row
    }

    /// The requests this row allows in `window`: `perSecond` × `scale` × the window's seconds
    /// (10 % of that in the sandbox), at least one.
    package func budget(window: Duration, scale: Double, sandbox: Bool) -> Int {
        let allowed = Double(perSecond) * scale * (sandbox ? 0.1 : 1) * window.inSeconds
        guard allowed.isFinite else { return Int.max }
        return max(1, Int(min(allowed, 1e15).rounded(.down)))
    }
}
