import Crypto
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// ``SchemaMigrations`` on PostgreSQL, inside one transaction on the connection opened at start.
enum PostgresSchema {
    /// Brings the database to ``SchemaMigrations/latest``; two servers starting at once on one
    /// database take turns (an advisory lock held until the transaction ends).
    static func migrate(_ connection: PostgresConnection, logger: Logger, now: Int64, verify: StoreWrite.Verify) async throws {
        let types = SchemaMigrations.Types.postgres
        func run(_ sql: String) async throws {
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
        func note(_ version: Int64) async throws {
            let description = SchemaMigrations.descriptions[Int(version)] ?? ""
            _ = try await connection.query(
                "INSERT INTO schema_migrations (version, description, applied_at) VALUES (\(Int32(version)), \(description), \(now))", logger: logger)
        }
        try await run("SELECT pg_advisory_xact_lock(190019)")
        try await run(SchemaMigrations.migrationsTable)
        var applied = Set<Int64>()
        for try await version in try await connection.query("SELECT version FROM schema_migrations", logger: logger).decode(Int32.self) {
            applied.insert(Int64(version))
        }
        if let newest = applied.max(), newest > Int64(SchemaMigrations.latest) {
            throw SchemaTooNew(found: Int(newest), supported: SchemaMigrations.latest)
        }
        if !applied.contains(1) {
            for statement in SchemaMigrations.schema1(types) { try await run(statement) }
            try await note(1)
        }
        if !applied.contains(2) {
            try await run(SchemaMigrations.signedDataV2(types))
            var last: Int64 = -1
            while true {
                var rows: [(Int64, String, String, String?, String?, String?, String?, String?, Int64?, Int64)] = []
                let query: PostgresQuery = """
                    SELECT id, kind, jws, original_transaction_id, transaction_id, notification_uuid, notification_type,
                           product_id, signed_date, received_at
                    FROM signed_data WHERE id > \(last) ORDER BY id LIMIT \(Int64(SchemaMigrations.upgradeBatch))
                    """
                for try await row in try await connection.query(query, logger: logger)
                    .decode((Int64, String, String, String?, String?, String?, String?, String?, Int64?, Int64).self) {
                    rows.append(row)
                }
                guard let lastRow = rows.last else { break }
                last = lastRow.0
                for (id, kindText, jws, purchase, transactionId, uuid, type, productId, signedDate, receivedAt) in rows {
                    guard let kind = SignedDataKind(rawValue: kindText) else { continue }
                    let name = VerifiedRecords.name(of: kind, transactionId: transactionId, notificationUUID: uuid, originalTransactionId: purchase)
                    let records = try verify(kind, jws, name)
                    let hash = ByteBuffer(bytes: Array(SHA256.hash(data: Data(jws.utf8))))
                    let rejections = try records.rejectionsJSON
                    _ = try await connection.query("""
                        INSERT INTO signed_data_v2 (id, \(unescaped: SchemaMigrations.signedDataColumns))
                        VALUES (\(id), \(kind.rawValue), \(jws), \(hash), \(purchase), \(transactionId), \(uuid), \(type), \(productId),
                                \(signedDate), \(receivedAt), \(records.transactionRecords), \(records.renewalRecords), \(records.revocationRecords),
                                \(rejections), \(now))
                        """, logger: logger)
                }
            }
            for statement in SchemaMigrations.completeSchema2(types) { try await run(statement) }
            try await run("SELECT setval(pg_get_serial_sequence('signed_data', 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM signed_data), false)")
            try await note(2)
        }
        if !applied.contains(3) {
            for statement in SchemaMigrations.schema3 { try await run(statement) }
            try await note(3)
        }
        if !applied.contains(4) {
            for statement in SchemaMigrations.schema4(types) { try await run(statement) }
            try await note(4)
        }
        if !applied.contains(5) {
            for statement in SchemaMigrations.schema5(types) { try await run(statement) }
            try await note(5)
        }
        if !applied.contains(6) {
            // SQLite's rebuild without rowids; PostgreSQL's tables need no change.
            try await note(6)
        }
        if !applied.contains(7) {
            // SQLite's header table; PostgreSQL keeps the whole JWS (SchemaMigrations, version 7).
            try await note(7)
        }
    }
}
