import AppStoreVerification
import Foundation


/// Renders outcomes and writes them to standard output.
///
/// Output is buffered; when standard output is a pipe or a terminal, ``flush()`` is called after
/// every run of verdicts written in order, so a reader at the other end sees each verdict as soon
/// as it and the ones before it are done. Into a file, the buffer is written every 64 KiB.
final class OutputWriter {
    let format: OutputFormat
    /// Whether every run of verdicts is flushed (standard output is a pipe or a terminal).
    let flushesEachRun: Bool
    private var buffer: [UInt8] = []
    private static let flushThreshold = 1 << 16
    /// Set when standard output is gone (a closed pipe); nothing more is written then.
    private(set) var failed = false

    /// The run's standard output (``CommandContext``), taken when the writer is made: it may
    /// flush from a worker thread.
    private let descriptor: Int32

    init(format: OutputFormat) {
        self.format = format
        descriptor = CommandContext.current.output
        var info = stat()
        let isPipe = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
        flushesEachRun = isPipe || isatty(descriptor) == 1
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    /// The output for one input line, newline included (pure, so workers can render in parallel).
    static func render(_ outcome: Outcome, for line: InputLine, format: OutputFormat) -> String {
        switch format {
        case .json: jsonLine(outcome, for: line) + "\n"
        case .text: text(outcome, location: line.location) + "\n"
        }
    }

    func write(_ rendered: String) {
        buffer.append(contentsOf: rendered.utf8)
        if buffer.count >= Self.flushThreshold { flush() }
    }

    /// The end of a run of verdicts written in input order.
    func endOfRun() {
        if flushesEachRun { flush() }
    }

    func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard !failed else { return }
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let written = Foundation.write(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failed = true
                    return
                }
                offset += written
            }
        }
    }

    // MARK: - JSON

    /// One JSON object: where the input was (file, `-` for standard input, and its 1-based line),
    /// status, error, type, payload, and nested outcomes when there are any. The status is the worst
    /// of the outcome and its nested ones, and the error the first that failed.
    static func jsonLine(_ outcome: Outcome, for input: InputLine) -> String {
        var line = "{\"file\":" + quote(input.source) + ",\"line\":" + String(input.lineNumber)
        line += ",\"status\":\"" + outcome.overallStatus.rawValue + "\",\"error\":"
        line.reserveCapacity(128 + (outcome.payloadData?.count ?? 0))
        line += errorJSON(effectiveError(of: outcome))
        line += ",\"type\":" + (outcome.kind.map { "\"" + $0.optionName + "\"" } ?? "null")
        line += ",\"payload\":" + payloadJSON(outcome.payloadData)
        if !outcome.nested.isEmpty {
            line += ",\"nested\":{"
            for (index, (name, inner)) in outcome.nested.enumerated() {
                if index > 0 { line += "," }
                line += quote(name) + ":{\"status\":\"" + inner.overallStatus.rawValue + "\",\"error\":"
                line += errorJSON(effectiveError(of: inner)) + ",\"payload\":" + payloadJSON(inner.payloadData) + "}"
            }
            line += "}"
        }
        return line + "}"
    }

    /// The outcome's own error, else the first nested one, prefixed with where it is.
    static func effectiveError(of outcome: Outcome) -> (code: String, message: String)? {
        if let code = outcome.errorCode { return (code, outcome.errorMessage ?? "") }
        for (name, inner) in outcome.nested {
            if let error = effectiveError(of: inner) { return (error.code, "\(name): \(error.message)") }
        }
        return nil
    }

    private static func errorJSON(_ error: (code: String, message: String)?) -> String {
        guard let error else { return "null" }
        return "{\"code\":\(quote(error.code)),\"message\":\(quote(error.message))}"
    }

    /// The payload JSON as the App Store signed it when it is one line (it always is: the verifier
    /// decoded it, so it is valid JSON), re-serialized compactly otherwise.
    private static func payloadJSON(_ data: Data?) -> String {
        guard let data else { return "null" }
        let oneLine = data.withUnsafeBytes { bytes -> Bool in
            guard let base = bytes.baseAddress, bytes.first == UInt8(ascii: "{") else { return false }
            return memchr(base, 0x0A, bytes.count) == nil && memchr(base, 0x0D, bytes.count) == nil
        }
        if oneLine { return String(decoding: data, as: UTF8.self) }
        guard let object = try? JSONSerialization.jsonObject(with: data),
              let compact = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return "null" }
        return String(decoding: compact, as: UTF8.self)
    }

    static func quote(_ text: String) -> String { JSONText.quoted(text) }

    // MARK: - Text

    static func text(_ outcome: Outcome, location: String, indent: String = "") -> String {
        let kind = outcome.kind?.description ?? "input"
        var text = indent
        // Everything below that comes from the input (file names, members, values, messages) is
        // escaped, so that no input can print a line of its own.
        let location = LogSafeText.escaping(location)
        switch outcome.status {
        case .verified: text += "✔ verified: \(kind) (\(location))"
        case .unverified: text += "✘ UNVERIFIED: \(kind) (\(location))"
        case .malformed: text += "✘ MALFORMED: \(kind) (\(location))"
        case .unavailable: text += "… UNAVAILABLE (retry later): \(kind) (\(location))"
        }
        if let code = outcome.errorCode {
            text += "\n\(indent)  \(code): \(LogSafeText.escaping(outcome.errorMessage ?? ""))"
        }
        // Nested JWS are shown as their own outcome below, not as their compact text.
        let skipped = Set(outcome.nested.map(\.name))
        if let payload = outcome.payload as? any Encodable, let node = ModelTextEncoder.node(for: payload), node.kind == .object {
            appendMembers(of: node, indent: indent + "  ", skipping: skipped, to: &text)
        } else if outcome.kind == .appReceipt, let data = outcome.payloadData, let node = ReceiptText.node(for: data) {
            appendMembers(of: node, indent: indent + "  ", skipping: skipped, to: &text)
        } else if let data = outcome.payloadData {
            text += "\n\(indent)  payload  \(LogSafeText.escaping(String(decoding: data, as: UTF8.self)))"
        }
        for (name, inner) in outcome.nested {
            text += "\n" + Self.text(inner, location: name, indent: indent + "    ")
        }
        return text
    }

    /// One `key  value` line per member, keys padded to one column; objects and arrays of objects
    /// below their key, indented.
    private static func appendMembers(of node: TextNode, indent: String, skipping: Set<String>, to text: inout String) {
        var width = 0
        for member in node.members where !skipping.contains(member.key) { width = max(width, member.key.utf8.count) }
        for (key, value) in node.members where !skipping.contains(key) {
            text += "\n" + indent + key
            switch value.kind {
            case .scalar:
                text += String(repeating: " ", count: width - key.utf8.count + 2) + value.scalar
            case .object:
                appendMembers(of: value, indent: indent + "  ", skipping: skipping, to: &text)
            case .array:
                if value.elements.allSatisfy({ $0.kind == .scalar }) {
                    text += String(repeating: " ", count: width - key.utf8.count + 2) + "[" + value.elements.map(\.scalar).joined(separator: ", ") + "]"
                } else {
                    for (index, element) in value.elements.enumerated() {
                        text += "\n\(indent)  [\(index)]"
                        if element.kind == .scalar {
                            text += "  " + element.scalar
                        } else {
                            appendMembers(of: element, indent: indent + "    ", skipping: skipping, to: &text)
                        }
                    }
                }
            }
        }
    }
}
