import Foundation

/// Reads the non-blank lines of the given inputs, one at a time, in order; `-` is standard input.
///
/// Memory is bounded: a read buffer of 64 KiB plus at most one line of `maximumLineLength` bytes (a
/// longer line is counted and skipped, and comes back with ``InputProblem/tooLong(bytes:limit:)``).
/// A pretty-printed JSON object over several lines comes back as one item with
/// ``InputProblem/multiLineJSON(lastLine:)``.
struct InputLines {
    private let inputs: [OpenedInput]
    private var current = 0
    private var reader: LineReader?
    private let maximumLineLength: Int
    /// Whether a binary input that starts like DER is read whole as one app receipt.
    private let readsDERReceipts: Bool
    /// A line read ahead while looking for the end of a multi-line object.
    private var pending: RawLine?
    /// Problems with whole inputs (binary files), each said once on standard error.
    private(set) var inputErrors: [String] = []

    /// Opens every input up front, so a missing file, a directory or an unreadable path is one clear
    /// error before anything is verified.
    init(paths: [String], maximumLineLength: Int, readsDERReceipts: Bool = false) throws(InputError) {
        inputs = try (paths.isEmpty ? ["-"] : paths).map { path throws(InputError) in try OpenedInput(path: path) }
        self.maximumLineLength = maximumLineLength
        self.readsDERReceipts = readsDERReceipts
    }

    /// The next item, or `nil` after the last input's last line.
    mutating func next() -> InputLine? {
        guard let first = nextRaw() else { return nil }
        guard case .text(let text) = first.content else {
            return InputLine(source: first.source, lineNumber: first.lineNumber, text: "", problem: first.problem)
        }
        guard text.hasPrefix("{"), let opened = JSONNesting.depthAfter(text), opened > 0 else {
            return InputLine(source: first.source, lineNumber: first.lineNumber, text: text)
        }
        // A JSON object left open at the end of its line: read on to where it closes (or the input
        // ends), bounded like one line, and report the whole span once.
        // Only lines that can continue pretty-printed JSON (a member, a closing bracket) count, so
        // a truncated one-line body does not swallow the JWS lines after it.
        var depth = opened, last = first.lineNumber, bytes = text.utf8.count
        while depth > 0, bytes <= maximumLineLength, let line = nextRaw() {
            guard line.source == first.source, case .text(let more) = line.content, JSONNesting.canContinue(more) else {
                pending = line
                break
            }
            last = line.lineNumber
            bytes += more.utf8.count
            depth = JSONNesting.depthAfter(more, startingAt: depth) ?? 0
        }
        guard last > first.lineNumber else {
            return InputLine(source: first.source, lineNumber: first.lineNumber, text: text)
        }
        return InputLine(source: first.source, lineNumber: first.lineNumber, text: "", problem: .multiLineJSON(lastLine: last))
    }

    private mutating func nextRaw() -> RawLine? {
        if let line = pending {
            pending = nil
            return line
        }
        while current < inputs.count {
            if reader == nil {
                reader = LineReader(input: inputs[current], maximumLineLength: maximumLineLength, readsDERReceipts: readsDERReceipts)
            }
            if let line = reader?.next() { return line }
            if let error = reader?.error { inputErrors.append(error) }
            reader = nil
            current += 1
        }
        return nil
    }
}

/// An input file, opened.
final class OpenedInput {
    /// The path as given; `-` for standard input.
    let path: String
    let descriptor: Int32
    /// Whether ``descriptor`` is the run's standard input (``CommandContext``), left open.
    private let isStandardInput: Bool

    init(path: String) throws(InputError) {
        self.path = path
        isStandardInput = path == "-"
        if isStandardInput {
            descriptor = CommandContext.current.input
            return
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw InputError(message: "cannot read \(path): \(reason)")
        }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw InputError(message: "cannot read \(path): it is a directory; give the files in it (one JWS per line)")
        }
        descriptor = fd
    }

    deinit {
        if !isStandardInput { close(descriptor) }
    }
}

/// An input file that cannot be read, or input that is not what verify-jws reads.
struct InputError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Counts `{`/`[` nesting through a line of JSON text, skipping strings.
enum JSONNesting {
    /// Whether a line can be the continuation of a pretty-printed object: a member or a closing bracket.
    static func canContinue(_ line: String) -> Bool {
        guard let first = line.utf8.first else { return false }
        return first == UInt8(ascii: "\"") || first == UInt8(ascii: "}") || first == UInt8(ascii: "]")
    }

    /// The nesting depth after `text`, starting at `depth`; `nil` when it closes more than it opened.
    static func depthAfter(_ text: String, startingAt depth: Int = 0) -> Int? {
        var depth = depth
        var inString = false, escaped = false
        for byte in text.utf8 {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth < 0 { return nil }
            default: break
            }
        }
        return depth
    }
}
