import Foundation

/// One attribute of an app receipt's payload, exactly as the receipt encodes it: a
/// `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`.
///
/// ``AppReceipt/fields`` and ``InAppPurchaseReceipt/fields`` keep every attribute in receipt order,
/// the ones this library types and the ones it does not know (Apple uses many undocumented types),
/// so nothing in a receipt is ever lost.
public struct ReceiptField: Sendable, Hashable {
    /// The attribute type (2 = bundle ID, 17 = in-app purchase, 1703 = transaction ID, ...).
    public let type: Int
    /// The attribute version (informational; Apple does not document it).
    public let version: Int
    /// The contents of the value OCTET STRING: for documented types, the DER encoding of the typed
    /// value (a UTF8String, an IA5String, an INTEGER or a nested SET); for the opaque value and the
    /// SHA-1 hash, raw bytes.
    public let value: Data

    /// Creates a field.
    public init(type: Int, version: Int, value: Data) {
        self.type = type
        self.version = version
        self.value = value
    }
}
