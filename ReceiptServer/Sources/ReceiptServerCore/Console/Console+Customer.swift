import AppStoreVerification
import Foundation
import Hummingbird

/// A customer's page and one item's page.
extension Console {
    /// `GET /console/customers/{appAccountToken}`.
    func customerPage(_ request: Request, context: some RequestContext) async throws -> Response {
        let session = try currentSession()
        let customer = try customerParameter(context)
        let store = server.store
        let items = try await reading { () async throws(StorageError) in try await store.consoleItems(ofCustomer: customer) }
        let state = try await reading { () async throws(StorageError) in try await store.customerState(of: customer) }
        guard !items.isEmpty || state.revision > 0 else {
            throw ConsoleError(.notFound, "Unknown customer", "Nothing is stored for customer \(customer).")
        }
        let now = server.configuration.clock.now
        let page = ConsoleCustomerPage(
            customer: customer, now: now, statuses: state.engine.statuses(at: now), rejected: state.rejected, items: decoded(items),
            flash: sessions.takeFlash(for: session, customer: customer), canReconcile: reconciliation.isConfigured)
        return pages.response(.customer, ConsoleView(title: "Customer \(customer)", session: session, page: page))
    }

    /// `GET /console/customers/{appAccountToken}/items/{id}`: one stored item decoded.
    func itemPage(_ request: Request, context: some RequestContext) async throws -> Response {
        let session = try currentSession()
        let customer = try customerParameter(context)
        guard let id = context.parameters.get("item", as: Int64.self) else { throw ConsoleError.notFound }
        let store = server.store
        let rows = try await reading { () async throws(StorageError) in try await store.consoleItems(ofCustomer: customer, id: id) }
        guard let row = rows.first else {
            throw ConsoleError(.notFound, "No such item", "Customer \(customer) has no stored item \(id).")
        }
        let item = ConsoleDecodedItem.decode(row, verifier: server.verifier)
        let page = ConsoleItemPage(item, customer: customer)
        return pages.response(.item, ConsoleView(title: item.event, session: session, page: page))
    }
}

/// One item's page content.
struct ConsoleItemPage: Sendable {
    let customer: String
    let customerURL: String
    let event: String
    let kind: String
    let signed: ConsoleDate?
    let received: ConsoleDate
    let environment: String
    let verified: Bool
    let failure: String?
    let storedRejection: String?
    let parts: [ConsoleDecodedPart]
    let jws: String

    init(_ item: ConsoleDecodedItem, customer: String) {
        self.customer = customer
        customerURL = ConsolePaths.customer(customer)
        event = item.event
        kind = item.row.stored.kind.rawValue
        signed = item.signed
        received = ConsoleDate(milliseconds: item.row.receivedAt)
        environment = item.environment
        verified = item.verifies
        failure = item.failure
        storedRejection = item.row.rejections.isEmpty ? nil : item.row.rejections.map { "\($0.code): \($0.message)" }.joined(separator: "; ")
        parts = item.parts
        jws = item.row.stored.jws
    }
}
