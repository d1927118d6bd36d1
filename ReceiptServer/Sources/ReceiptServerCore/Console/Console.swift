import Foundation
import Hummingbird

/// The support console: server-rendered pages to find a customer and see why they have what they
/// have (``ConsoleController`` lists its routes). It exists only on a server with an access token,
/// which is what users sign in with.
struct Console: Sendable {
    /// The service's configuration, verifier and store.
    let server: ReceiptServerContext
    /// The server's access token: the sign-in form's password.
    let accessToken: String
    let sessions: ConsoleSessionStore
    let pages: ConsolePages
    let reconciliation: ConsoleReconciliation
    /// Wrong tokens per client address, shared with the bearer token check.
    let throttle: AuthenticationThrottle

    init(server: ReceiptServerContext, accessToken: String, reconciliation: ConsoleReconciliation, throttle: AuthenticationThrottle,
         sessions: ConsoleSessionStore = ConsoleSessionStore(), pages: ConsolePages = ConsolePages()) {
        self.server = server
        self.throttle = throttle
        self.accessToken = accessToken
        self.reconciliation = reconciliation
        self.sessions = sessions
        self.pages = pages
    }

    /// The request's session (routes behind ``ConsoleSessionMiddleware`` always have one).
    func currentSession() throws(ConsoleError) -> ConsoleSession {
        guard let session = ConsoleSession.current else {
            throw ConsoleError(.unauthorized, "Sign in first", "This page needs a session: sign in.")
        }
        return session
    }

    /// The route's `appAccountToken`, canonical; a page for anything else is not found.
    func customerParameter(_ context: some RequestContext) throws(ConsoleError) -> String {
        guard let customer = context.parameters.get("appAccountToken").flatMap(CustomerKey.canonical) else {
            throw ConsoleError(.notFound, "Not a customer", "A customer's page is named by their appAccountToken, a UUID.")
        }
        return customer
    }

    /// Runs a store read; a database failure is the service's 503 (`storageUnavailable`).
    func reading<T: Sendable>(_ work: () async throws(StorageError) -> T) async throws(APIError) -> T {
        do {
            return try await work()
        } catch {
            throw APIError.storageUnavailable(error)
        }
    }

    /// Decodes and verifies each stored item with the server's verifier now.
    func decoded(_ items: [ConsoleStoredItem]) -> [ConsoleDecodedItem] {
        let verifier = server.verifier
        return items.map { ConsoleDecodedItem.decode($0, verifier: verifier) }
    }
}
