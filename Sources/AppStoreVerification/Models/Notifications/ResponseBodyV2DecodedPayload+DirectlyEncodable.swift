import Foundation

extension ResponseBodyV2DecodedPayload: DirectlyEncodable {
    /// The members `encode(to:)` writes, in byte order of their names.
    func writeJSON(into bytes: inout [UInt8]) throws {
        var writer = JSONObjectWriter(taking: &bytes)
        try writer.object("appData", appData)
        try writer.object("data", data)
        try writer.encodable("externalPurchaseToken", externalPurchaseToken)
        writer.open("notificationType", notificationType)
        writer.string("notificationUUID", notificationUUID)
        try writer.date("signedDate", signedDate)
        writer.open("subtype", subtype)
        try writer.encodable("summary", summary)
        writer.string("version", version)
        bytes = writer.finish()
    }
}
