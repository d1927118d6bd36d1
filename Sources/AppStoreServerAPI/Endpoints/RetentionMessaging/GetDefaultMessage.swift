extension AppStoreServerAPIClient {
    /// The default message of a product in a locale:
    /// [Get Default Message](https://developer.apple.com/documentation/retentionmessaging/get-default-message),
    /// `GET /inApps/v1/messaging/default/{productId}/{locale}`.
    ///
    /// - Parameters:
    ///   - productId: the subscription's product ID.
    ///   - locale: the locale, such as `en-US`.
    /// - Returns: the configured message's identifier.
    /// - Throws: ``AppStoreServerAPIError``; Apple's ``APIErrorCode/defaultMessageNotFound`` when
    ///   none is configured.
    public func getDefaultMessage(productId: String, locale: String) async throws(AppStoreServerAPIError) -> DefaultConfigurationResponse {
        let call = try APIRequest(messaging: "GET", [.literal("default"), .parameter(name: "productId", value: productId),
                                                     .parameter(name: "locale", value: locale)])
        return try decode(DefaultConfigurationResponse.self, from: try await send(call), of: call)
    }
}
