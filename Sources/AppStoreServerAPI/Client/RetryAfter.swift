#if ServerAPIClient
import Foundation

/// Reads an HTTP `Retry-After` value (RFC 9110 section 10.2.3): a number of seconds or an HTTP date.
enum RetryAfter {
    /// The wait `value` asks for, or `nil` when it is neither form. A date in the past is zero.
    static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // An absurd number of seconds is capped: the deadline decides anyway.
            guard let seconds = Int64(text.prefix(9)) else { return nil }
            return .seconds(seconds)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        let seconds = date.timeIntervalSince(now)
        guard seconds.isFinite else { return nil }
        return seconds <= 0 ? .zero : .milliseconds(Int64(min(seconds, 1e9) * 1000))
    }
}
#endif
