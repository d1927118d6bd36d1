import AppStoreVerification
import Foundation

/// Apple's error body: `{"errorCode": 4040010, "errorMessage": "Transaction id not found."}`.
struct ErrorResponseBody: Decodable, Sendable {
    let errorCode: Int64?
    let errorMessage: String?

    /// The body read best-effort: `nil` when it is not such JSON.
    static func parse(_ body: Data) -> ErrorResponseBody? {
        guard !body.isEmpty else { return nil }
        return try? AppStoreJSON.decode(ErrorResponseBody.self, from: body)
    }
}
