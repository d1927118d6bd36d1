import Foundation

/// How the server keeps its database: connection counts and the size of the in-memory cache of
/// customers' engines. Where the database is comes from ``ServerConfiguration/databasePath`` (a
/// ``StoreLocation``), how long a write waits for it from
/// ``ServerConfiguration/busyTimeoutMilliseconds``.
public struct StoreConfiguration: Sendable {
    /// SQLite: read-only connections beside the one writer, so reads never wait behind writes.
    public var readerConnections: Int
    /// PostgreSQL: the most connections the pool opens.
    public var postgresMaximumConnections: Int
    /// How many customers' engines this process keeps in memory (least recently used dropped first);
    /// 0 restores every answer from the stored records.
    public var cachedCustomers: Int

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - readerConnections: SQLite reading connections.
    ///   - postgresMaximumConnections: the PostgreSQL pool's size.
    ///   - cachedCustomers: customers' engines kept in memory.
    public init(readerConnections: Int = 2, postgresMaximumConnections: Int = 8, cachedCustomers: Int = 10_000) {
        self.readerConnections = readerConnections
        self.postgresMaximumConnections = postgresMaximumConnections
        self.cachedCustomers = cachedCustomers
    }
}

/// Where the database is, from `--database`: a SQLite file (a path, or `sqlite:PATH`) or a
/// PostgreSQL database (`postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]`;
/// `postgresql://` too). Schemes are matched case-insensitively (RFC 3986): `Postgres://` and
/// `POSTGRESQL://` are PostgreSQL, and a URL of any other scheme is refused rather than taken for a
/// file name.
public enum StoreLocation: Sendable, Equatable {
    /// A SQLite database file.
    case sqlite(path: String)
    /// A PostgreSQL server.
    case postgres(PostgresLocation)

    /// Reads a `--database` value.
    ///
    /// - Throws: ``StoreLocationError`` for an empty value, a URL of another scheme, or a PostgreSQL
    ///   URL without a user, host or database, or with an unknown `sslmode`. Its message never
    ///   carries the password.
    public init(_ text: String) throws(StoreLocationError) {
        if let scheme = Self.scheme(of: text) {
            switch scheme {
            case "postgres", "postgresql":
                self = .postgres(try PostgresLocation(url: text))
            case "sqlite":
                throw StoreLocationError("\(PostgresLocation.redacted(text)): write a SQLite database as sqlite:PATH or a plain path, e.g. sqlite:/var/lib/receipts/receipts.sqlite.")
            default:
                throw StoreLocationError("\(PostgresLocation.redacted(text)) is a \(scheme):// URL; the database is a SQLite file path, sqlite:PATH or postgres://user@host:port/database.")
            }
        } else if text.lowercased().hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw StoreLocationError("\"sqlite:\" names no file; write sqlite:PATH, e.g. sqlite:/var/lib/receipts/receipts.sqlite.") }
            self = .sqlite(path: path)
        } else {
            guard !text.isEmpty else { throw StoreLocationError("The database location is empty; give a file path, sqlite:PATH or postgres://user@host:port/database.") }
            self = .sqlite(path: text)
        }
    }

    /// The lowercased scheme of `text` when it starts like a URL with an authority
    /// (`scheme://`, RFC 3986's `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`), else `nil`.
    static func scheme(of text: String) -> String? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return scheme.lowercased()
    }
}

/// A PostgreSQL server and database.
public struct PostgresLocation: Sendable, Equatable {
    /// The host name or address.
    public var host: String
    /// The port (5432 by default).
    public var port: Int
    /// The user.
    public var username: String
    /// The password, if the URL has one (or `PGPASSWORD` is set).
    public var password: String?
    /// The database.
    public var database: String
    /// `disable`, `prefer` (the default) or `require`.
    public var sslMode: String

    /// Reads `postgres://user[:password]@host[:port]/database[?sslmode=...]`.
    public init(url text: String) throws(StoreLocationError) {
        guard let components = URLComponents(string: text) else {
            throw StoreLocationError("\(Self.redacted(text)) is not a URL; write postgres://user[:password]@host[:port]/database.")
        }
        guard let user = components.user, !user.isEmpty else {
            throw StoreLocationError("\(Self.redacted(text)) names no user; write postgres://user@host:port/database.")
        }
        guard let host = components.host, !host.isEmpty else {
            throw StoreLocationError("\(Self.redacted(text)) names no host; write postgres://user@host:port/database.")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else {
            throw StoreLocationError("\(Self.redacted(text)) names no database; write postgres://user@host:port/database.")
        }
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        guard ["disable", "prefer", "require"].contains(sslMode) else {
            throw StoreLocationError("sslmode=\(sslMode) is not one of disable, prefer, require.")
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = components.port ?? 5432
        self.username = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 } ?? ProcessInfo.processInfo.environment["PGPASSWORD"]
        self.database = database.removingPercentEncoding ?? database
        self.sslMode = sslMode
    }

    /// The URL without its password, for messages.
    public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }

    /// `text` with any password replaced by `***`, for messages: everything between the user name's
    /// end and the last `@` of the part after `://` (a password may itself hold `@`, `/` or `:`).
    static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@") else { return text }
        let credentials = text[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}

/// A `--database` value that names no usable database.
public struct StoreLocationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and how to write it.
    public let description: String

    init(_ description: String) { self.description = description }
}
