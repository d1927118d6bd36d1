import AppStoreVerification
import Foundation

/// Writes a receipt's payload as Apple does: a DER `SET OF SEQUENCE { type INTEGER, version
/// INTEGER, value OCTET STRING }`, the values as the library's `ReceiptPayloadParser` reads them
/// (UTF8String text, INTEGER numbers and flags, IA5String RFC 3339 dates, raw bytes).
enum ReceiptPayloadWriter {
    static func payload(_ receipt: AppReceipt) -> [UInt8] {
        var attributes: [[UInt8]] = []
        func add(_ type: Int, _ value: [UInt8]?) {
            if let value { attributes.append(attribute(type, value)) }
        }
        add(0, receipt.receiptType.map(utf8String))
        add(1, receipt.appItemId.map(integer))
        add(2, receipt.bundleId.map(utf8String))
        add(3, receipt.applicationVersion.map(utf8String))
        add(4, receipt.opaqueValue.map { Array($0) })
        add(5, receipt.sha1Hash.map { Array($0) })
        add(12, receipt.receiptCreationDate.map(date))
        add(18, receipt.originalPurchaseDate.map(date))
        add(19, receipt.originalApplicationVersion.map(utf8String))
        add(21, receipt.expirationDate.map(date))
        for purchase in receipt.inApp {
            add(17, inApp(purchase))
        }
        for field in receipt.fields where !AppReceipt.typedAttributeTypes.contains(field.type) {
            attributes.append(attribute(field.type, Array(field.value), version: field.version))
        }
        return tlv(0x31, attributes.flatMap { $0 })
    }

    private static func inApp(_ purchase: InAppPurchaseReceipt) -> [UInt8] {
        var attributes: [[UInt8]] = []
        func add(_ type: Int, _ value: [UInt8]?) {
            if let value { attributes.append(attribute(type, value)) }
        }
        add(1701, purchase.quantity.map(integer))
        add(1702, purchase.productId.map(utf8String))
        add(1703, purchase.transactionId.map(utf8String))
        add(1704, purchase.purchaseDate.map(date))
        add(1705, purchase.originalTransactionId.map(utf8String))
        add(1706, purchase.originalPurchaseDate.map(date))
        add(1708, purchase.expiresDate.map(date))
        add(1711, purchase.webOrderLineItemId.map(integer))
        add(1712, purchase.cancellationDate.map(date))
        add(1713, purchase.isTrialPeriod.map { integer($0 ? 1 : 0) })
        add(1719, purchase.isInIntroOfferPeriod.map { integer($0 ? 1 : 0) })
        add(1721, purchase.promotionalOfferId.map(utf8String))
        for field in purchase.fields where !InAppPurchaseReceipt.typedAttributeTypes.contains(field.type) {
            attributes.append(attribute(field.type, Array(field.value), version: field.version))
        }
        return tlv(0x31, attributes.flatMap { $0 })
    }

    private static func attribute(_ type: Int, _ value: [UInt8], version: Int = 1) -> [UInt8] {
        tlv(0x30, integer(Int64(type)) + integer(Int64(version)) + tlv(0x04, value))
    }

    private static func utf8String(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }

    /// RFC 3339 in UTC to the second, as Apple writes receipt dates (`2025-05-01T10:00:00Z`).
    private static func date(_ date: Date) -> [UInt8] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let text = "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))Z"
        return tlv(0x16, Array(text.utf8))
    }

    /// A DER INTEGER: two's complement, shortest form.
    private static func integer(_ value: Int64) -> [UInt8] {
        var bytes = withUnsafeBytes(of: value.bigEndian) { Array($0) }
        while bytes.count > 1, (bytes[0] == 0x00 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xFF && bytes[1] & 0x80 != 0) {
            bytes.removeFirst()
        }
        return tlv(0x02, bytes)
    }

    private static func tlv(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        let count = contents.count
        if count < 0x80 {
            out.append(UInt8(count))
        } else {
            var length = withUnsafeBytes(of: UInt64(count).bigEndian) { Array($0) }
            while length.first == 0 { length.removeFirst() }
            out.append(0x80 | UInt8(length.count))
            out += length
        }
        return out + contents
    }
}
