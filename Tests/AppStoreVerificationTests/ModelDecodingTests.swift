import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

// MARK: - Apple's sample payloads

/// `<package root>/../shared/vectors/apple/models`: Apple's sample payloads, kept beside the
/// repository rather than in it.
private let appleModelVectors: URL = TestPaths.sharedFile("vectors/apple/models")

/// The `.json` files in ``appleModelVectors``, or none when the folder is absent.
private let appleModelVectorNames: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: appleModelVectors.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
}()

/// Decodes `data` as `T` with the App Store conventions and encodes it back.
private func reencode<T: Codable>(_: T.Type, _ data: Data) throws -> Data {
    let value = try AppStoreJSON.makeDecoder().decode(T.self, from: data)
    return try AppStoreJSON.makeEncoder().encode(value)
}

/// Decodes a sample file into the model its name stands for and encodes it back; `nil` for a file
/// name no model is known for.
private func reencodeSample(named name: String, _ data: Data) throws -> Data? {
    switch name {
    case _ where name.hasPrefix("signedTransaction"):
        return try reencode(Transaction.self, data)
    case "signedRenewalInfo.json":
        return try reencode(RenewalInfo.self, data)
    case "appTransaction.json":
        return try reencode(AppTransaction.self, data)
    case _ where name.hasPrefix("signed") && name.hasSuffix("Notification.json"):
        return try reencode(ResponseBodyV2DecodedPayload.self, data)
    case "decodedRealtimeRequest.json":
        return try reencode(DecodedRealtimeRequestBody.self, data)
    case "appData.json":
        return try reencode(AppData.self, data)
    default:
        return nil
    }
}

// MARK: - Comparing JSON

/// A JSON value, for comparing two documents by meaning: object keys in any order, numbers by value,
/// and `true` distinct from `1`.
private indirect enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    init(parsing data: Data) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let values): "[\(values.map(\.description).joined(separator: ", "))]"
        case .object(let members):
            "{\(members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", "))}"
        }
    }

    /// The keys of this object, when it is one.
    var keys: Set<String> {
        if case .object(let members) = self { Set(members.keys) } else { [] }
    }
}

// MARK: - Tests

@Suite("Payload models")
struct ModelDecodingTests {
    // Skipped, not failed, when shared/ is not checked out beside the package: the samples are
    // Apple's and are not part of this repository.
    @Test(
        "Every Apple sample payload decodes and re-encodes without losing a field",
        .enabled(
            if: !appleModelVectorNames.isEmpty,
            "Apple's sample payloads are absent: expected them in \(appleModelVectors.path)"),
        arguments: appleModelVectorNames)
    func sampleRoundTrips(fileName: String) throws {
        let original = try Data(contentsOf: appleModelVectors.appendingPathComponent(fileName))
        guard let reencoded = try reencodeSample(named: fileName, original) else {
            Issue.record("No model is mapped to the sample file \(fileName); map it in reencodeSample.")
            return
        }
        let expected = try JSONValue(parsing: original)
        let actual = try JSONValue(parsing: reencoded)
        #expect(actual.keys == expected.keys, "Top-level keys lost or added in \(fileName)")
        #expect(actual == expected, "\(fileName) changed in the round trip")
    }

    @Test("The samples folder maps every file to a model")
    func everySampleHasAModel() throws {
        for name in appleModelVectorNames {
            let data = try Data(contentsOf: appleModelVectors.appendingPathComponent(name))
            #expect(try reencodeSample(named: name, data) != nil, "no model for \(name)")
        }
    }

