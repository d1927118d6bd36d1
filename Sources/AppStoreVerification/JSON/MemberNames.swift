/// The member names seen so far in one object, to refuse duplicates.
///
/// Names are compared by their decoded bytes (`"\u0061"` and `"a"` are the same name), and in full
/// only when two hashes meet. A small object is searched linearly with a cheap hash; past
/// ``linearLimit`` names a table keyed by the standard library's per-process seeded hash takes over,
/// so an object with very many members costs linear time, not quadratic, even when its names are
/// chosen to collide.
struct MemberNames {
    private static let linearLimit = 32
    private var seen: [(hash: UInt64, node: Int)]
    /// The nodes of each seeded hash, once there are more than ``linearLimit`` names.
    private var table: [Int: [Int]] = [:]

    init() {
        seen = []
        seen.reserveCapacity(Self.linearLimit)
    }

    /// Records the name at tape index `node`; `false` when the object already has that name.
    mutating func insert(nodeAt node: Int, of nodes: [JSONDocument.Node], in text: UnsafeBufferPointer<UInt8>) -> Bool {
        let name = nodes[node]
        if seen.count < Self.linearLimit {
            let hash = Self.withDecodedBytes(name, text, Self.fnv1a)
            for entry in seen where entry.hash == hash && Self.equal(nodes[entry.node], name, text) {
                return false
            }
            seen.append((hash, node))
            return true
        }
        if table.isEmpty {
            table.reserveCapacity(Self.linearLimit * 4)
            for entry in seen { table[Self.withDecodedBytes(nodes[entry.node], text, Self.seededHash), default: []].append(entry.node) }
        }
        let hash = Self.withDecodedBytes(name, text, Self.seededHash)
        if let candidates = table[hash] {
            for candidate in candidates where Self.equal(nodes[candidate], name, text) {
                return false
            }
        }
        table[hash, default: []].append(node)
        return true
    }

    private static func slice(_ node: JSONDocument.Node, _ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: text[Int(node.start)..<Int(node.end)])
    }

    /// Calls `body` with the name's bytes, escapes decoded.
    private static func withDecodedBytes<Result>(_ node: JSONDocument.Node, _ text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        node.hasEscapes ? JSONParser.unescape(slice(node, text)).withUnsafeBufferPointer(body) : body(slice(node, text))
    }

    private static func equal(_ lhs: JSONDocument.Node, _ rhs: JSONDocument.Node, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        if !lhs.hasEscapes, !rhs.hasEscapes {
            return slice(lhs, text).elementsEqual(slice(rhs, text))
        }
        let left = lhs.hasEscapes ? JSONParser.unescape(slice(lhs, text)) : Array(slice(lhs, text))
        let right = rhs.hasEscapes ? JSONParser.unescape(slice(rhs, text)) : Array(slice(rhs, text))
        return left == right
    }

    private static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    private static func seededHash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        return hasher.finalize()
    }
}
