/// The console's URLs. Identifiers in them are canonical UUIDs, transaction IDs (checked to be
/// letters and digits) and row numbers, so they need no percent-encoding.
enum ConsolePaths {
    static let home = "/console"
    static let signIn = "/console/sign-in"
    static let signOut = "/console/sign-out"
    static let search = "/console/search"
    static let stylesheet = "/console/static/console.css"
    static let script = "/console/static/console.js"

    /// A customer's page.
    static func customer(_ appAccountToken: String) -> String {
        "/console/customers/\(appAccountToken)"
    }

    /// One stored item's page (its decoded payload).
    static func item(_ id: Int64, of appAccountToken: String) -> String {
        "/console/customers/\(appAccountToken)/items/\(id)"
    }

    /// The reconcile form's action.
    static func reconcile(_ appAccountToken: String, transactionId: String) -> String {
        "/console/customers/\(appAccountToken)/transactions/\(transactionId)/reconcile"
    }
}
