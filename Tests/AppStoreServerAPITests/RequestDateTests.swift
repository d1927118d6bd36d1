#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import Foundation
import Testing

/// Every date sent to Apple is a whole number of milliseconds since 1970, as Apple's libraries write
/// them: rounded to the nearest in query parameters, truncated toward zero in JSON bodies, and a
/// `Date` stored a hair below a whole millisecond (`Date(timeIntervalSince1970: 123.456)` is
/// 123.4559999…) is that millisecond either way.
@Suite(.timeLimit(.minutes(1)))
struct RequestDateTests {
    /// 123.456 s as a `Date` holds 123.45599999999999 s; rounding down would send 123455.
    static let subMillisecond = Date(timeIntervalSince1970: 123.456)
    /// Half a millisecond and a bit past 1700000000123 ms: nearest is ...124.
    static let clockLike = Date(timeIntervalSince1970: 1_700_000_000.123_5004)

    @Test func historyQueryDatesAreRoundedToTheNearestMillisecond() async throws {
        try await Harness.with { harness in
            harness.fake.setTransactionHistory([], for: "9")
            let client = try harness.client()
            for version in [GetTransactionHistoryVersion.v1, .v2] {
                _ = try await client.getTransactionHistory(
                    transactionId: "9", request: TransactionHistoryRequest(startDate: Self.subMillisecond, endDate: Self.clockLike), version: version)
                let sent = try #require(harness.fake.requests.last)
                #expect(sent.queryValues("startDate") == ["123456"], "\(version)")
                #expect(sent.queryValues("endDate") == ["1700000000124"], "\(version)")
            }
        }
    }

    @Test func jsonBodyDatesAreTruncatedToWholeMilliseconds() async throws {
        try await Harness.with { harness in
            harness.fake.setNotificationHistory([])
            let request = NotificationHistoryRequest(startDate: Self.subMillisecond, endDate: Self.clockLike)
            _ = try await harness.client().notificationHistory(request: request).collect()
            let body = try #require(harness.fake.requests.last?.body)
            let text = String(decoding: body, as: UTF8.self)
            #expect(text.contains("\"startDate\":123456"), "\(text)")
            // 1700000000123.5004 ms: truncated, as Apple's libraries do, not rounded up.
            #expect(text.contains("\"endDate\":1700000000123"), "\(text)")
            #expect(!text.contains("."), "a fractional number in \(text)")
        }
    }

    @Test func aDateFromTheClockGoesOutWhole() async throws {
        try await Harness.with { harness in
            harness.fake.setNotificationHistory([])
            let now = Date()
            let request = NotificationHistoryRequest(startDate: now.addingTimeInterval(-86_400), endDate: now)
            _ = try await harness.client().notificationHistory(request: request).collect()
            let body = try #require(harness.fake.requests.last?.body)
            let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            let endDate = try #require(object["endDate"] as? NSNumber)
            // The clock's millisecond, its fraction dropped (not rounded up).
            let milliseconds = now.timeIntervalSince1970 * 1000
            #expect(Double(endDate.int64Value) > milliseconds - 1 && Double(endDate.int64Value) <= milliseconds + 0.000_5)
            #expect(!String(decoding: body, as: UTF8.self).contains("."))
        }
    }
}
#endif
