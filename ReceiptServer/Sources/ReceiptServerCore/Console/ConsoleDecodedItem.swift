import AppStoreVerification
import Foundation

/// A stored item decoded and verified again with the server's current verifier (its trusted roots,
/// bundle ID and environment now), and what it is: a purchase, a renewal, a refund, a revocation, a
/// notification (type and subtype) or renewal info. The timeline and the item page show it.
struct ConsoleDecodedItem: Sendable {
    /// The row as stored.
    let row: ConsoleStoredItem
    /// What happened: `Purchase`, `Renewal`, `Transaction` (a subscription's, without a reason), `Refund`, `Notification: REFUND`, …
    let event: String
    /// More about it (`Non-Consumable, family shared`, `REFUND_FULL, reason 0`, …).
    let detail: String?
    /// The payload's dates that matter (purchased, expires, revoked, …).
    let dates: [ConsoleLabeledDate]
    let productId: String
    let transactionId: String
    let originalTransactionId: String
    /// `Sandbox`, `Production`, … as the payload says.
    let environment: String
    /// The payload's `signedDate`.
    let signed: ConsoleDate?
    /// What does not verify now (the outer JWS, or signed data nested in a notification); empty
    /// when all of it verifies.
    let failures: [ConsoleFailure]
    /// The decoded payloads: the item's own, then those nested in a notification.
    let parts: [ConsoleDecodedPart]
    /// The transactions it carries that verify now (a transaction, or a notification's).
    let verifiedTransactions: [Transaction]

    /// Whether all of it verifies now.
    var verifies: Bool { failures.isEmpty }

    /// What does not verify, in full (`invalidCertificateChain: …`), or `nil`.
    var failure: String? {
        failures.isEmpty ? nil : failures.map { ($0.part.map { "\($0): " } ?? "") + "\($0.code): \($0.message)" }.joined(separator: "; ")
    }

    /// What does not verify, by code only (`invalidCertificateChain`), or `nil`.
    var failureCodes: String? {
        failures.isEmpty ? nil : failures.map { ($0.part.map { "\($0): " } ?? "") + $0.code }.joined(separator: "; ")
    }

    /// Decodes and verifies `row` with `verifier`. Synchronous on purpose, like the service's own
    /// re-verification: only the verifier's offline checks run.
    static func decode(_ row: ConsoleStoredItem, verifier: SignedDataVerifier) -> ConsoleDecodedItem {
        let jws = row.stored.jws
        do {
            switch row.stored.kind {
            case .transaction:
                return transaction(row, try verifier.verifyTransaction(jws))
            case .renewalInfo:
                return renewalInfo(row, try verifier.verifyRenewalInfo(jws))
            case .notification:
                return notification(row, try verifier.verifyNotification(jws))
            }
        } catch {
            return ConsoleDecodedItem(
                row: row, event: "Undecodable \(row.stored.kind.rawValue)", detail: nil, dates: [],
                productId: row.stored.productId ?? "", transactionId: row.stored.transactionId ?? "",
                originalTransactionId: row.stored.originalTransactionId ?? "", environment: "unknown",
                signed: row.stored.signedDate.map(ConsoleDate.init(milliseconds:)), failures: [ConsoleFailure(part: nil, code: error.code.description, message: error.message)], parts: [], verifiedTransactions: [])
        }
    }

    // MARK: Kinds

    private static func transaction(_ row: ConsoleStoredItem, _ result: VerificationResult<Transaction>) -> ConsoleDecodedItem {
        let transaction = result.unsafePayloadValue
        let (event, detail) = describe(transaction)
        return ConsoleDecodedItem(
            row: row, event: event, detail: detail, dates: dates(of: transaction), productId: transaction.productId,
            transactionId: transaction.transactionId, originalTransactionId: transaction.originalTransactionId,
            environment: environment(transaction.environment.rawValue), signed: transaction.signedDate.map(ConsoleDate.init),
            failures: ConsoleFailure.of(result.verificationError, part: nil),
            parts: [ConsoleDecodedPart(anchor: "transaction", title: "Transaction payload", verdict: nil, json: prettyJSON(result.payloadData))],
            verifiedTransactions: result.isVerified ? [transaction] : [])
    }

    private static func renewalInfo(_ row: ConsoleStoredItem, _ result: VerificationResult<RenewalInfo>) -> ConsoleDecodedItem {
        let info = result.unsafePayloadValue
        return ConsoleDecodedItem(
            row: row, event: "Renewal info", detail: describe(info), dates: dates(of: info),
            productId: info.productId ?? info.autoRenewProductId ?? "", transactionId: "",
            originalTransactionId: info.originalTransactionId ?? "", environment: environment(info.environment?.rawValue),
            signed: info.signedDate.map(ConsoleDate.init), failures: ConsoleFailure.of(result.verificationError, part: nil),
            parts: [ConsoleDecodedPart(anchor: "renewal-info", title: "Renewal info payload", verdict: nil, json: prettyJSON(result.payloadData))],
            verifiedTransactions: [])
    }

