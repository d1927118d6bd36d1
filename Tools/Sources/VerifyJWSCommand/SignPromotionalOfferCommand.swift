import AppStoreVerification
import ArgumentParser
import Foundation

/// `verify-jws sign promotional-offer`: a promotional offer signature (V1, base64 of DER ECDSA).
struct SignPromotionalOfferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promotional-offer",
        abstract: "Sign a promotional offer (the original V1 format).",
        discussion: """
            Prints one JSON object {"signature", "nonce", "timestamp", "keyIdentifier"}: the values a \
            purchase with the offer passes to StoreKit. The nonce (a UUID) and the timestamp \
            (milliseconds since 1970) are generated unless given.
            """
    )

    @OptionGroup var key: SigningKeyOptions

    @Option(name: .customLong("bundle-id"), help: "Your app's bundle ID.")
    var bundleId: String

    @Option(name: .customLong("product-id"), help: "The subscription product identifier.")
    var productId: String

    @Option(name: .customLong("offer-id"), help: "The promotional offer identifier.")
    var offerId: String

    @Option(name: .customLong("app-account-token"), help: ArgumentHelp("The app account token the purchase will carry (signed lowercased); none by default.", valueName: "UUID"))
    var appAccountToken: String?

    @Option(name: .customLong("nonce"), help: ArgumentHelp("The nonce; a new random one by default.", valueName: "UUID"))
    var nonce: String?

    @Option(name: .customLong("timestamp"), help: ArgumentHelp("Milliseconds since 1970; now by default.", valueName: "MS"))
    var timestamp: Int64?

    func validate() throws {
        if let appAccountToken, UUID(uuidString: appAccountToken) == nil {
            throw ValidationError("--app-account-token must be a UUID, such as 7e3fb20b-4cdb-47cc-936d-99d65f608138.")
        }
        if let nonce, UUID(uuidString: nonce) == nil {
            throw ValidationError("--nonce must be a UUID, such as 7e3fb20b-4cdb-47cc-936d-99d65f608138.")
        }
        if let timestamp, timestamp < 0 || timestamp >= 9_000_000_000_000_000 {
            throw ValidationError("--timestamp must be milliseconds since 1970 (0 or more, below 9000000000000000).")
        }
    }

    func run() throws {
        let signingKey = try key.loadKey(command: Self.configuration.commandName ?? "")
        let nonce = self.nonce.flatMap(UUID.init(uuidString:)) ?? UUID()
        // A time given in milliseconds is signed as given (whole milliseconds round-trip through Date).
        let date = self.timestamp.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? Date()
        let timestamp = PromotionalOfferSignatureCreator.milliseconds(date) ?? 0
        let creator = PromotionalOfferSignatureCreator(signingKey: signingKey, keyId: key.keyId, bundleId: bundleId)
        let signature: String
        do {
            signature = try creator.createSignature(productIdentifier: productId, subscriptionOfferID: offerId,
                                                    appAccountToken: appAccountToken.flatMap(UUID.init(uuidString:)),
                                                    nonce: nonce, timestamp: date)
        } catch {
            throw SignFailure.report(error.message, command: Self.configuration.commandName ?? "")
        }
        let json = "{\"signature\":\(JSONText.quoted(signature)),\"nonce\":\(JSONText.quoted(nonce.uuidString.lowercased())),"
            + "\"timestamp\":\(timestamp),\"keyIdentifier\":\(JSONText.quoted(key.keyId))}\n"
        CommandContext.writeOutput(json)
    }
}
