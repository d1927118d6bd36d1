#if ServerAPIClient
import AppStoreVerification
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension AppStoreServerAPIClient {
    /// The User-Agent requests carry.
    static let userAgent = "swift-app-store-verification/\(LibraryVersion.package)"

    /// Sends `request` until a 2xx answer, a failure that is not worth retrying, the last attempt or
    /// the deadline, and returns the 2xx body.
    ///
    /// 429, 5xx, connection failures and per-attempt timeouts are retried after `Retry-After` when
    /// Apple sends one, else after ``Options/initialBackoff`` doubled per retry (up to
    /// ``Options/maximumBackoff``); a wait that would pass the deadline is not started.
    func send(_ request: APIRequest) async throws(AppStoreServerAPIError) -> Data {
        let clock = retryClock
        let deadline = clock.elapsed + options.deadline
        let attempts = max(options.maximumAttempts, 1)
        var attempt = 0
        while true {
            attempt += 1
            guard !Task.isCancelled else { throw Self.cancelled(request) }
            let remaining = deadline - clock.elapsed
            guard remaining > .zero else {
                throw AppStoreServerAPIError(.deadlineExceeded, "\(request.summary): the deadline of \(options.deadline) passed before attempt \(attempt); raise Options.deadline or try again later")
            }
            let reserved = try await pace(request, deadline: deadline)
            let token = try await tokens.token()
            let failure: AppStoreServerAPIError
            var retryAfter: Duration?
            let outcome = await attemptOnce(request, token: token, timeout: min(options.requestTimeout, remaining), deadlineBound: options.requestTimeout >= remaining)
            if let reserved, let limit = request.rateLimit {
                await pacer.settle(limit, reserved: reserved, now: clock.elapsed)
            }
            switch outcome {
            case .response(let status, let headers, let body, let redirected):
                if redirected || (300..<400).contains(status) {
                    let location = headers.first(name: "Location").map { " to \(LogSafeText.escaping($0.prefix(200)))" } ?? ""
                    throw AppStoreServerAPIError(.unexpectedRedirect, "\(request.summary): the server answered with a redirect (HTTP \(status))\(location), which Apple's API never does; it was not followed. Check the base URL, and give the client an HTTPClient whose redirectConfiguration is .disallow",
                                                 httpStatusCode: status, responseHeaders: Self.headerDictionary(headers))
                }
                if (200..<300).contains(status) { return body }
                failure = errorResponse(request, status: status, body: body, headers: headers)
                if status == 401 {
                    await tokens.discard(token)
                    throw failure
                }
                guard status == 429 || status >= 500 else { throw failure }
                retryAfter = failure.retryAfter
                if status == 429, let wait = failure.retryAfter, let limit = request.rateLimit {
                    // Every task using this client holds off this endpoint until Apple's instant.
                    await pacer.close(limit, until: clock.elapsed + wait)
                }
            case .failed(let error):
                guard error.code == .timedOut || error.code == .transportFailure else { throw error }
                failure = error
            }
            guard attempt < attempts else {
                throw failure.with(message: "\(failure.message) (after \(attempt) attempts; Options.maximumAttempts is \(attempts))")
            }
            let wait = retryAfter ?? backoff(afterAttempt: attempt)
            let left = deadline - clock.elapsed
            guard wait < left else {
                let reason = retryAfter != nil ? "Apple asked to retry after \(wait) (Retry-After\(failure.retryAfterDate.map { ": \($0)" } ?? ""))" : "the next retry is due in \(wait)"
                throw AppStoreServerAPIError(.deadlineExceeded, "\(failure.message); \(reason), past the deadline (\(left) left of \(options.deadline)); try again later or raise Options.deadline",
                                             httpStatusCode: failure.httpStatusCode, apiError: failure.apiError, apiErrorMessage: failure.apiErrorMessage,
                                             retryAfter: failure.retryAfter, retryAfterDate: failure.retryAfterDate, responseHeaders: failure.responseHeaders)
            }
            do {
                try await clock.sleep(for: wait)
            } catch {
                throw Self.cancelled(request)
            }
        }
    }

    /// Waits until Apple's published rate limit of `request`'s endpoint has room for one more
    /// request (``Options/pacing``), and counts it.
    ///
    /// - Throws: ``AppStoreServerAPIError`` (`deadlineExceeded`) when the room comes after
    ///   `deadline`, without waiting; `cancelled` when the task is cancelled while waiting.
    /// - Returns: the slot the request was counted in, or `nil` when it is not paced.
    private func pace(_ request: APIRequest, deadline: Duration) async throws(AppStoreServerAPIError) -> Int64? {
        guard let limit = request.rateLimit else { return nil }
        let clock = retryClock
        while true {
            let now = clock.elapsed
            let wait: Duration
            switch await pacer.reserve(limit, now: now) {
            case .notPaced: return nil
            case .counted(let slot): return slot
            case .wait(let duration): wait = duration
            }
            guard now + wait < deadline else {
                throw AppStoreServerAPIError(.deadlineExceeded, "\(request.summary): Apple's published rate limit for \(limit.endpoint) (\(limit.perSecond) requests per second in production, 10 % in the sandbox) has no room for \(wait), past the deadline (\(deadline - now) left of \(options.deadline)); try again later, spread the calls out, or raise Options.deadline",
                                             retryAfter: wait, retryAfterDate: self.clock().addingTimeInterval(Self.seconds(wait)))
            }
            do {
                try await clock.sleep(for: wait)
            } catch {
                throw Self.cancelled(request)
            }
        }
    }

    /// `duration` in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The wait before retry number `attempt` without `Retry-After`.
    func backoff(afterAttempt attempt: Int) -> Duration {
        var wait = options.initialBackoff
        for _ in 1..<max(attempt, 1) {
            wait *= 2
            if wait >= options.maximumBackoff { return options.maximumBackoff }
        }
        return min(wait, options.maximumBackoff)
    }

    /// What one attempt gave.
    enum AttemptOutcome: Sendable {
        /// A response; `redirected` when the HTTP client followed a redirect to get it.
        case response(status: Int, headers: HTTPHeaders, body: Data, redirected: Bool)
        case failed(AppStoreServerAPIError)
    }

    /// One HTTP exchange within `timeout` (connection, request and the whole response body).
    private func attemptOnce(_ request: APIRequest, token: String, timeout: Duration, deadlineBound: Bool) async -> AttemptOutcome {
        var http = HTTPClientRequest(url: base.text + request.target)
        http.method = HTTPMethod(rawValue: request.method)
        http.headers.add(name: "Authorization", value: "Bearer \(token)")
        http.headers.add(name: "Accept", value: "application/json")
        http.headers.add(name: "User-Agent", value: Self.userAgent)
        if let body = request.body {
            http.headers.add(name: "Content-Type", value: request.contentType)
            http.body = .bytes(ByteBuffer(bytes: body))
        }
        let limit = options.maximumResponseBodySize
        let client = httpClient
        let prepared = http
        let outcome = await withTaskGroup(of: AttemptOutcome?.self) { group in
            group.addTask {
                do {
                    let response = try await client.execute(prepared, timeout: .nanoseconds(Self.nanoseconds(timeout)))
                    let body = try await response.body.collect(upTo: limit)
                    return .response(status: Int(response.status.code), headers: response.headers, body: Data(body.readableBytesView),
                                     redirected: response.history.count > 1)
                } catch {
                    return .failed(Self.transportError(request, error, limit: limit, timeout: timeout, deadlineBound: deadlineBound))
                }
            }
            group.addTask {
                // The timer: its `nil` ends the exchange when the time is up (or the task is cancelled).
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if Task.isCancelled { return .failed(Self.cancelled(request)) }
        return outcome ?? .failed(Self.timeout(request, timeout: timeout, deadlineBound: deadlineBound))
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds < 9_000_000_000 else { return Int64.max }
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    private static func cancelled(_ request: APIRequest) -> AppStoreServerAPIError {
        AppStoreServerAPIError(.cancelled, "\(request.summary): the calling task was cancelled")
    }

    private static func timeout(_ request: APIRequest, timeout: Duration, deadlineBound: Bool) -> AppStoreServerAPIError {
        if deadlineBound {
            return AppStoreServerAPIError(.deadlineExceeded, "\(request.summary): no complete response before the deadline (\(timeout) left); try again later or raise Options.deadline")
        }
        return AppStoreServerAPIError(.timedOut, "\(request.summary): no complete response within \(timeout) (Options.requestTimeout)")
    }

    /// An error thrown by AsyncHTTPClient or the body collection, named for the caller.
    private static func transportError(_ request: APIRequest, _ error: any Error, limit: Int, timeout: Duration, deadlineBound: Bool) -> AppStoreServerAPIError {
        if error is CancellationError { return cancelled(request) }
        if error is NIOTooManyBytesError {
            return AppStoreServerAPIError(.malformedResponse, "\(request.summary): the response body is larger than \(limit) bytes (Options.maximumResponseBodySize)")
        }
        if let client = error as? HTTPClientError {
            if client == .deadlineExceeded || client == .readTimeout || client == .connectTimeout || client == .writeTimeout {
                return Self.timeout(request, timeout: timeout, deadlineBound: deadlineBound)
            }
            if client == .cancelled { return cancelled(request) }
            if client == .redirectCycleDetected || client == .redirectLimitReached {
                return AppStoreServerAPIError(.unexpectedRedirect, "\(request.summary): the server answered with redirects (\(client)), which Apple's API never does; give the client an HTTPClient whose redirectConfiguration is .disallow")
            }
        }
        return AppStoreServerAPIError(.transportFailure, "\(request.summary): the connection failed (\(error)); check the network and the base URL")
    }

    /// Response headers as ``AppStoreServerAPIError/responseHeaders`` carries them.
    static func headerDictionary(_ headers: HTTPHeaders) -> [String: [String]] {
        var dictionary: [String: [String]] = [:]
        for (name, value) in headers { dictionary[name.lowercased(), default: []].append(value) }
        return dictionary
    }

    /// The error for a non-2xx answer, with Apple's code and message when the body carries them,
    /// the headers, and the wait `Retry-After` asks for.
    func errorResponse(_ request: APIRequest, status: Int, body: Data, headers: HTTPHeaders) -> AppStoreServerAPIError {
        let error = errorResponse(request, status: status, body: body)
        let retryAfter = headers.first(name: "Retry-After").flatMap { RetryAfter.parse($0, now: clock()) }
        return AppStoreServerAPIError(error.code, error.message, httpStatusCode: error.httpStatusCode, apiError: error.apiError, apiErrorMessage: error.apiErrorMessage,
                                      retryAfter: retryAfter?.wait, retryAfterDate: retryAfter?.instant,
                                      responseHeaders: Self.headerDictionary(headers))
    }

    /// The error for a non-2xx answer, with Apple's code and message when the body carries them.
    private func errorResponse(_ request: APIRequest, status: Int, body: Data) -> AppStoreServerAPIError {
        let parsed = ErrorResponseBody.parse(body)
        let code = parsed?.errorCode.map { APIErrorCode(rawValue: $0) }
        let message = parsed?.errorMessage
        var said = "HTTP \(status)"
        if let code { said += ", error \(code.rawValue)" }
        if let message { said += " (\(LogSafeText.escaping(message.prefix(300))))" }
        switch status {
        case 401:
            return AppStoreServerAPIError(.unauthorized, "\(request.summary): Apple refused the bearer token (\(said)). Likely causes: the key ID \"\(keyId)\" is not the ID of the configured .p8 key, the issuer ID is not your team's (App Store Connect > Users and Access > Integrations > In-App Purchase), the bundle ID \"\(bundleId)\" is not this app's, or this machine's clock is off (the token is valid from its iat for \(options.tokenLifetime))",
                                          httpStatusCode: status, apiError: code, apiErrorMessage: message)
        case 429:
            return AppStoreServerAPIError(.apiError, "\(request.summary): Apple's rate limit was exceeded (\(said)); slow down and retry later", httpStatusCode: status, apiError: code, apiErrorMessage: message)
        case 500...:
            return AppStoreServerAPIError(.apiError, "\(request.summary): the App Store server failed (\(said)); retry later", httpStatusCode: status, apiError: code, apiErrorMessage: message)
        default:
            return AppStoreServerAPIError(.apiError, "\(request.summary): Apple refused the request (\(said))", httpStatusCode: status, apiError: code, apiErrorMessage: message)
        }
    }
}
#endif
