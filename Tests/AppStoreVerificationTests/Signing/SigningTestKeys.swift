import Foundation
import Testing
@testable import AppStoreVerification

/// Throw-away keys made with the `openssl` command in a temporary directory, once per test run:
/// P-256 in PKCS#8 and SEC1 (the same key), encrypted (PKCS#8 and traditional SEC1), RSA, P-384,
/// a public key, garbage and an empty file.
final class SigningTestKeys: Sendable {
    let directory: URL

    /// The keys, or `nil` when `openssl` cannot run here.
    static let shared: SigningTestKeys? = try? SigningTestKeys()

    static var isAvailable: Bool { shared != nil }

    /// Throws when the keys cannot be made (tests then fail with this message).
    static func require() throws -> SigningTestKeys {
        guard let shared else { throw SigningTestFailure("the openssl command is needed to make test keys (apt-get install openssl)") }
        return shared
    }

    var pkcs8: URL { file("p256-pkcs8.pem") }
    var sec1: URL { file("p256-sec1.pem") }
    /// `openssl ecparam -genkey` output: an `EC PARAMETERS` block, then an `EC PRIVATE KEY`.
    var sec1WithParameters: URL { file("p256-ecparam.pem") }
    var encryptedPKCS8: URL { file("p256-encrypted-pkcs8.pem") }
    var encryptedSEC1: URL { file("p256-encrypted-sec1.pem") }
    var rsa: URL { file("rsa.pem") }
    var p384: URL { file("p384.pem") }
    var publicKey: URL { file("p256-public.pem") }
    var publicKeyDER: URL { file("p256-public.der") }
    var garbage: URL { file("garbage.pem") }
    var empty: URL { file("empty.pem") }

    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("signing-keys-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.path
        try Self.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "\(path)/p256-pkcs8.pem"])
        try Self.openssl(["ec", "-in", "\(path)/p256-pkcs8.pem", "-out", "\(path)/p256-sec1.pem"])
        try Self.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-out", "\(path)/p256-ecparam.pem"])
        try Self.openssl(["pkcs8", "-topk8", "-in", "\(path)/p256-pkcs8.pem", "-out", "\(path)/p256-encrypted-pkcs8.pem", "-passout", "pass:secret"])
        try Self.openssl(["ec", "-in", "\(path)/p256-pkcs8.pem", "-aes256", "-passout", "pass:secret", "-out", "\(path)/p256-encrypted-sec1.pem"])
        try Self.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "\(path)/rsa.pem"])
        try Self.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", "\(path)/p384.pem"])
        try Self.openssl(["pkey", "-in", "\(path)/p256-pkcs8.pem", "-pubout", "-out", "\(path)/p256-public.pem"])
        try Self.openssl(["pkey", "-in", "\(path)/p256-pkcs8.pem", "-pubout", "-outform", "DER", "-out", "\(path)/p256-public.der"])
        try Data("this is not a key\n".utf8).write(to: file("garbage.pem"))
        try Data().write(to: file("empty.pem"))
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    private static func openssl(_ arguments: [String]) throws {
        let run = try ProcessRunner.run("/usr/bin/env", ["openssl"] + arguments)
        guard run.status == 0 else {
            throw SigningTestFailure("openssl \(arguments.joined(separator: " ")) exited with \(run.status)")
        }
    }

    /// The base64 body lines of a PEM file (its key material), to check that no message shows them.
    static func pemBodyLines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("-----") && !$0.contains(":") && $0.count > 16 }
    }
}

struct SigningTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The raw `r || s` (64 bytes) of a DER ECDSA-Sig-Value, or `nil` when it is not one.
func rawSignature(fromDER der: Data) -> Data? {
    let bytes = [UInt8](der)
    guard bytes.count >= 8, bytes[0] == 0x30, Int(bytes[1]) == bytes.count - 2 else { return nil }
    var offset = 2
    var out = Data()
    for _ in 0..<2 {
        guard offset + 2 <= bytes.count, bytes[offset] == 0x02 else { return nil }
        let length = Int(bytes[offset + 1])
        guard length >= 1, length <= 33, offset + 2 + length <= bytes.count else { return nil }
        var integer = Array(bytes[(offset + 2)..<(offset + 2 + length)])
        while integer.count > 32, integer.first == 0 { integer.removeFirst() }
        guard integer.count <= 32 else { return nil }
        out += Data(repeating: 0, count: 32 - integer.count) + integer
        offset += 2 + length
    }
    return offset == bytes.count ? out : nil
}
