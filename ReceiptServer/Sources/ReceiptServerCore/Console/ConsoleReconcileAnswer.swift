/// The reconcile route's JSON answer, as the console reads it back (the route's own type is
/// `Encodable` only).
struct ConsoleReconcileAnswer: Decodable, Sendable, Equatable {
    struct Unverified: Decodable, Sendable, Equatable {
        let transactionId: String
        let reason: String
    }
    struct Conflict: Decodable, Sendable, Equatable {
        let transactionId: String
        let linkedTo: String
    }
    let transactionId: String
    let received: Int
    let stored: Int
    let alreadyStored: Int
    let customers: [String]
    let unverified: [Unverified]
    let unlinked: [String]
    let conflicts: [Conflict]
}
