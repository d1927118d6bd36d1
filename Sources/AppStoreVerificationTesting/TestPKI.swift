import AppStoreVerification
import Foundation

/// A PKI shaped like Apple's, made in process, to sign test data your server verifies: a P-256
/// chain for JWS (transactions, renewal info, app transactions, notifications, real-time
/// requests) and an RSA chain for app receipts.
///
/// Trust ``trustedRoot`` (and ``receiptTrustedRoot``) instead of Apple's roots in tests, or use
/// ``verifierConfiguration(bundleId:environment:)``. Mint data with ``SignedDataMinter``.
///
/// ```swift
/// let pki = try TestPKI()
/// let minter = SignedDataMinter(pki: pki)
/// let jws = try minter.transaction(Transaction(transactionId: "1", productId: "com.example.pro"))
/// let verifier = try SignedDataVerifier(configuration: pki.verifierConfiguration())
/// ```
///
/// The JWS chain's certificates have the byte sizes of Apple's (padded with a comment extension
/// verifiers ignore), so minted data is as large as Apple's: a notification with its nested items
/// is as long as the App Store's, and a body limit too small for one is too small for the other.
///
/// Making one generates eight keys (about a second, mostly RSA): make one per test suite.
public struct TestPKI: Sendable {
    /// What is wrong with the chains (``Variant/valid`` for nothing).
    public let variant: Variant
    /// The chain JWS embed in `x5c`.
    public let chain: TestChain
    /// The chain receipts embed.
    public let receiptChain: TestChain
    /// The root to trust for JWS (for ``Variant/otherRoot`` not the one ``chain`` ends in).
    public let root: TestCertificate
    /// The root to trust for receipts.
    public let receiptRoot: TestCertificate
    /// ``root`` as the library's trusted root.
    public let trustedRoot: TrustedRoot
    /// ``receiptRoot`` as the library's trusted root.
    public let receiptTrustedRoot: TrustedRoot
    /// The OCSP responder the intermediates and leaves name in their Authority Information Access
    /// extension (see ``init(_:ocspResponder:)``), or `nil` when they name none.
    public let ocspResponder: URL?

    /// ``root``'s DER encoding (the file `verify-jws --root` reads).
    public var rootDER: Data { root.derEncoded }

    /// Makes a new PKI: new keys, new certificates.
    ///
    /// - Parameter variant: What is wrong with its chains; ``Variant/valid`` by default. To test
    ///   several refusals under one trusted root, make one PKI and derive the others with
    ///   ``variant(_:)``.
    /// - Throws: ``AppStoreTestingError`` when OpenSSL fails.
    public init(_ variant: Variant = .valid) throws(AppStoreTestingError) {
        try self.init(variant: variant, ocspResponderURL: nil)
    }

    /// Makes a new PKI whose intermediates and leaves name `ocspResponder` (or none) in their
    /// Authority Information Access extension.
    init(variant: Variant, ocspResponderURL ocspResponder: URL?) throws(AppStoreTestingError) {
        let jws = try Self.authority(kind: .p256, names: .jws, ocspResponder: ocspResponder)
        let receipt = try Self.authority(kind: .rsa2048, names: .receipt, ocspResponder: ocspResponder)
        try self.init(variant: variant, jws: jws, receipt: receipt)
    }

    /// The PKI with the same trusted roots and another variant (new leaves, or a new chain under
    /// a new untrusted root for ``Variant/otherRoot``).
    ///
    /// - Throws: ``AppStoreTestingError`` (`unsupported`) for a PKI read from a directory without
    ///   its CA keys; `openSSLFailure` when OpenSSL fails.
    public func variant(_ variant: Variant) throws(AppStoreTestingError) -> TestPKI {
        guard let jws = Authority(root: root, chain: chain, names: .jws, ocspResponder: ocspResponder),
              let receipt = Authority(root: receiptRoot, chain: receiptChain, names: .receipt, ocspResponder: ocspResponder) else {
            throw AppStoreTestingError(.unsupported, "this PKI has no CA keys (root.key and intermediate.key were not in its directory), so no variant can be made; make a new TestPKI instead")
        }
        return try TestPKI(variant: variant, jws: jws, receipt: receipt)
    }

    /// A verifier configuration trusting this PKI's roots (JWS and receipts) and nothing else.
    ///
    /// - Parameters:
    ///   - bundleId: The bundle ID data must name; `com.example.app` (the builders' default).
    ///   - environment: The environment data must name; the sandbox (the builders' default).
    public func verifierConfiguration(bundleId: String? = "com.example.app", environment: AppStoreEnvironment? = .sandbox) -> SignedDataVerifier.Configuration {
        SignedDataVerifier.Configuration(trustedRoots: [trustedRoot], bundleId: bundleId, environment: environment, trustedReceiptRoots: [receiptTrustedRoot])
    }

