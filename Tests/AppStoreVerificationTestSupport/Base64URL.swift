import Foundation

/// Decodes base64url text (unpadded or padded); lenient, unlike the library's strict decoder.
public func base64URLDecoded(_ text: String) -> Data? {
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while standard.count % 4 != 0 { standard += "=" }
    return Data(base64Encoded: standard)
}

/// Encodes bytes as base64url without padding.
public func base64URLEncoded(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}
