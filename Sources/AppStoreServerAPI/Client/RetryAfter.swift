import Foundation

/// A `Retry-After` header read: when to send the next request, as a wait from the moment the
/// answer was read and as the instant that wait ends.
///
/// Apple's *Identifying rate limits* says the header of a 429 "contains a UNIX time, in
/// milliseconds"; RFC 9110 (section 10.2.3) allows a number of seconds or an HTTP date. The forms
/// are told apart by value:
///
/// | value | read as |
/// | --- | --- |
/// | digits, 10^11 or more | a UNIX time in milliseconds (Apple's form: 10^11 ms is March 1973, while 10^11 s is over 3,000 years) |
/// | digits, 10^9 to 10^11 | a UNIX time in seconds (10^9 s is September 2001, while as a delay it is 31 years) |
/// | digits, below 10^9 | a delay in seconds (RFC 9110's delta-seconds) |
/// | an HTTP date (IMF-fixdate, RFC 850 or asctime) | that instant |
/// | anything else | ignored: the client backs off as if no header came |
///
/// An instant in the past means now. Values too large for any calendar are clamped to about
/// 285,000 years, which no deadline reaches.
struct RetryAfter: Sendable, Hashable {
    /// How long to wait from the moment the answer was read (zero for an instant in the past).
    let wait: Duration
    /// The instant the wait ends.
    let instant: Date

    /// The largest value read, in milliseconds: about 285,000 years, beyond any deadline.
    private static let clamp: Int64 = 9_000_000_000_000_000

    /// `value` read at `now`, or `nil` when it is none of the forms above.
    static func parse(_ value: String, now: Date) -> RetryAfter? {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Saturating: "000120" is 120, and 40 digits are as far as the clamp.
            var number: Int64 = 0
            for digit in text.utf8 {
                number = min(number * 10 + Int64(digit - UInt8(ascii: "0")), clamp)
            }
            switch number {
            case 100_000_000_000...:
                return at(milliseconds: number, now: now)
            case 1_000_000_000...:
                return at(milliseconds: number * 1000, now: now)
            default:
                return RetryAfter(wait: .seconds(number), instant: now.addingTimeInterval(TimeInterval(number)))
            }
        }
        guard let date = httpDate(text) else { return nil }
        return at(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)), now: now)
    }

    /// The instant `milliseconds` after 1970, read at `now`.
    private static func at(milliseconds: Int64, now: Date) -> RetryAfter {
        let nowMilliseconds = (now.timeIntervalSince1970 * 1000).rounded(.down)
        let instant = Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        let left = TimeInterval(milliseconds) - nowMilliseconds
        guard left > 0 else { return RetryAfter(wait: .zero, instant: instant) }
        return RetryAfter(wait: .milliseconds(Int64(left)), instant: instant)
    }

    /// The three date formats RFC 9110 (section 5.6.7) asks recipients to accept.
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",   // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
        "EEE MMM d HH:mm:ss yyyy",          // asctime: Sun Nov  6 08:49:37 1994
    ]

    /// `text` as an HTTP date, or `nil`.
    private static func httpDate(_ text: String) -> Date? {
        let folded = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: folded) { return date }
        }
        return nil
    }
}
