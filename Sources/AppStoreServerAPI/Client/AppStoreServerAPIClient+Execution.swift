import AppStoreVerification
import Foundation

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
        let deadline = elapsed() + options.deadline
        let attempts = max(options.maximumAttempts, 1)
        // The row of Apple's published limits this endpoint counts against, looked up once.
        let limit = request.rateLimit
        var attempt = 0
        while true {
            attempt += 1
            guard !Task.isCancelled else { throw Self.cancelled(request) }
            let remaining = deadline - elapsed()
            guard remaining > .zero else {
                throw AppStoreServerAPIError(.deadlineExceeded, "\(request.summary): the deadline of \(options.deadline) passed before attempt \(attempt); raise Options.deadline or try again later")
            }
            let reserved = try await pace(request, limit: limit, deadline: deadline)
            let token = try await tokens.token()
            let failure: AppStoreServerAPIError
            var retryAfter: Duration?
            let outcome = await attemptOnce(request, token: token, timeout: min(options.requestTimeout, remaining), deadlineBound: options.requestTimeout >= remaining)
            if let reserved, let limit {
                await pacer.settle(limit, reserved: reserved, now: elapsed())
            }
            switch outcome {
            case .response(let response):
                let status = response.statusCode
                if (300..<400).contains(status) {
                    let location = response.header("Location").map { " to \(LogSafeText.escaping($0.prefix(200)))" } ?? ""
                    throw AppStoreServerAPIError(.unexpectedRedirect, "\(request.summary): the server answered with a redirect (HTTP \(status))\(location), which Apple's API never does; it was not followed. Check the base URL",
                                                 httpStatusCode: status, responseHeaders: response.headerDictionary)
                }
                if (200..<300).contains(status) { return response.body }
                failure = errorResponse(request, response)
                if status == 401 {
                    await tokens.discard(token)
                    throw failure
                }
                guard status == 429 || status >= 500 else { throw failure }
                retryAfter = failure.retryAfter
                if status == 429, let wait = failure.retryAfter, let limit {
                    // Every task using this client holds off this endpoint until Apple's instant.
                    await pacer.close(limit, until: elapsed() + wait)
                }
            case .failed(let error):
                guard error.code == .timedOut || error.code == .transportFailure else { throw error }
                failure = error
            }
            guard attempt < attempts else {
                throw failure.with(message: "\(failure.message) (after \(attempt) attempts; Options.maximumAttempts is \(attempts))")
            }
            let wait = retryAfter ?? backoff(afterAttempt: attempt)
            let left = deadline - elapsed()
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
    private func pace(_ request: APIRequest, limit: PublishedRateLimit?, deadline: Duration) async throws(AppStoreServerAPIError) -> Int64? {
        guard let limit else { return nil }
        while true {
            let now = elapsed()
            let wait: Duration
            switch await pacer.reserve(limit, now: now) {
            case .notPaced: return nil
            case .counted(let slot): return slot
            case .wait(let duration): wait = duration
            }
            guard now + wait < deadline else {
                throw AppStoreServerAPIError(.deadlineExceeded, "\(request.summary): Apple's published rate limit for \(limit.endpoint) (\(limit.perSecond) requests per second in production, 10 % in the sandbox) has no room for \(wait), past the deadline (\(deadline - now) left of \(options.deadline)); try again later, spread the calls out, or raise Options.deadline",
                                             retryAfter: wait, retryAfterDate: clock.now.addingTimeInterval(wait.inSeconds))
            }
            do {
                try await clock.sleep(for: wait)
            } catch {
                throw Self.cancelled(request)
            }
        }
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
        case response(AppStoreServerAPIHTTPResponse)
        case failed(AppStoreServerAPIError)
    }

    /// One HTTP exchange through ``transport`` within `timeout` (connection, request and the whole
    /// response body); the client ends it at `timeout` whatever the transport does.
    private func attemptOnce(_ request: APIRequest, token: String, timeout: Duration, deadlineBound: Bool) async -> AttemptOutcome {
        var headers = [AppStoreServerAPIHTTPField(name: "Authorization", value: "Bearer \(token)"),
                       AppStoreServerAPIHTTPField(name: "Accept", value: "application/json"),
                       AppStoreServerAPIHTTPField(name: "User-Agent", value: Self.userAgent)]
        if request.body != nil { headers.append(AppStoreServerAPIHTTPField(name: "Content-Type", value: request.contentType)) }
        let http = AppStoreServerAPIHTTPRequest(method: request.method, url: baseURL + request.target, headers: headers, body: request.body)
        let limit = options.maximumResponseBodySize
        let transport = self.transport
        let outcome = await withTaskGroup(of: AttemptOutcome?.self) { group in
            group.addTask {
                do {
                    return .response(try await transport.send(http, timeout: timeout, maximumResponseBodySize: limit))
                } catch {
                    return .failed(Self.transportError(request, error, timeout: timeout, deadlineBound: deadlineBound))
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

    private static func cancelled(_ request: APIRequest) -> AppStoreServerAPIError {
        AppStoreServerAPIError(.cancelled, "\(request.summary): the calling task was cancelled")
    }

    private static func timeout(_ request: APIRequest, timeout: Duration, deadlineBound: Bool) -> AppStoreServerAPIError {
        if deadlineBound {
            return AppStoreServerAPIError(.deadlineExceeded, "\(request.summary): no complete response before the deadline (\(timeout) left); try again later or raise Options.deadline")
        }
        return AppStoreServerAPIError(.timedOut, "\(request.summary): no complete response within \(timeout) (Options.requestTimeout)")
    }

    /// An error a transport threw, named for the caller: its own ``AppStoreServerAPIError`` kept
    /// (a timeout counted against the deadline when the deadline bounded the attempt), cancellation
    /// as `cancelled`, anything else as a connection failure.
    private static func transportError(_ request: APIRequest, _ error: any Error, timeout: Duration, deadlineBound: Bool) -> AppStoreServerAPIError {
        if error is CancellationError { return cancelled(request) }
        if let error = error as? AppStoreServerAPIError {
            if error.code == .timedOut { return Self.timeout(request, timeout: timeout, deadlineBound: deadlineBound) }
            return error
        }
        return AppStoreServerAPIError(.transportFailure, "\(request.summary): the connection failed (\(error)); check the network and the base URL")
    }

    /// The error for a non-2xx answer, with Apple's code and message when the body carries them,
    /// the headers, and the wait `Retry-After` asks for.
    func errorResponse(_ request: APIRequest, _ response: AppStoreServerAPIHTTPResponse) -> AppStoreServerAPIError {
        let error = errorResponse(request, status: response.statusCode, body: response.body)
        let retryAfter = response.header("Retry-After").flatMap { RetryAfter.parse($0, now: clock.now) }
        return AppStoreServerAPIError(error.code, error.message, httpStatusCode: error.httpStatusCode, apiError: error.apiError, apiErrorMessage: error.apiErrorMessage,
                                      retryAfter: retryAfter?.wait, retryAfterDate: retryAfter?.instant,
                                      responseHeaders: response.headerDictionary)
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
