import Foundation

/// A legacy App Store app receipt (`Bundle.main.appStoreReceiptURL`), decoded.
///
/// The typed properties are the attributes Apple documents; ``fields`` keeps every attribute,
/// documented or not, exactly as the receipt encodes it. An absent attribute, or a date attribute
/// holding the empty string, is `nil`. Get one from ``SignedDataVerifier/verifyAppReceipt(_:)``:
/// a decoded receipt is only as trustworthy as the ``VerificationResult`` that carries it.
public struct AppReceipt: Sendable, Hashable {
    /// The environment the receipt comes from, as the receipt writes it (attribute 0):
    /// `"Production"`, `"ProductionSandbox"` or `"Xcode"`.
    public let receiptType: String?
    /// The app's App Store item ID (attribute 1); 0 outside Production.
    public let appItemId: Int64?
    /// The app's bundle identifier (attribute 2).
    public let bundleId: String?
    /// The app's version number when the receipt was created: `CFBundleVersion` on iOS,
    /// `CFBundleShortVersionString` on macOS (attribute 3).
    public let applicationVersion: String?
    /// An opaque value used, with the bundle ID, to compute ``sha1Hash`` (attribute 4).
    public let opaqueValue: Data?
    /// SHA-1(device identifier ‖ ``opaqueValue`` ‖ the DER encoding of the bundle ID) (attribute 5).
    public let sha1Hash: Data?
    /// When the receipt was created (attribute 12); certificates are checked at this instant by
    /// default.
    public let receiptCreationDate: Date?
    /// The in-app purchases the receipt lists (attribute 17, repeated), in receipt order.
    public let inApp: [InAppPurchaseReceipt]
    /// When the user originally bought the app (attribute 18).
    public let originalPurchaseDate: Date?
    /// The app version the user originally bought (attribute 19).
    public let originalApplicationVersion: String?
    /// When the receipt expires, for apps bought through the Volume Purchase Program (attribute 21).
    public let expirationDate: Date?
    /// Every attribute of the receipt in receipt order, in-app purchases included, including the
    /// ones not typed above.
    public let fields: [ReceiptField]

    /// The attribute types typed above except in-app purchases; each may appear at most once.
    static let typedFieldTypes: [Int] = [0, 1, 2, 3, 4, 5, 12, 18, 19, 21]
    /// The attribute type of an in-app purchase.
    static let inAppFieldType = 17

    /// The environment the receipt comes from: `"Production"` → `.production`, `"ProductionSandbox"` →
    /// `.sandbox`, `"Xcode"` → `.xcode`, anything else as it is written.
    public var environment: AppStoreEnvironment? {
        receiptType.map(Self.environment(receiptType:))
    }

    /// The environment a receipt type names.
    static func environment(receiptType: String) -> AppStoreEnvironment {
        switch receiptType {
        case "Production": .production
        case "ProductionSandbox": .sandbox
        case "Xcode": .xcode
        default: AppStoreEnvironment(rawValue: receiptType)
        }
    }

    /// The transaction ID Apple's `ReceiptUtility.extractTransactionIdFromAppReceipt` returns: in
    /// receipt order, the first in-app purchase attribute that is a transaction ID (1703) or an
    /// original transaction ID (1705); `nil` when there is none. In App Store receipts that is the
    /// first purchase's transaction ID (attributes are sorted by type).
    ///
    /// Only meaningful on a verified receipt: use ``VerificationResult/transactionId``.
    var firstTransactionId: String? {
        for purchase in inApp {
            for field in purchase.fields where field.type == 1703 || field.type == 1705 {
                return field.type == 1703 ? purchase.transactionId : purchase.originalTransactionId
            }
        }
        return nil
    }

    /// The value bytes of attribute 2 (the bundle ID's UTF8String, tag and length included), which
    /// the device hash covers.
    var bundleIdEncoding: Data? {
        fields.first { $0.type == 2 }?.value
    }

