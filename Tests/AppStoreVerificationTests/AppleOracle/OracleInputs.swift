import COpenSSL
import Foundation
import Testing
@testable import AppStoreVerification

// Building blocks of the differential test's inputs: JWS segments, raw JSON, signature encodings.

extension AppleOracle {

    /// One generated input.
    struct OracleInput: Sendable {
        var jws: String
        /// The vector it came from ("transaction-valid", "minted").
        var origin: String
        /// The mutation kind that produced it ("asIs", "signature.highS", ...).
        var mutation: String
        /// Traits named by the difference tables (set by the generator, plus found by inspection).
        var traits: Set<String>
        /// Must verify on both sides (the unmodified good vectors).
        var mustVerify = false
    }


    /// The three segments of a compact JWS, as text.
    struct JWSSegments {
        var header: String
        var payload: String
        var signature: String

        init(header: String, payload: String, signature: String) {
            self.header = header
            self.payload = payload
            self.signature = signature
        }

        init?(_ jws: String) {
            let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { return nil }
            (header, payload, signature) = (parts[0], parts[1], parts[2])
        }

        var text: String { "\(header).\(payload).\(signature)" }
    }

    /// A JSON object written field by field, so that order, duplicates and raw values are under control.
    struct RawJSONObject {
        var fields: [(key: String, raw: String)]

        init(_ fields: [(String, String)]) { self.fields = fields.map { (key: $0.0, raw: $0.1) } }

        var text: String { "{" + fields.map { "\(jsonString($0.key)):\($0.raw)" }.joined(separator: ",") + "}" }

        func replacing(_ key: String, with raw: String?) -> RawJSONObject {
            var copy = self
            if let index = copy.fields.firstIndex(where: { $0.key == key }) {
                if let raw { copy.fields[index].raw = raw } else { copy.fields.remove(at: index) }
            } else if let raw {
                copy.fields.append((key: key, raw: raw))
            }
            return copy
        }

        func adding(_ key: String, _ raw: String) -> RawJSONObject {
            var copy = self
            copy.fields.append((key: key, raw: raw))
            return copy
        }

        func inserting(_ key: String, _ raw: String, at index: Int) -> RawJSONObject {
            var copy = self
            copy.fields.insert((key: key, raw: raw), at: min(index, copy.fields.count))
            return copy
        }
    }

    /// A JSON string literal.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func jsonArray(_ raws: [String]) -> String { "[" + raws.joined(separator: ",") + "]" }

    /// The P-256 group order n, big-endian.
    static let p256Order: [UInt8] = hexBytes("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")

    /// a − b for 32-byte big-endian numbers with a ≥ b.
    static func subtract32(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        precondition(a.count == 32 && b.count == 32)
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            var difference = Int(a[index]) - Int(b[index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            result[index] = UInt8(difference)
        }
        return result
    }

    /// ASN.1 DER ECDSA-Sig-Value for raw r || s.
    static func derSignature(raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop(while: { $0 == 0 }))
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }

    /// raw r || s (32 + 32 bytes) from an ASN.1 DER ECDSA-Sig-Value.
    static func rawSignature(der: [UInt8]) -> [UInt8]? {
        var index = 0
        func read(_ tag: UInt8) -> [UInt8]? {
            guard index + 2 <= der.count, der[index] == tag else { return nil }
            let length = Int(der[index + 1])
            guard length < 0x80, index + 2 + length <= der.count else { return nil }
            defer { index += 2 + length }
            return Array(der[(index + 2)..<(index + 2 + length)])
        }
        guard read(0x30) != nil else { return nil }
        index = 2
        guard let r = read(0x02), let s = read(0x02) else { return nil }
        func pad(_ value: [UInt8]) -> [UInt8]? {
            let trimmed = Array(value.drop(while: { $0 == 0 }))
            guard trimmed.count <= 32 else { return nil }
            return [UInt8](repeating: 0, count: 32 - trimmed.count) + trimmed
        }
        guard let r32 = pad(r), let s32 = pad(s) else { return nil }
        return r32 + s32
    }

