#if !ServerAPIClient
import Foundation
import Testing

/// `verify-jws api` in a tool built without the App Store Server API client (this package's
/// `ServerAPIClient` trait off, as `swift run --package-path Tools verify-jws` builds it): it says
/// how to build the tool with the client and exits 2, without reading `api` as a file.
@Suite struct APICommandUnavailableTests {
    @Test(arguments: [["api"], ["api", "history", "1"], ["api", "transaction", "1", "--key", "AuthKey.p8"]])
    func apiSaysHowToBuildTheToolWithTheClient(_ arguments: [String]) throws {
        let run = try VerifyJWSProcess.run(arguments)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("swift run --package-path Tools --traits ServerAPIClient verify-jws api"), "\(run.stderr)")
        #expect(!run.stderr.contains("No such file"), "\(run.stderr)")
    }
}
#endif
