@testable import AppStoreVerification
import FuzzSupport

@main
enum FuzzOCSPHTTP {
    static func main() {
        runLibFuzzer { data, count in fuzz(data, count) }
    }
}

/// The entry point libFuzzer's runtime refers to; the driver above calls the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzz(data, count)
}

/// One fuzzing input for SocketOCSPTransport's HTTP response parser, a pure function over bytes:
/// the first byte picks the body limit and how the rest is cut into reads; the rest is what the
/// server sent before closing the connection.
///
/// Besides crashes and AddressSanitizer reports, it stops on a broken invariant: the response is the
/// same whether the bytes arrive at once or in pieces (the same status and body, or a failure of the
/// same kind), a body never exceeds the limit, and a returned status is a final one (200-599).
private func fuzz(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start = data, count > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let control = Int(input[0])
    let bytes = Array(input.dropFirst())
    let limits = [0, 1, 16, 100, 4_096, 65_536]
    let limit = limits[control % limits.count]
    let whole = OCSPHTTPResponseParser.parse(bytes, maximumBodyLength: limit)
    let pieces = parseInPieces(bytes, limit: limit, sizes: [1 + control / limits.count % 7, 1, 13, 2])
    switch (whole, pieces) {
    case (.success(let a), .success(let b)):
        check(a.status == b.status && a.body == b.body, "the response depends on how the bytes arrive")
        check(a.body.count <= limit, "a body over the limit was returned")
        check((200...599).contains(a.status), "a non-final status was returned")
    case (.failure(let a), .failure(let b)):
        check(kind(a) == kind(b), "the failure depends on how the bytes arrive: \(a) / \(b)")
    default:
        check(false, "one of the two parses failed: \(whole) / \(pieces)")
    }
    return 0
}

/// The parse of `bytes` fed in reads of `sizes` (cycled), then the end of the connection.
private func parseInPieces(_ bytes: [UInt8], limit: Int, sizes: [Int]) -> Result<(status: Int, body: [UInt8]), OCSPHTTPResponseParser.Failure> {
    var parser = OCSPHTTPResponseParser(maximumBodyLength: limit)
    var offset = 0
    var read = 0
    do {
        while offset < bytes.count {
            let size = min(sizes[read % sizes.count], bytes.count - offset)
            read += 1
            if let response = try parser.consume(bytes[offset..<(offset + size)]) { return .success(response) }
            offset += size
        }
        return .success(try parser.finish())
    } catch {
        return .failure(error)
    }
}

private func kind(_ failure: OCSPHTTPResponseParser.Failure) -> String {
    switch failure {
    case .malformed: "malformed"
    case .truncated: "truncated"
    case .tooLarge: "tooLarge"
    case .noResponse: "noResponse"
    }
}

/// Stops the run (libFuzzer records the input) when `condition` is false.
private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { failInvariant("FuzzOCSPHTTP: \(message())") }
}
