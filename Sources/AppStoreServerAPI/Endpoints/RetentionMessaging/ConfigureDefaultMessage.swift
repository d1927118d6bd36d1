extension AppStoreServerAPIClient {
    /// Sets the message shown by default for a product in a locale:
    /// [Configure Default Message](https://developer.apple.com/documentation/retentionmessaging/configure-default-message),
    /// `PUT /inApps/v1/messaging/default/{productId}/{locale}`.
    ///
    /// - Parameters:
    ///   - productId: the subscription's product ID.
    ///   - locale: the locale, such as `en-US`.
    ///   - request: the approved message to show.
    /// - Throws: ``AppStoreServerAPIError``; Apple's ``APIErrorCode/messageNotApproved``,
    ///   ``APIErrorCode/messageNotFound`` or ``APIErrorCode/invalidLocale``.
    public func configureDefaultMessage(productId: String, locale: String, request: DefaultConfigurationRequest) async throws(AppStoreServerAPIError) {
        let body = try encode(request, for: "PUT /inApps/v1/messaging/default")
        _ = try await send(try APIRequest(messaging: "PUT", [.literal("default"), .parameter(name: "productId", value: productId),
                                                             .parameter(name: "locale", value: locale)], body: body))
    }
}
