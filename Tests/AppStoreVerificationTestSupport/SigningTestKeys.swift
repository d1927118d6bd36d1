import Foundation

/// Throw-away keys made with the `openssl` command in a temporary directory, once per test run
/// (deleted when the test process ends): P-256 in PKCS#8 and SEC1 (the same key), encrypted
/// (PKCS#8 and traditional SEC1), RSA, P-384, the public key, garbage and an empty file.
public final class SigningTestKeys: Sendable {
    /// The directory holding the key files.
    public let directory: URL

    /// The keys, or `nil` when `openssl` cannot run here.
    public static let shared: SigningTestKeys? = try? SigningTestKeys()

    /// Whether the keys could be made here.
    public static var isAvailable: Bool { shared != nil }

    /// Throws when the keys cannot be made (tests then fail with this message).
    public static func require() throws -> SigningTestKeys {
        guard let shared else { throw FixtureError("the openssl command is needed to make test keys (apt-get install openssl)") }
        return shared
    }

    /// The P-256 key in PKCS#8 PEM.
    public var pkcs8: URL { file("p256-pkcs8.pem") }
    /// The same key in SEC1 PEM (`EC PRIVATE KEY`).
    public var sec1: URL { file("p256-sec1.pem") }
    /// `openssl ecparam -genkey` output: an `EC PARAMETERS` block, then an `EC PRIVATE KEY`.
    public var sec1WithParameters: URL { file("p256-ecparam.pem") }
    /// The P-256 key in encrypted PKCS#8 (password `secret`).
    public var encryptedPKCS8: URL { file("p256-encrypted-pkcs8.pem") }
    /// The P-256 key in traditional encrypted SEC1 (password `secret`).
    public var encryptedSEC1: URL { file("p256-encrypted-sec1.pem") }
    /// An RSA 2048 key.
    public var rsa: URL { file("rsa.pem") }
    /// A P-384 key.
    public var p384: URL { file("p384.pem") }
    /// The P-256 key's public half, PEM.
    public var publicKey: URL { file("p256-public.pem") }
    /// The P-256 key's public half, DER.
    public var publicKeyDER: URL { file("p256-public.der") }
    /// A file that is no key.
    public var garbage: URL { file("garbage.pem") }
    /// An empty file.
    public var empty: URL { file("empty.pem") }

    /// A file of ``directory``.
    public func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("signing-keys-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ProcessRunner.deleteWhenThisProcessEnds(directory)
        let path = directory.path
        for arguments in [
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "\(path)/p256-pkcs8.pem"],
            ["ec", "-in", "\(path)/p256-pkcs8.pem", "-out", "\(path)/p256-sec1.pem"],
            ["ecparam", "-name", "prime256v1", "-genkey", "-out", "\(path)/p256-ecparam.pem"],
            ["pkcs8", "-topk8", "-in", "\(path)/p256-pkcs8.pem", "-out", "\(path)/p256-encrypted-pkcs8.pem", "-passout", "pass:secret"],
            ["ec", "-in", "\(path)/p256-pkcs8.pem", "-aes256", "-passout", "pass:secret", "-out", "\(path)/p256-encrypted-sec1.pem"],
            ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "\(path)/rsa.pem"],
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", "\(path)/p384.pem"],
            ["pkey", "-in", "\(path)/p256-pkcs8.pem", "-pubout", "-out", "\(path)/p256-public.pem"],
            ["pkey", "-in", "\(path)/p256-pkcs8.pem", "-pubout", "-outform", "DER", "-out", "\(path)/p256-public.der"],
        ] {
            guard Self.openssl(arguments) == 0 else { throw FixtureError("openssl \(arguments.joined(separator: " ")) failed") }
        }
        try Data("this is not a key\n".utf8).write(to: file("garbage.pem"))
        try Data().write(to: file("empty.pem"))
    }

    /// Whether `signature` (a DER ECDSA-Sig-Value) over `message` verifies with the P-256 key
    /// (`openssl dgst -verify` with its public half).
    public func verifiesES256(signatureDER signature: Data, over message: Data) throws -> Bool {
        let name = UUID().uuidString
        let signatureFile = file("\(name).sig"), messageFile = file("\(name).message")
        defer { for url in [signatureFile, messageFile] { try? FileManager.default.removeItem(at: url) } }
        try signature.write(to: signatureFile)
        try message.write(to: messageFile)
        return Self.openssl(["dgst", "-sha256", "-verify", publicKey.path, "-signature", signatureFile.path, messageFile.path]) == 0
    }

    /// The base64 body lines of a PEM file (its key material), to check that no message shows them.
    public static func pemBodyLines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("-----") && !$0.contains(":") && $0.count > 16 }
    }

    /// Runs `openssl arguments` quietly; its exit status.
    private static func openssl(_ arguments: [String]) -> Int32 {
        (try? ProcessRunner.run("/usr/bin/env", ["openssl"] + arguments))?.status ?? -1
    }
}
