import AppStoreVerification
import Foundation

/// The filters and order of Get Transaction History (v2), sent as query parameters with Apple's
/// names (`startDate`, `endDate`, `productId`, `productType`, `sort`,
/// `subscriptionGroupIdentifier`, `inAppOwnershipType`, `revoked`). Every filter is optional.
public struct TransactionHistoryRequest: Sendable, Hashable {
    /// Only transactions purchased at or after this date.
    public var startDate: Date?
    /// Only transactions purchased before this date.
    public var endDate: Date?
    /// Only these products.
    public var productIds: [String]?
    /// Only these kinds of products.
    public var productTypes: [ProductType]?
    /// The order of the transactions, by modification date. Apple's default is ascending.
    public var sort: Order?
    /// Only subscriptions in these groups.
    public var subscriptionGroupIdentifiers: [String]?
    /// Only purchased or only family-shared transactions.
    public var inAppOwnershipType: InAppOwnershipType?
    /// Only revoked (`true`) or only not revoked (`false`) transactions.
    public var revoked: Bool?

    /// A request with the given filters (none by default: the whole history).
    ///
    /// - Parameters: each an optional filter, as the properties describe.
    public init(startDate: Date? = nil, endDate: Date? = nil, productIds: [String]? = nil, productTypes: [ProductType]? = nil,
                sort: Order? = nil, subscriptionGroupIdentifiers: [String]? = nil, inAppOwnershipType: InAppOwnershipType? = nil,
                revoked: Bool? = nil) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIds = productIds
        self.productTypes = productTypes
        self.sort = sort
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
    }

    /// The query parameters, in Apple's names and forms (dates as milliseconds since 1970).
    var queryItems: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        if let startDate { items.append(("startDate", String(RequestDate.milliseconds(startDate)))) }
        if let endDate { items.append(("endDate", String(RequestDate.milliseconds(endDate)))) }
        for productId in productIds ?? [] { items.append(("productId", productId)) }
        for productType in productTypes ?? [] { items.append(("productType", productType.rawValue)) }
        if let sort { items.append(("sort", sort.rawValue)) }
        for group in subscriptionGroupIdentifiers ?? [] { items.append(("subscriptionGroupIdentifier", group)) }
        if let inAppOwnershipType { items.append(("inAppOwnershipType", inAppOwnershipType.rawValue)) }
        if let revoked { items.append(("revoked", revoked ? "true" : "false")) }
        return items
    }

    /// A kind of product, as the `productType` query parameter names it.
    public struct ProductType: OpenEnumeration {
        /// The value as the query carries it.
        public let rawValue: String
        /// Creates a value from its raw value; every raw value is accepted.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Auto-renewable subscriptions.
        public static let autoRenewable = ProductType(rawValue: "AUTO_RENEWABLE")
        /// Non-renewing subscriptions.
        public static let nonRenewable = ProductType(rawValue: "NON_RENEWABLE")
        /// Consumables.
        public static let consumable = ProductType(rawValue: "CONSUMABLE")
        /// Non-consumables.
        public static let nonConsumable = ProductType(rawValue: "NON_CONSUMABLE")
        /// Every value Apple documented when this library was released.
        public static let documentedValues: [ProductType] = [.autoRenewable, .nonRenewable, .consumable, .nonConsumable]
    }

    /// The order of a transaction history, as the `sort` query parameter names it.
    public struct Order: OpenEnumeration {
        /// The value as the query carries it.
        public let rawValue: String
        /// Creates a value from its raw value; every raw value is accepted.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Oldest modification first (Apple's default).
        public static let ascending = Order(rawValue: "ASCENDING")
        /// Newest modification first.
        public static let descending = Order(rawValue: "DESCENDING")
        /// Every value Apple documented when this library was released.
        public static let documentedValues: [Order] = [.ascending, .descending]
    }
}
