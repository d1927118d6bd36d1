extension ConsoleTemplates {
    /// One stored item: its verification now and at the last stored verification, its decoded
    /// payload (and those of the signed data nested in a notification), and the JWS as stored.
    static let item = #"""
    {{<layout}}
    {{$content}}
    {{#page}}
    <p><a href="{{customerURL}}">Back to customer {{customer}}</a></p>
    <h1>{{event}}</h1>
    <dl class="facts">
    <dt>Kind</dt><dd>{{kind}}</dd>
    <dt>Signed</dt><dd>{{#signed}}{{>time}}{{/signed}}{{^signed}}unknown{{/signed}}</dd>
    <dt>Received</dt><dd>{{#received}}{{>time}}{{/received}}</dd>
    <dt>Environment</dt><dd>{{environment}}</dd>
    <dt>Verification now</dt><dd>{{#verified}}<span class="badge ok">Verifies</span>{{/verified}}{{^verified}}<span class="badge bad">Does not verify</span> {{failure}}{{/verified}}</dd>
    <dt>Counted</dt><dd>{{#storedRejection}}No: {{.}}{{/storedRejection}}{{^storedRejection}}Yes, as of the last verification{{/storedRejection}}</dd>
    </dl>
    {{#parts}}
    <section aria-labelledby="part-{{anchor}}">
    <h2 id="part-{{anchor}}">{{title}}</h2>
    {{#verdict}}<p>{{.}}</p>{{/verdict}}
    <pre class="payload"><code>{{json}}</code></pre>
    </section>
    {{/parts}}
    <details>
    <summary>The JWS as stored</summary>
    <pre class="jws"><code>{{jws}}</code></pre>
    </details>
    {{/page}}
    {{/content}}
    {{/layout}}
    """#
}
