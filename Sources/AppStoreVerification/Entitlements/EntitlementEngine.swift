import Foundation

/// Decides what one customer is entitled to, from their verified signed data: StoreKit's
/// `Transaction.currentEntitlements`, for servers.
///
/// The engine is a value: ingest verified transactions, renewal info and notifications one at a
/// time, in any order, as often as they arrive; ask for the entitlements at any instant. Its
/// ``history`` is plain `Codable` data to store between requests.
///
/// ```swift
/// var engine = EntitlementEngine(configuration: .init(), history: storedHistory)
/// engine.ingest(try verifier.verifyTransaction(jwsFromTheApp))
/// engine.ingest(try verifier.verifyNotification(requestBody))
/// for entitlement in engine.currentEntitlements(at: Date()) {
///     grant(entitlement.productId, until: entitlement.expiresDate)
/// }
/// store(engine.history)
/// ```
///
/// The rules, at an instant `t` (only data purchased by `t` counts; dates compared in milliseconds):
/// - only ``VerificationResult/verified(_:)`` data counts; anything else is reported as a
///   ``Rejection`` and changes nothing;
/// - for one `transactionId`, the version with the latest `signedDate` wins (a refund's re-signed
///   transaction beats the purchase, whichever arrives first); for one `originalTransactionId`, the
///   latest renewal info wins; the same item twice is a no-op;
/// - consumables never appear;
/// - a non-consumable appears, ``Entitlement/State-swift.enum/purchased``, until revoked
///   (`revocationDate` ≤ `t`, or a `REVOKE` notification for it signed by `t`);
/// - a non-renewing subscription appears until revoked and, when
///   ``Configuration/nonRenewingDurations`` has its product, until purchase date + duration;
/// - auto-renewable subscriptions: one entitlement per `subscriptionGroupIdentifier`, from the
///   latest-purchased transaction of the group that is not revoked and not upgraded (`isUpgraded`
///   with a later purchase in the group); `subscribed` while `expiresDate` > `t`, else
///   `inGracePeriod` while the renewal info of its original transaction says
///   `isInBillingRetryPeriod` and `gracePeriodExpiresDate` > `t`, else `inBillingRetryPeriod`,
///   else `expired`; `revoked` when the group's latest purchase is revoked and nothing is granted;
/// - `FAMILY_SHARED` counts like `PURCHASED` (a purchased copy is preferred when both exist).
public struct EntitlementEngine: Sendable, Hashable {
    /// The app's own settings (non-renewing durations).
    public var configuration: Configuration
    /// Everything ingested so far, as plain Codable data.
    public private(set) var history: CustomerHistory

    /// Creates an engine, empty or restored from a stored history.
    ///
    /// - Parameters:
    ///   - configuration: the app's settings.
    ///   - history: a history stored from ``history``, or an empty one.
    public init(configuration: Configuration = Configuration(), history: CustomerHistory = CustomerHistory()) {
        self.configuration = configuration
        self.history = history
    }

    /// Creates an engine that has ingested `items` (recomputation from scratch).
    ///
    /// - Parameters:
    ///   - configuration: the app's settings.
    ///   - items: the customer's signed data, in any order, duplicates allowed.
    public init(configuration: Configuration = Configuration(), items: some Sequence<Item>) {
        self.init(configuration: configuration)
        for item in items { ingest(item) }
    }

    /// Ingests one item.
    ///
    /// - Returns: whether the history changed, what was rejected, and what was set aside.
    @discardableResult
    public mutating func ingest(_ item: Item) -> IngestReport {
        switch item {
        case .transaction(let result): ingest(result)
        case .renewalInfo(let result): ingest(result)
        case .notification(let result): ingest(result)
        }
    }

    /// Ingests a verified transaction; an unverified one is rejected and changes nothing.
    @discardableResult
    public mutating func ingest(_ transaction: VerificationResult<Transaction>) -> IngestReport {
        ingestTransaction(transaction, item: "transaction")
    }

    /// Ingests verified renewal info; unverified renewal info is rejected and changes nothing.
    @discardableResult
    public mutating func ingest(_ renewalInfo: VerificationResult<RenewalInfo>) -> IngestReport {
        ingestRenewalInfo(renewalInfo, item: "renewalInfo")
    }

    /// Ingests a verified notification: its nested transaction and renewal info, each only when it
    /// verified too, and, for `REVOKE`, the end of the shared purchase it names. An unverified
    /// notification is rejected whole and changes nothing.
    @discardableResult
    public mutating func ingest(_ notification: VerificationResult<ResponseBodyV2DecodedPayload>) -> IngestReport {
        var report = IngestReport()
        let payload: ResponseBodyV2DecodedPayload
        switch notification {
        case .verified(let verified): payload = verified
        case .unverified(_, let error):
            report.rejections.append(Rejection(item: "notification", code: error.code.description, message: error.message))
            return report
        }
        let type = payload.notificationType?.rawValue ?? "(no type)"
        if payload.transactionInfo == nil, payload.renewalInfo == nil {
            report.notes.append("notification \(type) carries no transaction or renewal info: nothing to ingest")
        }
        switch payload.transactionInfo {
        case .success(let result):
            report.absorb(ingestTransaction(result, item: "notification.signedTransactionInfo"))
            if payload.notificationType == .revoke, case .verified(let transaction) = result,
               let transactionId = transaction.storedTransactionId,
               let date = transaction.revocationDate ?? payload.signedDate {
                if history.noteRevocation(of: transactionId, at: Milliseconds.of(date)) { report.changed = true }
            }
        case .failure(let error):
            report.rejections.append(Rejection(item: "notification.signedTransactionInfo", code: error.code.description, message: error.message))
        case nil: break
        }
        switch payload.renewalInfo {
        case .success(let result):
            report.absorb(ingestRenewalInfo(result, item: "notification.signedRenewalInfo"))
        case .failure(let error):
            report.rejections.append(Rejection(item: "notification.signedRenewalInfo", code: error.code.description, message: error.message))
        case nil: break
        }
        return report
    }

    /// The entitlements granted at `instant`: non-consumables owned, subscriptions subscribed or
    /// in their grace period. Sorted by product ID, then transaction ID.
    public func currentEntitlements(at instant: Date = Date()) -> [Entitlement] {
        statuses(at: instant).filter(\.isGranted)
    }

    /// Every non-consumable and subscription the customer ever had by `instant`, with its state
    /// there, granted or not (expired, in billing retry, revoked). Sorted by product ID, then
    /// transaction ID.
    public func statuses(at instant: Date = Date()) -> [Entitlement] {
        EntitlementRules.statuses(of: history, configuration: configuration, at: Milliseconds.of(instant))
    }

    private mutating func ingestTransaction(_ result: VerificationResult<Transaction>, item: String) -> IngestReport {
        var report = IngestReport()
        switch result {
        case .unverified(_, let error):
            report.rejections.append(Rejection(item: item, code: error.code.description, message: error.message))
        case .verified(let transaction):
            switch TransactionRecord.make(transaction) {
            case .success(let record): report.changed = history.merge(record)
            case .failure(let note): report.notes.append(note.text)
            }
        }
        return report
    }

    private mutating func ingestRenewalInfo(_ result: VerificationResult<RenewalInfo>, item: String) -> IngestReport {
        var report = IngestReport()
        switch result {
        case .unverified(_, let error):
            report.rejections.append(Rejection(item: item, code: error.code.description, message: error.message))
        case .verified(let info):
            switch RenewalRecord.make(info) {
            case .success(let record): report.changed = history.merge(record)
            case .failure(let note): report.notes.append(note.text)
            }
        }
        return report
    }
}
