import AppStoreServerAPI
import ArgumentParser

/// `verify-jws api statuses ID`: Get All Subscription Statuses.
struct APIStatusesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statuses",
        abstract: "The status of every subscription of a customer (Get All Subscription Statuses): each subscription's latest transaction, then its renewal info.")

    @Argument(help: ArgumentHelp("Any transaction ID of the customer.", valueName: "TRANSACTION-ID"))
    var transactionId: String

    @OptionGroup var options: APIOptions

    func run() async throws {
        let transactionId = self.transactionId
        try await APIRunner.run("statuses", id: transactionId, options: options) { (client, writer) async throws(AppStoreServerAPIError) in
            let response = try await client.getAllSubscriptionStatuses(transactionId: transactionId)
            for group in response.data {
                for item in group.lastTransactions {
                    if let transaction = item.transaction { writer.write(transaction) }
                    if let renewalInfo = item.renewalInfo { writer.write(renewalInfo) }
                }
            }
        }
    }
}
