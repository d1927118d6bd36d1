/// A value bound to, or read from, a SQL statement: the few types the store uses, the same in
/// SQLite and PostgreSQL.
enum SQLValue: Sendable, Equatable {
    /// Text (`TEXT`).
    case text(String)
    /// A 64-bit integer (`INTEGER` / `BIGINT`).
    case integer(Int64)
    /// Bytes (`BLOB` / `BYTEA`).
    case blob([UInt8])
    /// `NULL`.
    case null

    /// `.text(value)`, or `.null` for `nil`.
    static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }

    /// `.integer(value)`, or `.null` for `nil`.
    static func integer(_ value: Int64?) -> SQLValue { value.map { .integer($0) } ?? .null }

    /// The text, when this is text.
    var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The integer, when this is an integer.
    var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}

/// One result row, by column name.
struct SQLRow: Sendable {
    /// The row's values by column name.
    var values: [String: SQLValue]

    /// The text in `column`, if any.
    func string(_ column: String) -> String? { values[column]?.string }

    /// The integer in `column`, if any.
    func integer(_ column: String) -> Int64? { values[column]?.integer }
}

/// A connection (inside a transaction, for writes) that the store's SQL runs on. Statements use `?`
/// placeholders; the PostgreSQL session numbers them.
protocol SQLSession: Sendable {
    /// Runs one statement and returns its rows.
    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
}

extension SQLSession {
    /// Runs one statement without binds.
    func query(_ sql: String) async throws -> [SQLRow] {
        try await query(sql, [])
    }
}

/// Which SQL the database speaks, where SQLite and PostgreSQL differ.
enum SQLDialect: String, Sendable {
    case sqlite
    case postgres
}
