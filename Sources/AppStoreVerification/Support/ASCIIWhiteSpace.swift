/// ASCII white space (space, tab, line feed, vertical tab, form feed, carriage return) around
/// inputs: outside the signed bytes, so it is ignored rather than refused.
enum ASCIIWhiteSpace {
    static func contains(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// `text` without leading and trailing ASCII white space; the same string when there is none
    /// (the common case costs two byte reads).
    static func trimmed(_ text: some StringProtocol) -> String {
        let string = String(text)
        let utf8 = string.utf8
        guard let first = utf8.first, let last = utf8.last, contains(first) || contains(last) else {
            return string
        }
        guard let start = utf8.firstIndex(where: { !contains($0) }), let end = utf8.lastIndex(where: { !contains($0) }) else {
            return ""
        }
        return String(decoding: utf8[start...end], as: UTF8.self)
    }
}
