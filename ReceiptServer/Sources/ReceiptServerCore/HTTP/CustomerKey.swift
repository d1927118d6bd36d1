import Foundation

/// The customer key: an `appAccountToken`, the UUID the app passes to StoreKit at purchase
/// (`Product.PurchaseOption.appAccountToken`), which the App Store copies into every transaction
/// and renewal of that purchase. Stored and compared in lowercase.
enum CustomerKey {
    /// The canonical (lowercase) form of a UUID text, or `nil` when it is not a UUID.
    static func canonical(_ text: String) -> String? {
        UUID(uuidString: text).map { $0.uuidString.lowercased() }
    }

    /// The canonical form of a body's `appAccountToken`.
    ///
    /// - Throws: 400 `invalidBody` when it is not a UUID.
    static func required(_ text: String) throws(APIError) -> String {
        guard let canonical = canonical(text) else {
            throw APIError.invalidBody("\"appAccountToken\" must be a UUID string such as \"7e3fb20b-4cdb-47cc-936d-99d65f608138\".")
        }
        return canonical
    }

    /// The canonical form of `UUID`.
    static func canonical(_ uuid: UUID) -> String {
        uuid.uuidString.lowercased()
    }
}
