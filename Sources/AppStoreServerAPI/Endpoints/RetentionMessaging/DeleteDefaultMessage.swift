extension AppStoreServerAPIClient {
    /// Removes the default message of a product in a locale:
    /// [Delete Default Message](https://developer.apple.com/documentation/retentionmessaging/delete-default-message),
    /// `DELETE /inApps/v1/messaging/default/{productId}/{locale}`.
    ///
    /// - Parameters:
    ///   - productId: the subscription's product ID.
    ///   - locale: the locale, such as `en-US`.
    /// - Throws: ``AppStoreServerAPIError``; Apple's ``APIErrorCode/defaultMessageNotFound``.
    public func deleteDefaultMessage(productId: String, locale: String) async throws(AppStoreServerAPIError) {
        _ = try await send(try APIRequest(messaging: "DELETE", [.literal("default"), .parameter(name: "productId", value: productId),
                                                                .parameter(name: "locale", value: locale)]))
    }
}
