import Foundation

/// A payload the App Store signs as a JWS: a transaction, renewal info, an app transaction, a
/// notification, a retention-messaging request.
///
/// The verifier decodes each conforming model with the strict payload decoder
/// (``AppStoreJSON/decode(_:from:)``: RFC 8259, no duplicate names, exact integers, dates as
/// milliseconds since 1970) and keeps the JWS it came from, so the raw header and payload bytes stay
/// reachable beside the typed fields (``jsonRepresentation``, and ``VerificationResult``'s
/// `jwsRepresentation`, `headerData`, `payloadData`): a field Apple adds tomorrow is never lost.
/// `JSONDecoder` with ``AppStoreJSON/makeDecoder()`` decodes the same models from bare JSON, without
/// a JWS.
///
/// Conforming to ``AppIdentityClaiming`` (``AppIdentityClaiming/appIdentity`` and
/// ``AppIdentityClaiming/missingRequiredMembers``, neither with a default) is what makes the
/// verifier run the app, environment and required-member checks on a payload kind.
public protocol SignedPayload: AppIdentityClaiming, Decodable, Sendable {
    /// Which kind of signed data this model decodes; used to recognise a payload handed to the wrong
    /// entry point.
    static var payloadKind: SignedPayloadKind { get }

    /// The date the App Store signed the payload, if it carries one.
    var signedDate: Date? { get }

    /// The instant at which the certificate chain is checked when the verifier's effective-date policy
    /// is ``EffectiveDatePolicy/signedDate``: `signedDate` for most payloads, `receiptCreationDate`
    /// for an app transaction (Apple's rule when online checks are off).
    var defaultEffectiveDate: Date? { get }
}

/// The library's own payload models, which keep the JWS the verifier decoded them from (set after
/// decoding; read-only to everyone else).
protocol JWSAttaching: SignedPayload {
    var jws: CompactJWS? { get set }
}

extension Transaction: JWSAttaching {}
extension RenewalInfo: JWSAttaching {}
extension AppTransaction: JWSAttaching {}
extension ResponseBodyV2DecodedPayload: JWSAttaching {}
extension DecodedRealtimeRequestBody: JWSAttaching {}

extension SignedPayload {
    /// By default, the payload's `signedDate`.
    public var defaultEffectiveDate: Date? { signedDate }

    /// The payload's JSON exactly as the App Store signed it (StoreKit's `jsonRepresentation`);
    /// `nil` for a model decoded from bare JSON.
    public var jsonRepresentation: Data? { (self as? any JWSAttaching)?.jws?.payloadData }
}
