import Foundation

/// One in-app purchase in an app receipt (attribute 17 of the receipt: a nested attribute SET).
///
/// The typed properties are the attributes Apple documents; ``fields`` keeps every attribute,
/// documented or not, exactly as the receipt encodes it. An absent attribute, or a date attribute
/// holding the empty string, is `nil`.
public struct InAppPurchaseReceipt: Sendable, Hashable {
    /// The number of items purchased (attribute 1701).
    public let quantity: Int64?
    /// The product identifier of the item purchased (attribute 1702).
    public let productId: String?
    /// The transaction identifier of the item purchased (attribute 1703).
    public let transactionId: String?
    /// The date and time the item was purchased (attribute 1704).
    public let purchaseDate: Date?
    /// The transaction identifier of the original purchase, for a restore or renewal (attribute 1705).
    public let originalTransactionId: String?
    /// The date of the original purchase (attribute 1706).
    public let originalPurchaseDate: Date?
    /// When the subscription expires or renews (attribute 1708).
    public let expiresDate: Date?
    /// The primary key for identifying subscription purchases (attribute 1711).
    public let webOrderLineItemId: Int64?
    /// When Apple customer support canceled (refunded) the transaction (attribute 1712).
    public let cancellationDate: Date?
    /// Whether the subscription is in its free trial period (attribute 1713).
    public let isTrialPeriod: Bool?
    /// Whether the subscription is in an introductory price period (attribute 1719).
    public let isInIntroOfferPeriod: Bool?
    /// The identifier of the subscription offer the user redeemed (attribute 1721).
    public let promotionalOfferId: String?
    /// Every attribute of this purchase in receipt order, including the ones not typed above.
    public let fields: [ReceiptField]

    /// The attribute types typed above; each may appear at most once.
    static let typedFieldTypes: [Int] = [1701, 1702, 1703, 1704, 1705, 1706, 1708, 1711, 1712, 1713, 1719, 1721]

    /// Decodes the nested attribute SET in `bytes[window]` (the contents of attribute 17's OCTET
    /// STRING in the receipt's payload).
    init(_ bytes: [UInt8], window: Range<Int>, index: Int) throws(ReceiptFormatError) {
        let what = ReceiptPayloadParser.SetName.inAppPurchase(index)
        let set = try ReceiptPayloadParser.fields(bytes, window: window, in: what)
        let typed = try ReceiptPayloadParser.TypedFields(set, singleValued: Self.typedFieldTypes, what: what)
        self.quantity = try typed.integer(1701)
        self.productId = try typed.string(1702)
        self.transactionId = try typed.string(1703)
        self.purchaseDate = try typed.date(1704)
        self.originalTransactionId = try typed.string(1705)
        self.originalPurchaseDate = try typed.date(1706)
        self.expiresDate = try typed.date(1708)
        self.webOrderLineItemId = try typed.integer(1711)
        self.cancellationDate = try typed.date(1712)
        self.isTrialPeriod = try typed.flag(1713)
        self.isInIntroOfferPeriod = try typed.flag(1719)
        self.promotionalOfferId = try typed.string(1721)
        self.fields = set.fields
    }
}

extension InAppPurchaseReceipt {
    /// Creates an in-app purchase record of a receipt, for tests and tools: the defaults describe
    /// one non-consumable bought now, its own original purchase.
    ///
    /// Dates are kept to whole seconds, as receipts write them.
    ///
    /// Defaults and meanings:
    ///   - `originalTransactionId`: `nil`: `transactionId`.
    ///   - `originalPurchaseDate`: `nil`: `purchaseDate`.
    ///   - `fields`: Further attributes, written as given after the typed ones; those whose type is a
    ///     typed attribute's (1701–1706, 1708, 1711–1713, 1719, 1721) are ignored when written.
    public init(
        productId: String,
        transactionId: String,
        quantity: Int64? = 1,
        purchaseDate: Date? = Date(),
        originalTransactionId: String? = nil,
        originalPurchaseDate: Date? = nil,
        expiresDate: Date? = nil,
        webOrderLineItemId: Int64? = nil,
        cancellationDate: Date? = nil,
        isTrialPeriod: Bool? = false,
        isInIntroOfferPeriod: Bool? = false,
        promotionalOfferId: String? = nil,
        fields: [ReceiptField] = []
    ) {
        self.init(exactly: productId, transactionId: transactionId, quantity: quantity, purchaseDate: purchaseDate,
                  originalTransactionId: originalTransactionId ?? transactionId, originalPurchaseDate: originalPurchaseDate ?? purchaseDate,
                  expiresDate: expiresDate, webOrderLineItemId: webOrderLineItemId, cancellationDate: cancellationDate,
                  isTrialPeriod: isTrialPeriod, isInIntroOfferPeriod: isInIntroOfferPeriod, promotionalOfferId: promotionalOfferId, fields: fields)
    }

    /// Every member as given, absent ones absent (the receipt JSON reader of the Testing product).
    package init(
        exactly productId: String?, transactionId: String?, quantity: Int64?, purchaseDate: Date?,
        originalTransactionId: String?, originalPurchaseDate: Date?, expiresDate: Date?, webOrderLineItemId: Int64?,
        cancellationDate: Date?, isTrialPeriod: Bool?, isInIntroOfferPeriod: Bool?, promotionalOfferId: String?, fields: [ReceiptField]
    ) {
        self.quantity = quantity
        self.productId = productId
        self.transactionId = transactionId
        self.purchaseDate = purchaseDate.map(ReceiptDate.wholeSeconds)
        self.originalTransactionId = originalTransactionId
        self.originalPurchaseDate = originalPurchaseDate.map(ReceiptDate.wholeSeconds)
        self.expiresDate = expiresDate.map(ReceiptDate.wholeSeconds)
        self.webOrderLineItemId = webOrderLineItemId
        self.cancellationDate = cancellationDate.map(ReceiptDate.wholeSeconds)
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.promotionalOfferId = promotionalOfferId
        self.fields = fields
    }

    /// The attribute types this type reads into typed properties.
    package static var typedAttributeTypes: [Int] { typedFieldTypes }
}
