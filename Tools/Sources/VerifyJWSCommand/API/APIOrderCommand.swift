import AppStoreServerAPI
import ArgumentParser

/// `verify-jws api order ID`: Look Up Order ID.
struct APIOrderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "order",
        abstract: "The transactions of an order, by the order ID on the customer's App Store receipt email (Look Up Order ID).",
        discussion: "An order ID Apple does not know (status 1, invalid) is one line on standard error and exit status 2.")

    @Argument(help: ArgumentHelp("The order ID from the customer's receipt email.", valueName: "ORDER-ID"))
    var orderId: String

    @OptionGroup var options: APIOptions

    func run() async throws {
        let orderId = self.orderId
        try await APIRunner.run("order", id: orderId, options: options) { (client, writer) async throws(AppStoreServerAPIError) in
            let response = try await client.lookUpOrderId(orderId: orderId)
            if response.status == .invalid {
                throw AppStoreServerAPIError(.invalidRequest, "Apple knows no order \(orderId) (order lookup status 1, invalid); check the ID on the customer's receipt email")
            }
            for transaction in response.transactions { writer.write(transaction) }
        }
    }
}
