import Foundation

/// Dates written for people in messages: ISO 8601, UTC, to the second.
///
/// Every function here takes any value, including numbers read from signed data (a JWT claim of
/// `1e30`, a date of `-9e18` ms): a value outside what the calendar arithmetic handles is written as
/// the number of seconds it stands for, never converted in a way that traps.
enum DateText {
    static func iso8601(_ date: Date) -> String {
        iso8601(secondsSince1970: date.timeIntervalSince1970)
    }

    /// `seconds` (possibly fractional, huge or not finite), to the second.
    static func iso8601(secondsSince1970 seconds: Double) -> String {
        let whole = seconds.rounded(.down)
        // Exactly representable bounds well inside Int64 (and time_t): about ±285 million years.
        guard whole.isFinite, whole >= -9.0e15, whole <= 9.0e15 else { return "\(seconds) s since 1970" }
        return iso8601(seconds: Int64(whole))
    }

    static func iso8601(seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "\(seconds) s since 1970" }
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
