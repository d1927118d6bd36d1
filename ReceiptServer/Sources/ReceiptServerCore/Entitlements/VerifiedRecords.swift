import AppStoreVerification
import Foundation

/// What one stored JWS contributes to its customer's entitlements, decided once, when it was
/// verified: the entitlement engine's records of it (the `transactions`, `renewalInfos` and
/// `revocationNotices` of the ``CustomerHistory`` that ingesting it alone yields, each as a JSON
/// array) and the parts of it that did not verify.
///
/// The store keeps these beside the JWS, so answering a customer decodes records instead of
/// verifying every JWS again; `ReceiptServer reverify` recomputes them from the JWS texts (after
/// the trusted roots changed).
struct VerifiedRecords: Sendable, Equatable {
    /// The engine's transaction records, a JSON array.
    var transactionRecords: String
    /// The engine's renewal-info records, a JSON array.
    var renewalRecords: String
    /// The engine's revocation notices, a JSON array.
    var revocationRecords: String
    /// What did not verify (or decode), as the answer's `rejected` lists it.
    var rejections: [RejectionJSON]

    /// The rejections as the stored JSON array.
    var rejectionsJSON: String {
        get throws { rejections.isEmpty ? "[]" : String(decoding: try ServerJSON.encode(rejections), as: UTF8.self) }
    }

    /// The records of one verification result, named `name` in rejections (`"transaction 2000…"`):
    /// the history that ingesting it alone yields, encoded once (``ServerJSON``: sorted keys,
    /// unescaped slashes) and cut into its three arrays.
    /// What counts for nothing (a consumable, say) is three empty arrays without encoding anything.
    static func of(_ item: EntitlementEngine.Item, name: String) throws -> VerifiedRecords {
        var engine = EntitlementEngine()
        let report = engine.ingest(item)
        let rejections = report.rejections.map { RejectionJSON(item: "\(name): \($0.item)", code: $0.code, message: $0.message) }
        if engine.history.isEmpty {
            return VerifiedRecords(transactionRecords: "[]", renewalRecords: "[]", revocationRecords: "[]", rejections: rejections)
        }
        let members = try HistoryMembers(Array(ServerJSON.encode(engine.history)))
        return VerifiedRecords(
            transactionRecords: members["transactions"], renewalRecords: members["renewalInfos"],
            revocationRecords: members["revocationNotices"], rejections: rejections)
    }

    /// Verifies a stored JWS again with `verifier` and returns its records: the database upgrade
    /// and `ReceiptServer reverify` use it. Synchronous on purpose: in an `async` context Swift would
    /// pick the verifier's online (`async`) overloads.
    static func verifying(_ kind: SignedDataKind, jws: String, name: String, verifier: SignedDataVerifier) throws -> VerifiedRecords {
        let item: EntitlementEngine.Item
        do {
            switch kind {
            case .transaction: item = .transaction(try verifier.verifyTransaction(jws))
            case .renewalInfo: item = .renewalInfo(try verifier.verifyRenewalInfo(jws))
            case .notification: item = .notification(try verifier.verifyNotification(jws))
            }
        } catch {
            return VerifiedRecords(transactionRecords: "[]", renewalRecords: "[]", revocationRecords: "[]",
                                   rejections: [RejectionJSON(item: name, code: error.code.description, message: error.message)])
        }
        return try of(item, name: name)
    }

    /// The name a stored row has in rejections: its kind and its best identifier.
    static func name(of kind: SignedDataKind, transactionId: String?, notificationUUID: String?, originalTransactionId: String?) -> String {
        "\(kind.rawValue) \(transactionId ?? notificationUUID ?? originalTransactionId ?? "")"
    }

    /// The history of several rows' records: the engine merges them (latest version of each
    /// transaction, latest renewal info, earliest revocation), exactly as ingesting the rows' JWS.
    static func history(of rows: [VerifiedRecords]) throws -> CustomerHistory {
        func joined(_ fragments: [String]) throws -> String {
            var parts: [Substring] = []
            for fragment in fragments {
                guard fragment.first == "[", fragment.last == "]" else {
                    throw CorruptRecords(fragment: String(fragment.prefix(80)))
                }
                let inner = fragment.dropFirst().dropLast()
                if !inner.isEmpty { parts.append(inner) }
            }
            return "[" + parts.joined(separator: ",") + "]"
        }
        let json = "{\"version\":\(CustomerHistory.formatVersion),\"transactions\":\(try joined(rows.map(\.transactionRecords))),"
            + "\"renewalInfos\":\(try joined(rows.map(\.renewalRecords))),\"revocationNotices\":\(try joined(rows.map(\.revocationRecords)))}"
        return try AppStoreJSON.decode(CustomerHistory.self, from: Data(json.utf8))
    }

    /// Decodes a stored rejections array.
    static func rejections(fromJSON text: String) throws -> [RejectionJSON] {
        text == "[]" ? [] : try AppStoreJSON.decode([RejectionJSON].self, from: Data(text.utf8))
    }
}

/// A stored records column is not a JSON array: the database was edited by hand or damaged.
struct CorruptRecords: Error, CustomStringConvertible {
    let fragment: String
    var description: String {
        "a stored records column is not a JSON array (\(fragment)); run `ReceiptServer reverify` to recompute the records from the stored JWS"
    }
}
