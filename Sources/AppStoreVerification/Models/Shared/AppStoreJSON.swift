import Foundation

/// The JSON conventions of App Store payloads.
public enum AppStoreJSON: Sendable {
    /// A decoder for App Store payloads: dates are numbers of milliseconds since 1970, which may have
    /// a fractional part (Xcode writes `1697679936049.7297`).
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let milliseconds = try container.decode(Double.self)
            guard milliseconds.isFinite else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "A date must be a finite number of milliseconds since 1970.")
            }
            return Date(timeIntervalSince1970: milliseconds / 1000)
        }
        return decoder
    }

    /// Decodes an App Store payload JSON without verifying anything: strictly (RFC 8259, no
    /// duplicate member names, integers exact) and several times faster than `JSONDecoder`. The
    /// verifier decodes payloads this way.
    ///
    /// - Throws: `DecodingError`; `dataCorrupted` with an empty coding path when `json` is not
    ///   acceptable JSON.
    public static func decode<T: Decodable>(_ type: T.Type, from json: Data) throws -> T {
        try JSONDocumentDecoder.decode(type, from: json).0
    }

    /// An encoder that writes the same conventions back: dates as whole milliseconds since 1970 when
    /// they are whole, keys sorted.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            let milliseconds = date.timeIntervalSince1970 * 1000
            let rounded = milliseconds.rounded()
            if abs(milliseconds - rounded) < 0.0005, abs(rounded) < 9.0e15 {
                try container.encode(Int64(rounded))
            } else {
                try container.encode(milliseconds)
            }
        }
        return encoder
    }

    /// `value` encoded by ``makeEncoder()``: the JSON the minter signs and the realtime responses
    /// send.
    ///
    /// - Throws: `EncodingError` as `JSONEncoder` throws it (a non-finite number, for one).
    package static func encode(_ value: some Encodable) throws -> Data {
        try makeEncoder().encode(value)
    }

    /// `date` rounded to a whole millisecond since 1970, as App Store payloads carry dates: the
    /// model initializers store dates this way, so that a model encodes and decodes back unchanged.
    static func wholeMilliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
