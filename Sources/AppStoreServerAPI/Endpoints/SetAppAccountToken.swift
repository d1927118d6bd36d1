import Foundation

extension AppStoreServerAPIClient {
    /// Sets the app account token of a purchase made outside your app's StoreKit flow: Set App
    /// Account Token, `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`.
    ///
    /// - Parameters:
    ///   - originalTransactionId: the purchase's original transaction ID.
    ///   - appAccountToken: your UUID for the customer's account (sent lowercase).
    /// - Throws: ``AppStoreServerAPIError``.
    public func setAppAccountToken(originalTransactionId: String, appAccountToken: UUID) async throws(AppStoreServerAPIError) {
        let path: [APIRequest.PathSegment] = [.literal("inApps"), .literal("v1"), .literal("transactions"),
                                              .parameter(name: "originalTransactionId", value: originalTransactionId), .literal("appAccountToken")]
        let body = Data("{\"appAccountToken\":\"\(appAccountToken.uuidString.lowercased())\"}".utf8)
        _ = try await send(try APIRequest("PUT", path, body: body))
    }
}
