import Hummingbird

/// A console failure shown to the user as an HTML page (``ConsoleErrorMiddleware``): a status, a
/// heading and a sentence saying what to do. It never carries a secret.
struct ConsoleError: Error, Sendable {
    var status: HTTPResponse.Status
    var heading: String
    var message: String

    init(_ status: HTTPResponse.Status, _ heading: String, _ message: String) {
        self.status = status
        self.heading = heading
        self.message = message
    }

    /// A form without the session's CSRF token, or sent by another site.
    static let forgedForm = ConsoleError(
        .forbidden, "Form refused",
        "This form did not come from a page of this console in your current session (it expired, or another site sent it). Go back, reload the page and try again.")

    /// A page that does not exist.
    static let notFound = ConsoleError(.notFound, "Not found", "There is no such console page.")
}
