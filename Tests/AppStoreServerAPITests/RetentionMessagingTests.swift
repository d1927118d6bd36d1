#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import Foundation
import Testing

/// The Retention Messaging API (images, messages, default messages, the realtime URL and
/// performance tests), over HTTP against the fake App Store.
@Suite(.timeLimit(.minutes(1)))
struct RetentionMessagingTests {
    static let imageId = UUID(uuidString: "A1B2C3D4-0000-4000-8000-000000000001") ?? UUID()
    static let bulletImageId = UUID(uuidString: "A1B2C3D4-0000-4000-8000-000000000002") ?? UUID()
    static let messageId = UUID(uuidString: "B1B2C3D4-0000-4000-8000-000000000003") ?? UUID()

    /// The bytes of a small PNG file (signature, then a stand-in for its chunks).
    static let png = Data(ExtraRoutes.pngSignature + Array("IHDR and the rest".utf8))

    @Test func imagesUploadListAndDelete() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            try await client.uploadImage(imageIdentifier: Self.imageId, image: Self.png, imageSize: .fullSize)
            let upload = try #require(harness.fake.requests.last)
            #expect("\(upload.method) \(upload.path)" == "PUT /inApps/v1/messaging/image/a1b2c3d4-0000-4000-8000-000000000001")
            #expect(upload.contentType == "image/png")
            #expect(upload.body == Self.png)
            #expect(upload.queryValues("imageSize") == ["FULL_SIZE"])
            try await client.uploadImage(imageIdentifier: Self.bulletImageId, image: Self.png)
            #expect(harness.fake.requests.last?.query.isEmpty == true)

