import Foundation
import Testing
@testable import AppStoreVerification

/// Random customer histories built from models decoded with `AppStoreJSON` (signing happens only
/// in the Python generators), marked verified or unverified directly.
struct RandomHistory {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    static let day: Int64 = 86_400_000
    static let start: Int64 = 1_767_225_600_000 // 2026-01-01T00:00:00Z

    /// Products: two subscription groups of two products each, two non-consumables, a
    /// non-renewing product (configured and not), a consumable.
    static let subscriptions: [(product: String, group: String)] = [
        ("sub.a.basic", "A"), ("sub.a.pro", "A"), ("sub.b.monthly", "B"), ("sub.b.yearly", "B"),
    ]
    static let oneTime: [(product: String, type: String)] = [
        ("lifetime", "Non-Consumable"), ("theme", "Non-Consumable"), ("pass", "Non-Renewing Subscription"),
        ("forever.pass", "Non-Renewing Subscription"), ("coins", "Consumable"),
    ]
    static let configuration = EntitlementEngine.Configuration(nonRenewingDurations: ["pass": 30 * 86_400])

    mutating func date(within days: Int64 = 90) -> Int64 {
        Self.start + Int64(random.below(Int(days * 24))) * 3_600_000
    }

    mutating func maybe(_ percent: Int) -> Bool { random.below(100) < percent }

    mutating func transactionJSON() -> [String: Any] {
        // A small pool of IDs, so that one transaction often comes in several versions.
        let id = "t\(random.below(12))"
        var json: [String: Any] = [
            "transactionId": id,
            "bundleId": "com.example.app",
            "inAppOwnershipType": maybe(20) ? "FAMILY_SHARED" : "PURCHASED",
            "environment": "Sandbox",
        ]
        // The ID decides the product, as for real data; versions differ in dates and flags.
        let index = Int(id.dropFirst()) ?? 0
        let purchase = Self.start + Int64(index) * 5 * Self.day + Int64(random.below(3)) * Self.day
        json["purchaseDate"] = purchase
        if index % 2 == 0 {
            let subscription = Self.subscriptions[(index / 2) % Self.subscriptions.count]
            json["productId"] = subscription.product
            json["subscriptionGroupIdentifier"] = subscription.group
            json["type"] = "Auto-Renewable Subscription"
            json["originalTransactionId"] = "o\(subscription.group)\(random.below(2))"
            json["expiresDate"] = purchase + Int64(1 + random.below(40)) * Self.day
            if maybe(15) { json["isUpgraded"] = true }
        } else {
            let product = Self.oneTime[(index / 2) % Self.oneTime.count]
            json["productId"] = product.product
            json["type"] = product.type
            json["originalTransactionId"] = id
        }
        json["signedDate"] = purchase + Int64(random.below(4)) * Self.day
        if maybe(25) {
            let revocation = purchase + Int64(random.below(30)) * Self.day
            json["revocationDate"] = revocation
            json["revocationType"] = json["inAppOwnershipType"] as? String == "FAMILY_SHARED" ? "FAMILY_REVOKE" : "REFUND_FULL"
            json["signedDate"] = revocation
        }
        return json
    }

    mutating func renewalJSON() -> [String: Any] {
        let group = random.pick(["A", "B"])
        var json: [String: Any] = [
            "originalTransactionId": "o\(group)\(random.below(2))",
            "productId": group == "A" ? "sub.a.basic" : "sub.b.monthly",
            "autoRenewStatus": random.below(2),
            "isInBillingRetryPeriod": maybe(50),
            "signedDate": date(),
            "environment": "Sandbox",
        ]
        if maybe(50) { json["gracePeriodExpiresDate"] = date(within: 120) }
        return json
    }

    static func decode<T: Decodable>(_ type: T.Type, _ json: [String: Any]) -> T? {
        guard let data = try? JSONSerialization.data(withJSONObject: json) else { return nil }
        return try? AppStoreJSON.decode(type, from: data)
    }

