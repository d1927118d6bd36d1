import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``OCSPTransport`` on Foundation's `URLSession` (FoundationNetworking on Linux): the default
/// on Apple platforms. On Linux the default is ``SocketOCSPTransport``, because FoundationNetworking
/// keeps a thread busy while a response is pending (see ``OCSPOptions/defaultTransport``).
///
/// One ephemeral session (no cookies, no cache) serves every request. Redirects are never followed
/// (a 3xx is returned as it is, and the verifier treats it as unavailable), the body is read only
/// up to the size limit, and each request has its own timeout.
public final class URLSessionOCSPTransport: OCSPTransport, @unchecked Sendable {
    /// A transport shared by every verifier that does not configure its own (on Apple platforms).
    public static let shared = URLSessionOCSPTransport()

    private let session: URLSession
    private let delegate: Delegate

    /// A transport with its own ephemeral `URLSession`.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        delegate = Delegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    public func post(_ body: Data, to url: URL, timeout: Duration, maximumResponseLength: Int) async throws -> OCSPHTTPResponse {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: max(0.001, timeout.inSeconds))
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/ocsp-request", forHTTPHeaderField: "Content-Type")
        request.setValue("application/ocsp-response", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        let exchange = Exchange(limit: maximumResponseLength)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<OCSPHTTPResponse, any Error>) in
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
        private var continuation: CheckedContinuation<OCSPHTTPResponse, any Error>?
        private var statusCode = 0
        private var body = Data()
        private var tooLarge = false

        init(limit: Int) { self.limit = limit }

        func install(_ continuation: CheckedContinuation<OCSPHTTPResponse, any Error>) {
            lock.withLock { self.continuation = continuation }
        }

        func received(status: Int) {
            lock.withLock { statusCode = status }
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
            let (continuation, result): (CheckedContinuation<OCSPHTTPResponse, any Error>?, Result<OCSPHTTPResponse, any Error>) = lock.withLock {
                let waiting = self.continuation
                self.continuation = nil
                if tooLarge {
                    return (waiting, .failure(OCSPResponseTooLarge(limit: limit)))
                }
                if let error {
                    return (waiting, .failure(error))
                }
                return (waiting, .success(OCSPHTTPResponse(statusCode: statusCode, body: body)))
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
            exchange(for: dataTask)?.received(status: (response as? HTTPURLResponse)?.statusCode ?? 0)
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
