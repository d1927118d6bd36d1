import Foundation

/// The rules that turn a ``CustomerHistory`` into entitlements at an instant (see
/// ``EntitlementEngine`` for them in prose). Pure: the same history, configuration and instant
/// always give the same, sorted, answer.
enum EntitlementRules {
    /// The product types that can give access.
    static let grantableTypes: Set<ProductType> = [.autoRenewableSubscription, .nonConsumable, .nonRenewingSubscription]

    static func statuses(of history: CustomerHistory, configuration: EntitlementEngine.Configuration, at instant: Int64) -> [Entitlement] {
        let context = Context(history: history, instant: instant)
        let subscription = ProductType.autoRenewableSubscription.rawValue
        // One pass over the history, reading records in place (a long history of renewals is not
        // copied): only purchases made by the instant exist there. Of each subscription group the
        // latest purchase is kept; its whole group is gathered only when the rules need it.
        var latestByGroup: [String: TransactionRecord] = [:]
        var oneTime: [String: [TransactionRecord]] = [:]
        let records = history.transactions.values
        var index = records.startIndex
        while index != records.endIndex {
            defer { index = records.index(after: index) }
            guard (records[index].purchaseDate ?? Int64.min) <= instant else { continue }
            if records[index].productType == subscription {
                let group = records[index].subscriptionGroupIdentifier ?? ""
                if let current = latestByGroup[group], !Context.later(records[index], current) { continue }
                latestByGroup[group] = records[index]
            } else {
                oneTime[records[index].productId, default: []].append(records[index])
            }
        }
        var results: [Entitlement] = []
        for (group, latest) in latestByGroup {
            results.append(context.subscriptionStatus(group: group, latest: latest) {
                history.transactions.values.filter { record in
                    record.productType == subscription && (record.subscriptionGroupIdentifier ?? "") == group && (record.purchaseDate ?? Int64.min) <= instant
                }
            })
        }
        for (_, transactions) in oneTime {
            guard let type = transactions.first?.productType else { continue }
            if type == ProductType.nonRenewingSubscription.rawValue {
                let duration = transactions.first.flatMap { configuration.nonRenewingDurations[$0.productId] }
                results.append(context.nonRenewingStatus(transactions: transactions, duration: duration))
            } else {
                results.append(context.nonConsumableStatus(transactions: transactions))
            }
        }
        return results.sorted { ($0.productId, $0.transactionId) < ($1.productId, $1.transactionId) }
    }

    /// The history and instant the rules read.
    private struct Context {
        let history: CustomerHistory
        let instant: Int64

        /// When the transaction was revoked, if by the instant: its `revocationDate`, or a `REVOKE`
        /// notification's date.
        func revocation(of record: TransactionRecord) -> Int64? {
            var earliest: Int64?
            if let date = record.revocationDate, date <= instant { earliest = date }
            if !history.revocationNotices.isEmpty, let date = history.revocationNotices[record.transactionId], date <= instant {
                earliest = min(earliest ?? date, date)
            }
            return earliest
        }

        /// Latest purchase first; ties broken by expiry, then transaction ID, so the order is total.
        static func later(_ lhs: TransactionRecord, _ rhs: TransactionRecord) -> Bool {
            let left = (lhs.purchaseDate ?? Int64.min, lhs.expiresDate ?? Int64.min, lhs.transactionId)
            let right = (rhs.purchaseDate ?? Int64.min, rhs.expiresDate ?? Int64.min, rhs.transactionId)
            return left > right
        }

        // MARK: Auto-renewable subscriptions