    /// 4 to 24 items: transactions, renewal info, notifications carrying them (some `REVOKE`), and
    /// a few unverified items.
    mutating func items() -> [EntitlementEngine.Item] {
        var items: [EntitlementEngine.Item] = []
        for _ in 0..<(4 + random.below(21)) {
            let verified = !maybe(8)
            switch random.below(4) {
            case 0, 1:
                guard let transaction = Self.decode(Transaction.self, transactionJSON()) else { continue }
                items.append(.transaction(verified ? .verified(transaction) : .unverified(transaction, .invalidSignature("test: not verified"))))
            case 2:
                guard let info = Self.decode(RenewalInfo.self, renewalJSON()) else { continue }
                items.append(.renewalInfo(verified ? .verified(info) : .unverified(info, .invalidCertificateChain("test: not verified"))))
            default:
                let type = random.pick(["DID_RENEW", "REFUND", "REVOKE", "DID_FAIL_TO_RENEW", "ONE_TIME_CHARGE"])
                guard var notification = Self.decode(ResponseBodyV2DecodedPayload.self, [
                    "notificationType": type, "notificationUUID": "n\(random.below(1000))", "signedDate": date(), "version": "2.0",
                ]) else { continue }
                if let transaction = Self.decode(Transaction.self, transactionJSON()) {
                    notification.transactionInfo = .success(maybe(90) ? .verified(transaction) : .unverified(transaction, .invalidSignature("test: inner not verified")))
                }
                if maybe(50), let info = Self.decode(RenewalInfo.self, renewalJSON()) {
                    notification.renewalInfo = .success(.verified(info))
                }
                items.append(.notification(verified ? .verified(notification) : .unverified(notification, .invalidSignature("test: not verified"))))
            }
        }
        return items
    }

    /// A permutation of `items` with random duplicates.
    mutating func reordered(_ items: [EntitlementEngine.Item]) -> [EntitlementEngine.Item] {
        var result = items
        for _ in 0..<random.below(items.count + 1) { result.append(random.pick(items)) }
        for index in result.indices.reversed() where index > 0 {
            result.swapAt(index, random.below(index + 1))
        }
        return result
    }
}

@Suite("Entitlements: properties")
struct EntitlementPropertyTests {
    static let instants: [Date] = stride(from: Int64(-5), through: 130, by: 9).map {
        Date(timeIntervalSince1970: Double(RandomHistory.start + $0 * RandomHistory.day) / 1000)
    }

    @Test("for 3,000 random histories, every permutation with duplicates gives the same history and the same answers at every instant")
    func orderAndRepetitionNeverMatter() throws {
        var generator = RandomHistory(seed: 0x5EED_E171)
        var nonEmpty = 0, states: Set<Entitlement.State> = []
        for _ in 0..<3_000 {
            let items = generator.items()
            let reference = EntitlementEngine(configuration: RandomHistory.configuration, items: items)
            let answers = Self.instants.map { reference.statuses(at: $0) }
            if answers.contains(where: { !$0.isEmpty }) { nonEmpty += 1 }
            for answer in answers { states.formUnion(answer.map(\.state)) }
            for _ in 0..<3 {
                let engine = EntitlementEngine(configuration: RandomHistory.configuration, items: generator.reordered(items))
                #expect(engine.history == reference.history)
                let other = Self.instants.map { engine.statuses(at: $0) }
                #expect(other == answers)
                if other != answers || engine.history != reference.history { return }
            }
        }
        // The generator must exercise the rules, or the property says nothing.
        #expect(nonEmpty > 2_000)
        #expect(states == Set(Entitlement.State.allCases), "states reached: \(states)")
    }

    @Test("for 2,000 random histories, ingesting one item at a time, with JSON snapshot and restore in between, equals recomputation")
    func incrementalEqualsRecomputation() throws {
        var generator = RandomHistory(seed: 0xC0FF_EE11)
        for _ in 0..<2_000 {
            let items = generator.items()
            var engine = EntitlementEngine(configuration: RandomHistory.configuration)
            for (index, item) in items.enumerated() {
                let before = engine.history
                let report = engine.ingest(item)
                #expect(report.changed == (engine.history != before))
                if generator.maybe(25) {
                    let data = try JSONEncoder().encode(engine.history)
                    engine = EntitlementEngine(configuration: RandomHistory.configuration, history: try JSONDecoder().decode(CustomerHistory.self, from: data))
                }
                // The answer after each step equals recomputing from the prefix.
                if index % 5 == 4 || index == items.count - 1 {
                    let recomputed = EntitlementEngine(configuration: RandomHistory.configuration, items: items[...index])
                    #expect(engine.history == recomputed.history)
                    #expect(Self.instants.map { engine.statuses(at: $0) } == Self.instants.map { recomputed.statuses(at: $0) })
                }
            }
        }
    }

    @Test("unverified items never change the history, wherever they come")
    func unverifiedChangesNothing() {
        var generator = RandomHistory(seed: 0xBAD)
        for _ in 0..<1_000 {
            let items = generator.items()
            let verifiedOnly = items.filter { item in
                switch item {
                case .transaction(let result): result.isVerified
                case .renewalInfo(let result): result.isVerified
                case .notification(let result): result.isVerified
                }
            }
            let all = EntitlementEngine(configuration: RandomHistory.configuration, items: items)
            let verified = EntitlementEngine(configuration: RandomHistory.configuration, items: verifiedOnly)
            #expect(all.history == verified.history)
        }
    }
}
