import Crypto
import Foundation
import GRDB

/// ``SchemaMigrations`` on SQLite, inside the writer's transaction at start.
enum SQLiteSchema {
    /// Brings the database to ``SchemaMigrations/latest``.
    static func migrate(_ db: Database, now: Int64, verify: StoreWrite.Verify) throws {
        let types = SchemaMigrations.Types.sqlite
        try db.execute(sql: SchemaMigrations.migrationsTable)
        var applied = Set(try Int64.fetchAll(db, sql: "SELECT version FROM schema_migrations"))
        if applied.isEmpty {
            let userVersion = try Int64.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            if userVersion > Int64(SchemaMigrations.latest) {
                throw SchemaTooNew(found: Int(userVersion), supported: SchemaMigrations.latest)
            }
            if userVersion == 1 {
                try note(1, in: db, now: now, description: "schema 1, written before schema_migrations existed")
                applied.insert(1)
            }
        }
        if let newest = applied.max(), newest > Int64(SchemaMigrations.latest) {
            throw SchemaTooNew(found: Int(newest), supported: SchemaMigrations.latest)
        }
        if !applied.contains(1) {
            for statement in SchemaMigrations.schema1(types) { try db.execute(sql: statement) }
            try note(1, in: db, now: now)
        }
        if !applied.contains(2) {
            try upgradeTo2(db, now: now, verify: verify)
            try note(2, in: db, now: now)
        }
        if !applied.contains(3) {
            for statement in SchemaMigrations.schema3 { try db.execute(sql: statement) }
            try note(3, in: db, now: now)
        }
        if !applied.contains(4) {
            for statement in SchemaMigrations.schema4(types) { try db.execute(sql: statement) }
            try note(4, in: db, now: now)
        }
        if !applied.contains(5) {
            for statement in SchemaMigrations.schema5(types) { try db.execute(sql: statement) }
            try note(5, in: db, now: now)
        }
        if !applied.contains(6) {
            for statement in SchemaMigrations.schema6SQLite { try db.execute(sql: statement) }
            try note(6, in: db, now: now)
        }
        if !applied.contains(7) {
            for statement in JWSHeaders.schema7 { try db.execute(sql: statement) }
            try JWSHeaders.splitStoredRows(db)
            try note(7, in: db, now: now)
        }
        try db.execute(sql: "PRAGMA user_version = \(SchemaMigrations.latest)")
    }

    private static func note(_ version: Int64, in db: Database, now: Int64, description: String? = nil) throws {
        try db.execute(sql: "INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)",
                       arguments: [version, description ?? SchemaMigrations.descriptions[Int(version)] ?? "", now])
    }

    /// Schema 1 → 2: a new `signed_data` filled from the old one (each JWS hashed and verified once).
    private static func upgradeTo2(_ db: Database, now: Int64, verify: StoreWrite.Verify) throws {
        let types = SchemaMigrations.Types.sqlite
        try db.execute(sql: SchemaMigrations.signedDataV2(types))
        var last: Int64 = -1
        while true {
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, kind, jws, original_transaction_id, transaction_id, notification_uuid, notification_type,
                       product_id, signed_date, received_at
                FROM signed_data WHERE id > ? ORDER BY id LIMIT ?
                """, arguments: [last, SchemaMigrations.upgradeBatch])
            guard let lastRow = rows.last, let lastId: Int64 = lastRow[0] else { break }
            last = lastId
            for row in rows {
                guard let id: Int64 = row[0], let kind = (row[1] as String?).flatMap(SignedDataKind.init(rawValue:)), let jws: String = row[2] else { continue }
                let stored = StoredSignedData(kind: kind, jws: jws, originalTransactionId: row[3], transactionId: row[4], notificationUUID: row[5],
                                              notificationType: row[6], productId: row[7], signedDate: row[8])
                let name = VerifiedRecords.name(of: kind, transactionId: stored.transactionId, notificationUUID: stored.notificationUUID,
                                                originalTransactionId: stored.originalTransactionId)
                let records = try verify(kind, jws, name)
                let receivedAt: Int64 = row[9] ?? now
                try db.execute(sql: "INSERT INTO signed_data_v2 (id, \(SchemaMigrations.signedDataColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               arguments: [id] + Database.arguments(stored, sha256: Array(SHA256.hash(data: Data(jws.utf8))), records: records,
                                                                    rejectionsJSON: try records.rejectionsJSON, receivedAt: receivedAt, verifiedAt: now))
            }
        }
        for statement in SchemaMigrations.completeSchema2(types) { try db.execute(sql: statement) }
    }
}
