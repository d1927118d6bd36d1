import Foundation
import Testing
@testable import AppStoreVerification

/// SocketConnection's choice among a host's addresses, against loopback listeners on 127.0.0.1.
@Suite("SocketConnection")
struct SocketConnectionTests {
    @Test("an address that never answers the connection leaves time for the next one (it gets half of the time left)")
    func silentAddressThenGoodOne() throws {
        let blackHole = try BlackHoleListener()
        let server = try OCSPTestServer(behaviour: .respond(status: 200, body: Data("answer".utf8)))
        let addresses = try SocketAddress.resolve(host: "127.0.0.1", port: blackHole.port)
            + SocketAddress.resolve(host: "127.0.0.1", port: server.port)
        let deadline = ContinuousClock.now + .seconds(4)
        let connection = try SocketConnection.connect(
            to: addresses, peer: "two addresses", deadline: deadline, timeout: .seconds(4), cancellation: CancellationFlag())
        // Connected to the second address, the server, with time left: the silent first one had
        // half of the time, not all of it.
        #expect(ContinuousClock.now < deadline)
        try connection.send(Array("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n".utf8))
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while case let count = try connection.receive(into: &buffer), count > 0 {
            answer += buffer[..<count]
        }
        let text = String(decoding: answer, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK") && text.hasSuffix("answer"), "\(text)")
        #expect(server.requestCount == 1)
    }

    @Test("the last address may take all the time left: a silent one alone times out")
    func silentAddressAlone() throws {
        let blackHole = try BlackHoleListener()
        let addresses = try SocketAddress.resolve(host: "127.0.0.1", port: blackHole.port)
        #expect {
            try SocketConnection.connect(to: addresses, peer: "one address", deadline: ContinuousClock.now + .milliseconds(500), timeout: .milliseconds(500), cancellation: CancellationFlag())
        } throws: { error in
            (error as? URLError)?.code == .timedOut
        }
    }
}
