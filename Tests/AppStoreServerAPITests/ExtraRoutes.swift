#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import Foundation

/// The endpoints the package's own API tests call that AppStoreServerAPITesting's fake does not
/// serve itself: renewal-date extensions (one and mass), Set App Account Token, Send Consumption
/// Information (V1 and V2), Finish Transaction and the Retention Messaging API, plugged into the fake
/// with `setFallbackRoute`. Each checks the method, the path and the body's JSON as Apple documents
/// them, and answers with Apple's JSON or Apple's error code; what they were sent is kept for the
/// tests to read.
final class ExtraRoutes: @unchecked Sendable {
    typealias Request = FakeAppStoreServerAPI.Request
    typealias Reply = FakeAppStoreServerAPI.Response

    /// What the routes remember, read and changed under `lock`.
    struct Storage {
        var extensions: [String: [String: Any]] = [:]
        var appAccountTokens: [String: String] = [:]
        var consumption: [String: [String: Any]] = [:]
        var environment = "Sandbox"
        /// Mass extensions, consumption V1, finished transactions, retention messaging.
        var more = MoreState()
        /// The Advanced Commerce API routes' signed data and what they were sent.
        var advancedCommerce = AdvancedCommerceState()
    }

    private let fake: FakeAppStoreServerAPI
    private let lock = NSLock()
    private var storage = Storage()

    init(fake: FakeAppStoreServerAPI) {
        self.fake = fake
    }

    /// Changes the storage under the lock.
    func update(_ body: (inout Storage) -> Void) {
        lock.withLock { body(&storage) }
    }

    /// Reads the storage under the lock.
    func read<T>(_ body: (Storage) -> T) -> T {
        lock.withLock { body(storage) }
    }

    /// The answer to `request` when it is one of these routes, else `nil`.
    func answer(_ request: Request) -> Reply? {
        lock.withLock { route(request) ?? advancedCommerceRoutes(request, &storage) }
    }

    /// What these routes remember.
    struct MoreState {
        /// Mass extension requests by request identifier (the body as sent).
        var massExtensions: [String: [String: Any]] = [:]
        /// Send Consumption Information V1 bodies by transaction ID.
        var consumptionV1: [String: [String: Any]] = [:]
        /// Finished transaction IDs, in order.
        var finished: [String] = []
        /// Uploaded images by identifier.
        var images: [String: Image] = [:]
        /// Uploaded messages by identifier.
        var messages: [String: Message] = [:]
        /// Default messages: "productId/locale" to message identifier.
        var defaults: [String: String] = [:]
        /// The configured realtime URL.
        var realtimeURL: String?
        /// Performance tests by request ID: the original transaction ID.
        var performanceTests: [String: String] = [:]
        /// Whether a performance test passed (production realtime URLs need one).
        var passedPerformanceTest = false
    }

    static let notFound = Reply.apiError(404, code: 4040010, message: "Transaction id not found.")

    /// An uploaded image.
    struct Image {
        var state = "PENDING"
        var size: String?
        var bytes: Data
    }

    /// An uploaded message.
    struct Message {
        var state = "PENDING"
        var body: [String: Any]
    }

