/// What makes a bearer token (the access token, the metrics token) strong enough to guard
/// customers' data: at least 128 bits of entropy from a random generator, written down as a rule
/// an operator can check.
///
/// A token must be at least ``minimumLength`` printable ASCII characters without spaces, use at
/// least ``minimumDistinctCharacters`` different characters, and not be one shorter piece repeated
/// (`abcabcabc…`). `openssl rand -hex 32` (64 hex digits, 256 bits) passes; so does
/// `openssl rand -base64 32`. A server refuses to start with a token that does not pass.
public enum AccessTokenRule {
    /// The fewest characters a token may have: 32 hex digits are 128 bits.
    public static let minimumLength = 32
    /// The fewest different characters a token must use (a random hex token of 32 digits uses
    /// fewer than 8 with a probability below one in ten million).
    public static let minimumDistinctCharacters = 8
    /// How to make a token that passes.
    public static let howToMake = "generate one with `openssl rand -hex 32`"

    /// Why `token` is too weak, or `nil` when it passes the rule.
    ///
    /// - Parameter token: the token as configured.
    /// - Returns: a sentence saying what is wrong (never the token itself).
    public static func weakness(of token: String) -> String? {
        let bytes = Array(token.utf8)
        guard bytes.allSatisfy({ $0 >= 0x21 && $0 < 0x7F }) else {
            return "it holds a space, a control character or a character outside printable ASCII"
        }
        guard bytes.count >= minimumLength else {
            return "it has \(bytes.count) characters; at least \(minimumLength) are needed (128 bits)"
        }
        guard Set(bytes).count >= minimumDistinctCharacters else {
            return "it uses only \(Set(bytes).count) different characters; at least \(minimumDistinctCharacters) are needed"
        }
        if let period = repeatingPeriod(of: bytes) {
            return "it is one piece of \(period) characters repeated"
        }
        return nil
    }

    /// The length of the shortest piece `bytes` is a repetition of (a prefix of the piece may end
    /// it: `abcab` is `abc` repeated), when it is repeated at least twice; else `nil`.
    static func repeatingPeriod(of bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for period in 1...(bytes.count / 2) where (period..<bytes.count).allSatisfy({ bytes[$0] == bytes[$0 - period] }) {
            return period
        }
        return nil
    }
}

/// A bearer token the server was given does not pass ``AccessTokenRule``: the server does not start.
public struct WeakAccessTokenError: Error, Sendable, CustomStringConvertible {
    /// Which setting holds the token (`RECEIPT_SERVER_ACCESS_TOKEN`, ...).
    public let setting: String
    /// What is wrong with it.
    public let weakness: String

    /// Creates the error for the token in `setting`.
    public init(setting: String, weakness: String) {
        self.setting = setting
        self.weakness = weakness
    }

    public var description: String {
        "The token in \(setting) is too weak: \(weakness). A token needs at least \(AccessTokenRule.minimumLength) printable ASCII characters without spaces, at least \(AccessTokenRule.minimumDistinctCharacters) different ones, and must not be one piece repeated; \(AccessTokenRule.howToMake)."
    }
}