    init(variant: Variant, chain: TestChain, receiptChain: TestChain, root: TestCertificate, receiptRoot: TestCertificate,
         ocspResponder: URL? = nil) throws(AppStoreTestingError) {
        self.variant = variant
        self.ocspResponder = ocspResponder
        self.chain = chain
        self.receiptChain = receiptChain
        self.root = root
        self.receiptRoot = receiptRoot
        self.trustedRoot = try root.trustedRoot()
        self.receiptTrustedRoot = try receiptRoot.trustedRoot()
    }

    private init(variant: Variant, jws: Authority, receipt: Authority) throws(AppStoreTestingError) {
        try self.init(variant: variant, chain: try jws.chain(variant, signedDataCanUseOtherKey: true),
                      receiptChain: try receipt.chain(variant, signedDataCanUseOtherKey: false),
                      root: jws.root, receiptRoot: receipt.root, ocspResponder: jws.ocspResponder)
    }

    private static func authority(kind: TestPrivateKey.Kind, names: Authority.Names, ocspResponder: URL?) throws(AppStoreTestingError) -> Authority {
        let rootKey = try TestPrivateKey(generating: kind)
        let root = try Authority.issue(paddedTo: names.sizes?.root, commonName: names.root, organizationalUnit: "Test Apple Certification Authority", key: rootKey, issuer: nil,
                                             serial: 1, notBefore: Authority.caNotBefore, notAfter: Authority.caNotAfter, extensions: Authority.rootExtensions)
        let intermediateKey = try TestPrivateKey(generating: kind)
        let intermediate = try Authority.issue(paddedTo: names.sizes?.intermediate, commonName: names.intermediate, organizationalUnit: names.intermediateUnit, key: intermediateKey,
                                                     issuer: (root, rootKey), serial: 2, notBefore: Authority.caNotBefore, notAfter: Authority.caNotAfter,
                                                     extensions: Authority.intermediateExtensions + Authority.accessExtensions(ocspResponder))
        return Authority(names: names, root: root, rootKey: rootKey, intermediate: intermediate, intermediateKey: intermediateKey,
                         ocspResponder: ocspResponder)
    }
}

/// A root and intermediate with their keys, which issue leaves (and, for
/// ``TestPKI/Variant/otherRoot``, a whole other chain).
struct Authority: Sendable {
    /// The subject names of one kind of chain.
    struct Names: Sendable {
        let root: String
        let intermediate: String
        let intermediateUnit: String
        let leaf: String
        let leafKind: TestPrivateKey.Kind
        /// The DER sizes the certificates are padded to, if any (``Authority/appleJWSSizes``).
        var sizes: CertificateSizes? = nil

        static let jws = Names(root: "Test Apple Root CA - G3", intermediate: "Test Apple Worldwide Developer Relations Certification Authority",
                               intermediateUnit: "G6", leaf: "Test Prod ECC Mac App Store and iTunes Store Receipt Signing", leafKind: .p256,
                               sizes: Authority.appleJWSSizes)
        static let receipt = Names(root: "Test Apple Root CA", intermediate: "Test Apple Worldwide Developer Relations Certification Authority",
                                   intermediateUnit: "G5", leaf: "Test Mac App Store and iTunes Store Receipt Signing", leafKind: .rsa2048)
    }

    let names: Names
    let root: TestCertificate
    let rootKey: TestPrivateKey
    let intermediate: TestCertificate
    let intermediateKey: TestPrivateKey
    /// The OCSP responder the certificates it issues name, if any.
    let ocspResponder: URL?

    init(names: Names, root: TestCertificate, rootKey: TestPrivateKey, intermediate: TestCertificate, intermediateKey: TestPrivateKey,
         ocspResponder: URL?) {
        self.names = names
        self.ocspResponder = ocspResponder
        self.root = root
        self.rootKey = rootKey
        self.intermediate = intermediate
        self.intermediateKey = intermediateKey
    }

    /// The authority of a PKI's chain, when its CA keys are known and it ends at the trusted root.
    init?(root: TestCertificate, chain: TestChain, names: Names, ocspResponder: URL?) {
        guard let rootKey = chain.rootKey, let intermediateKey = chain.intermediateKey, chain.root == root else { return nil }
        self.init(names: names, root: root, rootKey: rootKey, intermediate: chain.intermediate, intermediateKey: intermediateKey,
                  ocspResponder: ocspResponder)
    }

