import AppStoreVerificationTesting
import ArgumentParser
import Foundation

/// `verify-jws test-pki`: test PKIs shaped like Apple's, for signing test data with `mint`.
struct TestPKICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-pki",
        // Parsed on its own (see main(arguments:)): the usage lines still read `verify-jws test-pki ...`.
        _superCommandName: "verify-jws",
        abstract: "Make test PKIs shaped like Apple's (for tests only: their keys are written unencrypted).",
        subcommands: [TestPKICreateCommand.self]
    )
}

/// `verify-jws test-pki create DIR [--expired] [--force]`.
struct TestPKICreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Write a new test PKI into DIR.",
        discussion: """
            DIR receives root.der (the JWS root: verify-jws --root DIR/root.der), intermediate.der, \
            leaf.der and leaf.key (the PEM key JWS are signed with), receipt-root.der (the receipt \
            root: --root DIR/receipt-root.der --type app-receipt), receipt-intermediate.der, \
            receipt-leaf.der, receipt-leaf.key, the CA keys and 'variant'. Sign data with \
            'verify-jws mint KIND --pki DIR'.
            """
    )

    @Argument(help: ArgumentHelp("The directory to write (created if missing). A directory that already holds a test PKI is refused without --force.", valueName: "DIR"))
    var directory: String

    @Flag(name: .customLong("expired"), help: "Make the leaves expired (in 2020): data signed with them is refused as invalidCertificateChain.")
    var expired = false

    @Flag(name: .customLong("force"), help: "Replace the test PKI already in DIR: data minted with it no longer verifies under the new root.")
    var force = false

    /// The files `TestPKI.write(to:)` writes; any of them in DIR means DIR holds a PKI.
    static let pkiFileNames = [
        "root.der", "intermediate.der", "leaf.der", "leaf.key", "root.key", "intermediate.key", "chain-root.der",
        "receipt-root.der", "receipt-intermediate.der", "receipt-leaf.der", "receipt-leaf.key", "receipt-root.key",
        "receipt-intermediate.key", "receipt-chain-root.der", "variant", "ocsp-responder",
    ]

    func run() throws {
        let url = URL(fileURLWithPath: directory)
        let existing = Self.pkiFileNames.filter { FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path) }
        if !existing.isEmpty, !force {
            throw ValidationError("""
                test-pki create: \(url.path) already holds a test PKI (\(existing.prefix(3).joined(separator: ", "))\(existing.count > 3 ? ", ..." : "")); \
                a new one would replace its keys, and data minted with them would stop verifying. \
                Pass --force to replace it, or choose another directory.
                """)
        }
        do {
            let pki = try TestPKI(expired ? .expiredLeaf : .valid)
            try pki.write(to: url)
        } catch {
            throw ValidationError("test-pki create: \(error.message)")
        }
        CommandContext.writeOutput("Wrote a test PKI\(expired ? " with expired leaves" : "") to \(url.path): trust \(url.appendingPathComponent("root.der").path) (JWS) and \(url.appendingPathComponent("receipt-root.der").path) (receipts).\n")
    }
}
