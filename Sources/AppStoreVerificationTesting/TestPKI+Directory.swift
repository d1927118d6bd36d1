import Foundation

extension TestPKI {
    /// The files a PKI directory holds.
    enum File {
        static let root = "root.der", intermediate = "intermediate.der", leaf = "leaf.der", leafKey = "leaf.key"
        static let rootKey = "root.key", intermediateKey = "intermediate.key", chainRoot = "chain-root.der"
        static let receiptRoot = "receipt-root.der", receiptIntermediate = "receipt-intermediate.der", receiptLeaf = "receipt-leaf.der"
        static let receiptLeafKey = "receipt-leaf.key", receiptRootKey = "receipt-root.key", receiptIntermediateKey = "receipt-intermediate.key"
        static let receiptChainRoot = "receipt-chain-root.der", variant = "variant", ocspResponder = "ocsp-responder"
    }

    /// Writes the PKI into `directory` (created if missing; files of the same names replaced):
    ///
    /// - `root.der`: the JWS root to trust (`verify-jws --root`); `intermediate.der`, `leaf.der`;
    ///   `leaf.key`: the PEM key JWS are signed with;
    /// - `receipt-root.der`: the receipt root to trust (`verify-jws --root ... --type app-receipt`);
    ///   `receipt-intermediate.der`, `receipt-leaf.der`, `receipt-leaf.key`;
    /// - `root.key`, `intermediate.key`, `receipt-root.key`, `receipt-intermediate.key`: the CA
    ///   keys, so that a PKI read back can make variants; `variant`: the variant's name;
    /// - with ``Variant/otherRoot``: `chain-root.der` and `receipt-chain-root.der`, the untrusted
    ///   roots the chains end in;
    /// - with an ``ocspResponder``: `ocsp-responder`, its URL, so that variants of the PKI read back
    ///   name it too.
    ///
    /// Keys are written unencrypted, readable by the owner only: test keys, never for production.
    ///
    /// - Throws: ``AppStoreTestingError`` (`unwritableFile`) naming the file.
    public func write(to directory: URL) throws(AppStoreTestingError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw AppStoreTestingError(.unwritableFile, "\(directory.path): the directory cannot be created (\(error.localizedDescription)); choose a writable path")
        }
        var files: [(String, Data, secret: Bool)] = [
            (File.root, root.derEncoded, false), (File.intermediate, chain.intermediate.derEncoded, false),
            (File.leaf, chain.leaf.derEncoded, false), (File.leafKey, Data(chain.signingKey.pemEncoded.utf8), true),
            (File.receiptRoot, receiptRoot.derEncoded, false), (File.receiptIntermediate, receiptChain.intermediate.derEncoded, false),
            (File.receiptLeaf, receiptChain.leaf.derEncoded, false), (File.receiptLeafKey, Data(receiptChain.signingKey.pemEncoded.utf8), true),
            (File.variant, Data((variant.rawValue + "\n").utf8), false),
        ]
        if let ocspResponder { files.append((File.ocspResponder, Data((ocspResponder.absoluteString + "\n").utf8), false)) }
        if chain.root != root { files.append((File.chainRoot, chain.root.derEncoded, false)) }
        if receiptChain.root != receiptRoot { files.append((File.receiptChainRoot, receiptChain.root.derEncoded, false)) }
        if chain.root == root, let rootKey = chain.rootKey, let intermediateKey = chain.intermediateKey {
            files += [(File.rootKey, Data(rootKey.pemEncoded.utf8), true), (File.intermediateKey, Data(intermediateKey.pemEncoded.utf8), true)]
        }
        if receiptChain.root == receiptRoot, let rootKey = receiptChain.rootKey, let intermediateKey = receiptChain.intermediateKey {
            files += [(File.receiptRootKey, Data(rootKey.pemEncoded.utf8), true), (File.receiptIntermediateKey, Data(intermediateKey.pemEncoded.utf8), true)]
        }
        for (name, data, secret) in files {
            let url = directory.appendingPathComponent(name)
            do {
                if secret {
                    try OwnerOnlyFile.write(data, to: url)
                } else {
                    try data.write(to: url, options: .atomic)
                }
            } catch {
                throw AppStoreTestingError(.unwritableFile, "\(url.path) cannot be written (\(error.localizedDescription))")
            }
        }
    }

    /// Reads a PKI that ``write(to:)`` wrote.
    ///
    /// The CA keys are optional: without them the PKI signs, but makes no variants.
    ///
    /// - Throws: ``AppStoreTestingError`` (`unreadableFile` or `invalidCertificateOrKey`) naming
    ///   the file.
    public init(contentsOf directory: URL) throws(AppStoreTestingError) {
        let reader = DirectoryReader(directory: directory)
        let variantName = try reader.text(File.variant, required: false)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? Variant.valid.rawValue
        guard let variant = Variant(rawValue: variantName) else {
            throw AppStoreTestingError(.invalidCertificateOrKey, "\(reader.path(File.variant)): unknown variant \"\(variantName)\" (expected one of \(Variant.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let root = try reader.certificate(File.root)
        let receiptRoot = try reader.certificate(File.receiptRoot)
        let chain = TestChain(root: try reader.certificate(File.chainRoot, required: false) ?? root,
                              intermediate: try reader.certificate(File.intermediate), leaf: try reader.certificate(File.leaf),
                              signingKey: try reader.key(File.leafKey), rootKey: try reader.key(File.rootKey, required: false),
                              intermediateKey: try reader.key(File.intermediateKey, required: false))
        let receiptChain = TestChain(root: try reader.certificate(File.receiptChainRoot, required: false) ?? receiptRoot,
                                     intermediate: try reader.certificate(File.receiptIntermediate), leaf: try reader.certificate(File.receiptLeaf),
                                     signingKey: try reader.key(File.receiptLeafKey), rootKey: try reader.key(File.receiptRootKey, required: false),
                                     intermediateKey: try reader.key(File.receiptIntermediateKey, required: false))
        var ocspResponder: URL?
        if let text = try reader.text(File.ocspResponder, required: false)?.trimmingCharacters(in: .whitespacesAndNewlines) {
            ocspResponder = try TestPKI.checkedOCSPResponder(URL(string: text), text: text, file: reader.path(File.ocspResponder))
        }
        try self.init(variant: variant, chain: chain, receiptChain: receiptChain, root: root, receiptRoot: receiptRoot, ocspResponder: ocspResponder)
    }
}

/// Reads the files of a PKI directory, with errors naming the file.
struct DirectoryReader {
    let directory: URL

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func data(_ name: String, required: Bool = true) throws(AppStoreTestingError) -> Data? {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            guard required else { return nil }
            throw AppStoreTestingError(.unreadableFile, "\(url.path): no such file; give a directory written by TestPKI.write(to:) or 'verify-jws test-pki create DIR'")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw AppStoreTestingError(.unreadableFile, "\(url.path) cannot be read (\(error.localizedDescription))")
        }
    }

    func text(_ name: String, required: Bool = true) throws(AppStoreTestingError) -> String? {
        try data(name, required: required).map { String(decoding: $0, as: UTF8.self) }
    }

    func certificate(_ name: String) throws(AppStoreTestingError) -> TestCertificate {
        guard let certificate = try certificate(name, required: true) else {
            throw AppStoreTestingError(.unreadableFile, "\(path(name)): no such file")
        }
        return certificate
    }

    func certificate(_ name: String, required: Bool) throws(AppStoreTestingError) -> TestCertificate? {
        guard let data = try data(name, required: required) else { return nil }
        do {
            return try TestCertificate(derEncoded: data)
        } catch {
            throw AppStoreTestingError(error.code, "\(path(name)): \(error.message)")
        }
    }

    func key(_ name: String) throws(AppStoreTestingError) -> TestPrivateKey {
        guard let key = try key(name, required: true) else {
            throw AppStoreTestingError(.unreadableFile, "\(path(name)): no such file")
        }
        return key
    }

    func key(_ name: String, required: Bool) throws(AppStoreTestingError) -> TestPrivateKey? {
        guard let text = try text(name, required: required) else { return nil }
        do {
            return try TestPrivateKey(pem: text)
        } catch {
            throw AppStoreTestingError(error.code, "\(path(name)): \(error.message)")
        }
    }
}
