#if ServerAPIClient
import Foundation

/// How a date goes to Apple, in query parameters and JSON request bodies alike: whole milliseconds
/// since 1970, rounded to the nearest, as Apple documents and its libraries send them (a `Date`
/// read from the clock has a fraction of a millisecond, and `Date(timeIntervalSince1970: 123.456)`
/// is stored as 123.4559999…, which must still go out as 123456).
enum RequestDate {
    /// `date` in whole milliseconds since 1970, rounded to the nearest; dates beyond ±285,000 years
    /// (which no App Store data holds) are clamped.
    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        guard value.isFinite else { return 0 }
        return Int64(max(-9e15, min(9e15, value)))
    }

    /// A JSON encoder for request bodies: dates as ``milliseconds(_:)``, keys sorted, `/` unescaped.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(milliseconds(date))
        }
        return encoder
    }
}
#endif
