import Foundation

/// Decodes payload JSON into a model with the strict decoder (``JSONDocumentDecoder``), turning its
/// `DecodingError`s into ``SignedDataDecodingError``s that say where the payload is wrong: JSON that
/// is not acceptable (an empty coding path) is `invalidJSON`, a field that does not fit its model is
/// `invalidPayload`.
enum PayloadDecoder {
    /// Decodes the payload and returns it with its parsed document, for checks on fields the model
    /// does not carry.
    static func decode<Payload: Decodable>(_ type: Payload.Type, from json: Data) throws(SignedDataDecodingError) -> (Payload, JSONDocument) {
        guard let first = json.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else {
            throw SignedDataDecodingError(.invalidJSON, "The payload is empty; it must be a JSON object.")
        }
        guard first == UInt8(ascii: "{") else {
            throw SignedDataDecodingError(.invalidJSON, "The payload is not a JSON object (it starts with \(Self.show(first))).")
        }
        do {
            return try JSONDocumentDecoder.decode(Payload.self, from: json)
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw SignedDataDecodingError(.invalidJSON, "The payload cannot be decoded: \(error).")
        }
    }

    private static func describe(_ error: DecodingError) -> SignedDataDecodingError {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the payload" : "\"\(keys.joined(separator: "."))\""
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return SignedDataDecodingError(.invalidJSON, "The payload is not valid JSON: \(context.debugDescription)")
        case .dataCorrupted(let context):
            return SignedDataDecodingError(.invalidPayload, "The payload's \(path(context)) is invalid: \(context.debugDescription)")
        case .typeMismatch(let type, let context):
            return SignedDataDecodingError(.invalidPayload, "The payload's \(path(context)) has the wrong type: expected \(type). \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return SignedDataDecodingError(.invalidPayload, "The payload's \(path(context)) is null or missing; expected \(type).")
        case .keyNotFound(let key, let context):
            return SignedDataDecodingError(.invalidPayload, "The payload lacks the required key \"\(key.stringValue)\" at \(path(context)).")
        @unknown default:
            return SignedDataDecodingError(.invalidPayload, "The payload cannot be decoded: \(error)")
        }
    }

    private static func show(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
    }
}
