import Foundation

/// Throw-away keys made with the `openssl` command in a temporary directory, once per test run
/// (deleted when the test process ends): P-256 in PKCS#8 and SEC1 (the same key), encrypted
/// (PKCS#8 and traditional SEC1), RSA, P-384, the public key, garbage and an empty file.
final class SigningTestKeys: Sendable {
    let directory: URL

    /// The keys, or `nil` when `openssl` cannot run here.
    static let shared: SigningTestKeys? = try? SigningTestKeys()

    static var isAvailable: Bool { shared != nil }

    /// Throws when the keys cannot be made (tests then fail with this message).
    static func require() throws -> SigningTestKeys {
        guard let shared else { throw FixtureError("the openssl command is needed to make test keys (apt-get install openssl)") }
        return shared
    }

    var pkcs8: URL { file("p256-pkcs8.pem") }
    var sec1: URL { file("p256-sec1.pem") }
    var publicKey: URL { file("p256-public.pem") }

    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("signing-keys-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ProcessLifeline.deleteWhenThisProcessEnds(directory)
        let path = directory.path
        for arguments in [
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "\(path)/p256-pkcs8.pem"],
            ["ec", "-in", "\(path)/p256-pkcs8.pem", "-out", "\(path)/p256-sec1.pem"],
            ["pkcs8", "-topk8", "-in", "\(path)/p256-pkcs8.pem", "-out", "\(path)/p256-encrypted-pkcs8.pem", "-passout", "pass:secret"],
            ["ec", "-in", "\(path)/p256-pkcs8.pem", "-aes256", "-passout", "pass:secret", "-out", "\(path)/p256-encrypted-sec1.pem"],
            ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "\(path)/rsa.pem"],
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", "\(path)/p384.pem"],
            ["pkey", "-in", "\(path)/p256-pkcs8.pem", "-pubout", "-out", "\(path)/p256-public.pem"],
        ] {
            guard Self.openssl(arguments) == 0 else { throw FixtureError("openssl \(arguments.joined(separator: " ")) failed") }
        }
        try Data("this is not a key\n".utf8).write(to: file("garbage.pem"))
        try Data().write(to: file("empty.pem"))
    }

    /// Whether `signature` (a DER ECDSA-Sig-Value) over `message` verifies with the P-256 key
    /// (`openssl dgst -verify` with its public half).
    func verifiesES256(signatureDER signature: Data, over message: Data) throws -> Bool {
        let name = UUID().uuidString
        let signatureFile = file("\(name).sig"), messageFile = file("\(name).message")
        defer { for url in [signatureFile, messageFile] { try? FileManager.default.removeItem(at: url) } }
        try signature.write(to: signatureFile)
        try message.write(to: messageFile)
        return Self.openssl(["dgst", "-sha256", "-verify", publicKey.path, "-signature", signatureFile.path, messageFile.path]) == 0
    }

    /// A JOSE ES256 signature (r || s, 64 bytes) as a DER ECDSA-Sig-Value, or `nil` when it is not
    /// 64 bytes.
    static func derSignature(fromRaw raw: Data) -> Data? {
        guard raw.count == 64 else { return nil }
        func integer(_ bytes: Data) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.first.map({ $0 & 0x80 != 0 }) ?? true { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw.prefix(32)) + integer(raw.suffix(32))
        return Data([0x30, UInt8(body.count)] + body)
    }

    /// The base64 body lines of a PEM file (its key material), to check that no message shows them.
    static func pemBodyLines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("-----") && !$0.contains(":") && $0.count > 16 }
    }

    /// Runs `openssl arguments` quietly; its exit status.
    private static func openssl(_ arguments: [String]) -> Int32 {
        (try? ProcessRunner.run("/usr/bin/env", ["openssl"] + arguments))?.status ?? -1
    }
}
