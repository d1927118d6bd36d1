import AppStoreVerification

/// JSON string literals, written by hand: the output path quotes a few strings per line, and
/// `JSONSerialization` costs microseconds each. Every JSON the tool writes quotes its strings here,
/// so every output escapes alike.
enum JSONText {
    /// `text` as a JSON string literal: quotes and backslashes escaped, and every character that
    /// ``LogSafeText/needsEscaping(_:)`` names (control characters, line separators, bidirectional
    /// and invisible formatting characters) written as `\uXXXX`, so no signed string can reorder or
    /// break a terminal line; `/` and other non-ASCII characters kept as they are.
    static func quoted(_ text: String) -> String {
        var needsEscaping = false
        for byte in text.utf8 where byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            needsEscaping = true
            break
        }
        guard needsEscaping else { return "\"" + text + "\"" }
        var quoted = "\""
        quoted.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            default:
                if LogSafeText.needsEscaping(scalar) {
                    // Every such scalar is in the Basic Multilingual Plane: one \u escape.
                    let hex = String(scalar.value, radix: 16)
                    quoted += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        quoted += "\""
        return quoted
    }
}
