extension ConsoleTemplates {
    /// An error page: what failed and what to do.
    static let error = #"""
    {{<layout}}
    {{$content}}
    {{#page}}
    <h1>{{heading}}</h1>
    <p>{{message}}</p>
    <p><a href="/console">Back to the console</a></p>
    {{/page}}
    {{/content}}
    {{/layout}}
    """#
}
