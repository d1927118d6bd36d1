/// A value from a closed-looking set that Apple may extend at any time.
///
/// App Store payloads carry many enumerations (`environment`, `type`, `offerType`, ...). Apple adds
/// values to them without notice, so, like StoreKit's `Transaction.OfferType` and friends, each is a
/// `RawRepresentable` struct with a static constant per documented value. A value Apple adds tomorrow
/// decodes as an instance carrying its raw value instead of failing the whole payload:
///
/// ```swift
/// switch transaction.environment {
/// case .production: ...
/// case .sandbox: ...
/// default: print("new environment \(transaction.environment?.rawValue ?? "")")
/// }
/// ```
public protocol OpenEnumeration: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue: Codable & Hashable & Sendable & CustomStringConvertible {
    /// Creates a value from its raw value; every raw value is accepted.
    init(rawValue: RawValue)
    /// Every value Apple documented when this library was released.
    static var documentedValues: [Self] { get }
}

extension OpenEnumeration {
    /// Decodes the raw value; every value is accepted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(rawValue: try container.decode(RawValue.self))
    }

    /// Encodes the raw value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue.description }

    /// Whether this value is one Apple documented when this library was released.
    public var isDocumented: Bool { Self.documentedValues.contains(self) }
}
