/// Whether the customer bought the in-app purchase or has access to it through Family Sharing.
public struct InAppOwnershipType: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The customer has access to the purchase through Family Sharing; a family member bought it.
    public static let familyShared = InAppOwnershipType(rawValue: "FAMILY_SHARED")

    /// The customer bought the purchase themselves.
    public static let purchased = InAppOwnershipType(rawValue: "PURCHASED")

    /// Every value Apple documents today.
    public static let documentedValues: [InAppOwnershipType] = [
        .familyShared,
        .purchased,
    ]
}
