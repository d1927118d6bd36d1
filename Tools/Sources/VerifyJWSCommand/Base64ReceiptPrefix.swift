/// Tells, from the first characters of an input line, whether it is a base64 app receipt (PKCS#7
/// SignedData) rather than a compact JWS, for `--type auto`.
///
/// A receipt is a ContentInfo: a SEQUENCE whose length is long-form definite (one to four length
/// octets: `MIG…`, `MII…` up to 16 KiB, `MIJ…`–`MIL…` up to 64 KiB, `MIM…`–`MIP…` with three octets,
/// `MIQ…` with four) or indefinite (BER, as Xcode writes it: `MIA…`), followed by the object
/// identifier of signedData,
/// 1.2.840.113549.1.7.2. The first 24 characters are decoded strictly (standard alphabet, no
/// padding, no white space) into 18 bytes, which hold that header and OID whatever the length's
/// size; nothing else of the line is decoded or copied. A compact JWS has dots (and its header
/// starts `eyJ`), so a line with a dot is never a receipt.
enum Base64ReceiptPrefix {
    /// The characters decoded: 18 bytes, enough for the SEQUENCE header (at most 6 bytes) and the
    /// OID (11 bytes).
    static let decodedCharacters = 24

    /// The DER encoding of OID 1.2.840.113549.1.7.2 (PKCS#7 signedData), tag and length included.
    static let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]

    /// Whether `line` starts like the base64 text of a PKCS#7 SignedData and holds no dot.
    static func matches(_ line: String) -> Bool {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(decodedCharacters / 4 * 3)
        var group: UInt32 = 0
        var count = 0
        for character in line.utf8.prefix(decodedCharacters) {
            guard let value = sextet(character) else { return false }
            group = group << 6 | UInt32(value)
            count += 1
            if count % 4 == 0 {
                bytes.append(UInt8(truncatingIfNeeded: group >> 16))
                bytes.append(UInt8(truncatingIfNeeded: group >> 8))
                bytes.append(UInt8(truncatingIfNeeded: group))
                group = 0
            }
        }
        guard count == decodedCharacters, isSignedDataHeader(bytes) else { return false }
        return !line.utf8.contains(UInt8(ascii: "."))
    }

    /// Whether `bytes` start with a SEQUENCE of long-form definite or indefinite length followed
    /// by the signedData OID.
    static func isSignedDataHeader(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2, bytes[0] == 0x30 else { return false }
        let lengthOctets: Int
        switch bytes[1] {
        case 0x80: lengthOctets = 0  // indefinite (BER)
        case 0x81...0x84: lengthOctets = Int(bytes[1] & 0x7F)
        default: return false  // short form (a receipt is longer than 127 bytes) or a length over 4 GiB
        }
        let oidStart = 2 + lengthOctets
        guard bytes.count >= oidStart + signedDataOID.count else { return false }
        return bytes[oidStart..<(oidStart + signedDataOID.count)].elementsEqual(signedDataOID)
    }

    /// The value of a character of the standard base64 alphabet, `nil` for anything else.
    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
