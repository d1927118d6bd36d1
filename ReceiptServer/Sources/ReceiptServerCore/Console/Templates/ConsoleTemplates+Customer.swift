extension ConsoleTemplates {
    /// A customer's page: what reconciliation just added (once), what is granted and why, stored
    /// data that no longer counts, the reconcile button, and the timeline of everything stored.
    static let customer = #"""
    {{<layout}}
    {{$content}}
    {{#page}}
    <h1>Customer <code class="id">{{customer}}</code></h1>
    <p class="meta">Entitlements at {{#now}}{{>time}}{{/now}} · {{itemCount}} stored items · <a id="events-link" href="/console/customers/{{customer}}/events">Outbound events</a> · <a id="refunds-link" href="/console/customers/{{customer}}/refunds">Refund requests</a></p>
    {{#flash}}
    <section class="notice" aria-labelledby="reconciled-heading" role="status">
    <h2 id="reconciled-heading">Reconciled with Apple</h2>
    {{#failure}}<p class="alert">{{.}}</p>{{/failure}}
    {{#summary}}<p id="reconcile-summary">{{.}}</p>{{/summary}}
    {{#hasAdded}}
    <h3>Added to this customer</h3>
    <ul id="reconcile-added">
    {{#added}}<li>{{event}} of <strong>{{productId}}</strong>, transaction {{transactionId}}, signed {{#signed}}{{>time}}{{/signed}}</li>
    {{/added}}
    </ul>
    {{/hasAdded}}
    {{#noneAdded}}<p>Nothing new for this customer.</p>{{/noneAdded}}
    {{#hasNotes}}
    <ul>
    {{#notes}}<li>{{.}}</li>
    {{/notes}}
    </ul>
    {{/hasNotes}}
    </section>
    {{/flash}}
    <section aria-labelledby="products-heading">
    <h2 id="products-heading">What the customer has, and why</h2>
    {{#hasProducts}}
    <div class="table-wrap">
    <table id="products">
    <caption>Every product of the customer's stored data, with the entitlement engine's state and reason now</caption>
    <thead>
    <tr><th scope="col">Product</th><th scope="col">Access</th><th scope="col">State</th><th scope="col">Dates</th><th scope="col">Why</th></tr>
    </thead>
    <tbody>
    {{#products}}
    <tr>
    <th scope="row" class="product-cell"><span class="product">{{#productIdParts}}{{.}}<wbr>{{/productIdParts}}</span><span class="sub">{{productType}}</span></th>
    <td>{{#granted}}<span class="badge ok">Granted</span>{{/granted}}{{^granted}}<span class="badge bad">Not granted</span>{{/granted}}</td>
    <td class="state-cell"><span class="state">{{stateLabel}}</span>{{#qualifiers}} <span class="badge">{{.}}</span>{{/qualifiers}}</td>
    <td class="dates">{{#dates}}<span class="sub">{{label}} {{#date}}{{>time}}{{/date}}</span>{{/dates}}</td>
    <td class="reason">{{reason}}</td>
    </tr>
    {{/products}}
    </tbody>
    </table>
    </div>
    {{/hasProducts}}
    {{^hasProducts}}<p>Nothing stored for this customer decides an entitlement (consumables and renewal info alone grant nothing).</p>{{/hasProducts}}
    </section>
    {{#hasRejected}}
    <section aria-labelledby="rejected-heading">
    <h2 id="rejected-heading">Stored, but not counted</h2>
    <p>These stored items did not verify when the server last verified its stored data (<code>ReceiptServer --reverify</code>, after the trusted roots changed). They count for nothing.</p>
    <ul id="rejected">
    {{#rejected}}<li><strong>{{item}}</strong>: {{code}}: {{message}}</li>
    {{/rejected}}
    </ul>
    </section>
    {{/hasRejected}}
    {{#reconcile}}
    <section aria-labelledby="apple-heading">
    <h2 id="apple-heading">Ask Apple</h2>
    <form method="post" action="{{action}}">
    <input type="hidden" name="csrf" value="{{csrf}}">
    <p>Fetches the customer's whole transaction history from the App Store Server API (through transaction <code>{{transactionId}}</code>) and stores every transaction that verifies.</p>
    <button type="submit" id="reconcile">Reconcile with Apple</button>
    </form>
    </section>
    {{/reconcile}}
    <section aria-labelledby="timeline-heading">
    <h2 id="timeline-heading">Timeline</h2>
    <p>Everything stored for this customer, newest first, each verified again now under the server's current trusted roots.</p>
    <div class="table-wrap">
    <table id="timeline">
    <caption>Stored signed data</caption>
    <thead>
    <tr><th scope="col">Signed</th><th scope="col">Event</th><th scope="col">Product and transaction</th><th scope="col">Verification now</th><th scope="col">Payload</th></tr>
    </thead>
    <tbody>
    {{#timeline}}
    <tr class="{{rowClass}}">
    <td class="when">{{#signed}}{{>time}}{{/signed}}{{^signed}}unknown{{/signed}}<span class="sub">{{environment}}</span></td>
    <th scope="row" class="event-cell"><span class="event">{{event}}</span>{{#detail}}<span class="sub">{{.}}</span>{{/detail}}{{#dates}}<span class="sub">{{label}} {{#date}}{{>time}}{{/date}}</span>{{/dates}}</th>
    <td class="ids"><span class="product">{{#productIdParts}}{{.}}<wbr>{{/productIdParts}}</span><span class="sub">{{#transactionId}}transaction {{.}}{{/transactionId}}{{#originalTransactionId}}, original {{.}}{{/originalTransactionId}}</span></td>
    <td class="verdict">{{#verified}}<span class="badge ok">Verifies</span>{{/verified}}{{^verified}}<span class="badge bad">Does not verify</span><span class="sub">{{failure}}</span>{{/verified}}{{#storedRejection}}<span class="sub">Not counted: {{.}}</span>{{/storedRejection}}</td>
    <td><a href="{{payloadURL}}">Payload<span class="visually-hidden"> of {{event}} {{transactionId}}</span></a></td>
    </tr>
    {{/timeline}}
    </tbody>
    </table>
    </div>
    </section>
    {{/page}}
    {{/content}}
    {{/layout}}
    """#
}
