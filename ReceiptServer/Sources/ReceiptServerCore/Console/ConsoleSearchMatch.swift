/// What a console search found.
enum ConsoleSearchMatch: Sendable, Equatable {
    /// A customer (`appAccountToken`).
    case customer(String)
    /// A purchase stored under its `originalTransactionId` but linked to no customer yet.
    case unlinkedPurchase(String)
}
