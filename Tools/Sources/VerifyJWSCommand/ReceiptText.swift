import Foundation

/// The text format's view of an app receipt: its JSON (``AppReceipt``'s `jsonRepresentation`) as a
/// tree of members, with dates (members ending in `Date`, milliseconds since 1970) shown in ISO 8601
/// like JWS payload dates. Receipts are not JWS payload models, so they are rendered from their JSON.
enum ReceiptText {
    static func node(for json: Data) -> TextNode? {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else { return nil }
        return node(object, key: nil)
    }

    private static func node(_ value: Any, key: String?) -> TextNode {
        switch value {
        case let object as [String: Any]:
            let node = TextNode(kind: .object)
            for member in object.keys.sorted() {
                if let child = object[member] { _ = node.add(member, Self.node(child, key: member)) }
            }
            return node
        case let array as [Any]:
            let node = TextNode(kind: .array)
            for element in array { _ = node.append(Self.node(element, key: nil)) }
            return node
        case let number as NSNumber where key?.hasSuffix("Date") == true:
            return TextNode(scalar: TimestampText.text(Date(timeIntervalSince1970: number.doubleValue / 1000)))
        default:
            return TextNode(scalar: "\(value)")
        }
    }
}
