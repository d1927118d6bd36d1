import AppStoreVerification
import ArgumentParser
import Foundation

/// `verify-jws sign advanced-commerce`: a signed Advanced Commerce API in-app request.
struct SignAdvancedCommerceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advanced-commerce",
        abstract: "Sign an Advanced Commerce API in-app request; prints the JWS.",
        discussion: "The request file holds the request as one JSON object; its bytes (without surrounding white space) are embedded, base64-encoded, in the 'request' claim."
    )

    /// The largest request file read.
    static let maximumRequestLength = 1 << 20

    @OptionGroup var key: SigningKeyOptions

    @Option(name: .customLong("issuer-id"), help: "Your issuer ID from the Keys page in App Store Connect.")
    var issuerId: String

    @Option(name: .customLong("bundle-id"), help: "Your app's bundle ID.")
    var bundleId: String

    @Option(name: .customLong("request"), help: ArgumentHelp("The request: a file holding one JSON object.", valueName: "FILE"))
    var requestFile: String

    func run() throws {
        let command = Self.configuration.commandName ?? ""
        let signingKey = try key.loadKey(command: command)
        let request = try readRequest(command: command)
        let creator = AdvancedCommerceInAppSignatureCreator(signingKey: signingKey, keyId: key.keyId, issuerId: issuerId, bundleId: bundleId)
        do {
            let jws = try creator.createSignature(requestJSON: request)
            CommandContext.writeOutput(jws + "\n")
        } catch {
            throw SignFailure.report("\(requestFile): \(error.message)", command: command)
        }
    }

    private func readRequest(command: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: requestFile, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw SignFailure.report("\(requestFile): no such request file", command: command)
        }
        guard let handle = FileHandle(forReadingAtPath: requestFile) else {
            throw SignFailure.report("\(requestFile): the request file cannot be opened; check its permissions", command: command)
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: Self.maximumRequestLength + 1) ?? Data()
        } catch {
            throw SignFailure.report("\(requestFile): the request file cannot be read (\(error.localizedDescription))", command: command)
        }
        guard data.count <= Self.maximumRequestLength else {
            throw SignFailure.report("\(requestFile) is larger than \(Self.maximumRequestLength) bytes", command: command)
        }
        return data
    }
}
