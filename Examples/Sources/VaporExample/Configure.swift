import AppStoreVerification
import Vapor

/// Registers the example's routes on `app`: the offline ones at the root (`/transactions`,
/// `/notifications`) and, when an online verifier is given, the online one under `/online`
/// (`/online/notifications`).
public func configure(_ app: Application, verifier: SignedDataVerifier, onlineVerifier: OnlineSignedDataVerifier?, ledger: PurchaseLedger) {
    registerOfflineRoutes(on: app, verifier: verifier, ledger: ledger)
    if let onlineVerifier {
        registerOnlineRoutes(on: app.grouped("online"), onlineVerifier: onlineVerifier, ledger: ledger)
    }
}