    static let caNotBefore = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01
    static let caNotAfter = Date(timeIntervalSince1970: 2_524_608_000)  // 2050-01-01
    static let leafNotAfter = Date(timeIntervalSince1970: 2_493_072_000)  // 2049-01-01
    static let expiredNotBefore = Date(timeIntervalSince1970: 1_546_300_800)  // 2019-01-01

    static let rootExtensions = [
        TestCertificate.Extension(name: "subjectKeyIdentifier", value: "hash"),
        TestCertificate.Extension(name: "basicConstraints", value: "critical,CA:TRUE"),
        TestCertificate.Extension(name: "keyUsage", value: "critical,keyCertSign,cRLSign"),
    ]
    static let intermediateExtensions = [
        TestCertificate.Extension(name: "basicConstraints", value: "critical,CA:TRUE,pathlen:0"),
        TestCertificate.Extension(name: "authorityKeyIdentifier", value: "keyid:always"),
        TestCertificate.Extension(name: "subjectKeyIdentifier", value: "hash"),
        TestCertificate.Extension(name: "keyUsage", value: "critical,keyCertSign,cRLSign"),
        TestCertificate.Extension(name: "1.2.840.113635.100.6.2.1", value: "DER:05:00"),
    ]
    static func leafExtensions(marker: String) -> [TestCertificate.Extension] {
        [TestCertificate.Extension(name: "basicConstraints", value: "critical,CA:FALSE"),
         TestCertificate.Extension(name: "authorityKeyIdentifier", value: "keyid:always"),
         TestCertificate.Extension(name: "subjectKeyIdentifier", value: "hash"),
         TestCertificate.Extension(name: "keyUsage", value: "critical,digitalSignature"),
         TestCertificate.Extension(name: marker, value: "DER:05:00")]
    }
    static let leafMarker = "1.2.840.113635.100.6.11.1"
    /// Not Apple's leaf marker: an OID under Apple's arc that no App Store leaf carries.
    static let wrongLeafMarker = "1.2.840.113635.100.6.11.99"

    /// The chain of `variant`. `signedDataCanUseOtherKey`: whether ``TestPKI/Variant/wrongKey``
    /// signs with another key (JWS) or keeps the leaf's (receipts).
    func chain(_ variant: TestPKI.Variant, signedDataCanUseOtherKey: Bool) throws(AppStoreTestingError) -> TestChain {
        if variant == .otherRoot {
            let otherRootKey = try TestPrivateKey(generating: names.leafKind)
            let otherRoot = try Self.issue(paddedTo: names.sizes?.root, commonName: names.root, organizationalUnit: "Test Apple Certification Authority", key: otherRootKey,
                                                      issuer: nil, serial: 1, notBefore: Self.caNotBefore, notAfter: Self.caNotAfter, extensions: Self.rootExtensions)
            let otherIntermediateKey = try TestPrivateKey(generating: names.leafKind)
            let otherIntermediate = try Self.issue(paddedTo: names.sizes?.intermediate, commonName: names.intermediate, organizationalUnit: names.intermediateUnit, key: otherIntermediateKey,
                                                              issuer: (otherRoot, otherRootKey), serial: 2, notBefore: Self.caNotBefore, notAfter: Self.caNotAfter,
                                                              extensions: Self.intermediateExtensions + Self.accessExtensions(ocspResponder))
            let other = Authority(names: names, root: otherRoot, rootKey: otherRootKey, intermediate: otherIntermediate, intermediateKey: otherIntermediateKey,
                                  ocspResponder: ocspResponder)
            return try other.chain(.valid, signedDataCanUseOtherKey: signedDataCanUseOtherKey)
        }
        let leafKey = try TestPrivateKey(generating: names.leafKind)
        let notBefore = variant == .expiredLeaf ? Self.expiredNotBefore : Self.caNotBefore
        let notAfter = variant == .expiredLeaf ? Self.caNotBefore : Self.leafNotAfter
        let marker = variant == .leafWithoutMarker ? Self.wrongLeafMarker : Self.leafMarker
        let serial = Int64.random(in: 3...Int64(Int32.max))
        let leaf = try Self.issue(paddedTo: names.sizes?.leaf, commonName: names.leaf, organizationalUnit: "Test Apple Worldwide Developer Relations", key: leafKey,
                                             issuer: (intermediate, intermediateKey), serial: serial, notBefore: notBefore, notAfter: notAfter,
                                             extensions: Self.leafExtensions(marker: marker) + Self.accessExtensions(ocspResponder))
        let signingKey = variant == .wrongKey && signedDataCanUseOtherKey ? try TestPrivateKey(generating: names.leafKind) : leafKey
        return TestChain(root: root, intermediate: intermediate, leaf: leaf, signingKey: signingKey, rootKey: rootKey, intermediateKey: intermediateKey)
    }
}
