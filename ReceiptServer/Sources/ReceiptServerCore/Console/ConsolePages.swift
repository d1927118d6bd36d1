import Hummingbird
import Mustache
import NIOCore

/// Renders the console's pages from ``ConsoleTemplates`` with swift-mustache, which HTML-escapes
/// every `{{value}}`.
struct ConsolePages: Sendable {
    /// A page template.
    enum Page: String, Sendable, CaseIterable {
        case signIn = "sign-in"
        case search
        case customer
        case item
        case error
        /// Outbound events (Webhooks/Console+Events.swift).
        case events
        /// Refund requests (RefundRequests/Console+Refunds.swift).
        case refunds
    }

    private let library: MustacheLibrary
    /// Templates that did not parse, with why (a test checks there are none; a page whose template
    /// did not parse answers 500).
    let failures: [String]

    init() {
        var library = MustacheLibrary()
        var failures: [String] = []
        for (name, text) in ConsoleTemplates.all {
            do {
                try library.register(text, named: name)
            } catch {
                failures.append("\(name): \(error)")
            }
        }
        self.library = library
        self.failures = failures
    }

    /// The HTML of `page` for `view`, or `nil` when its template is missing.
    func render(_ page: Page, _ view: some Sendable) -> String? {
        library.render(view, withTemplate: page.rawValue)
    }

    /// `page` for `view` as an HTML response with `status`.
    func response(_ page: Page, _ view: some Sendable, status: HTTPResponse.Status = .ok) -> Response {
        guard let html = render(page, view) else {
            return Response(status: .internalServerError, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: "The console's \(page.rawValue) template did not parse.")))
        }
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: ConsoleHeaders.noStore],
                        body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
