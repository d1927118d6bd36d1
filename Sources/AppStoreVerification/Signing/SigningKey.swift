internal import CAppStoreOpenSSL
import Foundation

/// A P-256 private key for the signatures App Store requests carry (promotional offers, introductory
/// offer eligibility, Advanced Commerce requests).
///
/// Load it from the PEM text of the `.p8` file App Store Connect gives you (PKCS#8,
/// `-----BEGIN PRIVATE KEY-----`) or from a SEC1 key (`-----BEGIN EC PRIVATE KEY-----`). Encrypted
/// keys are refused (no password is ever asked for), and so is any key that is not an
/// elliptic-curve key on P-256. The key never appears in messages or descriptions.
///
/// A key is immutable once loaded; one instance can sign from many tasks at once.
public final class SigningKey: @unchecked Sendable, CustomStringConvertible, CustomReflectable {
    // An `EVP_PKEY` is read-only once loaded. One signing context, set up with the key, serves the
    // signatures that find it free (`contextLock`); a signature made while another holds it sets up
    // a context of its own, so concurrent signing with one key is safe and never waits.
    let pointer: OpaquePointer
    /// The reusable signing context (`nil` if OpenSSL could not make one: every call then makes its own).
    private let context: OpaquePointer?
    private let contextLock = NSLock()

    /// The largest key file read: a PEM P-256 key is a few hundred bytes.
    static let maximumFileLength = 64 * 1024

    /// Loads a P-256 private key from PEM text.
    ///
    /// - Parameter pem: The PEM text: PKCS#8 (`-----BEGIN PRIVATE KEY-----`, App Store Connect's
    ///   `.p8` files) or SEC1 (`-----BEGIN EC PRIVATE KEY-----`).
    /// - Throws: ``SigningKeyError`` with code `malformedKey`, `encryptedKey` or `unsupportedKey`.
    public convenience init(pem: String) throws(SigningKeyError) {
        var bytes = Array(pem.utf8)
        defer { Self.erase(&bytes) }
        try self.init(pemBytes: bytes)
    }

    /// Loads a P-256 private key from a PEM file, such as the `.p8` file App Store Connect gives you.
    ///
    /// - Throws: ``SigningKeyError`` with code `unreadableFile`, `malformedKey`, `encryptedKey` or
    ///   `unsupportedKey`.
    public convenience init(contentsOf url: URL) throws(SigningKeyError) {
        var bytes = try Self.readKeyFile(url)
        defer { Self.erase(&bytes) }
        do {
            try self.init(pemBytes: bytes)
        } catch {
            throw SigningKeyError(error.code, "\(url.path): \(error.message)")
        }
    }

    private init(pemBytes: [UInt8]) throws(SigningKeyError) {
        var error = asv_error()
        var failure: Int32 = 0
        var loaded: OpaquePointer?
        let result = pemBytes.withUnsafeBytes { asv_private_key_from_pem($0.baseAddress, $0.count, &loaded, &failure, &error) }
        guard result == 1, let loaded else {
            throw Self.error(failure: failure, OpenSSLFailure(error))
        }
        self.pointer = loaded
        var contextError = asv_error()
        self.context = asv_sign_context_new(loaded, &contextError)
    }

    deinit {
        // The context holds a reference to the key: it goes first.
        asv_sign_context_free(context)
        asv_pkey_free(pointer)
    }

    /// A description without key material.
    public var description: String { "SigningKey(P-256)" }

    /// No children, so that `dump` and `Mirror` show no key material either.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .class) }

    /// The public key as a DER SubjectPublicKeyInfo (91 bytes for P-256), for checking which key
    /// this is or verifying its signatures elsewhere.
    ///
    /// Empty only if OpenSSL fails to encode the key, which it does not do for a loaded P-256 key.
    public var publicKeyDER: Data {
        var error = asv_error()
        var buffer = [UInt8](repeating: 0, count: 128)
        var length = 0
        let result = buffer.withUnsafeMutableBytes {
            asv_pkey_public_spki_der(pointer, $0.bindMemory(to: UInt8.self).baseAddress, $0.count, &length, &error)
        }
        // A P-256 SubjectPublicKeyInfo is 91 bytes: the buffer always suffices.
        guard result == 1 else { return Data() }
        return Data(buffer[..<length])
    }

