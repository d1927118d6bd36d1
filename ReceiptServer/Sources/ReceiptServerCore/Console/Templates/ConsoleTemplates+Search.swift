extension ConsoleTemplates {
    /// The start page and search results that are not a customer (nothing found, a purchase
    /// linked to nobody).
    static let search = #"""
    {{<layout}}
    {{$content}}
    {{#page}}
    <h1>Find a customer</h1>
    <p>Search with the box above by the customer's <code>appAccountToken</code> (the UUID your app passes to StoreKit), or by any <code>originalTransactionId</code> or <code>transactionId</code> of theirs (a notification's <code>notificationUUID</code> works too).</p>
    {{#message}}<p class="alert" role="alert">{{.}}</p>{{/message}}
    {{#unlinked}}
    <section aria-labelledby="unlinked-heading">
    <h2 id="unlinked-heading">A purchase without a customer</h2>
    <p>Purchase <code>{{.}}</code> is stored, but no customer is linked to it: its signed data carries no <code>appAccountToken</code> and the app has not sent one of its transactions. It counts for nobody until the app sends a transaction of it (or reconciliation names the customer).</p>
    </section>
    {{/unlinked}}
    {{/page}}
    {{/content}}
    {{/layout}}
    """#
}