    /// The length of the outer DER element (tag, length, contents) at the start of `der`, if readable.
    static func derElementLength(_ der: [UInt8]) -> Int? {
        guard der.count >= 2 else { return nil }
        let first = Int(der[1])
        if first < 0x80 { return 2 + first }
        let count = first & 0x7F
        guard count >= 1, count <= 4, der.count >= 2 + count else { return nil }
        var length = 0
        for byte in der[2..<(2 + count)] { length = length << 8 | Int(byte) }
        return 2 + count + length
    }

    /// Traits found by looking at the input itself, whatever produced it.
    static func inspectedTraits(of jws: String) -> Set<String> {
        var traits: Set<String> = []
        guard let segments = JWSSegments(jws) else { return traits }
        // A segment with '=' padding that is otherwise strict base64url.
        for segment in [segments.header, segments.payload, segments.signature] where segment.hasSuffix("=") && segment.utf8.count % 4 == 0 {
            var stripped = Substring(segment)
            var padding = 0
            while stripped.hasSuffix("="), padding < 2 { stripped = stripped.dropLast(); padding += 1 }
            if (try? Base64.decodeURL(Array(stripped.utf8))) != nil { traits.insert("paddedBase64urlSegment") }
        }
        func decoded(_ segment: String) -> Data? {
            try? Base64.decodeURL(Array(segment.prefix(while: { $0 != "=" }).utf8))
        }
        // A member named twice in the header or payload object.
        for data in [decoded(segments.header), decoded(segments.payload)].compactMap({ $0 }) {
            if let keys = topLevelJSONKeys(data), Set(keys).count != keys.count { traits.insert("duplicateJSONKey") }
        }
        // A transaction payload without a member every App Store transaction carries (or with it null).
        if let payloadData = decoded(segments.payload),
           let payload = try? JSONSerialization.jsonObject(with: payloadData) as? [String: Any],
           Transaction.requiredMembers.contains(where: { payload[$0] == nil || payload[$0] is NSNull }) {
            traits.insert("transactionLacksRequiredMember")
        }
        // The header's x5c: bytes after a certificate's DER; an x5c[2] that is not a base64 string.
        guard let headerData = decoded(segments.header),
              let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
              let x5c = header["x5c"] as? [Any]
        else { return traits }
        for entry in x5c.prefix(2) {
            if let text = entry as? String, let der = Data(base64Encoded: text).map(Array.init),
               let length = derElementLength(der), der.count > length {
                traits.insert("trailingBytesAfterCertificateDER")
            }
        }
        if x5c.count == 3 {
            if let text = x5c[2] as? String, (try? Base64.decodeStandard(Array(text.utf8))) != nil {
                // a base64 string: fine whatever it decodes to
            } else {
                traits.insert("x5c2NotABase64String")
            }
        }
        return traits
    }

    /// The member names of the JSON object `data` holds, in order and with repeats; nil when it is not
    /// an object this small scanner can read.
    static func topLevelJSONKeys(_ data: Data) -> [String]? {
        let bytes = Array(data)
        var index = 0
        func skipWhiteSpace() { while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 } }
        func scanString() -> [UInt8]? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index
            index += 1
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\\") { index += 2; continue }
                if bytes[index] == UInt8(ascii: "\"") { index += 1; return Array(bytes[start..<index]) }
                index += 1
            }
            return nil
        }
        func skipValue() -> Bool {
            skipWhiteSpace()
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard scanString() != nil else { return false }
                    if depth == 0 { return true }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return true }
                    depth -= 1
                    if depth == 0 { index += 1; return true }
                case UInt8(ascii: ",") where depth == 0:
                    return true
                default:
                    break
                }
                index += 1
            }
            return depth == 0
        }
        skipWhiteSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        var keys: [String] = []
        skipWhiteSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return keys }
        while true {
            skipWhiteSpace()
            guard let raw = scanString(),
                  let key = try? JSONSerialization.jsonObject(with: Data(raw), options: .fragmentsAllowed) as? String
            else { return nil }
            keys.append(key)
            skipWhiteSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            guard skipValue() else { return nil }
            skipWhiteSpace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            return bytes[index] == UInt8(ascii: "}") ? keys : nil
        }
    }
}
