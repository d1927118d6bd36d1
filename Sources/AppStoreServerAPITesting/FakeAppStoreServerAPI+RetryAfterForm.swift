import Foundation

extension FakeAppStoreServerAPI {
    /// How a 429 of the fake writes its `Retry-After` header.
    public enum RetryAfterForm: Sendable, Hashable {
        /// Apple's form: the UNIX time, in milliseconds, at which the next request may go (the
        /// default, as Apple's *Identifying rate limits* documents it).
        case unixMilliseconds
        /// RFC 9110's delta-seconds: the number of seconds to wait.
        case seconds
        /// RFC 9110's HTTP-date (IMF-fixdate), to the second.
        case httpDate

        /// The header value for a wait of `seconds` from `now`.
        func value(waiting seconds: Double, from now: Date) -> String {
            switch self {
            case .unixMilliseconds:
                return String(Int64((now.timeIntervalSince1970 + seconds) * 1000))
            case .seconds:
                return String(Int64(seconds.rounded(.up)))
            case .httpDate:
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "GMT")
                formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
                return formatter.string(from: now.addingTimeInterval(seconds.rounded(.up)))
            }
        }
    }
}
