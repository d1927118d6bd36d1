import ArgumentParser
import Foundation

/// A date argument of `verify-jws api`: an ISO 8601 instant (`2026-11-01T00:00:00Z`) or
/// milliseconds since 1970, as Apple's API writes dates.
struct APIDateOption: ExpressibleByArgument, Sendable {
    let date: Date

    init(date: Date) { self.date = date }

    init?(argument: String) {
        if let milliseconds = Int64(argument), milliseconds >= 0, milliseconds <= 253_402_300_799_999 {
            date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            return
        }
        let formatter = ISO8601DateFormatter()
        if let parsed = formatter.date(from: argument) {
            date = parsed
            return
        }
        formatter.formatOptions.insert(.withFractionalSeconds)
        guard let parsed = formatter.date(from: argument) else { return nil }
        date = parsed
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
