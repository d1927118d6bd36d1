import AppStoreServerAPI
import ArgumentParser

/// `verify-jws api transaction ID`: Get Transaction Info.
struct APITransactionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transaction",
        abstract: "One transaction (Get Transaction Info).")

    @Argument(help: ArgumentHelp("The transaction ID.", valueName: "TRANSACTION-ID"))
    var transactionId: String

    @OptionGroup var options: APIOptions

    func run() async throws {
        let transactionId = self.transactionId
        try await APIRunner.run("transaction", id: transactionId, options: options) { (client, writer) async throws(AppStoreServerAPIError) in
            writer.write(try await client.getTransactionInfo(transactionId: transactionId))
        }
    }
}
