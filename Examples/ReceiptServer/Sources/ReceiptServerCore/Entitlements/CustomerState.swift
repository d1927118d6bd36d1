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

    /// The answer at `instant`: what the engine grants, every status, and the rejections.
    func answer(customer: String, at instant: Date) -> EntitlementsAnswer {
        EntitlementsAnswer(
            appAccountToken: customer, at: UnixMilliseconds.of(instant),
            entitlements: engine.currentEntitlements(at: instant).map(EntitlementJSON.init),
            statuses: engine.statuses(at: instant).map(EntitlementJSON.init),
            rejected: rejected, stored: nil)
    }
}