    /// The first eight bytes of every PNG file.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private func route(_ request: Request) -> Reply? {
        if request.match("PUT /inApps/v1/subscriptions/extend/*") != nil {
            let id = request.match("PUT /inApps/v1/subscriptions/extend/*")?.first ?? ""
            guard let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
                  let days = (body["extendByDays"] as? NSNumber)?.intValue, (1...90).contains(days),
                  body["extendReasonCode"] is NSNumber, body["requestIdentifier"] is String
            else { return .apiError(400, code: 4000009, message: "Invalid extend by days value.") }
            storage.extensions[id] = body
            return .jsonObject(["originalTransactionId": id, "webOrderLineItemId": "wo-\(id)", "success": true, "effectiveDate": 1_800_000_000_000])
        }
        if request.match("PUT /inApps/v1/transactions/*/appAccountToken") != nil {
            let id = request.match("PUT /inApps/v1/transactions/*/appAccountToken")?.first ?? ""
            guard let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
                  let token = body["appAccountToken"] as? String, UUID(uuidString: token) != nil
            else { return .apiError(400, code: 4000183, message: "Invalid appAccountToken.") }
            storage.appAccountTokens[id] = token
            return Reply(status: 200)
        }
        if request.match("PUT /inApps/v2/transactions/consumption/*") != nil {
            let id = request.match("PUT /inApps/v2/transactions/consumption/*")?.first ?? ""
            guard let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
                  body["customerConsented"] as? Bool == true, body["sampleContentProvided"] is Bool, body["deliveryStatus"] is String
            else { return .apiError(400, code: 4000035, message: "Invalid customer consented value.") }
            storage.consumption[id] = body
            return Reply(status: 202)
        }
        let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
        if request.match("POST /inApps/v1/subscriptions/extend/mass") != nil { return massExtend(body) }
        if let ids = request.match("GET /inApps/v1/subscriptions/extend/mass/*/*") {
            return massExtendStatus(productId: ids[0], requestIdentifier: ids[1])
        }
        if let ids = request.match("PUT /inApps/v1/transactions/consumption/*") { return consumptionV1(transactionId: ids[0], body) }
        if let ids = request.match("POST /inApps/v1/transactions/*/finish") {
            guard request.body.isEmpty else { return .apiError(400, code: 4000000, message: "Finish Transaction takes no body.") }
            guard fake.transactionInfo(for: ids[0]) != nil else { return Self.notFound }
            storage.more.finished.append(ids[0])
            return Reply(status: 200)
        }
        if request.match("GET /inApps/v1/messaging/image/list") != nil {
            let items = storage.more.images.sorted { $0.key < $1.key }.map { id, image -> [String: Any] in
                var item: [String: Any] = ["imageIdentifier": id, "imageState": image.state]
                if let size = image.size { item["imageSize"] = size }
                return item
            }
            return .jsonObject(["imageIdentifiers": items])
        }
        if let ids = request.match("PUT /inApps/v1/messaging/image/*") { return uploadImage(id: ids[0], request) }
        if let ids = request.match("DELETE /inApps/v1/messaging/image/*") { return deleteImage(id: ids[0]) }
        if request.match("GET /inApps/v1/messaging/message/list") != nil {
            let items = storage.more.messages.sorted { $0.key < $1.key }.map { ["messageIdentifier": $0.key, "messageState": $0.value.state] }
            return .jsonObject(["messageIdentifiers": items])
        }
        if let ids = request.match("PUT /inApps/v1/messaging/message/*") { return uploadMessage(id: ids[0], body) }
        if let ids = request.match("DELETE /inApps/v1/messaging/message/*") {
            guard storage.more.messages.removeValue(forKey: ids[0]) != nil else { return Self.messageNotFound }
            return Reply(status: 200)
        }
        if let ids = request.match("PUT /inApps/v1/messaging/default/*/*") { return configureDefault(productId: ids[0], locale: ids[1], body) }
        if let ids = request.match("DELETE /inApps/v1/messaging/default/*/*") {
            guard storage.more.defaults.removeValue(forKey: ids[0] + "/" + ids[1]) != nil else { return Self.defaultNotFound }
            return Reply(status: 200)
        }
        if let ids = request.match("GET /inApps/v1/messaging/default/*/*") {
            guard let message = storage.more.defaults[ids[0] + "/" + ids[1]] else { return Self.defaultNotFound }
            return .jsonObject(["messageIdentifier": message])
        }
        if request.match("PUT /inApps/v1/messaging/realtime/url") != nil { return configureRealtimeURL(body) }
        if request.match("DELETE /inApps/v1/messaging/realtime/url") != nil {
            guard storage.more.realtimeURL != nil else { return Self.realtimeURLNotFound }
            storage.more.realtimeURL = nil
            return Reply(status: 200)
        }
        if request.match("GET /inApps/v1/messaging/realtime/url") != nil {
            guard let url = storage.more.realtimeURL else { return Self.realtimeURLNotFound }
            return .jsonObject(["realtimeURL": url])
        }
        if request.match("POST /inApps/v1/messaging/performanceTest") != nil { return initiatePerformanceTest(body) }
        if let ids = request.match("GET /inApps/v1/messaging/performanceTest/result/*") { return performanceTestResult(requestId: ids[0]) }
        return nil
    }

    private static let messageNotFound = Reply.apiError(404, code: 4040015, message: "Message not found.")
    private static let imageNotFound = Reply.apiError(404, code: 4040014, message: "Image not found.")
    private static let defaultNotFound = Reply.apiError(404, code: 4040020, message: "Default message not found.")
    private static let realtimeURLNotFound = Reply.apiError(404, code: 4040021, message: "Realtime URL not found.")

    // MARK: - Mass extension

    private func massExtend(_ body: [String: Any]?) -> Reply {
        guard let body, let days = (body["extendByDays"] as? NSNumber)?.intValue, (1...90).contains(days) else {
            return .apiError(400, code: 4000009, message: "Invalid extend by days value.")
        }
        guard let reason = (body["extendReasonCode"] as? NSNumber)?.intValue, (0...3).contains(reason) else {
            return .apiError(400, code: 4000010, message: "Invalid extend reason code.")
        }
        guard let identifier = body["requestIdentifier"] as? String, !identifier.isEmpty, identifier.count <= 128 else {
            return .apiError(400, code: 4000011, message: "Invalid request identifier.")
        }
        guard let product = body["productId"] as? String, !product.isEmpty else {
            return .apiError(400, code: 4000023, message: "Invalid product id.")
        }
        if let codes = body["storefrontCountryCodes"] {
            guard let list = codes as? [String], list.allSatisfy({ $0.count == 3 && $0.allSatisfy(\.isUppercase) }) else {
                return .apiError(400, code: 4000028, message: "Invalid storefront country code.")
            }
        }
        storage.more.massExtensions[identifier] = body
        return .jsonObject(["requestIdentifier": identifier])
    }

    private func massExtendStatus(productId: String, requestIdentifier: String) -> Reply {
        guard let sent = storage.more.massExtensions[requestIdentifier], sent["productId"] as? String == productId else {
            return .apiError(404, code: 4040009, message: "Status request not found.")
        }
        return .jsonObject(["requestIdentifier": requestIdentifier, "complete": true, "completeDate": 1_800_000_000_000,
                      "succeededCount": 30, "failedCount": 2])
    }

    // MARK: - Send Consumption Information V1

    private func consumptionV1(transactionId: String, _ body: [String: Any]?) -> Reply {
        guard let body else { return .apiError(400, code: 4000000, message: "The body is not a JSON object.") }
        guard body["customerConsented"] as? Bool == true else { return .apiError(400, code: 4000035, message: "Invalid customer consented value.") }
        guard body["sampleContentProvided"] is Bool else { return .apiError(400, code: 4000041, message: "Invalid sample content provided value.") }
        // Every enumerated field is required, a number in Apple's range.
        let ranges: [(String, ClosedRange<Int>, Int64)] = [
            ("consumptionStatus", 0...3, 4000034), ("platform", 0...2, 4000039), ("deliveryStatus", 0...5, 4000036),
            ("accountTenure", 0...7, 4000032), ("playTime", 0...7, 4000040), ("lifetimeDollarsRefunded", 0...7, 4000038),
            ("lifetimeDollarsPurchased", 0...7, 4000037), ("userStatus", 0...4, 4000042),
        ]
        for (field, range, code) in ranges {
            guard let number = body[field] as? NSNumber, range.contains(number.intValue) else {
                return .apiError(400, code: code, message: "Invalid \(field) value.")
            }
        }
        guard let token = body["appAccountToken"] as? String, token.isEmpty || UUID(uuidString: token) != nil else {
            return .apiError(400, code: 4000033, message: "Invalid app account token.")
        }
        if let preference = body["refundPreference"], !((preference as? NSNumber).map { (0...3).contains($0.intValue) } ?? false) {
            return .apiError(400, code: 4000000, message: "Invalid refund preference.")
        }
        storage.more.consumptionV1[transactionId] = body
        return Reply(status: 202)
    }

    // MARK: - Retention messaging

    private func uploadImage(id: String, _ request: Request) -> Reply {
        guard UUID(uuidString: id) != nil, id == id.lowercased() else { return .apiError(400, code: 4000000, message: "Invalid image identifier.") }
        guard request.contentType == "image/png", request.body.starts(with: Self.pngSignature) else {
            return .apiError(400, code: 4000161, message: "Invalid image.")
        }
        let size = request.queryValues("imageSize").first
        if let size, size != "FULL_SIZE", size != "BULLET_POINT" { return .apiError(400, code: 4000216, message: "Invalid image size.") }
        guard storage.more.images[id] == nil else { return .apiError(409, code: 4090000, message: "Image already exists.") }
        storage.more.images[id] = Image(size: size, bytes: request.body)
        return Reply(status: 200)
    }

    private func deleteImage(id: String) -> Reply {
        guard storage.more.images[id] != nil else { return Self.imageNotFound }
        let used = storage.more.messages.values.contains { message in
            (message.body["image"] as? [String: Any])?["imageIdentifier"] as? String == id
                || ((message.body["bulletPoints"] as? [[String: Any]]) ?? []).contains { $0["imageIdentifier"] as? String == id }
        }
        guard !used else { return .apiError(403, code: 4030019, message: "Image in use.") }
        storage.more.images[id] = nil
        return Reply(status: 200)
    }

    private func uploadMessage(id: String, _ body: [String: Any]?) -> Reply {
        guard UUID(uuidString: id) != nil, id == id.lowercased() else { return .apiError(400, code: 4000000, message: "Invalid message identifier.") }
        guard let body, let header = body["header"] as? String, let text = body["body"] as? String else {
            return .apiError(400, code: 4000000, message: "header and body are required.")
        }
        guard header.count <= 66 else { return .apiError(400, code: 4000162, message: "Header text too long.") }
        guard text.count <= 144 else { return .apiError(400, code: 4000163, message: "Body text too long.") }
        var images: [[String: Any]] = []
        if let image = body["image"] {
            guard let object = image as? [String: Any] else { return .apiError(400, code: 4000000, message: "image is not an object.") }
            images.append(object)
        }
        if let position = body["headerPosition"] {
            guard let value = position as? String, value == "ABOVE_BODY" || value == "ABOVE_IMAGE" else {
                return .apiError(400, code: 4000000, message: "Invalid header position.")
            }
            if value == "ABOVE_IMAGE", body["image"] == nil { return .apiError(400, code: 4000224, message: "Above image requires an image.") }
        }
        if let bullets = body["bulletPoints"] {
            guard let list = bullets as? [[String: Any]] else { return .apiError(400, code: 4000000, message: "bulletPoints is not an array of objects.") }
            guard list.count <= 5 else { return .apiError(400, code: 4000218, message: "Too many bullet points.") }
            for bullet in list {
                guard let text = bullet["text"] as? String else { return .apiError(400, code: 4000000, message: "A bullet point has no text.") }
                guard text.count <= 66 else { return .apiError(400, code: 4000219, message: "Bullet point text too long.") }
                images.append(bullet)
            }
        }
        for image in images {
            guard let identifier = image["imageIdentifier"] as? String, let alt = image["altText"] as? String else {
                return .apiError(400, code: 4000000, message: "An image needs imageIdentifier and altText.")
            }
            guard alt.count <= 150 else { return .apiError(400, code: 4000175, message: "Alt text too long.") }
            guard storage.more.images[identifier] != nil else { return Self.imageNotFound }
        }
        guard storage.more.messages[id] == nil else { return .apiError(409, code: 4090001, message: "Message already exists.") }
        storage.more.messages[id] = Message(body: body)
        return Reply(status: 200)
    }

    private func configureDefault(productId: String, locale: String, _ body: [String: Any]?) -> Reply {
        let localePattern = locale.split(separator: "-")
        guard localePattern.count == 2, localePattern[0].count == 2, localePattern[1].count == 2 else {
            return .apiError(400, code: 4000164, message: "Invalid locale.")
        }
        guard let body, let id = body["messageIdentifier"] as? String, UUID(uuidString: id) != nil else {
            return .apiError(400, code: 4000000, message: "messageIdentifier is required.")
        }
        guard let message = storage.more.messages[id] else { return Self.messageNotFound }
        guard message.state == "APPROVED" else { return .apiError(403, code: 4030017, message: "Message not approved.") }
        storage.more.defaults[productId + "/" + locale] = id
        return Reply(status: 200)
    }

    private func configureRealtimeURL(_ body: [String: Any]?) -> Reply {
        guard let body, let url = body["realtimeURL"] as? String, url.count <= 256, url.hasPrefix("https://"), URL(string: url)?.host != nil else {
            return .apiError(400, code: 4000215, message: "Invalid realtime URL.")
        }
        if storage.environment == "Production", !storage.more.passedPerformanceTest {
            return .apiError(403, code: 4030026, message: "A passing performance test is required.")
        }
        storage.more.realtimeURL = url
        return Reply(status: 200)
    }

    private static var performanceConfig: [String: Any] {
        ["maxConcurrentRequests": 2, "totalRequests": 12, "totalDuration": 60_000, "responseTimeThreshold": 700, "successRateThreshold": 95]
    }

    private func initiatePerformanceTest(_ body: [String: Any]?) -> Reply {
        guard let body, let original = body["originalTransactionId"] as? String, !original.isEmpty else {
            return .apiError(400, code: 4000211, message: "Invalid performance test request.")
        }
        guard storage.more.realtimeURL != nil else { return Self.realtimeURLNotFound }
        guard storage.more.performanceTests.isEmpty else { return .apiError(400, code: 4000213, message: "A performance test is already running.") }
        let requestId = "perf-\(original)"
        storage.more.performanceTests[requestId] = original
        return .jsonObject(["config": Self.performanceConfig, "requestId": requestId])
    }

    private func performanceTestResult(requestId: String) -> Reply {
        guard storage.more.performanceTests.removeValue(forKey: requestId) != nil else {
            return .apiError(404, code: 4040018, message: "Performance test run not found.")
        }
        storage.more.passedPerformanceTest = true
        return .jsonObject([
            "config": Self.performanceConfig, "target": storage.more.realtimeURL ?? "", "result": "PASS", "successRate": 100, "numPending": 0,
            "responseTimes": ["average": 120, "p50": 100, "p90": 180, "p95": 210, "p99": 300],
            "failures": ["TIMED_OUT": 0, "SOCKET_ISSUE": 1],
        ])
    }
}

extension FakeAppStoreServerAPI.Response {
    /// A JSON answer from a JSONSerialization object (the tests' own routes build their bodies so).
    static func jsonObject(_ object: Any, status: Int = 200) -> Self {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Self(status: status, headers: [.init(name: "Content-Type", value: "application/json")], body: data)
    }

    /// Apple's error answer with a raw error code.
    static func apiError(_ status: Int, code: Int64, message: String) -> Self {
        .apiError(status: status, code: APIErrorCode(rawValue: code), message: message)
    }
}
#endif
