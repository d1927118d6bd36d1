import Foundation

/// One non-blank line as read, before multi-line objects are put together.
struct RawLine {
    enum Content {
        /// The line, surrounding ASCII white space removed.
        case text(String)
        /// A line over the limit, skipped: its length in bytes.
        case tooLong(bytes: Int)
    }

    let source: String
    let lineNumber: Int
    let content: Content
    let limit: Int

    var problem: InputProblem? {
        if case .tooLong(let bytes) = content { return .tooLong(bytes: bytes, limit: limit) }
        return nil
    }
}

/// Splits one file descriptor into lines with `read(2)` and a bounded buffer.
///
/// Lines are handed out as soon as their newline arrives, so a line written to a pipe is answered
/// before the pipe is closed. The buffer holds one chunk (64 KiB) plus at most one line of
/// `maximumLineLength` bytes; the bytes of a longer line are counted and dropped as they arrive.
///
/// The first 4 KiB decide whether the input is text at all: a NUL byte or bytes that are not UTF-8
/// there make the whole input "not text: looks binary", said once in ``error`` instead of as one
/// malformed verdict per line. With ``readsDERReceipts`` (`--type app-receipt` or `auto`), binary
/// input that starts like DER (a SEQUENCE) is instead read whole, within the line limit, as one app
/// receipt and handed out base64-encoded: a receipt file straight from an app bundle.
final class LineReader {
    static let chunkSize = 1 << 16
    static let sniffLength = 4096

    private let input: OpenedInput
    private let maximumLineLength: Int
    private var buffer: UnsafeMutableRawBufferPointer
    /// Unconsumed bytes are `buffer[start..<end]`; `scanned` bytes of them hold no newline.
    private var start = 0, end = 0, scanned = 0
    private var lineNumber = 0
    private var atEnd = false
    /// How many of the input's first bytes were sniffed for binary content.
    private var sniffed = 0
    private var sniffer = TextSniffer()
    /// The bytes of an over-long line dropped so far; `nil` when not inside one.
    private var skipping: Int?
    /// Why this input stopped early (unreadable, binary), for standard error.
    private(set) var error: String?

    /// Whether binary input that starts like DER is read whole as one app receipt.
    let readsDERReceipts: Bool
    /// The whole input as one DER receipt, once read; handed out by the next ``next()``.
    private var receipt: RawLine?

    init(input: OpenedInput, maximumLineLength: Int, readsDERReceipts: Bool = false) {
        self.input = input
        self.maximumLineLength = maximumLineLength
        self.readsDERReceipts = readsDERReceipts
        buffer = .allocate(byteCount: Self.chunkSize, alignment: 1)
    }

    deinit { buffer.deallocate() }

    private var name: String { input.path == "-" ? "standard input" : input.path }

    /// The next non-blank line, or `nil` at the end of the input (or after an error).
    func next() -> RawLine? {
        while true {
            if let newline = findNewline() {
                lineNumber += 1
                let lineStart = start
                start = newline + 1
                scanned = 0
                if let dropped = skipping {
                    skipping = nil
                    return RawLine(source: input.path, lineNumber: lineNumber, content: .tooLong(bytes: dropped + newline - lineStart), limit: maximumLineLength)
                }
                if let line = makeLine(from: lineStart, to: newline) { return line }
                continue
            }
            if atEnd {
                guard start < end || skipping != nil else { return nil }
                lineNumber += 1
                let lineStart = start
                start = end
                if let dropped = skipping {
                    skipping = nil
                    return RawLine(source: input.path, lineNumber: lineNumber, content: .tooLong(bytes: dropped + end - lineStart), limit: maximumLineLength)
                }
                if let line = makeLine(from: lineStart, to: end) { return line }
                return nil
            }
            if !fill() {
                defer { receipt = nil }
                return receipt
            }
        }
    }