    /// Decodes a receipt payload: the content octets the receipt's PKCS#7 signature covers.
    ///
    /// - Throws: ``SignedDataDecodingError`` (`malformedReceipt`) when the payload is not a strictly
    ///   encoded receipt attribute SET.
    public init(payload: Data) throws(SignedDataDecodingError) {
        do {
            try self.init(decoding: payload)
        } catch {
            throw SignedDataDecodingError(.malformedReceipt, "The receipt's payload does not decode: \(error.message).")
        }
    }

    private init(decoding payload: Data) throws(ReceiptFormatError) {
        try self.init(decoding: payload.withUnsafeBytes { [UInt8]($0) })
    }

    /// Decodes the payload bytes (the verifier's path: no copy through `Data`).
    init(decoding bytes: [UInt8]) throws(ReceiptFormatError) {
        let set = try ReceiptPayloadParser.fields(bytes, window: 0..<bytes.count, in: .receipt)
        let typed = try ReceiptPayloadParser.TypedFields(set, singleValued: Self.typedFieldTypes, what: .receipt)
        self.receiptType = try typed.string(0)
        self.appItemId = try typed.integer(1)
        self.bundleId = try typed.string(2)
        self.applicationVersion = try typed.string(3)
        self.opaqueValue = typed.bytes(4)
        self.sha1Hash = typed.bytes(5)
        self.receiptCreationDate = try typed.date(12)
        self.originalPurchaseDate = try typed.date(18)
        self.originalApplicationVersion = try typed.string(19)
        self.expirationDate = try typed.date(21)
        var purchases: [InAppPurchaseReceipt] = []
        for (index, field) in set.fields.enumerated() where field.type == Self.inAppFieldType {
            purchases.append(try InAppPurchaseReceipt(bytes, window: set.valueRanges[index], index: purchases.count))
        }
        self.inApp = purchases
        self.fields = set.fields
    }
}

extension AppReceipt {
    /// Creates a receipt's contents, for tests and tools (the testing library signs them into a
    /// PKCS#7 receipt): the defaults describe a sandbox receipt of `com.example.app` created now.
    ///
    /// Dates are kept to whole seconds, as receipts write them.
    ///
    /// Defaults and meanings:
    ///   - `receiptType`: Attribute 0: `Production`, `ProductionSandbox` (the sandbox, the default) or
    ///     `Xcode`.
    ///   - `fields`: Further attributes, written as given after the typed ones; those whose type is a
    ///     typed attribute's (0–5, 12, 17, 18, 19, 21) are ignored when the receipt is written.
    public init(
        receiptType: String? = "ProductionSandbox",
        appItemId: Int64? = 0,
        bundleId: String? = "com.example.app",
        applicationVersion: String? = "1",
        opaqueValue: Data? = Data(repeating: 0x5A, count: 16),
        sha1Hash: Data? = nil,
        receiptCreationDate: Date? = Date(),
        inApp: [InAppPurchaseReceipt] = [],
        originalPurchaseDate: Date? = nil,
        originalApplicationVersion: String? = "1.0",
        expirationDate: Date? = nil,
        fields: [ReceiptField] = []
    ) {
        self.receiptType = receiptType
        self.appItemId = appItemId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.opaqueValue = opaqueValue
        self.sha1Hash = sha1Hash
        self.receiptCreationDate = receiptCreationDate.map(ReceiptDate.wholeSeconds)
        self.inApp = inApp
        self.originalPurchaseDate = originalPurchaseDate.map(ReceiptDate.wholeSeconds)
        self.originalApplicationVersion = originalApplicationVersion
        self.expirationDate = expirationDate.map(ReceiptDate.wholeSeconds)
        self.fields = fields
    }

    /// The attribute types this type reads into typed properties (17 is the in-app purchases).
    package static var typedAttributeTypes: [Int] { typedFieldTypes + [inAppFieldType] }
}
