import Foundation
import Hummingbird
import NIOCore

/// Reads a console form's body (`application/x-www-form-urlencoded`, as browsers send forms) with
/// Hummingbird's decoder, refusing bodies over 16 KiB.
enum ConsoleForm {
    /// The most bytes a console form's body may have.
    static let maximumBytes = 16 * 1024

    /// The request's form body decoded as `T`; a body that is not such a form is refused (400).
    static func decode<T: Decodable>(_ type: T.Type, from request: inout Request) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maximumBytes)
        } catch {
            throw ConsoleError(.badRequest, "Form refused", "The form's body is larger than \(maximumBytes) bytes or did not arrive whole.")
        }
        let text = String(decoding: buffer.readableBytesView, as: UTF8.self)
        do {
            return try URLEncodedFormDecoder().decode(T.self, from: text)
        } catch {
            throw ConsoleError(.badRequest, "Form refused", "The form's fields are not the ones this page sends. Go back, reload the page and try again.")
        }
    }
}

/// The fields of the forms that only carry the session's CSRF token (sign-out, reconcile).
struct ConsoleTokenForm: Decodable, Sendable {
    let csrf: String?
}

/// The sign-in form's fields.
struct ConsoleSignInForm: Decodable, Sendable {
    /// The access token typed by the user.
    let token: String?
    /// The sign-in cookie's value, echoed by the form (double submit).
    let signInToken: String?
}
