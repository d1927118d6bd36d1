import Foundation

/// The customer key: an `appAccountToken`, the UUID the app passes to StoreKit at purchase
/// (`Product.PurchaseOption.appAccountToken`), which the App Store copies into every transaction
/// and renewal of that purchase. Stored and compared in lowercase.
enum CustomerKey {
    /// The canonical (lowercase) form of a UUID text, or `nil` when it is not a UUID.
    static func canonical(_ text: String) -> String? {
        UUID(uuidString: text).map { $0.uuidString.lowercased() }
    }

    /// The canonical form of `UUID`.
    static func canonical(_ uuid: UUID) -> String {
        uuid.uuidString.lowercased()
    }
}
