#if ServerAPIClient
import Foundation

/// Reads an HTTP `Retry-After` value (RFC 9110 section 10.2.3): a number of seconds or an HTTP date.
enum RetryAfter {
    /// The wait `value` asks for, or `nil` when it is neither form. A date in the past is zero.
    static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Read as a number, leading zeros and all ("000120" is 120 seconds); an absurd number of
            // seconds is capped at 10^9 (the deadline decides anyway).
            var seconds: Int64 = 0
            for digit in text.utf8 {
                seconds = min(seconds * 10 + Int64(digit - UInt8(ascii: "0")), 1_000_000_000)
            }
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
