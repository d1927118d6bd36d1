import Foundation

/// The dates in app receipts: RFC 3339 text in an IA5String.
///
/// The App Store writes `2024-02-23T17:27:16Z`; Xcode writes `2020-07-22T18:33:15+0100` (an offset
/// without a colon); fractional seconds may follow the seconds. An empty string means "no date".
/// Parsed by hand: no locale, no `DateFormatter`, and nothing accepted that does not match exactly.
enum ReceiptDate {
    /// The date `text` denotes; `.some(nil)` for the empty string; `nil` when it is not a date.
    static func parse(_ text: [UInt8]) -> Date?? {
        parse(text[...])
    }

    /// The date `text` denotes; `.some(nil)` for the empty string; `nil` when it is not a date.
    static func parse(_ text: ArraySlice<UInt8>) -> Date?? {
        if text.isEmpty { return .some(nil) }
        var cursor = Cursor(text: text, index: text.startIndex)
        guard let year = cursor.digits(4), cursor.expect("-"), let month = cursor.digits(2), cursor.expect("-"),
              let day = cursor.digits(2), cursor.expect("T") || cursor.expect("t"), let hour = cursor.digits(2),
              cursor.expect(":"), let minute = cursor.digits(2), cursor.expect(":"), let second = cursor.digits(2)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if cursor.expect(".") {
            var scale = 0.1
            var count = 0
            while let digit = cursor.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                count += 1
            }
            guard count > 0, count <= 9 else { return nil }
        }
        var offset = 0
        if cursor.expect("Z") || cursor.expect("z") {
            // UTC.
        } else if cursor.peek == UInt8(ascii: "+") || cursor.peek == UInt8(ascii: "-") {
            let sign = cursor.expect("-") ? -1 : 1
            if sign == 1 { _ = cursor.expect("+") }
            guard let hours = cursor.digits(2) else { return nil }
            _ = cursor.expect(":")
            guard let minutes = cursor.digits(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard cursor.isAtEnd else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset
        return .some(Date(timeIntervalSince1970: Double(seconds) + fraction))
    }

    /// Reads ASCII text left to right.
    private struct Cursor {
        let text: ArraySlice<UInt8>
        var index: Int

        var isAtEnd: Bool { index >= text.endIndex }
        var peek: UInt8? { isAtEnd ? nil : text[index] }

        /// One decimal digit, consumed.
        mutating func digit() -> Int? {
            guard let byte = peek, byte >= 0x30, byte <= 0x39 else { return nil }
            index += 1
            return Int(byte - 0x30)
        }

        /// Exactly `count` decimal digits, consumed, as a number.
        mutating func digits(_ count: Int) -> Int? {
            guard text.endIndex - index >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        /// Consumes `character` if it comes next.
        mutating func expect(_ character: Unicode.Scalar) -> Bool {
            guard peek == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }
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

extension ReceiptDate {
    /// `date` rounded down to a whole second, as receipts write dates.
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
