import AppStoreVerification
import Crypto
import Foundation

/// One verified JWS ready to insert into `signed_data`: every column's value, computed before the
/// write transaction (hash, records, rejections), so the transaction itself only binds them.
struct SignedDataRow: Sendable {
    /// The row's identifiers and text.
    let row: StoredSignedData
    /// The SHA-256 of the JWS text, the row's unique key.
    let sha256: [UInt8]
    /// What the JWS counts for.
    let records: VerifiedRecords
    /// ``VerifiedRecords/rejections`` as the stored JSON array.
    let rejectionsJSON: String
    /// The verified value, for the cache of customers' engines.
    let item: EntitlementEngine.Item

    /// - Throws: when the records do not encode.
    init(row: StoredSignedData, records: VerifiedRecords, item: EntitlementEngine.Item) throws {
        self.row = row
        var jws = row.jws
        self.sha256 = jws.withUTF8 { Array(SHA256.hash(data: UnsafeRawBufferPointer($0))) }
        self.records = records
        self.rejectionsJSON = try records.rejectionsJSON
        self.item = item
    }
}
