import Crypto
import Foundation

/// Unpredictable tokens for the console: session identifiers, CSRF tokens, the sign-in form's
/// token. Each is 256 bits from the system's cryptographically secure generator (swift-crypto's
/// `SymmetricKey`), written in base64url without padding (43 characters, valid in a cookie).
enum ConsoleRandom {
    /// A new 256-bit token.
    static func token() -> String {
        let key = SymmetricKey(size: .bits256)
        let bytes = key.withUnsafeBytes { Data($0) }
        return bytes.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The SHA-256 of `text` in lowercase hex: how the session store keys a cookie value.
    static func digest(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Whether two secrets are equal, in time that depends only on `expected`'s length.
    static func constantTimeEquals(_ presented: String, _ expected: String) -> Bool {
        let presentedBytes = Array(presented.utf8)
        let expectedBytes = Array(expected.utf8)
        var difference: UInt8 = presentedBytes.count == expectedBytes.count ? 0 : 1
        for index in expectedBytes.indices {
            let byte = index < presentedBytes.count ? presentedBytes[index] : 0
            difference |= byte ^ expectedBytes[index]
        }
        return difference == 0
    }
}
