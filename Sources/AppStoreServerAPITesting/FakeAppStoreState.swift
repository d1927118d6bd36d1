import AppStoreVerification
import AppStoreServerAPI
import Foundation

/// Everything a ``FakeAppStoreServerAPI`` holds, under one lock: its data, the answers queued, the
/// fallback route, the requests received and the tokens accepted. ``handle(_:)`` answers one
/// request; the fallback route runs outside the lock (it may read the fake).
final class FakeAppStoreState: @unchecked Sendable {
    private let lock = NSLock()
    private let tokenCheck: BearerTokenCheck
    private let bundleId: String
    private let appAppleId: Int64?
    private let environment: AppStoreEnvironment
    // Guarded by `lock`.
    private var data = FakeAppStoreData()
    private var scripted: [FakeAppStoreServerAPI.ScriptedAnswer] = []
    private var fallback: (@Sendable (FakeAppStoreServerAPI.Request) -> FakeAppStoreServerAPI.Response?)?
    private var received: [FakeAppStoreServerAPI.Request] = []
    private var accepted: [String] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var rateLimits: FakeRateLimits?
    private var refusedForRate = 0

    init(tokenCheck: BearerTokenCheck, bundleId: String, appAppleId: Int64?, environment: AppStoreEnvironment) {
        self.tokenCheck = tokenCheck
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
    }

    func update(_ body: (inout FakeAppStoreData) -> Void) {
        lock.withLock { body(&data) }
    }

    func read<Value>(_ body: (FakeAppStoreData) -> Value) -> Value {
        lock.withLock { body(data) }
    }

    func enqueue(_ answers: [FakeAppStoreServerAPI.ScriptedAnswer]) {
        lock.withLock { scripted += answers }
    }

    func setFallback(_ route: (@Sendable (FakeAppStoreServerAPI.Request) -> FakeAppStoreServerAPI.Response?)?) {
        lock.withLock { fallback = route }
    }

    func setRateLimits(_ limits: FakeRateLimits?) {
        lock.withLock { rateLimits = limits }
    }

    var rateLimitedRequests: Int { lock.withLock { refusedForRate } }

    var requests: [FakeAppStoreServerAPI.Request] { lock.withLock { received } }

    /// Returns once `count` requests have been received (at once when they have).
    func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock { () -> Bool in
                if received.count >= count { return true }
                waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// The waiters whose count `received` now reaches, removed (call with the lock held).
    private func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
        let ready = waiters.filter { $0.count <= received.count }
        waiters.removeAll { $0.count <= received.count }
        return ready.map(\.continuation)
    }
    var acceptedTokens: [String] { lock.withLock { accepted } }

    /// The answer to `request`, or `nil` for no answer (the connection stays open).
    func handle(_ request: FakeAppStoreServerAPI.Request) -> FakeAppStoreServerAPI.Response? {
        enum Step {
            case answer(FakeAppStoreServerAPI.Response?)
            case fallback((@Sendable (FakeAppStoreServerAPI.Request) -> FakeAppStoreServerAPI.Response?)?)
        }
        var woken: [CheckedContinuation<Void, Never>] = []
        defer { for waiter in woken { waiter.resume() } }
        let step = lock.withLock { () -> Step in
            var request = request
            request.tokenRefusal = tokenCheck.refusal(of: request.authorization)
            received.append(request)
            woken = satisfiedWaiters()
            if let refusal = request.tokenRefusal {
                // Apple's 401 has no body; the header says why, for the test's author.
                return .answer(FakeAppStoreServerAPI.Response(status: 401, headers: [.init(name: "X-Fake-App-Store-Refusal", value: refusal)]))
            }
            if let token = request.authorization.map({ String($0.dropFirst("Bearer ".count)) }), !accepted.contains(token) {
                accepted.append(token)
            }
            if let refusal = rateLimits?.refusal(of: request, sandbox: environment == .sandbox) {
                refusedForRate += 1
                return .answer(refusal)
            }
            if !scripted.isEmpty {
                return .answer(scripted.removeFirst().response)
            }
            if let answer = data.recordConsumption(request) { return .answer(answer) }
            let routes = FakeAppStoreRoutes(data: data, bundleId: bundleId, appAppleId: appAppleId, environment: environment)
            if let answer = routes.answer(request) { return .answer(answer) }
            return .fallback(fallback)
        }
        switch step {
        case .answer(let response):
            return response
        case .fallback(let route):
            if let answer = route?(request) { return answer }
            return .apiError(status: 404, code: APIErrorCode(rawValue: 4040000), message: "The fake App Store Server API has no route for \(request.method) \(request.path); add one with setFallbackRoute(_:).")
        }
    }
}
