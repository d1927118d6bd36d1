/// A JSON object's text with the byte ranges of its members' values, for tools that rewrite JSON
/// in place (the testing library's minter replaces an object by the JWS signing it), so that
/// every other byte is kept as given.
package struct JSONObjectText: Sendable {
    /// One member of an object.
    package struct Member: Sendable {
        /// The member's name, decoded.
        package let name: String
        /// The bytes of its value in the text (quotes and brackets included).
        package let valueRange: Range<Int>
        /// Whether the value is an object.
        package let isObject: Bool
    }

    /// Why a text is not one JSON object.
    package struct SyntaxError: Error, Sendable, CustomStringConvertible {
        /// What is wrong and at which byte offset.
        package let description: String
    }

    private let document: JSONDocument

    /// Parses `bytes` strictly (RFC 8259, no duplicate member names), as the verifier parses
    /// payloads; the text must be one object.
    package init(_ bytes: [UInt8]) throws(SyntaxError) {
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw SyntaxError(description: error.description)
        }
        guard document.nodes.first?.kind == .object else {
            throw SyntaxError(description: "the JSON value is not an object")
        }
    }

    /// The text.
    package var bytes: [UInt8] { document.bytes }

    /// The members of the object reached from the root through the members named `path` (each an
    /// object); empty when the path leads nowhere or to something other than an object.
    package func members(at path: [String]) -> [Member] {
        var object = 0
        for name in path {
            guard let found = document.member(name, in: object), document.nodes[found].kind == .object else { return [] }
            object = found
        }
        var members: [Member] = []
        var index = object + 1
        let end = Int(document.nodes[object].next)
        while index < end {
            let value = document.nodes[index + 1]
            let range = value.kind == .string ? Int(value.start) - 1..<Int(value.end) + 1 : Int(value.start)..<Int(value.end)
            members.append(Member(name: document.string(at: index), valueRange: range, isObject: value.kind == .object))
            index = Int(value.next)
        }
        return members
    }
}