            harness.extra.update { $0.more.images["a1b2c3d4-0000-4000-8000-000000000001"]?.state = "APPROVED" }
            let list = try await client.getImageList()
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "GET /inApps/v1/messaging/image/list")
            let items = try #require(list.imageIdentifiers)
            #expect(items.map(\.imageIdentifier) == [Self.imageId, Self.bulletImageId])
            #expect(items.map(\.imageState) == [.approved, .pending])
            #expect(items.map(\.imageSize) == [.fullSize, nil])

            let again = await apiError { try await client.uploadImage(imageIdentifier: Self.imageId, image: Self.png) }
            #expect(again?.apiError == .imageAlreadyExists)
            #expect(again?.httpStatusCode == 409)
            let notPNG = await apiError { try await client.uploadImage(imageIdentifier: UUID(), image: Data("GIF89a".utf8)) }
            #expect(notPNG?.apiError == .invalidImage)
            let requestsBefore = harness.fake.requests.count
            let empty = await apiError { try await client.uploadImage(imageIdentifier: UUID(), image: Data()) }
            #expect(empty?.code == .invalidRequest)
            #expect(harness.fake.requests.count == requestsBefore)

            try await client.deleteImage(imageIdentifier: Self.bulletImageId)
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "DELETE /inApps/v1/messaging/image/a1b2c3d4-0000-4000-8000-000000000002")
            #expect(try await client.getImageList().imageIdentifiers?.map(\.imageIdentifier) == [Self.imageId])
            let gone = await apiError { try await client.deleteImage(imageIdentifier: Self.bulletImageId) }
            #expect(gone?.apiError == .imageNotFound)
        }
    }

    @Test func messagesUploadListDeleteAndTheirJSON() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            try await client.uploadImage(imageIdentifier: Self.imageId, image: Self.png)
            try await client.uploadImage(imageIdentifier: Self.bulletImageId, image: Self.png, imageSize: .bulletPoint)
            let message = UploadMessageRequestBody(
                header: "Before you go", body: "Stay for half price for three months.",
                image: UploadMessageImage(imageIdentifier: Self.imageId, altText: "A cake"), headerPosition: .aboveImage,
                bulletPoints: [BulletPoint(text: "Every recipe", imageIdentifier: Self.bulletImageId, altText: "A tick")])
            try await client.uploadMessage(messageIdentifier: Self.messageId, request: message)
            let upload = try #require(harness.fake.requests.last)
            #expect("\(upload.method) \(upload.path)" == "PUT /inApps/v1/messaging/message/b1b2c3d4-0000-4000-8000-000000000003")
            #expect(upload.contentType == "application/json")
            let sent = try #require(try JSONSerialization.jsonObject(with: upload.body) as? [String: Any])
            #expect(Set(sent.keys) == ["header", "body", "image", "headerPosition", "bulletPoints"])
            #expect(sent["header"] as? String == "Before you go")
            #expect(sent["headerPosition"] as? String == "ABOVE_IMAGE")
            let image = try #require(sent["image"] as? [String: String])
            #expect(image == ["imageIdentifier": "a1b2c3d4-0000-4000-8000-000000000001", "altText": "A cake"])
            let bullets = try #require(sent["bulletPoints"] as? [[String: String]])
            #expect(bullets == [["text": "Every recipe", "imageIdentifier": "a1b2c3d4-0000-4000-8000-000000000002", "altText": "A tick"]])

            // Bullet images are in use: Apple refuses to delete them.
            let inUse = await apiError { try await client.deleteImage(imageIdentifier: Self.bulletImageId) }
            #expect(inUse?.apiError == .imageInUse)

            let list = try await client.getMessageList()
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "GET /inApps/v1/messaging/message/list")
            #expect(list.messageIdentifiers?.map(\.messageIdentifier) == [Self.messageId])
            #expect(list.messageIdentifiers?.map(\.messageState) == [.pending])

            let tooLong = await apiError {
                try await client.uploadMessage(messageIdentifier: UUID(), request: UploadMessageRequestBody(header: String(repeating: "h", count: 67), body: "b"))
            }
            #expect(tooLong?.apiError == .headerTooLong)
            let noImage = await apiError {
                try await client.uploadMessage(messageIdentifier: UUID(), request: UploadMessageRequestBody(header: "h", body: "b", headerPosition: .aboveImage))
            }
            #expect(noImage?.apiError == .badRequestAboveImageRequiresAnImage)
            let sameId = await apiError {
                try await client.uploadMessage(messageIdentifier: Self.messageId, request: UploadMessageRequestBody(header: "h", body: "b"))
            }
            #expect(sameId?.apiError == .messageAlreadyExists)

            try await client.deleteMessage(messageIdentifier: Self.messageId)
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "DELETE /inApps/v1/messaging/message/b1b2c3d4-0000-4000-8000-000000000003")
            #expect(try await client.getMessageList().messageIdentifiers?.isEmpty == true)
            let gone = await apiError { try await client.deleteMessage(messageIdentifier: Self.messageId) }
            #expect(gone?.apiError == .messageNotFound)
            // A minimal message sends header and body only.
            try await client.uploadMessage(messageIdentifier: Self.messageId, request: UploadMessageRequestBody(header: "h", body: "b"))
            let minimal = try #require(try JSONSerialization.jsonObject(with: harness.fake.requests.last?.body ?? Data()) as? [String: String])
            #expect(minimal == ["header": "h", "body": "b"])
        }
    }

    @Test func defaultMessageConfigureGetDelete() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            try await client.uploadMessage(messageIdentifier: Self.messageId, request: UploadMessageRequestBody(header: "Stay", body: "Please."))
            let configuration = DefaultConfigurationRequest(messageIdentifier: Self.messageId)
            let pending = await apiError { try await client.configureDefaultMessage(productId: "com.example.monthly", locale: "en-US", request: configuration) }
            #expect(pending?.apiError == .messageNotApproved)
            #expect(pending?.httpStatusCode == 403)

            harness.extra.update { $0.more.messages["b1b2c3d4-0000-4000-8000-000000000003"]?.state = "APPROVED" }
            try await client.configureDefaultMessage(productId: "com.example.monthly", locale: "en-US", request: configuration)
            let put = try #require(harness.fake.requests.last)
            #expect("\(put.method) \(put.path)" == "PUT /inApps/v1/messaging/default/com.example.monthly/en-US")
            #expect(try JSONSerialization.jsonObject(with: put.body) as? [String: String] == ["messageIdentifier": "b1b2c3d4-0000-4000-8000-000000000003"])

            let current = try await client.getDefaultMessage(productId: "com.example.monthly", locale: "en-US")
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "GET /inApps/v1/messaging/default/com.example.monthly/en-US")
            #expect(current.messageIdentifier == Self.messageId)

            let badLocale = await apiError { try await client.configureDefaultMessage(productId: "com.example.monthly", locale: "english", request: configuration) }
            #expect(badLocale?.apiError == .invalidLocale)

            try await client.deleteDefaultMessage(productId: "com.example.monthly", locale: "en-US")
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "DELETE /inApps/v1/messaging/default/com.example.monthly/en-US")
            let none = await apiError { _ = try await client.getDefaultMessage(productId: "com.example.monthly", locale: "en-US") }
            #expect(none?.apiError == .defaultMessageNotFound)
            #expect(none?.httpStatusCode == 404)
        }
    }

    @Test func realtimeURLAndPerformanceTest() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            let missing = await apiError { _ = try await client.getRealtimeUrl() }
            #expect(missing?.apiError == .realtimeUrlNotFound)
            let badURL = await apiError { try await client.configureRealtimeUrl(request: RealtimeUrlRequest(realtimeURL: "ftp://example.com/retention")) }
            #expect(badURL?.apiError == .badRequestRealtimeUrl)

            try await client.configureRealtimeUrl(request: RealtimeUrlRequest(realtimeURL: "https://example.com/retention"))
            let put = try #require(harness.fake.requests.last)
            #expect("\(put.method) \(put.path)" == "PUT /inApps/v1/messaging/realtime/url")
            #expect(try JSONSerialization.jsonObject(with: put.body) as? [String: String] == ["realtimeURL": "https://example.com/retention"])
            let configured = try await client.getRealtimeUrl()
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "GET /inApps/v1/messaging/realtime/url")
            #expect(configured.realtimeURL == "https://example.com/retention")

            let started = try await client.initiatePerformanceTest(request: PerformanceTestRequest(originalTransactionId: "1000"))
            let post = try #require(harness.fake.requests.last)
            #expect("\(post.method) \(post.path)" == "POST /inApps/v1/messaging/performanceTest")
            #expect(try JSONSerialization.jsonObject(with: post.body) as? [String: String] == ["originalTransactionId": "1000"])
            let requestId = try #require(started.requestId)
            #expect(started.config?.maxConcurrentRequests == 2)
            #expect(started.config?.totalRequests == 12)
            #expect(started.config?.totalDuration == 60_000)
            #expect(started.config?.responseTimeThreshold == 700)
            #expect(started.config?.successRateThreshold == 95)
            let second = await apiError { _ = try await client.initiatePerformanceTest(request: PerformanceTestRequest(originalTransactionId: "1000")) }
            #expect(second?.apiError == .existingPerformanceTestRun)

            let results = try await client.getPerformanceTestResults(requestId: requestId)
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "GET /inApps/v1/messaging/performanceTest/result/\(requestId)")
            #expect(results.result == .pass)
            #expect(results.target == "https://example.com/retention")
            #expect(results.successRate == 100)
            #expect(results.numPending == 0)
            #expect(results.config?.totalRequests == 12)
            let times = try #require(results.responseTimes)
            #expect([times.average, times.p50, times.p90, times.p95, times.p99] == [120, 100, 180, 210, 300])
            #expect(results.rawFailures == ["TIMED_OUT": 0, "SOCKET_ISSUE": 1])
            #expect(results.failures == [.timedOut: 0, .socketIssue: 1])
            let unknown = await apiError { _ = try await client.getPerformanceTestResults(requestId: requestId) }
            #expect(unknown?.apiError == .performanceTestRunNotFound)

            try await client.deleteRealtimeUrl()
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "DELETE /inApps/v1/messaging/realtime/url")
            let deleted = await apiError { _ = try await client.getRealtimeUrl() }
            #expect(deleted?.apiError == .realtimeUrlNotFound)
        }
    }

    @Test func productionRealtimeURLNeedsAPassedPerformanceTest() async throws {
        try await Harness.with { harness in
            harness.extra.update { $0.environment = "Production" }
            let client = try harness.client()
            let refused = await apiError { try await client.configureRealtimeUrl(request: RealtimeUrlRequest(realtimeURL: "https://example.com/retention")) }
            #expect(refused?.apiError == .forbiddenNoPassingTest)
            #expect(refused?.httpStatusCode == 403)
            #expect(refused?.isRetryable == false)
        }
    }
}
#endif
