import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import ReceiptServerCore
import Testing

/// Finding a customer and reading their page: search by each kind of ID, the entitlement engine's
/// states and reasons, the timeline with its verdicts, payloads on demand, escaping of stored
/// strings, and items that no longer verify after a root change.
@Suite("Console: search, customer page, escaping", .timeLimit(.minutes(3)), .serialized)
struct ConsoleCustomerPageTests {
    /// Runs `body` with a seeded server and a signed-in browser.
    static func with(_ body: (TestServer, ConsoleBrowser, ConsoleFixture) async throws -> Void) async throws {
        let fixture = try ConsoleFixture()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await fixture.startServer(databasePath: directory.databasePath)
        try await server.stopping {
            try await fixture.seed(server)
            try await ConsoleBrowser.using(port: server.port) { browser in
                let signIn = try await browser.signIn(token: ConsoleFixture.token)
                guard signIn.status == 303 else { throw TestServerError("sign-in: \(signIn.status)") }
                try await body(server, browser, fixture)
            }
        }
    }

    static var customerPath: String { "/console/customers/\(ConsoleFixture.customer)" }

    @Test("Search by appAccountToken (any case), originalTransactionId, a renewal's transactionId or a notificationUUID finds the customer")
    func searchFindsCustomer() async throws {
        try await Self.with { _, browser, fixture in
            let queries = [ConsoleFixture.customer, ConsoleFixture.customer.uppercased(), ConsoleFixture.purchaseId, ConsoleFixture.renewalId,
                           ConsoleFixture.lifetimeId, fixture.refundUUID, " \(ConsoleFixture.renewalId) "]
            for query in queries {
                let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
                let page = try await browser.get("/console/search?q=\(encoded)")
                #expect(page.status == 303, "\(query): \(page.status) \(page.body)")
                #expect(page.location == Self.customerPath, "\(query)")
            }
            let unknown = try await browser.get("/console/search?q=9999999999999999")
            #expect(unknown.status == 404)
            #expect(unknown.body.contains("Nothing stored matches “9999999999999999”."))
            let unknownCustomer = try await browser.get("/console/search?q=\(UUID().uuidString)")
            #expect(unknownCustomer.status == 404)
            let garbage = try await browser.get("/console/search?q=%3Cb%3E1%3C%2Fb%3E")
            #expect(garbage.status == 400)
            #expect(garbage.body.contains("&lt;b&gt;1&lt;/b&gt;"))
            #expect(!garbage.body.contains("<b>1</b>"))
        }
    }

    @Test("A purchase stored without a customer is found and said to be linked to nobody")
    func unlinkedPurchase() async throws {
        try await Self.with { server, browser, fixture in
            let orphan = Transaction(transactionId: "5200000000000001", productId: "com.example.app.lifetime", type: .nonConsumable)
            let notification = try fixture.minter.notification(ResponseBodyV2DecodedPayload(notificationType: .refund), transaction: orphan)
            #expect(try await server.postNotification(notification).status == 200)
            let page = try await browser.get("/console/search?q=5200000000000001")
            #expect(page.status == 200)
            #expect(page.body.contains("A purchase without a customer"))
        }
    }

