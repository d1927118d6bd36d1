import AppStoreVerificationTesting
import Foundation
import ReceiptServerCore
import Synchronization
import Testing

/// The support console's outbound events page: delivery state, the failing endpoint, and the
/// CSRF-protected redeliver button for a dead-lettered event.
@Suite("Console: outbound events", .timeLimit(.minutes(2)))
struct WebhookConsoleTests {
    @Test("A dead-lettered event shows with its failing endpoint; redeliver needs the CSRF token and delivers it", arguments: StoreKind.allCases)
    func redeliver(store: StoreKind) async throws {
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        let world = try WebhookTests.World()
        let up = Mutex(false)
        let receiver = try await WebhookReceiver.start { _, _ in up.withLock { $0 } ? 200 : 500 }
        defer { Task { await receiver.stop() } }
        var configuration = try WebhookTests.configuration(receiver.url)
        configuration.retryPeriod = .milliseconds(300)
        let server = try await WebhookTests.startServer(database, world: world, webhooks: configuration, clock: ManualClock(date: world.now),
                                                        access: AccessControl(bearerToken: ConsoleFixture.token))
        try await server.stopping { try await ConsoleBrowser.using(port: server.port) { browser in
            let jws = try world.minter.transaction(world.lifetime("7500000000000001"))
            #expect(try await server.request(.POST, "/transactions", headers: [("Authorization", "Bearer \(ConsoleFixture.token)")],
                                             body: try JSONSerialization.data(withJSONObject: ["signedTransaction": jws, "appAccountToken": world.customer])).status == 200)
            let store = server.store
            let customer = world.customer
            // Counted once recorded in the store.
            try await server.waitUntilMetrics("the event dead-lettered") { $0.metric("receipt_server_webhook_deliveries_total{result=\"dead\"}") == 1 }
            #expect(try await store.webhookEvents(ofCustomer: customer).first?.state == "dead")
            try await browser.signIn(token: ConsoleFixture.token)
            let path = "/console/customers/\(customer)/events"
            #expect(try await browser.get("/console/customers/\(customer)").body.contains(path))
            let page = try await browser.get(path)
            #expect(page.status == 200)
            #expect(page.body.contains("dead-lettered"))
            #expect(page.body.contains("FAILING"))
            #expect(page.body.contains("HTTP 500"))
            let action = try #require(page.body.range(of: #"/console/customers/[0-9a-f-]+/events/\d+/redeliver"#, options: .regularExpression))
            let csrf = try #require(page.hidden("csrf"))
            #expect(try await browser.post(String(page.body[action]), form: [("csrf", "forged")]).status == 403)
            #expect(try await store.webhookEvents(ofCustomer: customer).first?.state == "dead")
            up.withLock { $0 = true }
            let posted = try await browser.post(String(page.body[action]), form: [("csrf", csrf)])
            #expect(posted.status == 303)
            try await server.waitUntilMetrics("the event delivered") { $0.metric("receipt_server_webhook_deliveries_total{result=\"delivered\"}") == 1 }
            #expect(try await store.webhookEvents(ofCustomer: customer).first?.state == "delivered")
            #expect(Set(receiver.received.map(\.id)).count == 1, "the same webhook-id")
            let after = try await browser.get(path)
            #expect(after.body.contains("delivered"))
            #expect(after.body.contains("endpoints-ok"))
            // A second redeliver of a delivered event: nothing to do.
            #expect(try await browser.post(String(page.body[action]), form: [("csrf", csrf)]).status == 404)
        } }
    }
}
