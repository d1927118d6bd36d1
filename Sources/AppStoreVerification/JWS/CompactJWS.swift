import Foundation

/// A JWS in compact serialization (RFC 7515 section 7.1): `header.payload.signature`, each segment
/// base64url without padding.
///
/// Parsing succeeds when the text has exactly three segments and the payload segment decodes: only
/// then is there a payload to hand back. The header is decoded only when it is read. A header or
/// signature segment that does not decode is kept as a finding (``VerificationError/invalidEncoding(_:)`` at verification time) rather than thrown,
/// so the caller still sees the claimed payload, as with StoreKit's `.unverified`.
package struct CompactJWS: Sendable, Hashable {
    /// The JWS exactly as it was given.
    package let jwsRepresentation: String
    /// The decoded header JSON; empty when the header segment is not valid base64url.
    ///
    /// Decoded on each access: verification with a warm chain cache never needs it.
    package var headerData: Data { (try? Base64.decodeURL(headerSegment.utf8)) ?? Data() }
    /// The decoded payload JSON.
    package let payloadData: Data
    /// The decoded signature bytes (for ES256, `r || s`); empty when the signature segment is not
    /// valid base64url.
    package let signature: Data

    /// The length in bytes of the signing input, `header.payload`.
    let signingInputLength: Int
    /// The header segment as it appears in the JWS (base64url text).
    let headerSegment: Substring
    /// Why the signature segment does not decode, if it does not.
    let signatureEncodingFailure: Base64.Failure?

    /// The signing input: the ASCII bytes of `header.payload`, the bytes the signature covers.
    package var signedData: Data { Data(jwsRepresentation.utf8.prefix(signingInputLength)) }

    /// Splits and decodes a compact JWS.
    ///
    /// - Throws: ``SignedDataDecodingError`` with code `malformedJWS` when the text is not three
    ///   dot-separated segments or its payload segment is not strict base64url.
    package init(parsing jws: String) throws(SignedDataDecodingError) {
        var jws = jws
        jws.makeContiguousUTF8()
        // Offsets of the two dots, found with memchr over the string's UTF-8 storage.
        typealias Dots = (first: Int?, second: Int?, more: Int)
        let dots: Dots = jws.utf8.withContiguousStorageIfAvailable { bytes -> Dots in
            guard let base = bytes.baseAddress else { return (nil, nil, 0) }
            func dot(after start: Int) -> Int? {
                guard start < bytes.count, let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start) else { return nil }
                return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            guard let first = dot(after: 0) else { return (nil, nil, 0) }
            guard let second = dot(after: first + 1) else { return (first, nil, 0) }
            var more = 0
            var cursor = second + 1
            while let next = dot(after: cursor) {
                more += 1
                cursor = next + 1
            }
            return (first, second, more)
        } ?? (nil, nil, 0)
        guard let firstDot = dots.first else {
            throw SignedDataDecodingError(.malformedJWS, "A compact JWS has three segments separated by '.'; this text has one.")
        }
        guard let secondDot = dots.second else {
            throw SignedDataDecodingError(.malformedJWS, "A compact JWS has three segments separated by '.'; this text has two.")
        }
        guard dots.more == 0 else {
            throw SignedDataDecodingError(.malformedJWS, "A compact JWS has three segments separated by '.'; this text has \(dots.more + 3) (a JWE or a JSON-serialized JWS is not accepted).")
        }
        guard firstDot > 0 else {
            throw SignedDataDecodingError(.malformedJWS, "The JWS header segment is empty.")
        }
        let utf8 = jws.utf8
        let payloadStart = utf8.index(utf8.startIndex, offsetBy: firstDot + 1)
        let payloadEnd = utf8.index(utf8.startIndex, offsetBy: secondDot)
        do {
            self.payloadData = try Base64.decodeURL(utf8[payloadStart..<payloadEnd])
        } catch {
            throw SignedDataDecodingError(.malformedJWS, "The JWS payload segment is not base64url without padding: \(error).")
        }
        var signatureFailure: Base64.Failure?
        do {
            self.signature = try Base64.decodeURL(utf8[utf8.index(after: payloadEnd)...])
        } catch {
            self.signature = Data()
            signatureFailure = error
        }
        self.jwsRepresentation = jws
        self.headerSegment = Substring(utf8[..<utf8.index(utf8.startIndex, offsetBy: firstDot)])
        self.signingInputLength = secondDot
        self.signatureEncodingFailure = signatureFailure
    }

    /// Calls `body` with the signing input's bytes, without copying them when the string is stored
    /// contiguously (native Swift strings are).
    package func withSigningInput<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try withUTF8Bytes(0..<signingInputLength, body)
    }

    /// Calls `body` with the bytes of `header.`: the part of the signing input every JWS signed under
    /// one chain shares.
    func withHeaderAndDot<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try withUTF8Bytes(0..<(headerSegment.utf8.count + 1), body)
    }

    /// Calls `body` with the payload segment's bytes (base64url text): the part of the signing input
    /// after `header.`.
    func withPayloadSegment<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try withUTF8Bytes((headerSegment.utf8.count + 1)..<signingInputLength, body)
    }

    /// Calls `body` with the UTF-8 bytes at `offsets` of the JWS text.
    private func withUTF8Bytes<Result, Failure: Error>(_ offsets: Range<Int>, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        let contiguous: Swift.Result<Result, Failure>? = jwsRepresentation.utf8.withContiguousStorageIfAvailable { bytes in
            do throws(Failure) {
                return .success(try body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[offsets]))))
            } catch {
                return .failure(error)
            }
        }
        if let contiguous { return try contiguous.get() }
        let copy = Array(jwsRepresentation.utf8)
        let copied: Swift.Result<Result, Failure> = copy.withUnsafeBytes { raw in
            do throws(Failure) {
                return .success(try body(UnsafeRawBufferPointer(rebasing: raw[offsets])))
            } catch {
                return .failure(error)
            }
        }
        return try copied.get()
    }

    /// Two JWS are equal when their text is.
    package static func == (lhs: CompactJWS, rhs: CompactJWS) -> Bool {
        lhs.jwsRepresentation == rhs.jwsRepresentation
    }

    /// Hashes the JWS text.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(jwsRepresentation)
    }
}
