import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One ephemeral `URLSession` (no cookies, no cache) behind the library's URLSession transports
/// (OCSP, and the App Store Server API client's): redirects are never followed (a 3xx comes back
/// as it is), the body is read only up to a size limit, and each request has its own timeout.
package final class URLSessionHTTP: @unchecked Sendable {
    /// An answer: the status, the header fields and the whole body.
    package struct Answer: Sendable {
        package let statusCode: Int
        package let headers: [(name: String, value: String)]
        package let body: Data
    }

    /// Thrown when the body passed the size limit (the request was cancelled).
    package struct TooLarge: Error {}

    private let session: URLSession
    private let delegate: Delegate

    /// A session of its own.
    package init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        delegate = Delegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// Sends `request` and returns the answer, or throws ``TooLarge``, `URLError(.timedOut)` after
    /// `timeout`, `CancellationError` semantics through `URLError(.cancelled)`, or the session's error.
    package func send(_ request: URLRequest, timeout: Duration, maximumResponseLength: Int) async throws -> Answer {
        var request = request
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.timeoutInterval = max(0.001, timeout.inSeconds)
        let task = session.dataTask(with: request)
        let exchange = Exchange(limit: maximumResponseLength)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
                exchange.install(continuation)
                delegate.register(exchange, for: task.taskIdentifier)
                task.resume()
                // FoundationNetworking on Linux does not end a request at its timeoutInterval when
                // the session's timeoutIntervalForRequest (60 s) is longer: end it here.
                DispatchQueue.global().asyncAfter(deadline: .now() + max(0.001, timeout.inSeconds)) {
                    exchange.complete(URLError(.timedOut))
                    task.cancel()
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// One request's state: the response so far and the continuation to resume once.
    final class Exchange: @unchecked Sendable {
        private let lock = NSLock()
        private let limit: Int
        private var continuation: CheckedContinuation<Answer, any Error>?
        private var statusCode = 0
        private var headers: [(name: String, value: String)] = []
        private var body = Data()
        private var tooLarge = false

        init(limit: Int) { self.limit = limit }

        func install(_ continuation: CheckedContinuation<Answer, any Error>) {
            lock.withLock { self.continuation = continuation }
        }

        func received(_ response: URLResponse) {
            let http = response as? HTTPURLResponse
            let fields = (http?.allHeaderFields ?? [:]).compactMap { key, value -> (name: String, value: String)? in
                guard let name = key as? String else { return nil }
                return (name, value as? String ?? "\(value)")
            }
            lock.withLock {
                statusCode = http?.statusCode ?? 0
                headers = fields
            }
        }

        /// Appends `data`; false once the body exceeds the limit (the task is then cancelled).
        func received(_ data: Data) -> Bool {
            lock.withLock {
                guard !tooLarge else { return false }
                if body.count + data.count > limit {
                    tooLarge = true
                    body = Data()
                    return false
                }
                body.append(data)
                return true
            }
        }

        func complete(_ error: (any Error)?) {
            let (continuation, result): (CheckedContinuation<Answer, any Error>?, Result<Answer, any Error>) = lock.withLock {
                let waiting = self.continuation
                self.continuation = nil
                if tooLarge { return (waiting, .failure(TooLarge())) }
                if let error { return (waiting, .failure(error)) }
                return (waiting, .success(Answer(statusCode: statusCode, headers: headers, body: body)))
            }
            continuation?.resume(with: result)
        }
    }

    /// The session's delegate: routes callbacks to each task's exchange and refuses redirects.
    final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var exchanges: [Int: Exchange] = [:]

        func register(_ exchange: Exchange, for task: Int) {
            lock.withLock { exchanges[task] = exchange }
        }

        private func exchange(for task: URLSessionTask) -> Exchange? {
            lock.withLock { exchanges[task.taskIdentifier] }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            exchange(for: dataTask)?.received(response)
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            if exchange(for: dataTask)?.received(data) == false {
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            // Never follow: the 3xx itself becomes the response.
            completionHandler(nil)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let exchange = lock.withLock { exchanges.removeValue(forKey: task.taskIdentifier) }
            exchange?.complete(error)
        }
    }
}
