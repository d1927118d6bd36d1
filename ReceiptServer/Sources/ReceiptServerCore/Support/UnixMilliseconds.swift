import Foundation

/// Instants as whole milliseconds since 1970, the App Store's unit, for the database and JSON.
enum UnixMilliseconds {
    /// `date` in whole milliseconds since 1970, rounded down, clamped to what Int64 holds.
    static func of(_ date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard milliseconds.isFinite else { return 0 }
        return Int64(max(-9.0e15, min(9.0e15, milliseconds)))
    }

    /// The `Date` of a number of milliseconds since 1970.
    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// An instant given as milliseconds since 1970 (`1772366400000`) or ISO 8601
    /// (`2026-03-01T12:00:00Z`, fractional seconds allowed); `nil` when it is neither.
    static func parse(_ text: String) -> Date? {
        if let milliseconds = Int64(text), abs(milliseconds) <= 9_000_000_000_000_000 {
            return date(milliseconds)
        }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
