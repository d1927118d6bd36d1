import Foundation

/// The dates in app receipts: RFC 3339 text in an IA5String.
///
/// The App Store writes `2024-02-23T17:27:16Z`; Xcode writes `2020-07-22T18:33:15+0100` (an offset
/// without a colon); fractional seconds may follow the seconds. An empty string means "no date".
/// Parsed by hand: no locale, no `DateFormatter`, and nothing accepted that does not match exactly.
enum ReceiptDate {
    /// The date `text` denotes; `.some(nil)` for the empty string; `nil` when it is not a date.
    static func parse(_ text: [UInt8]) -> Date?? {
        if text.isEmpty { return .some(nil) }
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= text.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = text[index + offset]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < text.count, text[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
              expect("T") || expect("t"), let hour = digits(2), expect(":"), let minute = digits(2), expect(":"),
              let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < text.count, text[index] >= 0x30, text[index] <= 0x39 {
                fraction += Double(text[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start, index - start <= 9 else { return nil }
        }
        var offset = 0
        guard index < text.count else { return nil }
        switch text[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = text[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = digits(2) else { return nil }
            _ = expect(":")
            guard let minutes = digits(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
        guard index == text.count else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset
        return .some(Date(timeIntervalSince1970: Double(seconds) + fraction))
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