    private static func notification(_ row: ConsoleStoredItem, _ result: VerificationResult<ResponseBodyV2DecodedPayload>) -> ConsoleDecodedItem {
        let notification = result.unsafePayloadValue
        var failures = ConsoleFailure.of(result.verificationError, part: nil)
        var parts = [ConsoleDecodedPart(anchor: "notification", title: "Notification payload", verdict: nil, json: prettyJSON(result.payloadData))]
        var nestedTransaction: Transaction?
        var verifiedTransactions: [Transaction] = []
        switch notification.transactionInfo {
        case .success(let nested):
            nestedTransaction = nested.unsafePayloadValue
            failures += ConsoleFailure.of(nested.verificationError, part: "signedTransactionInfo")
            if nested.isVerified, result.isVerified { verifiedTransactions.append(nested.unsafePayloadValue) }
            parts.append(ConsoleDecodedPart(anchor: "nested-transaction", title: "Nested transaction (signedTransactionInfo)",
                                            verdict: nested.verificationError.map { "Does not verify: \($0)" } ?? "Verifies.",
                                            json: prettyJSON(nested.payloadData)))
        case .failure(let error):
            failures.append(ConsoleFailure(part: "signedTransactionInfo", code: error.code.description, message: error.message))
        case nil:
            break
        }
        var nestedRenewal: RenewalInfo?
        switch notification.renewalInfo {
        case .success(let nested):
            nestedRenewal = nested.unsafePayloadValue
            failures += ConsoleFailure.of(nested.verificationError, part: "signedRenewalInfo")
            parts.append(ConsoleDecodedPart(anchor: "nested-renewal-info", title: "Nested renewal info (signedRenewalInfo)",
                                            verdict: nested.verificationError.map { "Does not verify: \($0)" } ?? "Verifies.",
                                            json: prettyJSON(nested.payloadData)))
        case .failure(let error):
            failures.append(ConsoleFailure(part: "signedRenewalInfo", code: error.code.description, message: error.message))
        case nil:
            break
        }
        let type = notification.notificationType?.rawValue ?? "(no type)"
        let subtype = notification.subtype.map { " / \($0.rawValue)" } ?? ""
        var detail: [String] = []
        if let nestedTransaction {
            let (event, about) = describe(nestedTransaction, notificationType: notification.notificationType, subtype: notification.subtype)
            detail.append("\(event.lowercased()) transaction" + (about.map { " (\($0))" } ?? ""))
        }
        if let nestedRenewal { detail.append(describe(nestedRenewal)) }
        let environmentName = notification.data?.environment?.rawValue ?? notification.summary?.environment?.rawValue
            ?? nestedTransaction?.environment.rawValue
        return ConsoleDecodedItem(
            row: row, event: "Notification: \(type)\(subtype)", detail: detail.isEmpty ? nil : detail.joined(separator: "; "),
            dates: nestedTransaction.map(dates(of:)) ?? nestedRenewal.map(dates(of:)) ?? [],
            productId: nestedTransaction?.productId ?? nestedRenewal?.productId ?? row.stored.productId ?? "",
            transactionId: nestedTransaction?.transactionId ?? row.stored.transactionId ?? "",
            originalTransactionId: nestedTransaction?.originalTransactionId ?? nestedRenewal?.originalTransactionId ?? row.stored.originalTransactionId ?? "",
            environment: environment(environmentName), signed: notification.signedDate.map(ConsoleDate.init),
            failures: failures, parts: parts, verifiedTransactions: verifiedTransactions)
    }

    // MARK: What it is

    /// A transaction's event: a refund or revocation when it carries a revocation, else an
    /// upgrade, else what Apple says it is (``purchaseOrRenewal(_:notificationType:subtype:)``).
    ///
    /// - Parameters:
    ///   - notificationType: the type of the notification the transaction came in, if it came in one.
    ///   - subtype: that notification's subtype.
    static func describe(_ transaction: Transaction, notificationType: NotificationTypeV2? = nil, subtype: Subtype? = nil) -> (event: String, detail: String?) {
        var detail = [transaction.type.rawValue]
        if transaction.inAppOwnershipType == .familyShared { detail.append("family shared") }
        if transaction.revocationDate != nil {
            if transaction.revocationType == .familyRevoke {
                return ("Revoked from Family Sharing", detail.joined(separator: ", "))
            }
            if let type = transaction.revocationType { detail.append(type.rawValue) }
            if let reason = transaction.revocationReason {
                detail.append(reason == .refundedDueToIssue ? "reason 1 (an issue with the app)" : "reason \(reason.rawValue) (other)")
            }
            let refunded = transaction.revocationType == .refundFull || transaction.revocationType == .refundProrated || transaction.revocationReason != nil
            return (refunded ? "Refund" : "Revocation", detail.joined(separator: ", "))
        }
        if transaction.isUpgraded == true {
            detail.append("replaced by a higher tier")
            return ("Upgraded", detail.joined(separator: ", "))
        }
        return (purchaseOrRenewal(transaction, notificationType: notificationType, subtype: subtype), detail.joined(separator: ", "))
    }

