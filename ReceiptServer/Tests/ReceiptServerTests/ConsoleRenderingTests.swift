import AppStoreVerification
import Foundation
@testable import ReceiptServerCore
import Testing

/// The console's templates and what they render: every template parses; values are escaped; no
/// template has what the Content-Security-Policy forbids; dates render as `<time>`; origins parse.
@Suite("Console: templates and escaping")
struct ConsoleRenderingTests {
    @Test("Every template parses")
    func templatesParse() {
        #expect(ConsolePages().failures.isEmpty, "\(ConsolePages().failures)")
        #expect(Set(ConsoleTemplates.all.map(\.name)).isSuperset(of: ConsolePages.Page.allCases.map(\.rawValue)))
    }

    @Test("No template renders a value unescaped, or has inline script, inline style or an event handler attribute")
    func templatesAreSafe() {
        for (name, text) in ConsoleTemplates.all {
            #expect(!text.contains("{{{"), "\(name)")
            #expect(!text.contains("{{&"), "\(name)")
            #expect(!text.contains("{{="), "\(name): no delimiter changes")
            #expect(!text.contains("style="), "\(name)")
            #expect(!text.contains("<style"), "\(name)")
            #expect(text.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "\(name)")
            for script in text.components(separatedBy: "<script").dropFirst() {
                #expect(script.hasPrefix(#" src="/console/static/console.js" defer></script>"#), "\(name)")
            }
            #expect(text.range(of: #"=\{\{"#, options: .regularExpression) == nil, "\(name): attribute values are quoted")
        }
    }

    @Test("Every value is HTML-escaped: < > & \" ' (a value in an attribute cannot close it)")
    func escaping() throws {
        let hostile = #"<script>alert("x")</script> & 'quote' "><img src=x onerror=alert(1)>"#
        let html = try #require(ConsolePages().render(.error, ConsoleView(title: hostile, page: ConsoleErrorPage(heading: hostile, message: hostile))))
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("'quote'"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quote&#39; &quot;&gt;&lt;img src=x onerror=alert(1)&gt;"))
        let search = try #require(ConsolePages().render(.search, ConsoleView(
            title: "t", session: ConsoleSession(id: "i", csrfToken: "c", expiresAt: Date()), query: hostile,
            page: ConsoleSearchPage(message: nil, unlinked: nil))))
        #expect(search.contains(#"value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quote&#39; &quot;&gt;&lt;img src=x onerror=alert(1)&gt;""#))
    }

    @Test("Dates: ISO 8601 UTC for datetime, a readable UTC text; milliseconds kept")
    func dates() {
        let date = ConsoleDate(milliseconds: 1_772_366_400_000)
        #expect(date.iso == "2026-03-01T12:00:00Z")
        #expect(date.utc == "2026-03-01 12:00:00 UTC")
        #expect(ConsoleDate(milliseconds: 1_772_366_400_007).iso == "2026-03-01T12:00:00.007Z")
        #expect(ConsoleDate(milliseconds: -1).iso == "1969-12-31T23:59:59.999Z")
        let html = ConsolePages().render(.customer, ConsoleView(title: "t", session: ConsoleSession(id: "i", csrfToken: "c", expiresAt: Date()),
                                                                page: ConsoleCustomerPage(customer: "c", now: Date(timeIntervalSince1970: 1_772_366_400), statuses: [],
                                                                                          rejected: [], items: [], flash: nil, canReconcile: true)))
        #expect(html?.contains(#"<time datetime="2026-03-01T12:00:00Z" title="2026-03-01 12:00:00 UTC">2026-03-01 12:00:00 UTC</time>"#) == true)
        #expect(html?.contains("Reconcile with Apple") == false, "nothing to reconcile without a transaction")
    }

    @Test("Product IDs may break after their dots and nowhere else; each part is escaped")
    func productIdsBreakAtDots() throws {
        #expect(ConsoleProductName.parts("com.example.app.premium") == ["com.", "example.", "app.", "premium"])
        #expect(ConsoleProductName.parts("lifetime") == ["lifetime"])
        #expect(ConsoleProductName.parts("a.") == ["a."])
        #expect(ConsoleProductName.parts("") == [""])
        let now = Date(timeIntervalSince1970: 1_772_366_400)
        let entitlement = Entitlement(productId: "com.example.app.premium.monthly", productType: .nonConsumable, transactionId: "1",
                                      originalTransactionId: "1", subscriptionGroupIdentifier: nil, purchaseDate: now - 86_400,
                                      expiresDate: nil, revocationDate: nil, state: .purchased, ownershipType: .purchased,
                                      autoRenewStatus: nil, autoRenewProductId: nil, isInBillingRetryPeriod: nil,
                                      gracePeriodExpiresDate: nil, reason: "r")
        let hostile = Entitlement(productId: "x.<b>y</b>.z", productType: .nonConsumable, transactionId: "2",
                                  originalTransactionId: "2", subscriptionGroupIdentifier: nil, purchaseDate: now - 86_400,
                                  expiresDate: nil, revocationDate: nil, state: .purchased, ownershipType: .purchased,
                                  autoRenewStatus: nil, autoRenewProductId: nil, isInBillingRetryPeriod: nil,
                                  gracePeriodExpiresDate: nil, reason: "r")
        let html = try #require(ConsolePages().render(.customer, ConsoleView(
            title: "t", session: ConsoleSession(id: "i", csrfToken: "c", expiresAt: Date()),
            page: ConsoleCustomerPage(customer: "c", now: now, statuses: [entitlement, hostile], rejected: [], items: [], flash: nil, canReconcile: false))))
        #expect(html.contains(#"<span class="product">com.<wbr>example.<wbr>app.<wbr>premium.<wbr>monthly<wbr></span>"#))
        #expect(html.contains(#"<span class="product">x.<wbr>&lt;b&gt;y&lt;/b&gt;.<wbr>z<wbr></span>"#))
        #expect(!html.contains("<b>y"))
        // The stylesheet does not break them anywhere else.
        #expect(ConsoleStylesheet.text.contains(".product { overflow-wrap: normal; word-break: keep-all; }"))
    }

    @Test("Origins: scheme://host[:port] gives the host; null and others none")
    func origins() {
        #expect(ConsoleCSRF.host(ofOrigin: "http://127.0.0.1:8080") == "127.0.0.1:8080")
        #expect(ConsoleCSRF.host(ofOrigin: "HTTPS://Console.Example") == "console.example")
        #expect(ConsoleCSRF.host(ofOrigin: "null") == nil)
        #expect(ConsoleCSRF.host(ofOrigin: "http://a/b") == nil)
        #expect(ConsoleCSRF.host(ofOrigin: "file://") == nil)
    }

    @Test("The stylesheet and the script have no markup the page could mistake; the script touches only <time> and the footer note")
    func staticFiles() {
        #expect(!ConsoleScript.text.contains("innerHTML"))
        #expect(!ConsoleScript.text.contains("eval("))
        #expect(ConsoleScript.text.contains("textContent"))
        #expect(!ConsoleStylesheet.text.contains("</style"))
        #expect(!ConsoleStylesheet.text.contains("@import"))
        #expect(!ConsoleStylesheet.text.contains("url("))
    }
}
