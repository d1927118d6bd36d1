/// An Advanced Commerce request that breaks one of Apple's rules for its members.
///
/// Thrown by the requests' `validate()` methods (``AdvancedCommerceInAppRequest/validate()`` and
/// the App Store Server API client's Advanced Commerce requests) before anything is signed or sent.
/// ``field`` names the member as the JSON does (`items[1].SKU`); ``message`` says which rule it
/// breaks. No message quotes the member's text.
public struct AdvancedCommerceValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which kind of rule the member breaks.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as text.
        public let rawValue: String
        /// Creates a code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code as text.
        public var description: String { rawValue }

        /// A text is longer than Apple allows (a SKU, a description or a display name).
        public static let tooLong = Code(rawValue: "tooLong")
        /// A number is outside the range Apple allows (a negative price, an offer's period count).
        public static let outOfRange = Code(rawValue: "outOfRange")
        /// A list that must have at least one element is empty.
        public static let emptyList = Code(rawValue: "emptyList")
        /// A member Apple requires here is absent.
        public static let missingMember = Code(rawValue: "missingMember")
        /// A text does not have the form Apple documents (a currency or storefront code).
        public static let invalidFormat = Code(rawValue: "invalidFormat")
    }

    /// Which kind of rule the member breaks.
    public let code: Code
    /// The member, as the request's JSON names it: `currency`, `items[1].SKU`, `item.offer.periodCount`.
    public let field: String
    /// What is wrong and what Apple allows.
    public let message: String

    /// Creates an error for `field` with a message saying what is wrong.
    public init(_ code: Code, field: String, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    /// The code and the message: `tooLong: items[1].SKU is 129 characters long; ...`.
    public var description: String { "\(code): \(message)" }
}
