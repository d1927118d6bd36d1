import Crypto
import Foundation
import GRDB
import Synchronization

/// Schema 7 on SQLite: each distinct JWS header segment is stored once, in `jws_headers` (keyed by
/// its SHA-256), and a `signed_data` row keeps a reference to it (`jws_header`) and, in `jws`, the
/// rest of the compact JWS (payload and signature, after the first `.`). The header is the same in
/// every JWS signed with one certificate chain (its `x5c` holds the three certificates, about 4 KB
/// of the 5 KB), so the row fits its table's leaf page instead of overflowing onto a page of its own.
///
/// A row whose `jws_header` is `NULL` holds its whole JWS in `jws`. Every read takes ``column``,
/// which gives the exact JWS back, byte for byte: the header, a `.`, then the rest.
enum JWSHeaders {
    /// The SQL that reads the whole JWS of the `signed_data` row named `d` (its table alias).
    static let column = "CASE WHEN d.jws_header IS NULL THEN d.jws ELSE (SELECT h.header FROM jws_headers h WHERE h.id = d.jws_header) || '.' || d.jws END"

    /// Schema 7's statements before the rows are split (``split(_:)``).
    static let schema7 = [
        "CREATE TABLE jws_headers (id INTEGER PRIMARY KEY, sha256 BLOB NOT NULL UNIQUE, header TEXT NOT NULL)",
        "ALTER TABLE signed_data ADD COLUMN jws_header INTEGER",
    ]

    /// A compact JWS split before its first `.`: the header segment's length and the rest (without
    /// the dot); `nil` when the text has no dot (it is then stored whole). Found with `memchr` on
    /// the text's UTF-8: a generic search walks the 4 KB header one index at a time.
    static func split(_ jws: String) -> (headerLength: Int, rest: String)? {
        var text = jws
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, let dot = memchr(base, Int32(UInt8(ascii: ".")), bytes.count) else { return nil }
            let length = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(dot))
            return (length, String(decoding: UnsafeBufferPointer(rebasing: bytes[(length + 1)...]), as: UTF8.self))
        }
    }

    /// Schema 6 → 7 in place: every stored row whose JWS is whole is split, its header stored once.
    static func splitStoredRows(_ db: Database) throws {
        var known: [String: Int64] = [:]
        var last: Int64 = -1
        while true {
            let rows = try Row.fetchAll(db, sql: "SELECT id, jws FROM signed_data WHERE id > ? AND jws_header IS NULL ORDER BY id LIMIT ?",
                                        arguments: [last, SchemaMigrations.upgradeBatch])
            guard let lastRow = rows.last, let lastId: Int64 = lastRow[0] else { break }
            last = lastId
            for row in rows {
                guard let id: Int64 = row[0], let jws: String = row[1], let (length, rest) = split(jws) else { continue }
                let text = String(decoding: jws.utf8.prefix(length), as: UTF8.self)
                let headerId: Int64
                if let found = known[text] {
                    headerId = found
                } else {
                    headerId = try db.jwsHeaderId(of: jws, length: length, cache: nil)
                    known[text] = headerId
                }
                try db.execute(sql: "UPDATE signed_data SET jws = ?, jws_header = ? WHERE id = ?", arguments: [rest, headerId, id])
            }
        }
    }
}

/// The `jws_headers` ids the writer connection knows, so that a write looks its header up in memory
/// (compared byte for byte with the few known headers) instead of hashing it and asking the
/// database. An id learnt inside the writer's transaction is only kept once that transaction
/// committed: a rolled-back savepoint or transaction forgets what it learnt (the header row it
/// inserted is gone with it).
final class JWSHeaderCache: Sendable {
    private struct Entry {
        let header: [UInt8]
        let id: Int64
    }

    private struct State {
        var known: [Entry] = []
        var pending: [Entry] = []
    }

    /// How many headers it keeps (one per certificate chain in use; a chain changes every few years).
    static let capacity = 16

    private let state = Mutex(State())

    /// The id of the header that is the first `length` bytes of `jws`, when known (committed, or
    /// learnt earlier in the open transaction).
    func id(ofHeaderIn jws: String, length: Int) -> Int64? {
        var text = jws
        return text.withUTF8 { bytes in
            guard length <= bytes.count, let base = bytes.baseAddress else { return nil }
            return state.withLock { state in
                for entry in state.known where Self.same(entry.header, base, length) { return entry.id }
                for entry in state.pending where Self.same(entry.header, base, length) { return entry.id }
                return nil
            }
        }
    }

    /// Notes an id found or inserted in the open transaction.
    func learn(_ header: [UInt8], id: Int64) {
        state.withLock { $0.pending.append(Entry(header: header, id: id)) }
    }

    /// The open transaction committed: what it learnt is known.
    func committed() {
        state.withLock { state in
            guard !state.pending.isEmpty else { return }
            state.known.append(contentsOf: state.pending)
            state.pending.removeAll()
            if state.known.count > Self.capacity { state.known.removeFirst(state.known.count - Self.capacity) }
        }
    }

    /// A savepoint or the transaction rolled back: what the open transaction learnt is forgotten.
    func rolledBack() {
        state.withLock { $0.pending.removeAll() }
    }

    /// Whether `known` is the `length` bytes at `bytes`.
    private static func same(_ known: [UInt8], _ bytes: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        known.count == length && known.withUnsafeBytes { known in
            guard let start = known.baseAddress else { return length == 0 }
            return memcmp(start, bytes, length) == 0
        }
    }
}

extension Database {
    /// The `jws_headers` id of the header that is the first `length` bytes of `jws`, inserting it
    /// when it is new.
    func jwsHeaderId(of jws: String, length: Int, cache: JWSHeaderCache?) throws -> Int64 {
        if let id = cache?.id(ofHeaderIn: jws, length: length) { return id }
        let bytes = Array(jws.utf8.prefix(length))
        let text = String(decoding: bytes, as: UTF8.self)
        let hash = Data(SHA256.hash(data: bytes))
        try cachedStatement(sql: "INSERT INTO jws_headers (sha256, header) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING")
            .execute(arguments: [hash, text])
        guard let row = try Row.fetchOne(cachedStatement(sql: "SELECT id, header FROM jws_headers WHERE sha256 = ?"), arguments: [hash]),
              let id: Int64 = row[0], let stored: String = row[1], stored == text
        else { throw JWSHeaderMismatch() }
        cache?.learn(bytes, id: id)
        return id
    }
}

/// `jws_headers` holds another text under a header's SHA-256, or lost the row just inserted.
struct JWSHeaderMismatch: Error, CustomStringConvertible {
    var description: String { "the stored JWS header under this SHA-256 is missing or differs" }
}
