import AppStoreVerification
import ArgumentParser
import Foundation

/// `verify-jws sign introductory-offer-eligibility`: an introductory offer eligibility JWS.
struct SignIntroductoryOfferEligibilityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "introductory-offer-eligibility",
        abstract: "Sign whether a customer may get a product's introductory offer; prints the JWS."
    )

    @OptionGroup var key: SigningKeyOptions

    @Option(name: .customLong("issuer-id"), help: "Your issuer ID from the Keys page in App Store Connect.")
    var issuerId: String

    @Option(name: .customLong("bundle-id"), help: "Your app's bundle ID.")
    var bundleId: String

    @Option(name: .customLong("product-id"), help: "The product identifier.")
    var productId: String

    @Option(name: .customLong("allow-introductory-offer"), help: ArgumentHelp("Whether the customer may get the introductory offer.", valueName: "true|false"))
    var allowIntroductoryOffer: Bool

    @Option(name: .customLong("transaction-id"), help: "Any transaction identifier of the customer.")
    var transactionId: String

    func run() throws {
        let command = Self.configuration.commandName ?? ""
        let signingKey = try key.loadKey(command: command)
        let creator = IntroductoryOfferEligibilitySignatureCreator(signingKey: signingKey, keyId: key.keyId, issuerId: issuerId, bundleId: bundleId)
        do {
            let jws = try creator.createSignature(productId: productId, allowIntroductoryOffer: allowIntroductoryOffer, transactionId: transactionId)
            CommandContext.writeOutput(jws + "\n")
        } catch {
            throw SignFailure.report(error.message, command: command)
        }
    }
}
