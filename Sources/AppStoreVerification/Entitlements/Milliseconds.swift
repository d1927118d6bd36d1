import Foundation

/// Instants as whole milliseconds since 1970, the App Store's own unit: exact to compare, exact to
/// store, and independent of `Date`'s floating-point representation.
enum Milliseconds {
    /// `date` in whole milliseconds since 1970, rounded down, clamped to a range Int64 holds.
    static func of(_ date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard milliseconds.isFinite else { return 0 }
        return Int64(max(-9.0e15, min(9.0e15, milliseconds)))
    }

    /// The `Date` of a number of milliseconds since 1970.
    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