    /// `Purchase` or `Renewal`, as Apple labels the transaction: the notification's type and subtype
    /// when they say (`DID_RENEW`; `SUBSCRIBED` with `INITIAL_BUY` or `RESUBSCRIBE`), else the
    /// transaction's `transactionReason`. The IDs do not tell: a first purchase of a subscription
    /// can carry another transaction's original transaction ID (a resubscription, a purchase
    /// restored on another device). A subscription transaction without either is `Transaction`;
    /// other product types are only ever purchased.
    static func purchaseOrRenewal(_ transaction: Transaction, notificationType: NotificationTypeV2?, subtype: Subtype?) -> String {
        if notificationType == .didRenew { return "Renewal" }
        if notificationType == .subscribed, subtype == .initialBuy || subtype == .resubscribe { return "Purchase" }
        switch transaction.transactionReason {
        case .renewal?: return "Renewal"
        case .purchase?: return "Purchase"
        default: return transaction.type == .autoRenewableSubscription ? "Transaction" : "Purchase"
        }
    }

    /// Renewal info in a few words: auto-renew, the product it renews into, billing retry.
    static func describe(_ info: RenewalInfo) -> String {
        var words: [String] = []
        if info.autoRenewStatus == .on {
            words.append("auto-renew on")
        } else if info.autoRenewStatus == .off {
            words.append("auto-renew off")
        }
        if let next = info.autoRenewProductId, next != info.productId { words.append("renews into \(next)") }
        if info.isInBillingRetryPeriod == true { words.append("billing retry") }
        return words.isEmpty ? "renewal info" : words.joined(separator: ", ")
    }

    private static func dates(of transaction: Transaction) -> [ConsoleLabeledDate] {
        var dates = [ConsoleLabeledDate(label: "purchased", date: ConsoleDate(transaction.purchaseDate))]
        if let expires = transaction.expiresDate { dates.append(ConsoleLabeledDate(label: "expires", date: ConsoleDate(expires))) }
        if let revoked = transaction.revocationDate { dates.append(ConsoleLabeledDate(label: "revoked", date: ConsoleDate(revoked))) }
        return dates
    }

    private static func dates(of info: RenewalInfo) -> [ConsoleLabeledDate] {
        var dates: [ConsoleLabeledDate] = []
        if let renewal = info.renewalDate { dates.append(ConsoleLabeledDate(label: "renews", date: ConsoleDate(renewal))) }
        if let grace = info.gracePeriodExpiresDate { dates.append(ConsoleLabeledDate(label: "grace period ends", date: ConsoleDate(grace))) }
        return dates
    }

    private static func environment(_ name: String?) -> String {
        guard let name, !name.isEmpty else { return "unknown" }
        return name
    }

    /// `data` (a JSON payload) indented with sorted keys, or as it is when it is not JSON.
    static func prettyJSON(_ data: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
              let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return String(decoding: data, as: UTF8.self) }
        return String(decoding: pretty, as: UTF8.self)
    }
}

/// One decoded payload of an item: the item's own or one nested in a notification.
struct ConsoleDecodedPart: Sendable {
    /// The section's id on the item page.
    let anchor: String
    let title: String
    /// Whether a nested payload verifies (the item's own verdict is the page's).
    let verdict: String?
    /// The payload, indented JSON.
    let json: String
}

/// One part of an item that does not verify now.
struct ConsoleFailure: Sendable, Equatable {
    /// The nested signed data (`signedTransactionInfo`, …), or `nil` for the item itself.
    let part: String?
    /// The verification or decoding error's code (`invalidSignature`, `invalidCertificateChain`, …).
    let code: String
    /// What failed.
    let message: String

    /// The failure of a verification result's error, if any.
    static func of(_ error: VerificationError?, part: String?) -> [ConsoleFailure] {
        error.map { [ConsoleFailure(part: part, code: $0.code.description, message: $0.message)] } ?? []
    }
}
