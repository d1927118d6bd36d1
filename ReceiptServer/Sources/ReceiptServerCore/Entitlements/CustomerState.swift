import AppStoreVerification
import Foundation

/// One customer's entitlement engine as the store last saw it: the engine restored from the
/// stored records of every JWS of the customer's purchases, the rejections stored beside them,
/// and the customer's revision (it grows with every write that changes what counts for them), so
/// a cached state is used only while it is current.
struct CustomerState: Sendable {
    /// The customer's revision in the database when this state was read (0: never written).
    var revision: Int64
    /// The engine, holding the customer's history.
    var engine: EntitlementEngine
    /// Stored data that did not verify, in the order it was stored.
    var rejected: [RejectionJSON]

    /// The answer at `instant`: what the engine grants, every status, and the rejections. The
    /// engine's statuses are computed once (its `currentEntitlements(at:)` is exactly the granted
    /// ones among them): that computation is the cost of an answer, linear in the customer's history.
    func answer(customer: String, at instant: Date) -> EntitlementsAnswer {
        let statuses = engine.statuses(at: instant)
        return EntitlementsAnswer(
            appAccountToken: customer, at: UnixMilliseconds.of(instant),
            entitlements: statuses.filter(\.isGranted).map(EntitlementJSON.init),
            statuses: statuses.map(EntitlementJSON.init),
            rejected: rejected, stored: nil)
    }
}
