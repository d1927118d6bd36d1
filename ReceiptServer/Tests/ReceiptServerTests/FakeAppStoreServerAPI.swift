import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// A small fake of Apple's App Store Server API on 127.0.0.1, enough for reconcile and the
/// notification backfill: Get Transaction History v2 (`GET /inApps/v2/history/{transactionId}`),
/// paginated with `revision` tokens, and Get Notification History
/// (`POST /inApps/v1/notifications/history`, the notifications whose `signedDate` is in the
/// body's `startDate ..< endDate`, paginated with `paginationToken`), behind the bearer token
/// check Apple documents: an ES256 JWT with header `kid` (the key
/// ID) and `typ` `JWT`, claims `iss` (issuer ID), `aud` `appstoreconnect-v1`, `bid` (bundle ID),
/// `iat` and `exp` (at most an hour apart, not expired), signed by the key whose public half this
/// fake holds. The signature is checked with the `openssl` command (`openssl dgst -verify`).
final class FakeAppStoreServerAPI: Sendable {
    /// A request as the fake saw it.
    struct Seen: Sendable {
        let path: String
        /// `revision` (transaction history) or `paginationToken` (notification history).
        let revision: String?
        /// `nil` when the token was accepted, else why it was refused.
        let refusal: String?
        /// Notification history: the body's `startDate` and `endDate`, in milliseconds since 1970.
        var startDate: Int64? = nil
        var endDate: Int64? = nil
    }

    static let openSSL = "/usr/bin/openssl"
    static var canCheckSignatures: Bool { FileManager.default.isExecutableFile(atPath: openSSL) }

    let keyId: String
    let issuerId: String
    let bundleId: String
    let pageSize: Int
    let port: Int
    var baseURL: String { "http://127.0.0.1:\(port)" }
    private let directory: URL
    private let histories: NIOLockedValueBox<[String: [String]]>
    private let notifications: NIOLockedValueBox<[(signedDate: Int64, jws: String)]>
    private let seen: NIOLockedValueBox<[Seen]>
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// The requests so far.
    var requests: [Seen] { seen.withLockedValue { $0 } }

    /// Serves `histories` (every transaction ID of a customer mapped to their whole history of
    /// signed transactions) in pages of `pageSize`, accepting tokens signed by the key whose
    /// public key is `publicKeyDER` (SubjectPublicKeyInfo).
    /// Serves `notifications` (signed notification payloads) from Get Notification History, each
    /// in the range of its `signedDate`.
    init(publicKeyDER: Data, keyId: String, issuerId: String, bundleId: String, histories: [String: [String]],
         notifications: [String] = [], pageSize: Int = 2) async throws {
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.pageSize = pageSize
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fake-app-store-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.pem(publicKeyDER).write(to: directory.appendingPathComponent("key.pem"), atomically: true, encoding: .utf8)
        let histories = NIOLockedValueBox(histories)
        let seen = NIOLockedValueBox<[Seen]>([])
        let notifications = NIOLockedValueBox(notifications.map { (signedDate: Self.signedDate(of: $0), jws: $0) })
        self.histories = histories
        self.seen = seen
        self.notifications = notifications

        let router = Router()
        let check = TokenCheck(keyId: keyId, issuerId: issuerId, bundleId: bundleId, publicKeyPath: directory.appendingPathComponent("key.pem").path)
        router.get("inApps/v2/history/:transactionId") { request, context -> Response in
            let id = context.parameters.get("transactionId") ?? ""
            let revision = request.uri.queryParameters.get("revision")
            let refusal = check.refusal(request.headers[.authorization])
            seen.withLockedValue { $0.append(Seen(path: request.uri.path, revision: revision, refusal: refusal)) }
            if refusal != nil {
                return Response(status: .unauthorized)
            }
            guard let items = histories.withLockedValue({ $0[id] }) else {
                return Self.json(["errorCode": 4040010, "errorMessage": "Transaction id not found."], status: .notFound)
            }
            var start = 0
            if let revision {
                guard revision.hasPrefix("page-"), let index = Int(revision.dropFirst(5)), (0...items.count).contains(index) else {
                    return Self.json(["errorCode": 4000005, "errorMessage": "Invalid request revision."], status: .badRequest)
                }
                start = index
            }
            let end = min(start + pageSize, items.count)
            return Self.json([
                "revision": "page-\(end)", "hasMore": end < items.count, "bundleId": bundleId, "appAppleId": 1234,
                "environment": "Sandbox", "signedTransactions": Array(items[start..<end]),
            ])
        }
        router.post("inApps/v1/notifications/history") { request, context -> Response in
            let token = request.uri.queryParameters.get("paginationToken")
            let refusal = check.refusal(request.headers[.authorization])
            let body = try await request.body.collect(upTo: 1 << 16)
            let range = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:]
            let start = (range["startDate"] as? NSNumber)?.int64Value
            let end = (range["endDate"] as? NSNumber)?.int64Value
            seen.withLockedValue { $0.append(Seen(path: request.uri.path, revision: token, refusal: refusal, startDate: start, endDate: end)) }
            if refusal != nil {
                return Response(status: .unauthorized)
            }
            guard let start, let end, start < end else {
                return Self.json(["errorCode": 4000016, "errorMessage": "Invalid start or end date."], status: .badRequest)
            }
            let items = notifications.withLockedValue { $0 }.filter { $0.signedDate >= start && $0.signedDate < end }.map(\.jws)
            var first = 0
            if let token {
                guard token.hasPrefix("page-"), let index = Int(token.dropFirst(5)), (0...items.count).contains(index) else {
                    return Self.json(["errorCode": 4000008, "errorMessage": "Invalid pagination token."], status: .badRequest)
                }
                first = index
            }
            let last = min(first + pageSize, items.count)
            var page: [String: Any] = [
                "hasMore": last < items.count,
                "notificationHistory": items[first..<last].map { ["signedPayload": $0, "sendAttempts": [] as [Any]] },
            ]
            if last < items.count { page["paginationToken"] = "page-\(last)" }
            return Self.json(page)
        }
        var logger = Logger(label: "FakeAppStoreServerAPI")
        logger.logLevel = .warning
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "FakeAppStoreServerAPI"),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        self.group = group
        task = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            try await task.value
            throw TestServerError("the fake App Store Server API stopped before it listened")
        }
        self.port = port
    }

    /// Stops the fake and removes its files.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
        try? FileManager.default.removeItem(at: directory)
    }

    private static func json(_ object: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The `signedDate` of a signed payload, read without verifying (the fake only files it).
    static func signedDate(of jws: String) -> Int64 {
        let parts = jws.split(separator: ".").map(String.init)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
              let object = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any] else { return 0 }
        return (object["signedDate"] as? NSNumber)?.int64Value ?? 0
    }

    /// A SubjectPublicKeyInfo in PEM.
    static func pem(_ der: Data) -> String {
        let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN PUBLIC KEY-----\n\(base64)\n-----END PUBLIC KEY-----\n"
    }
}

