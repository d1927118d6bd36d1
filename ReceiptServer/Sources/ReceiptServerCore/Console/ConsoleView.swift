/// What every console page renders: the layout's values (title, whether a session is signed in,
/// its CSRF token for the sign-out form, the search box's text) around the page's own content.
///
/// Templates read `page` inside `{{#page}}…{{/page}}`; every value is HTML-escaped by Mustache's
/// `{{…}}` (the templates never use the unescaped `{{{…}}}` or `{{& …}}`; a test checks).
struct ConsoleView<Page: Sendable>: Sendable {
    /// The page's title, in `<title>`.
    let title: String
    /// Whether the navigation (search, sign out) is shown.
    let signedIn: Bool
    /// The session's CSRF token, for the sign-out form.
    let csrf: String
    /// The search box's text.
    let query: String
    /// The page's content.
    let page: Page

    /// A page for a signed-in session.
    init(title: String, session: ConsoleSession, query: String = "", page: Page) {
        self.title = title
        self.signedIn = true
        self.csrf = session.csrfToken
        self.query = query
        self.page = page
    }

    /// A page without a session (sign-in, errors).
    init(title: String, page: Page) {
        self.title = title
        self.signedIn = false
        self.csrf = ""
        self.query = ""
        self.page = page
    }
}
