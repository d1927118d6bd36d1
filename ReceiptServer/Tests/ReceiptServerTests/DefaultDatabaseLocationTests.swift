import Foundation
import ReceiptServerCore
import Testing

/// The database goes outside any checkout unless `--database` says otherwise.
@Suite("Default database location")
struct DefaultDatabaseLocationTests {
    @Test("Under $XDG_DATA_HOME when set, else ~/.local/share; never the working directory")
    func location() {
        #expect(DefaultDatabaseLocation.path(environment: ["XDG_DATA_HOME": "/srv/data"]) == "/srv/data/receipt-server/receipts.sqlite")
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        let fallback = DefaultDatabaseLocation.path(environment: [:])
        #expect(fallback == URL(fileURLWithPath: home).appendingPathComponent(".local/share/receipt-server/receipts.sqlite").path)
        #expect(DefaultDatabaseLocation.path(environment: ["XDG_DATA_HOME": ""]) == fallback)
        #expect(!fallback.hasPrefix(FileManager.default.currentDirectoryPath + "/receipts"))
    }
}
