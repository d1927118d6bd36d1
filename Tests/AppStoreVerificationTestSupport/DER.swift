/// Just enough DER writing to assemble receipt payloads (the attribute SET a receipt signs).
public enum DER {
    /// A TLV: `tag`, the definite length of `contents`, `contents`.
    public static func tlv(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        if contents.count < 0x80 {
            length = [UInt8(contents.count)]
        } else {
            var value = contents.count
            while value > 0 {
                length.insert(UInt8(value & 0xFF), at: 0)
                value >>= 8
            }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [tag] + length + contents
    }

    /// A SET of `items` (each already encoded), in the order given.
    public static func set(_ items: [UInt8]...) -> [UInt8] { tlv(0x31, items.flatMap { $0 }) }

    /// A receipt attribute: SEQUENCE { type INTEGER, version INTEGER 1, value OCTET STRING }.
    public static func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] {
        var typeOctets = withUnsafeBytes(of: UInt32(type).bigEndian, Array.init)
        while typeOctets.count > 1, typeOctets[0] == 0, typeOctets[1] < 0x80 { typeOctets.removeFirst() }
        return tlv(0x30, tlv(0x02, typeOctets) + tlv(0x02, [1]) + tlv(0x04, value))
    }
}
