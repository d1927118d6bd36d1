import Foundation
import ReceiptServerCore
import Testing

/// Who may use the console: off without an access token; every page but sign-in behind a session;
/// the session cookie's flags; the sign-in form's own cross-site check; and the JSON routes still
/// on their bearer token only.
@Suite("Console: sign-in, sessions and access rules", .timeLimit(.minutes(2)), .serialized)
struct ConsoleAccessTests {
    static let customerPath = "/console/customers/\(ConsoleFixture.customer)"

    /// Runs `body` with a server (console on) and a browser, stopping both whatever happens.
    static func with(_ body: (TestServer, ConsoleBrowser) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, access: AccessControl(bearerToken: ConsoleFixture.token))
        try await server.stopping {
            try await ConsoleBrowser.using(port: server.port) { browser in try await body(server, browser) }
        }
    }

    @Test("Without an access token there is no console: every /console path is 404")
    func offWithoutToken() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The only server without a token: one started, on purpose, with --allow-unauthenticated.
        let server = try await TestServer.start(databasePath: directory.databasePath, access: .allowUnauthenticated)
        try await server.stopping { try await ConsoleBrowser.using(port: server.port) { browser in
            for path in ["/console", "/console/sign-in", "/console/static/console.css", Self.customerPath] {
                let page = try await browser.get(path)
                #expect(page.status == 404, "\(path): \(page.status)")
            }
            #expect(try await browser.post("/console/sign-in", form: [("token", "anything")]).status == 404)
        } }
    }

    @Test("Without a session every console page redirects to sign-in: pages, forms, unknown paths, a bearer token, a forged cookie")
    func closedWithoutSession() async throws {
        try await Self.with { _, browser in
            let paths = ["/console", "/console/search?q=\(ConsoleFixture.customer)", Self.customerPath, Self.customerPath + "/items/1", "/console/no-such-page"]
            for path in paths {
                let page = try await browser.get(path)
                #expect(page.status == 303, "\(path): \(page.status)")
                #expect(page.location == "/console/sign-in", "\(path)")
                #expect(!page.body.contains(ConsoleFixture.customer))
            }
            for path in ["/console/sign-out", Self.customerPath + "/transactions/5100000000000001/reconcile"] {
                let page = try await browser.post(path, form: [("csrf", "x")])
                #expect(page.status == 303, "\(path)")
                #expect(page.location == "/console/sign-in")
            }
            // The API's bearer token is not a console session, nor is a made-up cookie.
            let bearer = try await browser.get(Self.customerPath, headers: [("Authorization", "Bearer \(ConsoleFixture.token)")])
            #expect(bearer.status == 303)
            browser.cookies["receipt_console_session"] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
            #expect(try await browser.get(Self.customerPath).status == 303)
        }
    }

    @Test("Signing in with the token: 303 to the console, an HttpOnly SameSite=Strict cookie for /console with an expiry, Secure only over TLS")
    func signInCookie() async throws {
        try await Self.with { _, browser in
            let signIn = try await browser.signIn(token: ConsoleFixture.token)
            #expect(signIn.status == 303)
            #expect(signIn.location == "/console")
            let cookie = try #require(signIn.setCookie("receipt_console_session"))
            let attributes = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            #expect(attributes.contains("httponly"), "\(cookie)")
            #expect(attributes.contains("samesite=strict"), "\(cookie)")
            #expect(attributes.contains("path=/console"), "\(cookie)")
            #expect(attributes.contains("max-age=28800"), "\(cookie)")
            #expect(!attributes.contains("secure"), "plain HTTP: \(cookie)")
            // The sign-in form's own cookie is removed.
            #expect(signIn.setCookie("receipt_console_sign_in")?.lowercased().contains("max-age=0") == true)
            let home = try await browser.get("/console")
            #expect(home.status == 200)
            #expect(home.header("Content-Type") == "text/html; charset=utf-8")
            #expect(home.body.contains("Find a customer"))
            // The sign-in page with a live session goes to the console.
            #expect(try await browser.get("/console/sign-in").location == "/console")

            // Behind a proxy that terminates TLS (X-Forwarded-Proto: https) the cookies are Secure.
            try await ConsoleBrowser.using(port: browser.port) { proxied in
                let tls = [("X-Forwarded-Proto", "https")]
                let form = try await proxied.get("/console/sign-in", headers: tls)
                #expect(form.setCookie("receipt_console_sign_in")?.lowercased().contains("; secure") == true)
                let secure = try await proxied.signIn(token: ConsoleFixture.token, headers: tls)
                let secureCookie = try #require(secure.setCookie("receipt_console_session"))
                #expect(secureCookie.lowercased().split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.contains("secure"), "\(secureCookie)")
            }
        }
    }

    @Test("A wrong token is refused with 403, no session, the input not echoed; so is a form without its sign-in cookie or from another site")
    func signInRefusals() async throws {
        try await Self.with { _, browser in
            for wrong in ["", "wrong-token-0123456789abcdef", String(ConsoleFixture.token.dropLast()), ConsoleFixture.token + "x"] {
                let page = try await browser.signIn(token: wrong)
                #expect(page.status == 403, "\(wrong)")
                #expect(page.setCookie("receipt_console_session") == nil)
                #expect(page.body.contains("not the server&#39;s access token"), "\(page.body)")
                if !wrong.isEmpty { #expect(!page.body.contains(wrong)) }
            }
            // The right token, but the form's hidden field does not match the sign-in cookie.
            let form = try await browser.get("/console/sign-in")
            #expect(form.hidden("signInToken") != nil)
            let mismatched = try await browser.post("/console/sign-in", form: [("signInToken", "forged"), ("token", ConsoleFixture.token)])
            #expect(mismatched.status == 403)
            #expect(mismatched.setCookie("receipt_console_session") == nil)
            // Without the sign-in cookie at all (another site's form: SameSite=Strict sends none).
            try await ConsoleBrowser.using(port: browser.port) { bare in
                let noCookie = try await bare.post("/console/sign-in", form: [("signInToken", form.hidden("signInToken") ?? ""), ("token", ConsoleFixture.token)])
                #expect(noCookie.status == 403)
                #expect(noCookie.setCookie("receipt_console_session") == nil)
            }
            // With this server's own origin it works; from another origin, even with everything right, not.
            try await ConsoleBrowser.using(port: browser.port) { own in
                let signedIn = try await own.signIn(token: ConsoleFixture.token, headers: [("Origin", "http://127.0.0.1:\(browser.port)")])
                #expect(signedIn.status == 303)
            }
            let crossSite = try await browser.signIn(token: ConsoleFixture.token, headers: [("Origin", "http://evil.example")])
            #expect(crossSite.status == 403)
            #expect(crossSite.setCookie("receipt_console_session") == nil)
            #expect(try await browser.get("/console").status == 303)
        }
    }

    @Test("Sign-out needs the session's CSRF token from this site; it ends the session and removes the cookie")
    func signOutCSRF() async throws {
        try await Self.with { _, browser in
            try await browser.signIn(token: ConsoleFixture.token)
            let csrf = try await browser.csrfToken()
            #expect(csrf.count == 43)
            let refused: [([(String, String)], [(String, String)])] = [
                ([], []),
                ([("csrf", "")], []),
                ([("csrf", String(csrf.dropLast()) + (csrf.hasSuffix("A") ? "B" : "A"))], []),
                ([("csrf", csrf)], [("Origin", "http://evil.example")]),
                ([("csrf", csrf)], [("Origin", "null")]),
                ([("csrf", csrf)], [("Sec-Fetch-Site", "cross-site")]),
                ([("csrf", csrf)], [("Sec-Fetch-Site", "same-site")]),
            ]
            for (form, headers) in refused {
                let page = try await browser.post("/console/sign-out", form: form, headers: headers)
                #expect(page.status == 403, "\(form) \(headers)")
                #expect(page.body.contains("Form refused"))
                #expect(try await browser.get("/console").status == 200, "the session survives a refused form")
            }
            // What a browser sends for the console's own form under Referrer-Policy: no-referrer.
            let ownForm = try await browser.post("/console/sign-out", form: [("csrf", "forged")],
                                                 headers: [("Origin", "null"), ("Sec-Fetch-Site", "same-origin")])
            #expect(ownForm.status == 403, "passes the origin check, then fails the token")
            #expect(try await browser.get("/console").status == 200)
            let signOut = try await browser.post("/console/sign-out", form: [("csrf", csrf)],
                                                 headers: [("Origin", "null"), ("Sec-Fetch-Site", "same-origin")])
            #expect(signOut.status == 303)
            #expect(signOut.location == "/console/sign-in")
            #expect(signOut.setCookie("receipt_console_session")?.lowercased().contains("max-age=0") == true)
            #expect(browser.cookies["receipt_console_session"] == nil)
            #expect(try await browser.get("/console").status == 303)
        }
    }

    @Test("A session ended by sign-out stays ended even if its cookie is replayed")
    func replayedCookie() async throws {
        try await Self.with { _, browser in
            try await browser.signIn(token: ConsoleFixture.token)
            let cookie = try #require(browser.cookies["receipt_console_session"])
            let csrf = try await browser.csrfToken()
            #expect(try await browser.post("/console/sign-out", form: [("csrf", csrf)]).status == 303)
            browser.cookies["receipt_console_session"] = cookie
            #expect(try await browser.get("/console").status == 303)
        }
    }

    @Test("The JSON routes keep their bearer token: a console session does not open them, the token still does")
    func jsonRoutesUnchanged() async throws {
        try await Self.with { server, browser in
            try await browser.signIn(token: ConsoleFixture.token)
            let withCookie = try await browser.get("/customers/\(ConsoleFixture.customer)/entitlements")
            #expect(withCookie.status == 401)
            let withToken = try await server.request(.GET, "/customers/\(ConsoleFixture.customer)/entitlements",
                                                     headers: [("Authorization", "Bearer \(ConsoleFixture.token)")])
            #expect(withToken.status == 200)
        }
    }

    @Test("Every console answer carries the Content-Security-Policy, nosniff and no-referrer; pages are not cached")
    func securityHeaders() async throws {
        try await Self.with { _, browser in
            var answers = [
                try await browser.get("/console/sign-in"),
                try await browser.get("/console"),
                try await browser.get("/console/static/console.css"),
                try await browser.get("/console/static/console.js"),
            ]
            answers.append(try await browser.signIn(token: "wrong-token-0123456789abcdef"))
            try await browser.signIn(token: ConsoleFixture.token)
            answers += [
                try await browser.get("/console"),
                try await browser.get("/console/no-such-page"),
                try await browser.get("/console/customers/not-a-uuid"),
                try await browser.post("/console/sign-out", form: [("csrf", "forged")]),
            ]
            for answer in answers {
                #expect(answer.header("Content-Security-Policy")
                    == "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
                #expect(answer.header("X-Content-Type-Options") == "nosniff")
                #expect(answer.header("Referrer-Policy") == "no-referrer")
            }
            #expect(answers[1].header("Cache-Control") == "no-store")
            #expect(answers[2].header("Content-Type") == "text/css; charset=utf-8")
            #expect(answers[3].header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(answers[6].status == 404)
            #expect(answers[7].status == 404)
            #expect(answers[8].status == 403)
        }
    }
}
