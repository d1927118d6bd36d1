import AppStoreVerification

extension VerifierConfigurationError {
    /// The message in verify-jws's words: the flags (and, for `verify-jws api`, the environment
    /// variables) that set what the library's message names by its setting (`appAppleId`,
    /// `maximumInputLength`).
    ///
    /// - Parameter appAppleIdVariable: the environment variable that can give the App Apple ID too,
    ///   if any (`APP_STORE_APP_APPLE_ID` for `verify-jws api`).
    func commandLineMessage(appAppleIdVariable: String? = nil) -> String {
        switch code {
        case .missingAppAppleId:
            let alternative = appAppleIdVariable.map { " or set \($0)" } ?? ""
            return "--environment Production needs your app's Apple ID: give --app-apple-id N\(alternative) (App Store Connect, your app, App Information, Apple ID), which production payloads must carry."
        case .invalidSetting where message.hasPrefix("maximumInputLength"):
            return "--max-input-bytes must be a positive number of bytes."
        default:
            return message
        }
    }
}
