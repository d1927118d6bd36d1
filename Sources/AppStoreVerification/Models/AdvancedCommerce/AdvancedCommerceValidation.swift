/// Apple's rules for the members of Advanced Commerce requests, as Apple's App Store Server Library
/// checks them (`HelperValidationUtils`), and the formats Apple's documentation gives for currency
/// and storefront codes.
///
/// Lengths count characters (grapheme clusters), as Apple's Swift library does.
public enum AdvancedCommerceValidation {
    /// The longest `description` of a SKU or a subscription, in characters.
    public static let maximumDescriptionLength = 45
    /// The longest `displayName` of a SKU or a subscription, in characters.
    public static let maximumDisplayNameLength = 30
    /// The longest `SKU`, in characters.
    public static let maximumSKULength = 128
    /// The number of periods an offer may last (`periodCount`).
    public static let periodCountRange: ClosedRange<Int32> = 1...12

    /// Joins a parent's path and a member's name: `item` and `SKU` make `item.SKU`.
    package static func path(_ parent: String, _ member: String) -> String {
        parent.isEmpty ? member : parent + "." + member
    }

    /// `parent` followed by `[index]`.
    package static func path(_ parent: String, index: Int) -> String {
        "\(parent)[\(index)]"
    }

    /// A SKU: at most ``maximumSKULength`` characters.
    package static func checkSKU(_ value: String, at field: String) throws(AdvancedCommerceValidationError) {
        try checkLength(value, at: field, maximum: maximumSKULength)
    }

    /// A description: at most ``maximumDescriptionLength`` characters.
    package static func checkDescription(_ value: String, at field: String) throws(AdvancedCommerceValidationError) {
        try checkLength(value, at: field, maximum: maximumDescriptionLength)
    }

    /// A display name: at most ``maximumDisplayNameLength`` characters.
    package static func checkDisplayName(_ value: String, at field: String) throws(AdvancedCommerceValidationError) {
        try checkLength(value, at: field, maximum: maximumDisplayNameLength)
    }

    /// An amount in milliunits of a currency: zero or more.
    package static func checkAmount(_ value: Int64, at field: String) throws(AdvancedCommerceValidationError) {
        guard value >= 0 else {
            throw AdvancedCommerceValidationError(.outOfRange, field: field, "\(field) is \(value); give an amount in milliunits of the currency, 0 or more")
        }
    }

    /// A list that needs at least one element.
    package static func checkNotEmpty(_ count: Int, at field: String) throws(AdvancedCommerceValidationError) {
        guard count > 0 else {
            throw AdvancedCommerceValidationError(.emptyList, field: field, "\(field) is empty; give at least one item, or leave the list out where Apple allows it")
        }
    }

    /// A member that must be present.
    package static func require<Value>(_ value: Value?, at field: String) throws(AdvancedCommerceValidationError) -> Value {
        guard let value else {
            throw AdvancedCommerceValidationError(.missingMember, field: field, "\(field) is missing; Apple requires it here")
        }
        return value
    }

    /// A currency: an ISO 4217 alpha-3 code, three uppercase ASCII letters (`USD`).
    ///
    /// See [currency](https://developer.apple.com/documentation/advancedcommerceapi/currency).
    package static func checkCurrency(_ value: String, at field: String) throws(AdvancedCommerceValidationError) {
        guard isThreeUppercaseLetters(value) else {
            throw AdvancedCommerceValidationError(.invalidFormat, field: field, "\(field) must be an ISO 4217 currency code of three uppercase letters, such as USD")
        }
    }

    /// A storefront: an ISO 3166-1 alpha-3 code, three uppercase ASCII letters (`USA`), as
    /// StoreKit's `Storefront.countryCode` gives it.
    ///
    /// See [storefront](https://developer.apple.com/documentation/advancedcommerceapi/storefront).
    package static func checkStorefront(_ value: String, at field: String) throws(AdvancedCommerceValidationError) {
        guard isThreeUppercaseLetters(value) else {
            throw AdvancedCommerceValidationError(.invalidFormat, field: field, "\(field) must be an ISO 3166-1 alpha-3 country code of three uppercase letters, such as USA (StoreKit's Storefront.countryCode)")
        }
    }

    /// An offer on a subscription item: every member present, a period count in
    /// ``periodCountRange`` and a price of zero or more.
    package static func checkOffer(_ offer: AdvancedCommerceOffer, at field: String) throws(AdvancedCommerceValidationError) {
        _ = try require(offer.period, at: path(field, "period"))
        let count = try require(offer.periodCount, at: path(field, "periodCount"))
        guard periodCountRange.contains(count) else {
            throw AdvancedCommerceValidationError(.outOfRange, field: path(field, "periodCount"),
                                                  "\(path(field, "periodCount")) is \(count); Apple allows \(periodCountRange.lowerBound) to \(periodCountRange.upperBound)")
        }
        try checkAmount(try require(offer.price, at: path(field, "price")), at: path(field, "price"))
        _ = try require(offer.reason, at: path(field, "reason"))
    }

    private static func checkLength(_ value: String, at field: String, maximum: Int) throws(AdvancedCommerceValidationError) {
        let count = value.count
        guard count <= maximum else {
            throw AdvancedCommerceValidationError(.tooLong, field: field, "\(field) is \(count) characters long; Apple allows at most \(maximum)")
        }
    }

    private static func isThreeUppercaseLetters(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        return bytes.count == 3 && bytes.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }
}
