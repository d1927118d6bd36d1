import Foundation
import Hummingbird

/// Finding a customer.
extension Console {
    /// `GET /console` and `GET /console/search?q=…`: a customer found by `appAccountToken`,
    /// `originalTransactionId`, `transactionId` or `notificationUUID` is redirected to (`303`);
    /// otherwise the search page says what was found.
    func search(_ request: Request, context: some RequestContext) async throws -> Response {
        let session = try currentSession()
        let query = (request.uri.queryParameters.get("q") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else {
            return searchPage(session, query: "", content: ConsoleSearchPage(message: nil, unlinked: nil))
        }
        guard query.count <= 128, query.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            return searchPage(session, query: String(query.prefix(128)), content: ConsoleSearchPage(
                message: "“\(query.prefix(128))” is not an appAccountToken (a UUID), a transaction ID or a notification UUID.", unlinked: nil),
                status: .badRequest)
        }
        let store = server.store
        if let customer = CustomerKey.canonical(query),
           try await reading({ () async throws(StorageError) in try await store.consoleKnows(customer: customer) }) {
            return ConsoleResponses.redirect(to: ConsolePaths.customer(customer))
        }
        switch try await reading({ () async throws(StorageError) in try await store.consoleMatch(forIdentifier: query) }) {
        case .customer(let customer):
            return ConsoleResponses.redirect(to: ConsolePaths.customer(customer))
        case .unlinkedPurchase(let purchase):
            return searchPage(session, query: query, content: ConsoleSearchPage(message: nil, unlinked: purchase))
        case nil:
            return searchPage(session, query: query, content: ConsoleSearchPage(message: "Nothing stored matches “\(query)”.", unlinked: nil),
                              status: .notFound)
        }
    }

    private func searchPage(_ session: ConsoleSession, query: String, content: ConsoleSearchPage, status: HTTPResponse.Status = .ok) -> Response {
        pages.response(.search, ConsoleView(title: "Find a customer", session: session, query: query, page: content), status: status)
    }
}

/// The search page's content.
struct ConsoleSearchPage: Sendable {
    /// What the search found or why it found nothing.
    let message: String?
    /// A purchase found stored but linked to no customer.
    let unlinked: String?
}
