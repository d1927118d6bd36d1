import Foundation

/// A date as the console renders it: `<time datetime="{{iso}}" title="{{utc}}">{{utc}}</time>`.
/// The page shows UTC; the console's script rewrites the text in the viewer's time zone and keeps
/// the UTC value in the title.
struct ConsoleDate: Sendable, Equatable {
    /// ISO 8601 in UTC (`2026-03-01T12:00:00Z`, with milliseconds when there are some): the
    /// `datetime` attribute.
    let iso: String
    /// `2026-03-01 12:00:00 UTC`: the text without JavaScript, and the title.
    let utc: String
    /// The instant in milliseconds since 1970 (for sorting).
    let milliseconds: Int64

    init(_ date: Date) {
        self.init(milliseconds: UnixMilliseconds.of(date))
    }

    init(milliseconds: Int64) {
        self.milliseconds = milliseconds
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let fraction = milliseconds - seconds * 1000
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        func two(_ value: Int?) -> String {
            let number = value ?? 0
            return number < 10 ? "0\(number)" : "\(number)"
        }
        let year = String(parts.year ?? 1970)
        let day = "\(year)-\(two(parts.month))-\(two(parts.day))"
        let time = "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
        let decimals = fraction == 0 ? "" : "." + String(String(fraction + 1000).dropFirst())
        iso = "\(day)T\(time)\(decimals)Z"
        utc = "\(day) \(time)\(decimals) UTC"
    }
}

/// A date with what it is (`expires`, `revoked`, …).
struct ConsoleLabeledDate: Sendable, Equatable {
    let label: String
    let date: ConsoleDate
}
