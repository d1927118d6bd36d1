/// The console's Mustache templates, compiled into the server (no template files to deploy beside
/// the executable). Each page's template is in a file of its own (`ConsoleTemplates+Page.swift`).
///
/// Rules every template keeps: values only through `{{name}}` (HTML-escaped: `<`, `>`, `&`, `"`
/// and `'`); attribute values always in double quotes; no inline script, no inline style, no
/// event-handler attribute (the Content-Security-Policy forbids them; the tests check the
/// templates for each).
enum ConsoleTemplates {
    /// Every template by the name pages and partials use.
    static let all: [(name: String, text: String)] = [
        ("layout", layout),
        ("time", time),
        ("sign-in", signIn),
        ("search", search),
        ("customer", customer),
        ("item", item),
        ("error", error),
        ("events", events),
        ("refunds", refunds),
    ]

    /// A date: UTC in the page (text and title); the script shows the viewer's time zone.
    static let time = #"<time datetime="{{iso}}" title="{{utc}}">{{utc}}</time>"#
}
