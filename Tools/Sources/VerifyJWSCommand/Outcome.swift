import AppStoreVerification
import Foundation

/// What `verify-jws` reports for one input.
struct Outcome: Sendable {
    enum Status: String, Sendable {
        case verified, unverified, malformed
        /// Online checks could not get a revocation answer (`revocationCheckUnavailable`): retry later.
        case unavailable
    }

    let status: Status
    /// `VerificationError.Code` or `SignedDataDecodingError.Code`; `nil` when verified.
    let errorCode: String?
    let errorMessage: String?
    /// The kind of signed data; `nil` when it could not be told.
    let kind: SignedPayloadKind?
    /// The decoded payload JSON; `nil` when malformed.
    let payloadData: Data?
    /// The decoded payload as its typed model (the text format renders it); `nil` when malformed.
    let payload: (any SignedPayload)?
    /// Nested signed data (a notification's transaction and renewal info), already verified.
    var nested: [(name: String, outcome: Outcome)] = []

    init<Payload: SignedPayload>(_ result: VerificationResult<Payload>) {
        self.init(verdictOf: result, kind: Payload.payloadKind, payloadData: result.payloadData, payload: result.unsafePayloadValue)
    }

    /// The outcome of a verification result: verified, or unverified with the error's code and message.
    init<Value: Sendable>(verdictOf result: VerificationResult<Value>, kind: SignedPayloadKind, payloadData: Data, payload: (any SignedPayload)?) {
        switch result {
        case .verified:
            status = .verified
            errorCode = nil
            errorMessage = nil
        case .unverified(_, let error):
            status = .unverified
            errorCode = error.code.description
            errorMessage = error.message
        }
        self.kind = kind
        self.payloadData = payloadData
        self.payload = payload
    }

    init(_ error: SignedDataDecodingError, kind: SignedPayloadKind?) {
        self.init(MalformedLine(code: error.code.description, message: error.message), kind: kind)
    }

    /// A line refused before verification, or by the library's decoding: malformed.
    init(_ error: MalformedLine, kind: SignedPayloadKind?) {
        status = .malformed
        errorCode = error.code
        errorMessage = error.message
        self.kind = kind
        payloadData = nil
        payload = nil
    }

    init(_ error: RevocationCheckUnavailable, kind: SignedPayloadKind?) {
        status = .unavailable
        errorCode = "revocationCheckUnavailable"
        errorMessage = error.message
        self.kind = kind
        payloadData = nil
        payload = nil
    }

    /// The status of this outcome and every nested one: the worst wins.
    var overallStatus: Status {
        nested.map(\.outcome.overallStatus).reduce(status, Outcome.worse)
    }
}

extension Outcome {
    /// The worse of two statuses: malformed, then unverified, then unavailable, then verified.
    static func worse(_ lhs: Status, _ rhs: Status) -> Status {
        switch (lhs, rhs) {
        case (.malformed, _), (_, .malformed): .malformed
        case (.unverified, _), (_, .unverified): .unverified
        case (.unavailable, _), (_, .unavailable): .unavailable
        default: .verified
        }
    }
}

/// Why a line is malformed: one of `SignedDataDecodingError`'s codes, or one of verify-jws's own
/// for a line it could not hand over (`multiLineJSON`).
struct MalformedLine: Sendable {
    let code: String
    let message: String
}
