import AppStoreServerAPI
import ArgumentParser

/// `verify-jws api history ID`: Get Transaction History (v2), every page.
struct APIHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "A customer's whole transaction history (Get Transaction History), every page.")

    @Argument(help: ArgumentHelp("Any transaction ID, original transaction ID or app transaction ID of the customer.", valueName: "TRANSACTION-ID"))
    var transactionId: String

    @Option(name: .customLong("product-id"), help: ArgumentHelp("Only these products (repeatable).", valueName: "ID"))
    var productIds: [String] = []

    @Flag(name: .customLong("newest-first"), help: "Newest transactions first (default: oldest first).")
    var newestFirst = false

    @Flag(name: .customLong("exclude-revoked"), help: "Leave out refunded and revoked transactions.")
    var excludeRevoked = false

    @OptionGroup var options: APIOptions

    func run() async throws {
        var request = TransactionHistoryRequest()
        if !productIds.isEmpty { request.productIds = productIds }
        if newestFirst { request.sort = .descending }
        if excludeRevoked { request.revoked = false }
        let transactionId = self.transactionId
        try await APIRunner.run("history", id: transactionId, options: options) { (client, writer) async throws(AppStoreServerAPIError) in
            for try await transaction in client.transactionHistory(transactionId: transactionId, request: request) {
                writer.write(transaction)
            }
        }
    }
}
