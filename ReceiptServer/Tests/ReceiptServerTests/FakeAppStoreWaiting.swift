import AppStoreServerAPITesting

extension AppStoreServerAPITesting.FakeAppStoreServerAPI {
    /// Returns once `condition` (over what the fake received) holds, checking it now and as each
    /// request arrives; fails after `limit` (a bound for a broken server only).
    func waitUntil(_ what: String, limit: Duration = .seconds(60), _ condition: @escaping @Sendable () -> Bool) async throws {
        try await within(limit, what) {
            while true {
                let seen = self.requests.count
                if condition() { return }
                await self.waitForRequests(seen + 1)
            }
        }
    }
}