    @Test("The customer page: each product's state and reason (renewed subscription subscribed, refunded unlock revoked), the timeline with environment and verdicts")
    func customerPage() async throws {
        try await Self.with { _, browser, _ in
            let page = try await browser.get(Self.customerPath)
            #expect(page.status == 200)
            let html = page.body
            // Products: the subscription is granted through its renewal; the unlock is refunded.
            let products = try #require(Self.section(html, id: "products"))
            let monthly = try #require(Self.row(products, containing: ConsoleFixture.monthly))
            #expect(monthly.contains("Granted"))
            #expect(monthly.contains("Subscribed"))
            #expect(monthly.contains("transaction \(ConsoleFixture.renewalId)"), "the engine's reason names the renewal: \(monthly)")
            let lifetime = try #require(Self.row(products, containing: ConsoleFixture.lifetime))
            #expect(lifetime.contains("Not granted"))
            #expect(lifetime.contains("Revoked"))
            #expect(lifetime.contains("Refunded"))
            #expect(lifetime.contains("revoked (REFUND_FULL)"), "\(lifetime)")
            // The timeline: purchase, renewal, the refund notification; each Sandbox and verified.
            let timeline = try #require(Self.section(html, id: "timeline"))
            let rows = timeline.components(separatedBy: "<tr").dropFirst(2)
            #expect(rows.count == 6, "five transactions and one notification")
            #expect(rows.allSatisfy { $0.contains("Sandbox") && $0.contains("Verifies") && !$0.contains("Does not verify") })
            #expect(rows.contains { $0.contains(">Purchase<") && $0.contains(ConsoleFixture.purchaseId) })
            #expect(rows.contains { $0.contains(">Renewal<") && $0.contains(ConsoleFixture.renewalId) })
            #expect(rows.contains { $0.contains("Notification: REFUND") && $0.contains(ConsoleFixture.lifetimeId) && $0.contains("REFUND_FULL") })
            // Newest first: the markup purchases (3 days ago) before the refund (5 days) before the renewal (10 days).
            let refundAt = try #require(timeline.range(of: "Notification: REFUND")).lowerBound
            let renewalAt = try #require(timeline.range(of: ">Renewal<")).lowerBound
            #expect(refundAt < renewalAt)
            // Dates: UTC in the page, in <time datetime> with the UTC value in the title.
            #expect(html.contains(#"<time datetime=""#))
            #expect(html.range(of: #"<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z" title="\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{3})? UTC">"#,
                               options: .regularExpression) != nil)
            // No reconcile button without API credentials.
            #expect(!html.contains("Reconcile with Apple"))
        }
    }

    @Test("Markup in stored strings is text: escaped in the products, the timeline and the payload page, never markup")
    func escaping() async throws {
        try await Self.with { _, browser, _ in
            let page = try await browser.get(Self.customerPath)
            #expect(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(page.body.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"))
            #expect(!page.body.contains(ConsoleFixture.scriptProduct))
            #expect(!page.body.contains(ConsoleFixture.imageProduct))
            #expect(!page.body.contains("<img"))
            // The markup transaction's payload page (its storefront and offer are markup too).
            let timeline = try #require(Self.section(page.body, id: "timeline"))
            let row = try #require(Self.row(timeline, containing: "5100000000000004"))
            let link = try #require(row.range(of: #"/console/customers/[0-9a-f-]+/items/\d+"#, options: .regularExpression)).self
            let item = try await browser.get(String(row[link]))
            #expect(item.status == 200)
            #expect(item.body.contains("&quot;productId&quot; : &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;"), "\(item.body)")
            #expect(!item.body.contains(ConsoleFixture.scriptProduct))
            #expect(!item.body.contains("<img"))
            #expect(Self.scripts(in: item.body) == ["/console/static/console.js"])
            #expect(Self.scripts(in: page.body) == ["/console/static/console.js"])
        }
    }

    @Test("An item's page: the decoded payload, a notification's nested transaction, the JWS as stored; another customer's item is not found")
    func itemPage() async throws {
        try await Self.with { _, browser, _ in
            let page = try await browser.get(Self.customerPath)
            let timeline = try #require(Self.section(page.body, id: "timeline"))
            let refundRow = try #require(Self.row(timeline, containing: "Notification: REFUND"))
            let link = try #require(refundRow.range(of: #"/console/customers/[0-9a-f-]+/items/\d+"#, options: .regularExpression))
            let path = String(refundRow[link])
            let item = try await browser.get(path)
            #expect(item.status == 200)
            #expect(item.body.contains("<h1>Notification: REFUND</h1>"))
            #expect(item.body.contains("Notification payload"))
            #expect(item.body.contains("Nested transaction (signedTransactionInfo)"))
            #expect(item.body.contains("&quot;revocationType&quot; : &quot;REFUND_FULL&quot;"))
            #expect(item.body.contains("<details>"))
            // The same row under another customer, or a row that does not exist: 404.
            let other = path.replacingOccurrences(of: ConsoleFixture.customer, with: "00000000-0000-4000-8000-000000000000")
            #expect(try await browser.get(other).status == 404)
            #expect(try await browser.get(Self.customerPath + "/items/999999").status == 404)
            #expect(try await browser.get(Self.customerPath + "/items/x").status == 404)
            #expect(try await browser.get("/console/customers/00000000-0000-4000-8000-000000000000").status == 404)
        }
    }

    @Test("After a root change: an item that no longer verifies is shown so, and once re-verified, as not counted")
    func rootChange() async throws {
        let fixture = try ConsoleFixture()
        let retired = try TestPKI()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Stored while both roots were trusted.
        let legacy = Transaction(transactionId: "5100000000000009", productId: "com.example.app.stickers.legacy", purchaseDate: fixture.now - 60 * ConsoleFixture.day,
                                 type: .nonConsumable, appAccountToken: ConsoleFixture.customer, signedDate: fixture.now - 60 * ConsoleFixture.day)
        let both = try await fixture.startServer(databasePath: directory.databasePath, roots: [fixture.pki.trustedRoot, retired.trustedRoot])
        try await both.stopping {
            try await fixture.seed(both)
            let answer = try await both.postTransaction(try SignedDataMinter(pki: retired).transaction(legacy), appAccountToken: ConsoleFixture.customer)
            #expect(answer.status == 200, "\(answer.text)")
        }
        // The server restarted trusting only the current root.
        let current = try await fixture.startServer(databasePath: directory.databasePath)
        try await current.stopping { try await ConsoleBrowser.using(port: current.port) { browser in
            try await browser.signIn(token: ConsoleFixture.token)
            let before = try await browser.get(Self.customerPath)
            let beforeTimeline = try #require(Self.section(before.body, id: "timeline"))
            let row = try #require(Self.row(beforeTimeline, containing: "5100000000000009"))
            #expect(row.contains("class=\"unverified\""))
            #expect(row.contains("Does not verify"))
            #expect(row.contains("invalidCertificateChain") || row.contains("untrusted"), "\(row)")
            #expect(!before.body.contains("Stored, but not counted"), "not re-verified yet: still counted")
            // ReceiptServer --reverify with the current roots.
            let verifier = try SignedDataVerifier(configuration: .init(trustedRoots: [fixture.pki.trustedRoot], bundleId: "com.example.app", environment: .sandbox))
            let report = try await current.store.reverify(with: verifier, now: Int64(Date().timeIntervalSince1970 * 1000))
            #expect(report.rejected == 1)
            let after = try await browser.get(Self.customerPath)
            #expect(after.body.contains("Stored, but not counted"))
            let rejected = try #require(Self.section(after.body, id: "rejected", tag: "ul"))
            #expect(rejected.contains("transaction 5100000000000009"))
            let afterTimeline = try #require(Self.section(after.body, id: "timeline"))
            let afterRow = try #require(Self.row(afterTimeline, containing: "5100000000000009"))
            #expect(afterRow.contains("Not counted:"))
            let products = try #require(Self.section(after.body, id: "products"))
            #expect(!products.contains("com.example.app.stickers.legacy"), "it counts for nothing now")
        } }
    }

    // MARK: Reading pages

    /// The element `<tag id="id" …>…</tag>` (the first closing tag).
    static func section(_ html: String, id: String, tag: String = "table") -> String? {
        guard let start = html.range(of: "<\(tag) id=\"\(id)\"") else { return nil }
        guard let end = html.range(of: "</\(tag)>", range: start.upperBound..<html.endIndex) else { return nil }
        return String(html[start.lowerBound..<end.upperBound])
    }

    /// The first table row of `table` containing `text`.
    static func row(_ table: String, containing text: String) -> String? {
        table.components(separatedBy: "<tr").first { $0.contains(text) }
    }

    /// The `src` of every `<script>` element; an inline script counts as "".
    static func scripts(in html: String) -> [String] {
        html.components(separatedBy: "<script").dropFirst().map { element in
            guard let start = element.range(of: "src=\""), let end = element[start.upperBound...].firstIndex(of: "\"") else { return "" }
            return String(element[start.upperBound..<end])
        }
    }
}