        /// - Parameters:
        ///   - latest: the group's latest purchase by the instant (see ``later(_:_:)``).
        ///   - members: every purchase of the group by the instant; called only when the latest
        ///     one is upgraded, revoked or otherwise not the answer.
        func subscriptionStatus(group: String, latest: TransactionRecord, members: () -> [TransactionRecord]) -> Entitlement {
            var gathered: [TransactionRecord]?
            func transactions() -> [TransactionRecord] {
                if let gathered { return gathered }
                let all = members()
                gathered = all
                return all
            }
            // An upgraded transaction is out once a later purchase in the group exists.
            func isLive(_ record: TransactionRecord) -> Bool {
                revocation(of: record) == nil && !(record.isUpgraded && transactions().contains { other in
                    other.transactionId != record.transactionId && (other.purchaseDate ?? Int64.min) >= (record.purchaseDate ?? Int64.min)
                })
            }
            // The whole group is sorted only when its latest purchase is not live.
            let current: TransactionRecord?
            if isLive(latest) {
                current = latest
            } else {
                current = transactions().sorted(by: Self.later).first(where: isLive)
            }
            guard let current else {
                let revoked = transactions().sorted(by: Self.later).first { revocation(of: $0) != nil } ?? latest
                return entitlement(
                    from: revoked, state: .revoked, expiresDate: revoked.expiresDate,
                    reason: "subscription group \(group): every transaction purchased by \(Self.text(instant)) is revoked or upgraded; transaction \(revoked.transactionId) (\(revoked.productId)) \(revocationText(revoked))")
            }
            let renewal = history.renewals[current.originalTransactionId]
            let name = "subscription group \(group): transaction \(current.transactionId) (\(current.productId)), the latest purchase not revoked or upgraded,"
            var state: Entitlement.State
            var reason: String
            if let expires = current.expiresDate, expires > instant {
                state = .subscribed
                reason = "\(name) expires \(Self.text(expires)), after the instant \(Self.text(instant))"
            } else {
                let expiry = current.expiresDate.map { "expired \(Self.text($0))" } ?? "has no expiresDate"
                if let renewal, renewal.isInBillingRetryPeriod {
                    if let grace = renewal.gracePeriodExpiresDate, grace > instant {
                        state = .inGracePeriod
                        reason = "\(name) \(expiry); its renewal info says billing retry, and the grace period ends \(Self.text(grace)), after the instant \(Self.text(instant))"
                    } else {
                        state = .inBillingRetryPeriod
                        let grace = renewal.gracePeriodExpiresDate.map { "the grace period ended \(Self.text($0))" } ?? "no grace period"
                        reason = "\(name) \(expiry); its renewal info says billing retry with \(grace)"
                    }
                } else {
                    state = .expired
                    reason = "\(name) \(expiry) and \(renewal == nil ? "no renewal info is known" : "its renewal info says no billing retry")"
                }
            }
            if !state.isGranted, latest.transactionId != current.transactionId, revocation(of: latest) != nil {
                state = .revoked
                reason = "subscription group \(group): the latest purchase, transaction \(latest.transactionId) (\(latest.productId)), \(revocationText(latest)); before it, \(reason)"
                return entitlement(from: latest, state: state, expiresDate: latest.expiresDate, reason: reason, renewal: history.renewals[latest.originalTransactionId])
            }
            return entitlement(from: current, state: state, expiresDate: current.expiresDate, reason: reason, renewal: renewal)
        }

        // MARK: Non-consumables

        func nonConsumableStatus(transactions: [TransactionRecord]) -> Entitlement {
            let byRecency = transactions.sorted(by: Self.later)
            let live = byRecency.filter { revocation(of: $0) == nil }
            // A purchased copy is preferred to a family-shared one: it cannot be revoked by the family.
            if let owned = live.first(where: { $0.ownershipType != InAppOwnershipType.familyShared.rawValue }) ?? live.first {
                let how = owned.ownershipType == InAppOwnershipType.familyShared.rawValue ? "shared by the family" : "purchased"
                return entitlement(
                    from: owned, state: .purchased, expiresDate: nil,
                    reason: "non-consumable \(owned.productId): transaction \(owned.transactionId), \(how) \(owned.purchaseDate.map(Self.text) ?? "(no purchase date)"), is not revoked at \(Self.text(instant))")
            }
            let revoked = byRecency[0]
            return entitlement(
                from: revoked, state: .revoked, expiresDate: nil,
                reason: "non-consumable \(revoked.productId): every transaction is revoked; transaction \(revoked.transactionId) \(revocationText(revoked))")
        }

        // MARK: Non-renewing subscriptions

