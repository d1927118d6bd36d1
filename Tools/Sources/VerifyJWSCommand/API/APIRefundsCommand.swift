import AppStoreServerAPI
import ArgumentParser

/// `verify-jws api refunds ID`: Get Refund History (v2), every page.
struct APIRefundsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refunds",
        abstract: "The refunded transactions of a customer (Get Refund History), every page.")

    @Argument(help: ArgumentHelp("Any transaction ID of the customer.", valueName: "TRANSACTION-ID"))
    var transactionId: String

    @OptionGroup var options: APIOptions

    func run() async throws {
        let transactionId = self.transactionId
        try await APIRunner.run("refunds", id: transactionId, options: options) { (client, writer) async throws(AppStoreServerAPIError) in
            for try await transaction in client.refundHistory(transactionId: transactionId) {
                writer.write(transaction)
            }
        }
    }
}
