import Hummingbird
import NIOCore

/// The console's stylesheet and script, compiled into the server, served from this server's own
/// origin (what the Content-Security-Policy allows).
enum ConsoleStaticFiles {
    /// `GET /console/static/console.css`.
    static func stylesheet() -> Response {
        file(ConsoleStylesheet.text, contentType: "text/css; charset=utf-8")
    }

    /// `GET /console/static/console.js`.
    static func script() -> Response {
        file(ConsoleScript.text, contentType: "text/javascript; charset=utf-8")
    }

    /// `GET /console/static/favicon.svg` (so the browser asks for no `/favicon.ico` outside the
    /// console).
    static func icon() -> Response {
        file(##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b5cad"/><path d="M4 8.5l2.5 2.5L12 5.5" stroke="#fff" stroke-width="2" fill="none"/></svg>"##,
             contentType: "image/svg+xml")
    }

    private static func file(_ text: String, contentType: String) -> Response {
        Response(status: .ok, headers: [.contentType: contentType, .cacheControl: "max-age=300"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
