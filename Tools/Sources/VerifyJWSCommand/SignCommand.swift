import ArgumentParser
import Foundation

/// `verify-jws sign`: signatures for App Store requests, made as Apple's App Store Server Library
/// makes them.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        // Parsed on its own (see main(arguments:)): the usage lines still read `verify-jws sign ...`.
        _superCommandName: "verify-jws",
        abstract: "Sign App Store requests: promotional offers (V1 and V2), introductory offer eligibility, Advanced Commerce requests.",
        discussion: """
            Each subcommand reads a P-256 private key (the .p8 file App Store Connect gives you, or a \
            SEC1 'EC PRIVATE KEY'), never prints it, and writes one result on standard output. A \
            missing, unreadable, encrypted or non-P-256 key, or a wrong argument, gives one line on \
            standard error and exit status 2.
            """,
        subcommands: [
            SignPromotionalOfferCommand.self,
            SignPromotionalOfferV2Command.self,
            SignIntroductoryOfferEligibilityCommand.self,
            SignAdvancedCommerceCommand.self,
        ]
    )
}
