import Foundation
import Testing
@testable import AppStoreVerification

@Suite("Payload JSON decoding")
struct PayloadJSONDecoderTests {
    static func decodeTransaction(_ json: String) throws -> Transaction {
        try AppStoreJSON.decode(Transaction.self, from: Data(json.utf8))
    }

    @Test("strict RFC 8259: every malformed document is refused with an empty coding path", arguments: [
        "", " ", "{", "{\"a\":1,}", "{\"a\":01}", "{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":-}", "{\"a\":1.}",
        "{\"a\":.5}", "{\"a\":1e}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\u{01}\"}", "{\"a\":\"\\x\"}",
        "{\"a\":tru}", "{\"a\":1} x", "{'a':1}", "{\"a\" 1}", "{a:1}", "[1,]", "{\"a\":\"unterminated}",
        "{\"transactionId\":\"1\",\"transactionId\":\"2\"}", "{\"a\":{\"b\":1,\"b\":1}}",
    ])
    func malformed(_ json: String) {
        do {
            _ = try Self.decodeTransaction(json)
            Issue.record("\(json) must be refused")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.codingPath.isEmpty, "\(json)")
        } catch {
            Issue.record("\(json): unexpected \(error)")
        }
    }

    @Test("invalid UTF-8 and nesting beyond the limit are refused without a crash")
    func hostile() throws {
        var bytes = Array("{\"transactionId\":\"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        #expect(throws: DecodingError.self) { try AppStoreJSON.decode(Transaction.self, from: Data(bytes)) }
        bytes = Array(("{\"a\":" + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}").utf8)
        #expect(throws: DecodingError.self) { try AppStoreJSON.decode(Transaction.self, from: Data(bytes)) }
        let big = "{\"transactionId\":\"" + String(repeating: "x", count: 1 << 20) + "\"}"
        #expect(try Self.decodeTransaction(big).transactionId?.count == 1 << 20)
    }

    @Test("numbers decode exactly; one that does not fit is reported at its field")
    func numbers() throws {
        #expect(try Self.decodeTransaction("{\"price\":9223372036854775807}").price == Int64.max)
        #expect(try Self.decodeTransaction("{\"quantity\":-2147483648}").quantity == Int32.min)
        for (json, field) in [("{\"quantity\":1.5}", "quantity"), ("{\"quantity\":2147483648}", "quantity"),
                              ("{\"price\":9223372036854775808}", "price"), ("{\"quantity\":1e2}", "quantity"),
                              ("{\"signedDate\":1e400}", "signedDate")] {
            do {
                _ = try Self.decodeTransaction(json)
                Issue.record("\(json) must be refused")
            } catch let DecodingError.dataCorrupted(context) {
                #expect(context.codingPath.map(\.stringValue) == [field], "\(json)")
            }
        }
        let date = try #require(try Self.decodeTransaction("{\"signedDate\":1697679936049.7297}").signedDate)
        #expect(abs(date.timeIntervalSince1970 - 1_697_679_936.0497297) < 1e-6)
    }

    @Test("types, nulls, unknown keys and escapes behave as with JSONDecoder")
    func typesAndNulls() throws {
        do {
            _ = try Self.decodeTransaction("{\"transactionId\":5}")
            Issue.record("a number is not a string")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["transactionId"])
        }
        let transaction = try Self.decodeTransaction(#"{"transactionId":null,"unknownField":{"x":[1,2,{"y":null}]},"productId":"a\u00e9\ud83d\ude00\n\"/"}"#)
        #expect(transaction.transactionId == nil)
        #expect(transaction.productId == "aé😀\n\"/")
    }

    static let modelFiles: [URL] = {
        let directory = TestPaths.sharedFile("vectors/apple/models")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { directory.appendingPathComponent($0) }
    }()

    @Test("every shipped vector's payload decodes to the same model as with JSONDecoder")
    func agreesWithFoundationOnVectors() throws {
        var compared = 0
        for vector in ManifestVector.all where vector.expected.status != "malformed" {
            let jws = try TestPaths.text(TestPaths.testVector(vector.file))
            let payload = try CompactJWS(parsing: jws).payloadData
            switch vector.type {
            case "transaction":
                #expect(try AppStoreJSON.decode(Transaction.self, from: payload) == AppStoreJSON.makeDecoder().decode(Transaction.self, from: payload), "\(vector.name)")
            case "renewal":
                #expect(try AppStoreJSON.decode(RenewalInfo.self, from: payload) == AppStoreJSON.makeDecoder().decode(RenewalInfo.self, from: payload), "\(vector.name)")
            case "app-transaction":
                #expect(try AppStoreJSON.decode(AppTransaction.self, from: payload) == AppStoreJSON.makeDecoder().decode(AppTransaction.self, from: payload), "\(vector.name)")
            case "notification":
                #expect(try AppStoreJSON.decode(ResponseBodyV2DecodedPayload.self, from: payload) == AppStoreJSON.makeDecoder().decode(ResponseBodyV2DecodedPayload.self, from: payload), "\(vector.name)")
            default:
                continue
            }
            compared += 1
        }
        #expect(compared >= 50)
    }

    @Test("Apple's sample payloads decode to the same models as with JSONDecoder", .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
    func agreesWithFoundationOnAppleSamples() throws {
        for file in Self.modelFiles {
            let data = try Data(contentsOf: file)
            let name = file.lastPathComponent
            if name.hasPrefix("signedTransaction") {
                #expect(try AppStoreJSON.decode(Transaction.self, from: data) == AppStoreJSON.makeDecoder().decode(Transaction.self, from: data), "\(name)")
            } else if name == "signedRenewalInfo.json" {
                #expect(try AppStoreJSON.decode(RenewalInfo.self, from: data) == AppStoreJSON.makeDecoder().decode(RenewalInfo.self, from: data), "\(name)")
            } else if name == "appTransaction.json" {
                #expect(try AppStoreJSON.decode(AppTransaction.self, from: data) == AppStoreJSON.makeDecoder().decode(AppTransaction.self, from: data), "\(name)")
            } else if name.hasSuffix("Notification.json") {
                #expect(try AppStoreJSON.decode(ResponseBodyV2DecodedPayload.self, from: data) == AppStoreJSON.makeDecoder().decode(ResponseBodyV2DecodedPayload.self, from: data), "\(name)")
            } else if name == "decodedRealtimeRequest.json" {
                #expect(try AppStoreJSON.decode(DecodedRealtimeRequestBody.self, from: data) == AppStoreJSON.makeDecoder().decode(DecodedRealtimeRequestBody.self, from: data), "\(name)")
            }
        }
    }

    @Test("2,000 random documents: both decoders agree on success and on the value")
    func randomDifferential() throws {
        var random = SplitMix64(seed: 0x5EED)
        let fields = ["transactionId", "bundleId", "quantity", "price", "signedDate", "isUpgraded", "environment", "offerType", "type", "storefront"]
        let values = ["\"x\"", "\"Sandbox\"", "1", "-7", "1.5", "0", "2147483648", "1697679936049", "1.7e3", "true", "false", "null", "[]", "{}", "[\"a\"]", "\"\\u00e9\"", "\"2\""]
        for _ in 0..<2_000 {
            let count = Int(random.next() % 5)
            var members: [String] = []
            for _ in 0..<count {
                let field = fields[Int(random.next() % UInt64(fields.count))]
                guard !members.contains(where: { $0.hasPrefix("\"\(field)\"") }) else { continue }
                members.append("\"\(field)\":\(values[Int(random.next() % UInt64(values.count))])")
            }
            let json = Data("{\(members.joined(separator: ","))}".utf8)
            let ours = try? AppStoreJSON.decode(Transaction.self, from: json)
            let theirs = try? AppStoreJSON.makeDecoder().decode(Transaction.self, from: json)
            // Foundation accepts an integer field written with an exponent or fraction when the value
            // is whole (1.7e3 into Int64); we require integer syntax. Those cases are skipped.
            if theirs != nil, ours == nil, json.range(of: Data("e3".utf8)) != nil || json.range(of: Data(".".utf8)) != nil { continue }
            #expect(ours == theirs, "\(String(decoding: json, as: UTF8.self))")
        }
    }
}
