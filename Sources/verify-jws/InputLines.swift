import Foundation

/// One input item: a JWS (or a notification body) and where it came from.
struct InputLine: Sendable {
    /// The file name, or `-` for standard input.
    let source: String
    /// The 1-based line number in `source`.
    let lineNumber: Int
    /// The line with surrounding white space removed.
    let text: String
}

/// Reads every non-blank line of the given files, in order; `-` is standard input.
enum InputLines {
    static func read(from paths: [String]) throws -> [InputLine] {
        var lines: [InputLine] = []
        for path in paths.isEmpty ? ["-"] : paths {
            let data: Data
            if path == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                do {
                    data = try Data(contentsOf: URL(fileURLWithPath: path))
                } catch {
                    throw InputError(message: "cannot read \(path): \(error.localizedDescription)")
                }
            }
            var number = 0
            for rawLine in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                number += 1
                let text = String(decoding: rawLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.isEmpty {
                    lines.append(InputLine(source: path, lineNumber: number, text: text))
                }
            }
        }
        return lines
    }
}

/// An input file that cannot be read.
struct InputError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
