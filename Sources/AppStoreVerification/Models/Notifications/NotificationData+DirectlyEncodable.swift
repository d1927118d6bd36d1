import Foundation

extension NotificationData: DirectlyEncodable {
    /// The members `encode(to:)` writes, in byte order of their names.
    func writeJSON(into bytes: inout [UInt8]) throws {
        var writer = JSONObjectWriter(taking: &bytes)
        writer.integer("appAppleId", appAppleId)
        writer.string("bundleId", bundleId)
        writer.string("bundleVersion", bundleVersion)
        writer.open("consumptionRequestReason", consumptionRequestReason)
        writer.open("environment", environment)
        writer.string("signedRenewalInfo", signedRenewalInfo)
        writer.string("signedTransactionInfo", signedTransactionInfo)
        writer.open("status", status)
        bytes = writer.finish()
    }
}
