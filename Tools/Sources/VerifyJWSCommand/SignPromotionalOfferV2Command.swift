import AppStoreVerification
import ArgumentParser
import Foundation

/// `verify-jws sign promotional-offer-v2`: a promotional offer JWS (V2).
struct SignPromotionalOfferV2Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promotional-offer-v2",
        abstract: "Sign a promotional offer (the JWS V2 format); prints the JWS."
    )

    @OptionGroup var key: SigningKeyOptions

    @Option(name: .customLong("issuer-id"), help: "Your issuer ID from the Keys page in App Store Connect.")
    var issuerId: String

    @Option(name: .customLong("bundle-id"), help: "Your app's bundle ID.")
    var bundleId: String

    @Option(name: .customLong("product-id"), help: "The product identifier.")
    var productId: String

    @Option(name: .customLong("offer-id"), help: "The promotional offer identifier.")
    var offerId: String

    @Option(name: .customLong("transaction-id"), help: "Any transaction identifier of the customer (optional, recommended).")
    var transactionId: String?

    func run() throws {
        let command = Self.configuration.commandName ?? ""
        let signingKey = try key.loadKey(command: command)
        let creator = PromotionalOfferV2SignatureCreator(signingKey: signingKey, keyId: key.keyId, issuerId: issuerId, bundleId: bundleId)
        do {
            let jws = try creator.createSignature(productId: productId, offerIdentifier: offerId, transactionId: transactionId)
            CommandContext.writeOutput(jws + "\n")
        } catch {
            throw SignFailure.report(error.message, command: command)
        }
    }
}