        func nonRenewingStatus(transactions: [TransactionRecord], duration: TimeInterval?) -> Entitlement {
            func expiry(_ record: TransactionRecord) -> Int64? {
                if let duration, let purchase = record.purchaseDate {
                    let milliseconds = (duration * 1000).rounded(.down)
                    guard milliseconds.isFinite else { return nil }
                    return purchase &+ Int64(max(0, min(9.0e15, milliseconds)))
                }
                return record.expiresDate
            }
            let byRecency = transactions.sorted(by: Self.later)
            let live = byRecency.filter { revocation(of: $0) == nil }
            // The live purchase that lasts longest (no expiry counts as longest).
            let best = live.max { lhs, rhs in
                let left = (expiry(lhs) ?? Int64.max, lhs.purchaseDate ?? Int64.min, lhs.transactionId)
                let right = (expiry(rhs) ?? Int64.max, rhs.purchaseDate ?? Int64.min, rhs.transactionId)
                return left < right
            }
            if let best {
                let ends = expiry(best)
                let name = "non-renewing subscription \(best.productId): transaction \(best.transactionId), not revoked,"
                if let ends {
                    let source = duration.map { "purchase date + \(Self.durationText($0)) configured" } ?? "the transaction's expiresDate"
                    if ends > instant {
                        return entitlement(from: best, state: .subscribed, expiresDate: ends, reason: "\(name) lasts until \(Self.text(ends)) (\(source)), after the instant \(Self.text(instant))")
                    }
                    return entitlement(from: best, state: .expired, expiresDate: ends, reason: "\(name) ended \(Self.text(ends)) (\(source))")
                }
                return entitlement(from: best, state: .subscribed, expiresDate: nil, reason: "\(name) lasts until revoked (no duration configured for the product)")
            }
            let revoked = byRecency[0]
            return entitlement(
                from: revoked, state: .revoked, expiresDate: expiry(revoked),
                reason: "non-renewing subscription \(revoked.productId): every transaction is revoked; transaction \(revoked.transactionId) \(revocationText(revoked))")
        }

        // MARK: Building

        func revocationText(_ record: TransactionRecord) -> String {
            guard let date = revocation(of: record) else { return "is not revoked" }
            let how: String
            if record.revocationDate == date {
                how = record.revocationType.map { "revoked (\($0))" } ?? "revoked"
            } else {
                how = "revoked by a REVOKE notification"
            }
            return "was \(how) \(Self.text(date))"
        }

        func entitlement(from record: TransactionRecord, state: Entitlement.State, expiresDate: Int64?, reason: String, renewal: RenewalRecord? = nil) -> Entitlement {
            Entitlement(
                productId: record.productId,
                productType: ProductType(rawValue: record.productType),
                transactionId: record.transactionId,
                originalTransactionId: record.originalTransactionId,
                subscriptionGroupIdentifier: record.subscriptionGroupIdentifier,
                purchaseDate: record.purchaseDate.map(Milliseconds.date),
                expiresDate: expiresDate.map(Milliseconds.date),
                revocationDate: revocation(of: record).map(Milliseconds.date),
                state: state,
                ownershipType: record.ownershipType.map(InAppOwnershipType.init(rawValue:)),
                autoRenewStatus: renewal?.autoRenewStatus.map(AutoRenewStatus.init(rawValue:)),
                autoRenewProductId: renewal?.autoRenewProductId,
                isInBillingRetryPeriod: renewal?.isInBillingRetryPeriod,
                gracePeriodExpiresDate: renewal?.gracePeriodExpiresDate.map(Milliseconds.date),
                reason: reason)
        }

        /// ISO 8601 in UTC, with milliseconds only when there are some.
        static func text(_ milliseconds: Int64) -> String {
            let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
            let rest = milliseconds - seconds * 1000
            let text = DateText.iso8601(seconds: seconds)
            guard rest != 0 else { return text }
            return String(text.dropLast()) + "." + String(String(rest + 1000).dropFirst()) + "Z"
        }

        static func durationText(_ seconds: TimeInterval) -> String {
            if seconds >= 86_400, seconds.truncatingRemainder(dividingBy: 86_400) == 0 {
                return "\(Int(seconds / 86_400)) days"
            }
            return "\(seconds) s"
        }
    }
}