    /// The ways an ECDSA-SHA256 signature is encoded.
    package enum SignatureEncoding {
        /// JOSE (RFC 7518 section 3.4): big-endian `r || s`, 64 bytes, as ES256 JWS carry.
        case raw
        /// DER `ECDSA-Sig-Value`, as promotional offer signatures (V1) carry.
        case der
    }

    /// Signs SHA-256 of `message` with ECDSA (randomized: each call gives another signature).
    package func sign<Message: ContiguousBytes>(_ message: Message, encoding: SignatureEncoding) throws(OpenSSLFailure) -> Data {
        try signing(encoding) { context, format, out, length, error in
            message.withUnsafeBytes { messageBytes in
                asv_ecdsa_p256_sign(pointer, context, messageBytes.baseAddress, messageBytes.count, format, out.baseAddress, out.count, length, error)
            }
        }
    }

    /// Runs one signing call with the shared context when no other thread holds it.
    private func signing(_ encoding: SignatureEncoding,
                         _ call: (OpaquePointer?, Int32, UnsafeMutableBufferPointer<UInt8>, UnsafeMutablePointer<Int>, UnsafeMutablePointer<asv_error>) -> Int32) throws(OpenSSLFailure) -> Data {
        var error = asv_error()
        var signature = [UInt8](repeating: 0, count: 72)
        var length = 0
        let format = Int32(encoding == .raw ? ASV_SIGNATURE_RAW : ASV_SIGNATURE_DER)
        let shared = contextLock.try()
        defer { if shared { contextLock.unlock() } }
        let result = signature.withUnsafeMutableBufferPointer { out in
            call(shared ? context : nil, format, out, &length, &error)
        }
        guard result == 1 else { throw OpenSSLFailure(error) }
        return Data(signature[..<length])
    }

    // MARK: - Loading

    private static func readKeyFile(_ url: URL) throws(SigningKeyError) -> [UInt8] {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SigningKeyError(.unreadableFile, "\(path): no such key file; give the path of the .p8 file App Store Connect gave you")
        }
        guard !isDirectory.boolValue else {
            throw SigningKeyError(.unreadableFile, "\(path) is a directory, not a key file; give the path of the .p8 file")
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw SigningKeyError(.unreadableFile, "\(path): the key file cannot be opened (\(Self.reason(error))); check its permissions")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumFileLength + 1) ?? Data()
        } catch {
            throw SigningKeyError(.unreadableFile, "\(path): the key file cannot be read (\(Self.reason(error)))")
        }
        guard data.count <= maximumFileLength else {
            throw SigningKeyError(.unreadableFile, "\(path) is larger than \(maximumFileLength) bytes: not a PEM key file (a P-256 key is a few hundred bytes)")
        }
        var copy = data
        defer { copy.resetBytes(in: 0..<copy.count) }
        return Array(copy)
    }

    /// A file system error's reason, without the path (which the message already names).
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        if nsError.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(nsError.code)))
        }
        return nsError.localizedDescription
    }

    private static func erase(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
    }

    private static func error(failure: Int32, _ detail: OpenSSLFailure) -> SigningKeyError {
        switch failure {
        case ASV_PRIVATE_KEY_ENCRYPTED:
            SigningKeyError(.encryptedKey, "the private key is encrypted and no password is ever asked for; decrypt it first (openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.p8)")
        case ASV_PRIVATE_KEY_NOT_P256:
            SigningKeyError(.unsupportedKey, "the key must be P-256 (an elliptic-curve key on prime256v1, as App Store Connect issues); \(detail.message)")
        case ASV_PRIVATE_KEY_INVALID:
            SigningKeyError(.invalidKey, "the P-256 key is not a valid key pair (its private scalar is 0 or not below the curve's order, or its public key is not the private scalar times G), so its signatures would verify under no key; use the .p8 file App Store Connect gave you (\(detail.message))")
        default:
            SigningKeyError(.malformedKey, "not a PEM private key: expected -----BEGIN PRIVATE KEY----- (the .p8 file App Store Connect gives you) or -----BEGIN EC PRIVATE KEY----- (\(detail.message))")
        }
    }
}
