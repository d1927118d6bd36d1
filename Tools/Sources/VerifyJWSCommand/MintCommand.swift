import AppStoreVerification
import AppStoreVerificationTesting
import ArgumentParser
import Foundation

/// `verify-jws mint KIND --pki DIR [FILE|-]`: signs test payloads with a test PKI.
struct MintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mint",
        // Parsed on its own (see main(arguments:)): the usage lines still read `verify-jws mint ...`.
        _superCommandName: "verify-jws",
        abstract: "Sign test payloads with a test PKI (made by 'verify-jws test-pki create DIR').",
        discussion: """
            Each non-blank input line is one payload JSON object, signed exactly as given (members \
            and values kept); one signed item is written per line. In a notification, an object \
            where Apple sends a signed string (data.signedTransactionInfo, data.signedRenewalInfo, \
            appData.signedAppTransactionInfo) is signed first, by the same PKI, and its JWS put in \
            its place. app-receipt lines are receipts in the JSON shape 'verify-jws --format json' \
            writes (environment, bundleId, receiptCreationDate, inApp, ...); each is written as the \
            base64 of its PKCS#7 DER.

            Verify the output with 'verify-jws --root DIR/root.der -' (app receipts: \
            '--root DIR/receipt-root.der --type app-receipt'). A line that is not a JSON object \
            stops with a message naming it and exit status 2.
            """
    )

    /// The kinds of payload.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case transaction, renewalInfo = "renewal-info", appTransaction = "app-transaction", notification
        case realtimeRequest = "realtime-request", appReceipt = "app-receipt"
    }

    @Argument(help: ArgumentHelp("What the payloads are.", valueName: Kind.allCases.map(\.rawValue).joined(separator: "|")))
    var kind: Kind

    @Option(name: .customLong("pki"), help: ArgumentHelp("The test PKI directory 'verify-jws test-pki create' wrote.", valueName: "DIR"))
    var pki: String

    @Argument(help: ArgumentHelp("The payloads, one JSON object per line; '-' or none reads standard input.", valueName: "FILE"))
    var file: String?

    func run() throws {
        let minter: SignedDataMinter
        do {
            minter = try SignedDataMinter(pki: TestPKI(contentsOf: URL(fileURLWithPath: pki)))
        } catch {
            throw ValidationError("mint: \(error.message)")
        }
        let source = file.map { $0 == "-" ? "standard input" : $0 } ?? "standard input"
        let input: Data
        do {
            if let file, file != "-" {
                input = try Data(contentsOf: URL(fileURLWithPath: file))
            } else {
                input = FileHandle(fileDescriptor: CommandContext.current.input, closeOnDealloc: false).readDataToEndOfFile()
            }
        } catch {
            throw ValidationError("mint: \(source) cannot be read (\(error.localizedDescription)).")
        }
        var lineNumber = 0
        for line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var bytes = Array(line)
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            guard bytes.contains(where: { !($0 == 0x20 || $0 == 0x09) }) else { continue }
            let signed: String
            do {
                signed = try mint(bytes, with: minter)
            } catch {
                throw ValidationError("mint: \(source), line \(lineNumber): \(error.message)")
            }
            CommandContext.writeOutput(signed + "\n")
        }
    }

    private func mint(_ payload: [UInt8], with minter: SignedDataMinter) throws(AppStoreTestingError) -> String {
        switch kind {
        case .appReceipt:
            return try minter.appReceipt(json: Data(payload)).base64EncodedString()
        case .notification:
            return try minter.notification(payloadJSON: Data(payload))
        default:
            return try minter.sign(objectJSON: Data(payload))
        }
    }
}
