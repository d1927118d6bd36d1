import Foundation

/// Dates written for people in messages: ISO 8601, UTC, to the second.
enum DateText {
    static func iso8601(_ date: Date) -> String {
        iso8601(seconds: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    static func iso8601(seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "\(seconds) s since 1970" }
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