    @Test("An unknown environment and offer type decode and round-trip")
    func unknownTransactionValues() throws {
        let json = Data(#"""
            {"transactionId":"1","environment":"FutureEnv","offerType":9,"type":"Subscription Bundle",
             "revocationType":"REFUND_SOMETHING","price":10990,"purchaseDate":1698148900000}
            """#.utf8)
        let transaction = try AppStoreJSON.makeDecoder().decode(Transaction.self, from: json)
        #expect(transaction.environment.rawValue == "FutureEnv")
        #expect(transaction.environment.isDocumented == false)
        #expect(transaction.environment != .production)
        #expect(transaction.offerType == OfferType(rawValue: 9))
        #expect(transaction.offerType?.isDocumented == false)
        #expect(transaction.type.rawValue == "Subscription Bundle")
        #expect(transaction.revocationType?.rawValue == "REFUND_SOMETHING")
        #expect(transaction.price == 10990)
        #expect(transaction.purchaseDate == Date(timeIntervalSince1970: 1_698_148_900))
        #expect(transaction.jws == nil)

        let reencoded = try AppStoreJSON.makeEncoder().encode(transaction)
        #expect(try JSONValue(parsing: reencoded) == JSONValue(parsing: json))
    }

    @Test("An unknown notification type and subtype decode and round-trip")
    func unknownNotificationType() throws {
        let json = Data(#"""
            {"notificationType":"SOMETHING_NEW","subtype":"NEW_SUBTYPE","notificationUUID":"x",
             "version":"2.0","signedDate":1698148900000,
             "data":{"environment":"Sandbox","status":42,"consumptionRequestReason":"NEW_REASON"}}
            """#.utf8)
        let notification = try AppStoreJSON.makeDecoder().decode(ResponseBodyV2DecodedPayload.self, from: json)
        #expect(notification.notificationType == NotificationTypeV2(rawValue: "SOMETHING_NEW"))
        #expect(notification.notificationType?.isDocumented == false)
        #expect(notification.subtype?.rawValue == "NEW_SUBTYPE")
        #expect(notification.data?.environment == .sandbox)
        #expect(notification.data?.status?.rawValue == 42)
        #expect(notification.data?.consumptionRequestReason?.rawValue == "NEW_REASON")
        #expect(notification.signedDate == Date(timeIntervalSince1970: 1_698_148_900))

        let reencoded = try AppStoreJSON.makeEncoder().encode(notification)
        #expect(try JSONValue(parsing: reencoded) == JSONValue(parsing: json))
    }

    @Test("A custom link token's type and expiry decode, a type Apple adds later too, and round-trip")
    func externalPurchaseCustomLinkToken() throws {
        for (type, expected) in [("SERVICES", ExternalPurchaseTokenType.services), ("ACQUISITION", .acquisition), ("FUTURE_KIND", ExternalPurchaseTokenType(rawValue: "FUTURE_KIND"))] {
            let json = Data(#"""
                {"notificationType":"EXTERNAL_PURCHASE_TOKEN","subtype":"CREATED","notificationUUID":"x","version":"2.0","signedDate":1698148900000,
                 "externalPurchaseToken":{"externalPurchaseId":"b2158121-7af9-49d4-9561-1f588205523e","tokenCreationDate":1698148950000,
                 "appAppleId":55555,"bundleId":"com.example","tokenType":"\#(type)","tokenExpirationDate":1698235350000}}
                """#.utf8)
            let notification = try AppStoreJSON.makeDecoder().decode(ResponseBodyV2DecodedPayload.self, from: json)
            let token = try #require(notification.externalPurchaseToken)
            #expect(token.tokenType == expected)
            #expect(token.tokenType?.isDocumented == (type != "FUTURE_KIND"))
            #expect(token.tokenExpirationDate == Date(timeIntervalSince1970: 1_698_235_350))
            let reencoded = try AppStoreJSON.makeEncoder().encode(notification)
            #expect(try JSONValue(parsing: reencoded) == JSONValue(parsing: json))
        }
    }

    @Test("Documented values compare equal to their constants")
    func documentedValues() throws {
        let json = Data(#"{"environment":"LocalTesting","offerType":4,"transactionReason":"RENEWAL"}"#.utf8)
        let transaction = try AppStoreJSON.makeDecoder().decode(Transaction.self, from: json)
        #expect(transaction.environment == .localTesting)
        #expect(transaction.environment.isDocumented == true)
        #expect(transaction.offerType == .winBackOffer)
        #expect(transaction.transactionReason == .renewal)
        #expect(AppStoreEnvironment.documentedValues.map(\.rawValue) == ["Sandbox", "Production", "Xcode", "LocalTesting"])
        #expect(NotificationTypeV2.documentedValues.count == Set(NotificationTypeV2.documentedValues).count)
        #expect(Subtype.documentedValues.count == Set(Subtype.documentedValues).count)
    }

    @Test("A fractional-millisecond date decodes")
    func fractionalMilliseconds() throws {
        let json = Data(#"""
            {"receiptType":"Xcode","bundleId":"com.example","receiptCreationDate":1697679936049.7297,
             "originalPurchaseDate":1697679936049.7297,"signedDate":1697679936056.1963}
            """#.utf8)
        let appTransaction = try AppStoreJSON.makeDecoder().decode(AppTransaction.self, from: json)
        let created = try #require(appTransaction.receiptCreationDate)
        #expect(abs(created.timeIntervalSince1970 - 1_697_679_936.0497297) < 1e-6)
        #expect(appTransaction.environment == .xcode)
        #expect(appTransaction.defaultEffectiveDate == appTransaction.signedDate)  // Apple: signedDate, else receiptCreationDate
        #expect(appTransaction.signedDate != nil)

        // Re-encoded, the date stays within a microsecond of the original.
        let reencoded = try JSONValue(parsing: AppStoreJSON.makeEncoder().encode(appTransaction))
        guard case .object(let members) = reencoded, case .number(let milliseconds)? = members["receiptCreationDate"]
        else {
            Issue.record("receiptCreationDate missing from \(reencoded)")
            return
        }
        #expect(abs(milliseconds - 1_697_679_936_049.7297) < 0.001)
    }

    @Test("Each top-level model names its payload kind")
    func payloadKinds() {
        #expect(Transaction.payloadKind == .transaction)
        #expect(RenewalInfo.payloadKind == .renewalInfo)
        #expect(AppTransaction.payloadKind == .appTransaction)
        #expect(ResponseBodyV2DecodedPayload.payloadKind == .notification)
        #expect(DecodedRealtimeRequestBody.payloadKind == .realtimeRequest)
    }

    @Test("appAccountToken is kept as written and offered as a UUID when it is one")
    func appAccountToken() throws {
        let decoder = AppStoreJSON.makeDecoder()
        let valid = try decoder.decode(
            Transaction.self, from: Data(#"{"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138"}"#.utf8))
        #expect(valid.appAccountTokenUUID == UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"))
        let odd = try decoder.decode(RenewalInfo.self, from: Data(#"{"appAccountToken":"not-a-uuid"}"#.utf8))
        #expect(odd.appAccountToken == "not-a-uuid")
        #expect(odd.appAccountTokenUUID == nil)
    }

    @Test("The model's JWS is not part of its JSON")
    func jwsIsNotEncoded() throws {
        let transaction = try AppStoreJSON.makeDecoder().decode(Transaction.self, from: Data(#"{"jws":"x"}"#.utf8))
        #expect(transaction.jws == nil)
        let reencoded = try JSONValue(parsing: AppStoreJSON.makeEncoder().encode(transaction))
        #expect(reencoded == .object([:]))
    }
}
