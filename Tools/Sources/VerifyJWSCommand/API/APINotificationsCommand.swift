import AppStoreServerAPI
import AppStoreVerification
import ArgumentParser
import Foundation

/// `verify-jws api notifications [ID]`: Get Notification History, every page.
struct APINotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "The notifications Apple sent, or tried to send, to your server (Get Notification History), every page: to recover what your server missed.",
        discussion: "Apple keeps 180 days of history; the range is --start ..< --end (default: the last 30 days).")

    @Argument(help: ArgumentHelp("Only the notifications about this customer (any of their transaction IDs).", valueName: "TRANSACTION-ID"))
    var transactionId: String?

    @Option(name: .customLong("start"), help: ArgumentHelp("The start of the range (inclusive): ISO 8601 or milliseconds since 1970. Default: 30 days ago.", valueName: "DATE"))
    var start: APIDateOption?

    @Option(name: .customLong("end"), help: ArgumentHelp("The end of the range (exclusive). Default: now.", valueName: "DATE"))
    var end: APIDateOption?

    @Option(name: .customLong("notification-type"), help: ArgumentHelp("Only this type, such as DID_RENEW or REFUND (not with a TRANSACTION-ID).", valueName: "TYPE"))
    var notificationType: String?

    @Option(name: .customLong("subtype"), help: ArgumentHelp("Only this subtype (with --notification-type).", valueName: "SUBTYPE"))
    var subtype: String?

    @Flag(name: .customLong("only-failures"), help: "Only the notifications your server did not acknowledge.")
    var onlyFailures = false

    @OptionGroup var options: APIOptions

    func validate() throws {
        if transactionId != nil, notificationType != nil || subtype != nil {
            throw ValidationError("Apple filters by a TRANSACTION-ID or by --notification-type/--subtype, not both.")
        }
        if subtype != nil, notificationType == nil {
            throw ValidationError("--subtype needs --notification-type.")
        }
        let startDate = start?.date ?? Date(timeIntervalSinceNow: -30 * 86_400)
        let endDate = end?.date ?? Date()
        guard startDate < endDate else {
            throw ValidationError("--start must be before --end.")
        }
    }

    func run() async throws {
        let request = NotificationHistoryRequest(
            startDate: start?.date ?? Date(timeIntervalSinceNow: -30 * 86_400), endDate: end?.date ?? Date(),
            notificationType: notificationType.map(NotificationTypeV2.init(rawValue:)), notificationSubtype: subtype.map(Subtype.init(rawValue:)),
            transactionId: transactionId, onlyFailures: onlyFailures ? true : nil)
        try await APIRunner.run("notifications", id: transactionId, options: options) { (client, writer) async throws(AppStoreServerAPIError) in
            for try await item in client.notificationHistory(request: request) {
                writer.write(notification: item.notification)
            }
        }
    }
}
