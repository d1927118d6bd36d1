import AsyncHTTPClient
import Foundation
import NIOCore
import ReceiptServerCore
import Testing

/// A clean stop leaves the SQLite database whole in its file: the write-ahead log checkpointed into
/// it and truncated (issue 39, finding 6).
@Suite("Tidy shutdown: the WAL checkpointed into the file", .timeLimit(.minutes(3)))
struct TidyShutdownTests {
    /// Writes and reads: a few hundred distinct purchases, their customers' entitlements.
    static func load(port: Int, client: HTTPClient, minted: MintedData, count: Int) async throws {
        for index in 0..<count {
            let customer = UUID().uuidString.lowercased()
            let jws = try minted.purchase(transactionId: "\(7_100_000_000_000_000 + index)", productId: "com.example.app.unlock", customer: customer)
            var post = HTTPClientRequest(url: "http://127.0.0.1:\(port)/transactions")
            post.method = .POST
            post.headers.add(name: "Content-Type", value: "application/json")
            post.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: ["signedTransaction": jws])))
            let posted = try await client.execute(post, timeout: .seconds(30))
            _ = try await posted.body.collect(upTo: 1 << 20)
            guard posted.status.code == 200 else { throw TestServerError("a purchase answered \(posted.status.code)") }
            var get = HTTPClientRequest(url: "http://127.0.0.1:\(port)/customers/\(customer)/entitlements")
            get.headers.add(name: "Authorization", value: "Bearer \(TestServer.backendToken)")
            let read = try await client.execute(get, timeout: .seconds(30))
            _ = try await read.body.collect(upTo: 1 << 20)
            guard read.status.code == 200 else { throw TestServerError("a read answered \(read.status.code)") }
        }
    }

    static func walSize(_ databasePath: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: databasePath + "-wal"))?[.size] as? Int
    }

    @Test("SIGTERM after reads and writes: the process exits 0 and the -wal file is empty or gone")
    func sigterm() async throws {
        let executable = try ServerProcess.requireExecutable()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let minted = try MintedData()
        defer { minted.remove() }
        let client = HTTPClient.forTests()
        let server = try await ServerProcess.start(executable: executable, database: directory.databasePath, roots: [minted.rootFile])
        do {
            try await Self.load(port: server.port, client: client, minted: minted, count: 300)
            #expect((Self.walSize(directory.databasePath) ?? 0) > 0, "the running server writes through the WAL")
        } catch {
            await server.stop()
            try await client.shutdown()
            throw error
        }
        let status = await server.stop()
        try await client.shutdown()
        #expect(status == 0, "\(server.log.suffix(2000))")
        let wal = Self.walSize(directory.databasePath)
        #expect(wal == nil || wal == 0, "the -wal file holds \(wal ?? 0) bytes after a clean stop")
        // The file alone holds everything: a copy without the -wal and -shm files answers the same.
        let copy = directory.url.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: directory.databasePath, toPath: copy)
        let restarted = try await TestServer.start(databasePath: copy, root: minted.rootFile)
        let stored = try await restarted.stopping { try await restarted.store.count() }
        #expect(stored == 300)
    }

    @Test("A graceful stop in process: the -wal file is empty or gone, and the database file holds every write")
    func inProcess() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let minted = try MintedData()
        defer { minted.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, root: minted.rootFile)
        try await server.stopping {
            try await Self.load(port: server.port, client: server.client, minted: minted, count: 50)
        }
        let wal = Self.walSize(directory.databasePath)
        #expect(wal == nil || wal == 0, "the -wal file holds \(wal ?? 0) bytes after a clean stop")
    }
}