/// The bearer token check, as Apple documents it.
struct TokenCheck: Sendable {
    let keyId: String
    let issuerId: String
    let bundleId: String
    let publicKeyPath: String

    /// Why `authorization` is refused, or `nil` when it is a good token.
    func refusal(_ authorization: String?) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let parts = authorization.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]), let claimsData = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]), signature.count == 64,
              let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
              let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any]
        else { return "not a JWS" }
        guard header["alg"] as? String == "ES256", header["typ"] as? String == "JWT" else { return "header alg/typ" }
        guard header["kid"] as? String == keyId else { return "kid" }
        guard claims["aud"] as? String == "appstoreconnect-v1" else { return "aud" }
        guard claims["iss"] as? String == issuerId else { return "iss" }
        guard claims["bid"] as? String == bundleId else { return "bid" }
        guard let exp = (claims["exp"] as? NSNumber)?.int64Value, let iat = (claims["iat"] as? NSNumber)?.int64Value else { return "exp/iat" }
        let now = Int64(Date().timeIntervalSince1970)
        guard exp > now else { return "expired" }
        guard exp > iat, exp - iat <= 3600, iat <= now + 60 else { return "lifetime" }
        guard verifyES256(signature: signature, over: Data("\(parts[0]).\(parts[1])".utf8)) else { return "signature" }
        return nil
    }

    /// Checks a raw `r || s` ES256 signature with `openssl dgst -sha256 -verify`.
    private func verifyES256(signature: Data, over input: Data) -> Bool {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let inputURL = directory.appendingPathComponent("input")
            let signatureURL = directory.appendingPathComponent("signature.der")
            try input.write(to: inputURL)
            try Self.derSignature(signature).write(to: signatureURL)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: FakeAppStoreServerAPI.openSSL)
            process.arguments = ["dgst", "-sha256", "-verify", publicKeyPath, "-signature", signatureURL.path, inputURL.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus == 0
        } catch {
            return false
        }
    }

    /// `r || s` (32 bytes each) as the DER `SEQUENCE { INTEGER r, INTEGER s }` openssl reads.
    static func derSignature(_ raw: Data) -> Data {
        func integer(_ bytes: Data) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw.prefix(32)) + integer(raw.suffix(32))
        return Data([0x30, UInt8(body.count)] + body)
    }
}

/// Base64URL without padding, as in JWS.
enum Base64URL {
    static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
