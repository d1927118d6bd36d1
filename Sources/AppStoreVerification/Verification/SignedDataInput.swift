import Foundation

/// Signed data as a verifier takes it: text (`String`, `Substring`) or bytes (`Data`, `[UInt8]`,
/// `ArraySlice<UInt8>`, a string's `utf8` view).
///
/// Every entry point of ``SignedDataVerifier`` and ``OnlineSignedDataVerifier`` takes one value of
/// this type, so that a JWS read from a file, a form field or a request body goes in as it is. A
/// byte collection of another library conforms with one line, through the default implementation
/// for collections of bytes; for example SwiftNIO's request body view:
///
/// ```swift
/// extension ByteBufferView: @retroactive SignedDataInput {}
/// ```
///
/// (or pass `String(buffer: body)`). The verifier checks the length against
/// ``SignedDataVerifier/Configuration/maximumInputLength`` before it reads anything else.
public protocol SignedDataInput {
    /// Calls `body` with the input's bytes (a string's UTF-8), contiguous, valid only during the call.
    func withSignedDataBytes<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result
}

extension SignedDataInput where Self: Collection, Element == UInt8 {
    /// The bytes, in place when the collection stores them contiguously, else copied once.
    public func withSignedDataBytes<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        // The standard library's closures rethrow untyped errors: the typed one travels in a Result.
        func call(_ buffer: UnsafeRawBufferPointer) -> Swift.Result<Result, Failure> {
            do throws(Failure) {
                return .success(try body(buffer))
            } catch {
                return .failure(error)
            }
        }
        if let outcome = withContiguousStorageIfAvailable({ call(UnsafeRawBufferPointer($0)) }) {
            return try outcome.get()
        }
        return try Array(self).withUnsafeBytes { call($0) }.get()
    }
}

extension String: SignedDataInput {
    /// The string's UTF-8 bytes.
    public func withSignedDataBytes<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try utf8.withSignedDataBytes(body)
    }
}

extension Substring: SignedDataInput {
    /// The substring's UTF-8 bytes.
    public func withSignedDataBytes<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try utf8.withSignedDataBytes(body)
    }
}

extension String.UTF8View: SignedDataInput {}
extension Substring.UTF8View: SignedDataInput {}
extension Data: SignedDataInput {}
extension Array: SignedDataInput where Element == UInt8 {}
extension ArraySlice: SignedDataInput where Element == UInt8 {}
extension ContiguousArray: SignedDataInput where Element == UInt8 {}
extension UnsafeRawBufferPointer: SignedDataInput {}

extension SignedDataInput {
    /// The input as text: a `String` as it is, bytes decoded as UTF-8 (a JWS is ASCII; other bytes
    /// fail its parsing).
    var signedDataText: String {
        if let string = self as? String { return string }
        if let substring = self as? Substring { return String(substring) }
        return withSignedDataBytes { buffer in String(decoding: buffer, as: UTF8.self) }
    }

    /// The number of bytes.
    var signedDataByteCount: Int {
        if let string = self as? String { return string.utf8.count }
        return withSignedDataBytes { buffer in buffer.count }
    }

    /// The first byte that is not ASCII white space, if any.
    var firstSignificantByte: UInt8? {
        withSignedDataBytes { buffer in buffer.first { !ASCIIWhiteSpace.contains($0) } }
    }
}
