import Foundation

/// App Store timestamps for people: `2026-03-01T12:00:00.000Z  (1772366400000)`, ISO 8601 in UTC
/// with milliseconds, then the milliseconds since 1970 as signed.
///
/// Computed with integer arithmetic (days to civil date, after Howard Hinnant's published
/// algorithm), so it needs no formatter object and is safe on any thread.
enum TimestampText {
    static func text(_ date: Date) -> String {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        // Dates decoded from any Int64 of milliseconds fit; anything else is shown as it is.
        guard value.magnitude < 9.2e18 else { return "\(date.timeIntervalSince1970) s since 1970" }
        let milliseconds = Int64(value)
        return iso8601(milliseconds: milliseconds) + "  (\(milliseconds))"
    }

    /// `yyyy-MM-ddTHH:mm:ss.SSSZ` for milliseconds since 1970 (years 0 ... 9999; others as a number).
    static func iso8601(milliseconds: Int64) -> String {
        let (seconds, millis) = floorDivide(milliseconds, 1000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        // Civil date from days since 1970-01-01.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        guard (0...9999).contains(year) else { return "\(milliseconds) ms since 1970" }
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var value = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor))
                value %= divisor
                divisor /= 10
            }
        }
        digits(year, 4); bytes.append(UInt8(ascii: "-"))
        digits(month, 2); bytes.append(UInt8(ascii: "-"))
        digits(day, 2); bytes.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2); bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2); bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2); bytes.append(UInt8(ascii: "."))
        digits(millis, 3); bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }
}
