import Foundation

extension TestPKI {
    /// Makes a new PKI whose intermediates and leaves name `ocspResponder` in their Authority
    /// Information Access extension (`OCSP;URI:...`), as Apple's certificates name
    /// `http://ocsp.apple.com/...`: an `OnlineSignedDataVerifier` then asks
    /// that responder about the leaf and the intermediate of every item minted with it.
    ///
    /// ``TestOCSPResponder/makePKI(_:)`` makes one naming a running ``TestOCSPResponder`` and
    /// registers it there; use this initializer for a responder of your own. Variants made with
    /// ``variant(_:)`` name the same responder.
    ///
    /// - Parameters:
    ///   - variant: What is wrong with its chains; ``Variant/valid`` by default.
    ///   - ocspResponder: The responder's URL. The library's verifier follows `http://` URLs only,
    ///     as Apple's are; for example `http://127.0.0.1:PORT/`.
    /// - Throws: ``AppStoreTestingError`` (`invalidArgument`) when the URL is not an `http://` or
    ///   `https://` URL with a host, or holds a comma or white space (OpenSSL's extension syntax
    ///   cannot carry them); `openSSLFailure` when OpenSSL fails.
    public init(_ variant: Variant = .valid, ocspResponder: URL) throws(AppStoreTestingError) {
        let checked = try Self.checkedOCSPResponder(ocspResponder, text: ocspResponder.absoluteString, file: nil)
        try self.init(variant: variant, ocspResponderURL: checked)
    }

    /// `url` when it can name an OCSP responder in a certificate, else an error quoting `text` (and
    /// `file`, when it was read from one).
    static func checkedOCSPResponder(_ url: URL?, text: String, file: String?) throws(AppStoreTestingError) -> URL {
        let prefix = file.map { "\($0): " } ?? ""
        guard let url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
            throw AppStoreTestingError(.invalidArgument, "\(prefix)\"\(text)\" is not an http:// URL with a host; give the responder's URL, for example http://127.0.0.1:8080/")
        }
        let forbidden = url.absoluteString.unicodeScalars.first { $0 == "," || $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }
        if let forbidden {
            throw AppStoreTestingError(.invalidArgument, "\(prefix)the OCSP responder URL \"\(text)\" holds \(forbidden.escaped(asASCII: true)), which a certificate's extension cannot carry here; percent-encode it")
        }
        return url
    }
}

extension Authority {
    /// The Authority Information Access extension naming `ocspResponder`, or none.
    static func accessExtensions(_ ocspResponder: URL?) -> [TestCertificate.Extension] {
        guard let ocspResponder else { return [] }
        return [TestCertificate.Extension(name: "authorityInfoAccess", value: "OCSP;URI:\(ocspResponder.absoluteString)")]
    }
}
