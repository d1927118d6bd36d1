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
            data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                var number = 0
                var start = 0
                while start <= bytes.count {
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                    number += 1
                    // Trim ASCII white space (space, tab, CR, ...) at both ends.
                    var first = start, last = end
                    while first < last, isWhiteSpace(bytes[first]) { first += 1 }
                    while last > first, isWhiteSpace(bytes[last - 1]) { last -= 1 }
                    if first < last {
                        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self)
                        lines.append(InputLine(source: path, lineNumber: number, text: text))
                    }
                    start = end + 1
                }
            }
        }
        return lines
    }
}

private func isWhiteSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0D).contains(byte)
}

/// An input file that cannot be read.
struct InputError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
