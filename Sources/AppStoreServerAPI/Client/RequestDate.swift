import Foundation

/// How a date goes to Apple: whole milliseconds since 1970, as Apple's libraries write them.
///
/// Query parameters (Get Transaction History's `startDate` and `endDate`) are rounded to the
/// nearest millisecond; JSON request bodies (Get Notification History, ...) are truncated toward
/// zero, so a start date 0.9 ms past a millisecond goes out as that millisecond, as Apple's
/// `testGetNotificationHistoryWithMicrosecondValues` asserts. Either way a date within half a
/// microsecond of a whole millisecond is that millisecond: `Date(timeIntervalSince1970: 123.456)` is
/// stored as 123.4559999…, and must still go out as 123456.
enum RequestDate {
    /// `date` in whole milliseconds since 1970, rounded to the nearest (query parameters); dates
    /// beyond ±285,000 years (which no App Store data holds) are clamped.
    static func milliseconds(_ date: Date) -> Int64 {
        clamped((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// `date` in whole milliseconds since 1970, truncated toward zero (JSON bodies), clamped as
    /// ``milliseconds(_:)``.
    static func truncatedMilliseconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970 * 1000
        let nearest = value.rounded()
        return clamped(abs(value - nearest) < 0.000_5 ? nearest : value.rounded(.towardZero))
    }

    private static func clamped(_ value: Double) -> Int64 {
        guard value.isFinite else { return 0 }
        return Int64(max(-9e15, min(9e15, value)))
    }

    /// A JSON encoder for request bodies: dates as ``truncatedMilliseconds(_:)``, keys sorted, `/`
    /// unescaped.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(truncatedMilliseconds(date))
        }
        return encoder
    }
}
