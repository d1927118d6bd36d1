import AppStoreVerification
import Foundation
import Hummingbird
import NIOCore

/// JSON response rendering shared by the routes (request bodies are read by
/// ``StrictJSONRequestDecoder``).
enum JSONBody {
    /// `value` as a JSON response (keys sorted, so the output is stable; ``ServerJSON``).
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let bytes: [UInt8]
        do {
            bytes = Array(try ServerJSON.encode(value))
        } catch {
            // Only the server's own response types reach here; they always encode.
            let data = Data(#"{"error":{"status":500,"code":"internal","message":"The response did not encode."}}"#.utf8)
            return Response(status: .internalServerError, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// ``PostedTransactionAnswer`` as a JSON response, written without an encoder (the same bytes).
    static func response(_ value: PostedTransactionAnswer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(bytes: value.json)))
    }
}
