/// Text from outside made safe to print on a terminal or write to a log line.
///
/// Every message this library builds that quotes its input (a JSON member name, a bundle ID, a
/// header value, a receipt field) goes through ``escaping(_:)``, so a payload cannot forge log
/// lines or terminal output: a line break, an ANSI escape sequence or a right-to-left override in
/// signed data shows as `\n`, `\u{1B}` or `\u{202E}` in ``SignedDataDecodingError/message`` and
/// every other error text. Use it too when you log fields of signed data yourself.
public enum LogSafeText {
    /// `text` with every control character (C0, DEL, C1), line and paragraph separator, and
    /// invisible formatting or bidirectional control character written as an escape: `\n`, `\r`,
    /// `\t`, else `\u{XXXX}`. Text without them is returned unchanged.
    public static func escaping(_ text: some StringProtocol) -> String {
        // The common case: printable ASCII only.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(text) }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if needsEscaping(scalar) {
                switch scalar {
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                case "\t": escaped += "\\t"
                default: escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                }
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Whether `scalar` can move the cursor, end a line, change colours or reorder the text around
    /// it when printed.
    public static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1 (CSI is 0x9B)
        case 0x061C, 0x180E: true  // Arabic letter mark, Mongolian vowel separator
        case 0x200B...0x200F: true  // zero-width spaces and joiners, LRM, RLM
        case 0x2028, 0x2029: true  // line and paragraph separators
        case 0x202A...0x202E: true  // bidi embeddings and overrides
        case 0x2060...0x206F: true  // word joiner, invisible operators, bidi isolates, deprecated formats
        case 0xFEFF, 0xFFF9...0xFFFB: true  // zero-width no-break space, interlinear annotations
        default: false
        }
    }
}
