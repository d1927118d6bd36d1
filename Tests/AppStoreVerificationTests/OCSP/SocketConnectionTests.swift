import Foundation
import Testing
@testable import AppStoreVerification

/// SocketConnection's choice among a host's addresses, against loopback listeners on 127.0.0.1.
@Suite("SocketConnection")
struct SocketConnectionTests {
    @Test("an address that never answers the connection leaves time for the next one (it gets half of the time left)")
    func silentAddressThenGoodOne() throws {
        let blackHole = try BlackHoleListener()
        let server = try LoopbackHTTPServer(behaviour: .respond(status: 200, body: Data()))
        let addresses = try SocketAddress.resolve(host: "127.0.0.1", port: blackHole.port)
            + SocketAddress.resolve(host: "127.0.0.1", port: server.port)
        let connection = try SocketConnection.connect(
            to: addresses, peer: "two addresses", deadline: ContinuousClock.now + .seconds(2), timeout: .seconds(2), cancellation: CancellationFlag())
        withExtendedLifetime(connection) {}
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
