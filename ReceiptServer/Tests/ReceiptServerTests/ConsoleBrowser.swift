import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A minimal browser for the console's tests: keeps cookies as a browser does (by name, removed
/// by `Max-Age=0`), never follows redirects (the tests check each `303`), sends forms as
/// `application/x-www-form-urlencoded`, and reads hidden fields out of pages.
final class ConsoleBrowser {
    /// An answer: status, headers, body.
    struct Page {
        let status: Int
        let headers: [(String, String)]
        let body: String

        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        func headers(_ name: String) -> [String] { headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1) }
        var location: String? { header("Location") }

        /// The value of the hidden field `name` (the first one).
        func hidden(_ name: String) -> String? {
            let marker = "name=\"\(name)\" value=\""
            guard let start = body.range(of: marker) else { return nil }
            let rest = body[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { return nil }
            return String(rest[..<end])
        }

        /// The `Set-Cookie` header that sets `name`.
        func setCookie(_ name: String) -> String? { headers("Set-Cookie").first { $0.hasPrefix(name + "=") } }
    }

    let port: Int
    private let client = HTTPClient(configuration: .init(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(60), read: .seconds(60))))
    /// The cookies the browser holds, by name.
    var cookies: [String: String] = [:]

    init(port: Int) {
        self.port = port
    }

    /// Runs `body` with a browser on `port`, shutting its HTTP client down however `body` ends.
    static func using<T>(port: Int, _ body: (ConsoleBrowser) async throws -> T) async throws -> T {
        let browser = ConsoleBrowser(port: port)
        let value: T
        do {
            value = try await body(browser)
        } catch {
            try? await browser.shutdown()
            throw error
        }
        try await browser.shutdown()
        return value
    }

    func shutdown() async throws {
        try await client.shutdown()
    }

    /// GET `path`.
    func get(_ path: String, headers: [(String, String)] = []) async throws -> Page {
        try await send(.GET, path, headers: headers, body: nil)
    }

    /// POST the form `fields` to `path`.
    func post(_ path: String, form fields: [(String, String)], headers: [(String, String)] = []) async throws -> Page {
        let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try await send(.POST, path, headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers, body: body)
    }

    /// Signs in with `token` the way a user does: loads the form, posts it back with its hidden
    /// field. Answers the sign-in POST's answer.
    @discardableResult
    func signIn(token: String, headers: [(String, String)] = []) async throws -> Page {
        let form = try await get("/console/sign-in", headers: headers)
        return try await post("/console/sign-in", form: [("signInToken", form.hidden("signInToken") ?? ""), ("token", token)], headers: headers)
    }

    /// The CSRF token of a signed-in page.
    func csrfToken() async throws -> String {
        try await get("/console").hidden("csrf") ?? ""
    }

    private func send(_ method: HTTPMethod, _ path: String, headers: [(String, String)], body: String?) async throws -> Page {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        if !cookies.isEmpty {
            request.headers.add(name: "Cookie", value: cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: .seconds(60))
        let buffer = try await response.body.collect(upTo: 16 << 20)
        let page = Page(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                        body: String(decoding: buffer.readableBytesView, as: UTF8.self))
        for header in page.headers("Set-Cookie") {
            let pair = header.split(separator: ";", maxSplits: 1).first ?? ""
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let name = String(parts[0]).trimmingCharacters(in: .whitespaces)
            if header.lowercased().contains("max-age=0") {
                cookies.removeValue(forKey: name)
            } else {
                cookies[name] = String(parts[1])
            }
        }
        return page
    }

    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
