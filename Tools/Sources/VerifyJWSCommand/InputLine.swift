import Foundation

/// One input item: a JWS (or a notification body) and where it came from.
struct InputLine: Sendable {
    /// The file name, or `-` for standard input.
    let source: String
    /// The 1-based line number in `source` (the first line, for an item spanning several).
    let lineNumber: Int
    /// The line with surrounding white space removed; empty when `problem` is set.
    let text: String
    /// Why the line cannot be verified as it stands, found while reading it; `nil` for most lines.
    var problem: InputProblem? = nil

    /// `stdin:3` or `file.jws:3`, or `file.jws:3-5` for an item spanning several lines.
    var location: String {
        let name = source == "-" ? "stdin" : source
        if case .multiLineJSON(let lastLine) = problem { return "\(name):\(lineNumber)-\(lastLine)" }
        return "\(name):\(lineNumber)"
    }
}

/// Something wrong with an input line that the reader sees before any verification.
enum InputProblem: Sendable {
    /// The line is longer than `--max-input-bytes`; it was skipped without being held in memory.
    case tooLong(bytes: Int, limit: Int)
    /// A JSON object spread over the lines `lineNumber` ... `lastLine` (a pretty-printed body).
    case multiLineJSON(lastLine: Int)
}
