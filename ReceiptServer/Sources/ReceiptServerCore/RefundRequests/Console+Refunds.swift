import Foundation
import Hummingbird

/// The support console's view of refund requests (Docs/RefundRequests.md): the customer's consent,
/// the facts the backend stored per transaction, and each `CONSUMPTION_REQUEST` with what was sent
/// to Apple, when, Apple's answer, and the later outcome (`REFUND` or `REFUND_DECLINED`).
extension Console {
    /// `GET /console/customers/{appAccountToken}/refunds`.
    func refundsPage(_ request: Request, context: some RequestContext) async throws -> Response {
        let session = try currentSession()
        let customer = try customerParameter(context)
        let backend = server.store.backend
        let data = try await reading { () async throws(StorageError) in try await backend.refundConsoleData(customer: customer) }
        let page = ConsoleRefundsPage(customer: customer, data: data)
        return pages.response(.refunds, ConsoleView(title: "Refund requests of customer \(customer)", session: session, page: page))
    }
}

/// The refund requests page's content.
struct ConsoleRefundsPage: Sendable {
    struct Request: Sendable {
        let transactionId: String
        let productType: String
        let requested: ConsoleDate
        let state: String
        let reason: String
        let sent: String
        let sentAt: ConsoleDate?
        let appleAnswer: String
        let attempts: Int64
        let outcome: String
        let outcomeDate: ConsoleDate?
    }

    struct Fact: Sendable {
        let transactionId: String
        let deliveryStatus: String
        let consumptionPercentage: String
        let sampleContentProvided: String
        let refundPreference: String
        let updated: ConsoleDate
    }

    let customer: String
    let customerURL: String
    /// "given", "refused" or "never said", with the date it was stored.
    let consent: String
    let consentDate: ConsoleDate?
    let hasFacts: Bool
    let facts: [Fact]
    let hasRequests: Bool
    let requests: [Request]

    static func path(_ customer: String) -> String { ConsolePaths.customer(customer) + "/refunds" }

    init(customer: String, data: RefundConsoleData) {
        self.customer = customer
        customerURL = ConsolePaths.customer(customer)
        switch data.consent?.consented {
        case true?: consent = "given"
        case false?: consent = "refused: nothing is sent to Apple"
        case nil: consent = "never said: nothing is sent to Apple"
        }
        consentDate = data.consent.map { ConsoleDate(milliseconds: $0.updatedAt) }
        hasFacts = !data.facts.isEmpty
        facts = data.facts.map { fact in
            Fact(transactionId: fact.transactionId, deliveryStatus: fact.deliveryStatus ?? "",
                 consumptionPercentage: fact.consumptionPercentage.map { String(format: "%.3f %%", Double($0) / 1000) } ?? "",
                 sampleContentProvided: fact.sampleContentProvided.map { $0 ? "yes" : "no" } ?? "",
                 refundPreference: fact.refundPreference ?? "", updated: ConsoleDate(milliseconds: fact.updatedAt))
        }
        hasRequests = !data.requests.isEmpty
        requests = data.requests.map { request in
            Request(transactionId: request.transactionId, productType: request.productType ?? "",
                    requested: ConsoleDate(milliseconds: request.signedDate), state: request.state, reason: request.reason ?? "",
                    sent: request.sentBody ?? "", sentAt: request.sentAt.map { ConsoleDate(milliseconds: $0) },
                    appleAnswer: request.appleAnswer ?? "", attempts: request.attempts, outcome: request.outcome ?? "",
                    outcomeDate: request.outcomeDate.map { ConsoleDate(milliseconds: $0) })
        }
    }
}

extension ConsoleTemplates {
    /// A customer's refund requests, the consent and the facts behind the answers.
    static let refunds = #"""
    {{<layout}}
    {{$content}}
    {{#page}}
    <h1>Refund requests of <a href="{{customerURL}}"><code class="id">{{customer}}</code></a></h1>
    <p id="consent">Consent to share consumption data: <strong>{{consent}}</strong>{{#consentDate}} (stored {{>time}}){{/consentDate}}</p>
    <section aria-labelledby="requests-heading">
    <h2 id="requests-heading">Refund requests</h2>
    {{#hasRequests}}
    <div class="table-wrap">
    <table id="refund-requests">
    <caption>Apple's CONSUMPTION_REQUEST notifications, newest first, and the answers</caption>
    <thead><tr><th scope="col">Requested</th><th scope="col">Transaction</th><th scope="col">State</th><th scope="col">Sent</th><th scope="col">Apple's answer</th><th scope="col">Attempts</th><th scope="col">Outcome</th></tr></thead>
    <tbody>
    {{#requests}}<tr><td>{{#requested}}{{>time}}{{/requested}}</td><td><code>{{transactionId}}</code><span class="sub">{{productType}}</span></td><td>{{state}}{{#reason}}<span class="sub">{{reason}}</span>{{/reason}}</td><td>{{#sentAt}}{{>time}}{{/sentAt}}<span class="sub"><code>{{sent}}</code></span></td><td>{{appleAnswer}}</td><td>{{attempts}}</td><td>{{outcome}}{{#outcomeDate}} {{>time}}{{/outcomeDate}}</td></tr>
    {{/requests}}
    </tbody>
    </table>
    </div>
    {{/hasRequests}}
    {{^hasRequests}}<p id="no-refund-requests">No refund request for this customer.</p>{{/hasRequests}}
    </section>
    <section aria-labelledby="facts-heading">
    <h2 id="facts-heading">Facts from your backend</h2>
    {{#hasFacts}}
    <div class="table-wrap">
    <table id="consumption-facts">
    <caption>What the backend stored per transaction (PUT /transactions/{id}/consumption)</caption>
    <thead><tr><th scope="col">Transaction</th><th scope="col">Delivery</th><th scope="col">Consumed</th><th scope="col">Sample provided</th><th scope="col">Preference</th><th scope="col">Stored</th></tr></thead>
    <tbody>
    {{#facts}}<tr><td><code>{{transactionId}}</code></td><td>{{deliveryStatus}}</td><td>{{consumptionPercentage}}</td><td>{{sampleContentProvided}}</td><td>{{refundPreference}}</td><td>{{#updated}}{{>time}}{{/updated}}</td></tr>
    {{/facts}}
    </tbody>
    </table>
    </div>
    {{/hasFacts}}
    {{^hasFacts}}<p id="no-facts">No facts stored: the server's defaults apply.</p>{{/hasFacts}}
    </section>
    {{/page}}
    {{/content}}
    {{/layout}}
    """#
}
