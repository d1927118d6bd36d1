import AppStoreVerificationTestSupport
import Foundation
import ReceiptServerCore
import Testing

/// A full disk under the SQLite file: writes are answered 503 with `Retry-After` (nothing half
/// stored, no crash), reads go on, and once there is room again the retried write is stored. The
/// disk is a 4 MiB tmpfs this test mounts (as root; skipped, saying why, where it cannot).
@Suite("A full disk", .serialized, .timeLimit(.minutes(3)))
struct FullDiskTests {
    /// Mounts a tmpfs of `megabytes` at a new directory, runs `body` with it, unmounts it.
    static func withTinyDisk(megabytes: Int, _ body: (URL) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let mount = try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", directory.url.path])
        guard mount.status == 0 else {
            let message = "cannot mount a small tmpfs here (\(mount.output.trimmingCharacters(in: .whitespacesAndNewlines))): the full-disk test needs root and mount"
            print("skipped: \(message)")
            try Test.cancel(Comment(rawValue: message))
        }
        defer { _ = try? ProcessRunner.run("/bin/umount", ["-l", directory.url.path]) }
        try await body(directory.url)
    }

    /// Fills the disk under `directory` with a file, leaving about `leave` bytes free.
    static func fill(_ directory: URL, leaving leave: Int) throws -> URL {
        let filler = directory.appendingPathComponent("filler")
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        let values = try directory.resourceValues(forKeys: [.volumeAvailableCapacityKey])
        let available = values.volumeAvailableCapacity ?? 0
        let chunk = Data(count: 64 * 1024)
        var written = 0
        while written + chunk.count < available - leave {
            do { try handle.write(contentsOf: chunk) } catch { break }
            written += chunk.count
        }
        return filler
    }

    @Test("Writes on a full disk are 503 with Retry-After, acknowledged ones stay, reads answer, and the retry after space is freed is stored")
    func fullDisk() async throws {
        try await Self.withTinyDisk(megabytes: 4) { disk in
            let minted = try MintedData()
            defer { minted.remove() }
            let customer = UUID().uuidString.lowercased()
            let database = disk.appendingPathComponent("receipts.sqlite").path
            let server = try await TestServer.start(databasePath: database, root: minted.rootFile, now: Date(timeIntervalSince1970: 1_800_000_000))
            try await server.stopping {
                let first = try await server.postTransaction(try minted.purchase(transactionId: "9100000", productId: "com.example.app.item0", customer: customer))
                #expect(first.status == 200, "\(first.text)")
                let filler = try Self.fill(disk, leaving: 48 * 1024)

                // Distinct purchases until the disk refuses one.
                var acknowledged = 1
                var refused: TestServer.Answer?
                for number in 1..<400 {
                    let jws = try minted.purchase(transactionId: "\(9_100_000 + number)", productId: "com.example.app.item\(number)", customer: customer)
                    let answer = try await server.postTransaction(jws)
                    if answer.status == 200 {
                        acknowledged += 1
                        continue
                    }
                    refused = answer
                    break
                }
                let full = try #require(refused, "the disk never filled up")
                #expect(full.status == 503, "\(full.text)")
                #expect(full.errorCode == "storageUnavailable")
                #expect(full.header("Retry-After") != nil)

                // Reads still answer, with every acknowledged purchase and nothing else.
                let read = try await server.entitlements(of: customer)
                #expect(read.status == 200, "\(read.text)")
                #expect(read.entitlements.count == acknowledged)
                #expect(try await server.store.count() == acknowledged)

                // Room again: Apple's (or the app's) retry is stored.
                try FileManager.default.removeItem(at: filler)
                let retry = try await server.retryingWhileUnavailable {
                    try await server.postTransaction(try minted.purchase(transactionId: "9199999", productId: "com.example.app.retried", customer: customer))
                }
                #expect(retry.status == 200, "\(retry.text)")
                #expect(try await server.store.count() == acknowledged + 1)
            }
        }
    }
}
