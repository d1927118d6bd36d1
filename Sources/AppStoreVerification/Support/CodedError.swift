/// What the library's error structs share (``SignedDataDecodingError``, ``SigningKeyError``, ...,
/// and the other products' `AppStoreTestingError` and `AppStoreServerAPIError`): a ``code`` to
/// compare and a ``message`` to read. Equality and hashing use the code alone, as
/// swift-certificates' `CertificateError` does: a message says what happened in words that may
/// change from one release to the next, while the code is the error's identity.
package protocol CodedError: Error, Hashable, CustomStringConvertible {
    associatedtype Code: ErrorCode
    /// What kind of failure: compare it with the type's static codes.
    var code: Code { get }
    /// What failed and what to do, for people.
    var message: String { get }
}

extension CodedError {
    /// Whether the two errors have the same code (their messages may differ).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code alone, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The code and the message: `code: message`.
    public var description: String { "\(code): \(message)" }
}

/// A code of a ``CodedError``: an open set of static values (later versions may add some, so a
/// `switch` over them keeps a `default`), made only by the library.
package protocol ErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The code as text, as `description` and `verify-jws` print it.
    var text: String { get }
}

extension ErrorCode {
    /// The code as text.
    public var description: String { text }
}
