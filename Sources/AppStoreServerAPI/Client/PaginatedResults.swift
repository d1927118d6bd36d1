/// The items of a paginated App Store Server API endpoint, page after page, as one async sequence.
///
/// Each page is requested when the previous one is used up (with its own ``AppStoreServerAPIClient/Options/deadline``),
/// following Apple's `revision` or `paginationToken` while `hasMore` is true. A failed page
/// request ends the loop with its ``AppStoreServerAPIError``; the items already yielded stand.
///
/// The sequence is bounded whatever Apple answers: a pagination token seen before ends it with
/// `malformedResponse`, and more than ``AppStoreServerAPIClient/Options/maximumPages`` pages or a
/// sequence longer than ``AppStoreServerAPIClient/Options/paginationDeadline`` end it with
/// `paginationLimitExceeded`.
///
/// ```swift
/// for try await transaction in client.transactionHistory(transactionId: id) {
///     engine.ingest(transaction)
/// }
/// ```
public struct PaginatedResults<Element: Sendable>: AsyncSequence, Sendable {
    /// Pages fail with the client's errors.
    public typealias Failure = AppStoreServerAPIError

    /// One page: its items and the token of the next page, `nil` on the last.
    struct Page: Sendable {
        let items: [Element]
        let next: String?

        /// A page that continues with `token` while `hasMore` is true.
        ///
        /// - Throws: ``AppStoreServerAPIError`` (`malformedResponse`) when `hasMore` is true
        ///   without a token to continue with.
        init(items: [Element], hasMore: Bool?, token: String?, field: String) throws(AppStoreServerAPIError) {
            self.items = items
            guard hasMore == true else {
                self.next = nil
                return
            }
            guard let token, !token.isEmpty else {
                throw AppStoreServerAPIError(.malformedResponse, "Apple answered hasMore true without a \(field) to continue with")
            }
            self.next = token
        }
    }

    let fetch: @Sendable (_ token: String?) async throws(AppStoreServerAPIError) -> Page
    let maximumPages: Int
    let deadline: Duration
    let elapsed: @Sendable () -> Duration

    /// A sequence requesting pages with `fetch`, at most `maximumPages` of them within `deadline`
    /// of the first request, as `elapsed` (the client's clock) measures it.
    init(maximumPages: Int, deadline: Duration, elapsed: @escaping @Sendable () -> Duration,
         fetch: @escaping @Sendable (_ token: String?) async throws(AppStoreServerAPIError) -> Page) {
        self.fetch = fetch
        self.maximumPages = Swift.max(maximumPages, 1)
        self.deadline = deadline
        self.elapsed = elapsed
    }

    /// An iterator starting at the first page.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(fetch: fetch, maximumPages: maximumPages, deadline: deadline, elapsed: elapsed) }

    /// Collects every item of every page (for small histories; iterate for large ones).
    public func collect() async throws(AppStoreServerAPIError) -> [Element] {
        var all: [Element] = []
        var iterator = makeAsyncIterator()
        while let item = try await iterator.next(isolation: nil) { all.append(item) }
        return all
    }

    /// Requests pages as their items are consumed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let fetch: @Sendable (String?) async throws(AppStoreServerAPIError) -> Page
        let maximumPages: Int
        let deadline: Duration
        let elapsed: @Sendable () -> Duration
        private var buffer: [Element] = []
        private var position = 0
        private var token: String?
        private var started: Duration?
        private var pages = 0
        private var finished = false
        private var seenTokens: Set<String> = []

        init(fetch: @escaping @Sendable (String?) async throws(AppStoreServerAPIError) -> Page, maximumPages: Int, deadline: Duration,
             elapsed: @escaping @Sendable () -> Duration) {
            self.fetch = fetch
            self.maximumPages = maximumPages
            self.deadline = deadline
            self.elapsed = elapsed
        }

        /// The next item, requesting the next page when needed; `nil` after the last page.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(AppStoreServerAPIError) -> Element? {
            while position == buffer.count {
                guard !finished else { return nil }
                if let started {
                    if token == nil {
                        finished = true
                        return nil
                    }
                    guard pages < maximumPages else {
                        finished = true
                        throw AppStoreServerAPIError(.paginationLimitExceeded, "Apple still had more after \(pages) pages (Options.maximumPages); narrow the request (dates, products) or raise Options.maximumPages")
                    }
                    let spent = elapsed() - started
                    guard spent < deadline else {
                        finished = true
                        throw AppStoreServerAPIError(.paginationLimitExceeded, "Apple still had more after \(pages) pages and \(spent), past Options.paginationDeadline (\(deadline)); narrow the request or raise the deadline")
                    }
                } else {
                    started = elapsed()
                }
                pages += 1
                let page: Page
                do {
                    page = try await fetch(token)
                } catch {
                    finished = true
                    throw error
                }
                buffer = page.items
                position = 0
                if let next = page.next {
                    guard seenTokens.insert(next).inserted else {
                        finished = true
                        throw AppStoreServerAPIError(.malformedResponse, "Apple returned the pagination token of an earlier page again with hasMore true; stopping instead of looping")
                    }
                }
                token = page.next
            }
            defer { position += 1 }
            return buffer[position]
        }

        /// The next item (see ``next(isolation:)``).
        public mutating func next() async throws(AppStoreServerAPIError) -> Element? {
            try await next(isolation: nil)
        }
    }
}