    /// Reads the rest of the input after the bytes in the buffer and makes the whole of it one item:
    /// its base64 text, or `tooLong` when that text would exceed the line limit.
    private func readWholeReceipt() -> RawLine {
        var bytes = [UInt8](UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
        // Base64 text is 4/3 of the bytes: stop reading once it cannot fit.
        let limit = maximumLineLength / 4 * 3
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(input.descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        guard bytes.count <= limit else {
            return RawLine(source: input.path, lineNumber: 1, content: .tooLong(bytes: bytes.count * 4 / 3), limit: maximumLineLength)
        }
        return RawLine(source: input.path, lineNumber: 1, content: .text(Data(bytes).base64EncodedString()), limit: maximumLineLength)
    }

    /// The offset of the next newline in the unconsumed bytes, scanning only bytes not scanned yet.
    private func findNewline() -> Int? {
        let from = start + scanned
        guard from < end, let base = buffer.baseAddress else { return nil }
        guard let found = memchr(base + from, 0x0A, end - from) else {
            scanned = end - start
            return nil
        }
        return base.distance(to: UnsafeMutableRawPointer(found))
    }

    private func makeLine(from lineStart: Int, to lineEnd: Int) -> RawLine? {
        var first = lineStart, last = lineEnd
        while first < last, isWhiteSpace(buffer[first]) { first += 1 }
        while last > first, isWhiteSpace(buffer[last - 1]) { last -= 1 }
        guard first < last else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[first..<last]), as: UTF8.self)
        return RawLine(source: input.path, lineNumber: lineNumber, content: .text(text), limit: maximumLineLength)
    }

    /// Reads more bytes; `false` when the input has to stop (a read error, or binary input).
    private func fill() -> Bool {
        // A partial line over the limit: count its bytes and drop them.
        if end - start > maximumLineLength {
            skipping = (skipping ?? 0) + (end - start)
            start = 0; end = 0; scanned = 0
        }
        if start > 0 {
            // Move the partial line to the front.
            let count = end - start
            if count > 0, let base = buffer.baseAddress {
                memmove(base, base + start, count)
            }
            start = 0; end = count
        }
        if end == buffer.count {
            // The partial line fills the buffer: grow it, up to one line at the limit plus a chunk.
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: min(buffer.count * 2, maximumLineLength + Self.chunkSize + 1), alignment: 1)
            if let to = grown.baseAddress, let from = buffer.baseAddress { memcpy(to, from, end) }
            buffer.deallocate()
            buffer = grown
        }
        guard let base = buffer.baseAddress else { return false }
        var count: Int
        repeat {
            count = read(input.descriptor, base + end, min(buffer.count - end, Self.chunkSize))
        } while count < 0 && errno == EINTR
        if count < 0 {
            error = "cannot read \(name): \(String(cString: strerror(errno)))"
            return false
        }
        if count == 0 {
            atEnd = true
        } else {
            end += count
        }
        if sniffed < Self.sniffLength, count > 0 {
            // Sniff the input's first bytes as they arrive.
            let take = min(count, Self.sniffLength - sniffed)
            let region = UnsafeRawBufferPointer(rebasing: buffer[(end - count)..<(end - count + take)])
            if let reason = sniffer.check(region, atOffset: sniffed) {
                if readsDERReceipts, lineNumber == 0, start == 0, end > 0, buffer[0] == 0x30 {
                    receipt = readWholeReceipt()
                    // The input is used up: nothing is left to split into lines.
                    start = end
                    scanned = 0
                    atEnd = true
                    return false
                }
                error = "\(name): not text: looks binary (\(reason)); verify-jws reads one JWS or notification body per line"
                    + (buffer[0] == 0x30 ? " (a DER app receipt file is read whole with --type app-receipt or auto)" : "")
                return false
            }
            sniffed += take
        }
        return true
    }
}

/// Tells text from binary over an input's first bytes, fed in pieces as they are read.
struct TextSniffer {
    /// Continuation bytes still expected from a UTF-8 character cut at the end of the last piece.
    private var pendingContinuations = 0

    /// Why `bytes` (at `offset` in the input) do not look like text, or `nil` when they do.
    mutating func check(_ bytes: UnsafeRawBufferPointer, atOffset offset: Int) -> String? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if pendingContinuations > 0 {
                guard byte & 0xC0 == 0x80 else { return Self.notUTF8(byte, at: offset + index) }
                pendingContinuations -= 1
                index += 1
                continue
            }
            if byte == 0 { return "a NUL byte at offset \(offset + index)" }
            if byte < 0x80 { index += 1; continue }
            let length = byte >= 0xF0 && byte <= 0xF4 ? 4 : byte >= 0xE0 && byte <= 0xEF ? 3 : byte >= 0xC2 && byte <= 0xDF ? 2 : 0
            guard length > 0 else { return Self.notUTF8(byte, at: offset + index) }
            pendingContinuations = length - 1
            index += 1
        }
        return nil
    }

    private static func notUTF8(_ byte: UInt8, at offset: Int) -> String {
        "byte 0x\(String(byte, radix: 16, uppercase: true)) at offset \(offset) is not UTF-8"
    }
}

private func isWhiteSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0D).contains(byte)
}
