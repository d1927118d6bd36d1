import Foundation

/// A JWS in compact serialization (RFC 7515 section 7.1): `header.payload.signature`, each segment
/// base64url without padding.
///
/// Parsing succeeds when the text has exactly three segments and the payload segment decodes: only
/// then is there a payload to hand back. A header or signature segment that does not decode is kept
/// as a finding (``VerificationError/invalidEncoding(_:)`` at verification time) rather than thrown,
/// so the caller still sees the claimed payload, as with StoreKit's `.unverified`.
public struct CompactJWS: Sendable, Hashable {
    /// The JWS exactly as it was given.
    public let jwsRepresentation: String
    /// The decoded header JSON; empty when the header segment is not valid base64url.
    public let headerData: Data
    /// The decoded payload JSON.
    public let payloadData: Data
    /// The decoded signature bytes (for ES256, `r || s`); empty when the signature segment is not
    /// valid base64url.
    public let signature: Data

    /// The length in bytes of the signing input, `header.payload`.
    let signingInputLength: Int
    /// The header segment as it appears in the JWS (base64url text).
    let headerSegment: Substring
    /// Why the header segment does not decode, if it does not.
    let headerEncodingFailure: Base64.Failure?
    /// Why the signature segment does not decode, if it does not.
    let signatureEncodingFailure: Base64.Failure?

    /// The signing input: the ASCII bytes of `header.payload`, the bytes the signature covers.
    public var signedData: Data { Data(jwsRepresentation.utf8.prefix(signingInputLength)) }

    /// Splits and decodes a compact JWS.
    ///
    /// - Throws: ``SignedDataDecodingError`` with code `malformedJWS` when the text is not three
    ///   dot-separated segments or its payload segment is not strict base64url.
    public init(parsing jws: String) throws(SignedDataDecodingError) {
        let utf8 = jws.utf8
        guard let firstDot = utf8.firstIndex(of: UInt8(ascii: ".")) else {
            throw SignedDataDecodingError(.malformedJWS, "A compact JWS has three segments separated by '.'; this text has one.")
        }
        let payloadStart = utf8.index(after: firstDot)
        guard let secondDot = utf8[payloadStart...].firstIndex(of: UInt8(ascii: ".")) else {
            throw SignedDataDecodingError(.malformedJWS, "A compact JWS has three segments separated by '.'; this text has two.")
        }
        let signatureStart = utf8.index(after: secondDot)
        if let extra = utf8[signatureStart...].firstIndex(of: UInt8(ascii: ".")) {
            let segments = utf8[extra...].filter { $0 == UInt8(ascii: ".") }.count + 3
            throw SignedDataDecodingError(.malformedJWS, "A compact JWS has three segments separated by '.'; this text has \(segments) (a JWE or a JSON-serialized JWS is not accepted).")
        }
        let headerBytes = utf8[..<firstDot]
        let payloadBytes = utf8[payloadStart..<secondDot]
        let signatureBytes = utf8[signatureStart...]
        guard !headerBytes.isEmpty else {
            throw SignedDataDecodingError(.malformedJWS, "The JWS header segment is empty.")
        }
        do {
            self.payloadData = try Base64.decodeURL(payloadBytes)
        } catch {
            throw SignedDataDecodingError(.malformedJWS, "The JWS payload segment is not base64url without padding: \(error).")
        }
        var headerFailure: Base64.Failure?
        do {
            self.headerData = try Base64.decodeURL(headerBytes)
        } catch {
            self.headerData = Data()
            headerFailure = error
        }
        var signatureFailure: Base64.Failure?
        do {
            self.signature = try Base64.decodeURL(signatureBytes)
        } catch {
            self.signature = Data()
            signatureFailure = error
        }
        self.jwsRepresentation = jws
        self.headerSegment = Substring(jws.utf8[..<firstDot])
        self.signingInputLength = utf8.distance(from: utf8.startIndex, to: secondDot)
        self.headerEncodingFailure = headerFailure
        self.signatureEncodingFailure = signatureFailure
    }

    /// A JWS made of `text` with no decoded content; only for placeholders, never verified.
    init(unchecked text: String) {
        self.jwsRepresentation = text
        self.headerData = Data()
        self.payloadData = Data()
        self.signature = Data()
        self.signingInputLength = 0
        self.headerSegment = Substring()
        self.headerEncodingFailure = nil
        self.signatureEncodingFailure = nil
    }

    /// Calls `body` with the signing input's bytes, without copying them when the string is stored
    /// contiguously (native Swift strings are).
    func withSigningInput<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let prefix = jwsRepresentation.utf8.prefix(signingInputLength)
        if let result = try prefix.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return try Array(prefix).withUnsafeBytes(body)
    }

    public static func == (lhs: CompactJWS, rhs: CompactJWS) -> Bool {
        lhs.jwsRepresentation == rhs.jwsRepresentation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(jwsRepresentation)
    }
}
