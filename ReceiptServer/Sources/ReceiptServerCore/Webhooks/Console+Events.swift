import Foundation
import Hummingbird

/// The support console's view of outbound events (Docs/Webhooks.md): a customer's events with
/// their delivery state, every endpoint's backlog (a failing endpoint shows at a glance), and a
/// redeliver button for dead-lettered events (CSRF-protected like reconcile).
extension Console {
    /// `GET /console/customers/{appAccountToken}/events`.
    func eventsPage(_ request: Request, context: some RequestContext) async throws -> Response {
        let session = try currentSession()
        let customer = try customerParameter(context)
        let store = server.store
        let events = try await reading { () async throws(StorageError) in try await store.webhookEvents(ofCustomer: customer, limit: 100) }
        let endpoints = try await reading { () async throws(StorageError) in try await store.webhookEndpointHealth() }
        let redelivered = request.uri.queryParameters.get("redelivered") != nil
        let page = ConsoleEventsPage(customer: customer, events: events, endpoints: endpoints, csrf: session.csrfToken, redelivered: redelivered)
        return pages.response(.events, ConsoleView(title: "Events of customer \(customer)", session: session, page: page))
    }

    /// `POST /console/customers/{appAccountToken}/events/{event}/redeliver`: a dead-lettered event
    /// of the customer pending again, due now, with a new retry period.
    func redeliverEvent(_ request: Request, context: some RequestContext) async throws -> Response {
        let session = try currentSession()
        try ConsoleCSRF.checkSameOrigin(request)
        var request = request
        let form = try await ConsoleForm.decode(ConsoleTokenForm.self, from: &request)
        try ConsoleCSRF.checkToken(form.csrf, expected: session.csrfToken)
        let customer = try customerParameter(context)
        guard let id = context.parameters.get("event", as: Int64.self) else { throw ConsoleError.notFound }
        let store = server.store
        let now = UnixMilliseconds.of(Date())
        let done = try await reading { () async throws(StorageError) in try await store.redeliverWebhook(id: id, customer: customer, now: now) }
        guard done else {
            throw ConsoleError(.notFound, "No such dead-lettered event", "Customer \(customer) has no dead-lettered event \(id) (it may have been redelivered already).")
        }
        context.logger.notice("console: outbound event \(id) queued for redelivery")
        return ConsoleResponses.redirect(to: ConsoleEventsPage.path(customer) + "?redelivered=1")
    }
}

/// The events page's content.
struct ConsoleEventsPage: Sendable {
    struct Event: Sendable {
        let webhookId: String
        let type: String
        let sequence: String
        let endpoint: String
        let created: ConsoleDate
        let state: String
        let isDead: Bool
        let attempts: Int64
        let last: String
        let redeliverAction: String
    }

    struct Endpoint: Sendable {
        let endpoint: String
        let pending: Int64
        let dead: Int64
        let isFailing: Bool
        let failingSince: ConsoleDate?
        let lastError: String
    }

    let customer: String
    let customerURL: String
    let csrf: String
    let redelivered: Bool
    let hasEvents: Bool
    let events: [Event]
    let hasEndpoints: Bool
    let endpoints: [Endpoint]

    static func path(_ customer: String) -> String { ConsolePaths.customer(customer) + "/events" }

    init(customer: String, events: [WebhookEventRow], endpoints: [WebhookEndpointHealth], csrf: String, redelivered: Bool) {
        self.customer = customer
        customerURL = ConsolePaths.customer(customer)
        self.csrf = csrf
        self.redelivered = redelivered
        hasEvents = !events.isEmpty
        self.events = events.map { event in
            var last = event.lastStatus.map { "HTTP \($0)" } ?? ""
            if let error = event.lastError { last += (last.isEmpty ? "" : ": ") + error }
            if event.state == "pending", event.attempts > 0 { last += " · next attempt \(ConsoleDate(milliseconds: event.nextAttemptAt).utc)" }
            return Event(
                webhookId: event.webhookId, type: event.type, sequence: event.sequence.map(String.init) ?? "", endpoint: event.endpoint,
                created: ConsoleDate(milliseconds: event.createdAt), state: event.state == "dead" ? "dead-lettered" : event.state,
                isDead: event.state == "dead", attempts: event.attempts, last: last,
                redeliverAction: Self.path(customer) + "/\(event.id)/redeliver")
        }
        hasEndpoints = !endpoints.isEmpty
        self.endpoints = endpoints.map { health in
            Endpoint(endpoint: health.endpoint, pending: health.pending, dead: health.dead, isFailing: health.failingSince != nil || health.dead > 0,
                     failingSince: health.failingSince.map { ConsoleDate(milliseconds: $0) }, lastError: health.lastError ?? "")
        }
    }
}

extension ConsoleTemplates {
    /// A customer's outbound events and every endpoint's backlog.
    static let events = #"""
    {{<layout}}
    {{$content}}
    {{#page}}
    <h1>Outbound events of <a href="{{customerURL}}"><code class="id">{{customer}}</code></a></h1>
    {{#redelivered}}<p class="notice" role="status" id="redelivered">The event is queued for redelivery.</p>{{/redelivered}}
    <section aria-labelledby="endpoints-heading">
    <h2 id="endpoints-heading">Endpoints</h2>
    {{#hasEndpoints}}
    <div class="table-wrap">
    <table id="endpoints">
    <caption>Every endpoint with events not yet delivered (all customers)</caption>
    <thead><tr><th scope="col">Endpoint</th><th scope="col">Health</th><th scope="col">Pending</th><th scope="col">Dead-lettered</th><th scope="col">Last error</th></tr></thead>
    <tbody>
    {{#endpoints}}<tr><td><code>{{endpoint}}</code></td><td>{{#isFailing}}<strong class="failing">FAILING</strong>{{#failingSince}} since {{>time}}{{/failingSince}}{{/isFailing}}{{^isFailing}}catching up{{/isFailing}}</td><td>{{pending}}</td><td>{{dead}}</td><td>{{lastError}}</td></tr>
    {{/endpoints}}
    </tbody>
    </table>
    </div>
    {{/hasEndpoints}}
    {{^hasEndpoints}}<p id="endpoints-ok">Every event is delivered.</p>{{/hasEndpoints}}
    </section>
    <section aria-labelledby="events-heading">
    <h2 id="events-heading">Events</h2>
    {{#hasEvents}}
    <div class="table-wrap">
    <table id="events">
    <caption>The customer's latest events, newest first, one row per endpoint</caption>
    <thead><tr><th scope="col">Created</th><th scope="col">Type</th><th scope="col">Sequence</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Last attempt</th><th scope="col">webhook-id</th><th scope="col">Endpoint</th><th scope="col"></th></tr></thead>
    <tbody>
    {{#events}}<tr><td>{{#created}}{{>time}}{{/created}}</td><td>{{type}}</td><td>{{sequence}}</td><td>{{state}}</td><td>{{attempts}}</td><td>{{last}}</td><td><code>{{webhookId}}</code></td><td><code>{{endpoint}}</code></td><td>{{#isDead}}<form method="post" action="{{redeliverAction}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="redeliver">Redeliver</button></form>{{/isDead}}</td></tr>
    {{/events}}
    </tbody>
    </table>
    </div>
    {{/hasEvents}}
    {{^hasEvents}}<p id="no-events">No outbound events for this customer (webhooks off, or nothing changed since they were turned on).</p>{{/hasEvents}}
    </section>
    {{/page}}
    {{/content}}
    {{/layout}}
    """#
}
