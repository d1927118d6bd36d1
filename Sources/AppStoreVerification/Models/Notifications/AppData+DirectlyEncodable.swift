import Foundation

extension AppData: DirectlyEncodable {
    /// The members `encode(to:)` writes, in byte order of their names.
    func writeJSON(into bytes: inout [UInt8]) throws {
        var writer = JSONObjectWriter(taking: &bytes)
        writer.integer("appAppleId", appAppleId)
        writer.string("bundleId", bundleId)
        writer.open("environment", environment)
        writer.string("signedAppTransactionInfo", signedAppTransactionInfo)
        bytes = writer.finish()
    }
}
