import AppStoreVerification
import Hummingbird

/// A router with the example's routes: the offline ones at the root (`/transactions`,
/// `/notifications`) and, when an online verifier is given, the online one under `/online`
/// (`/online/notifications`).
public func makeRouter(verifier: SignedDataVerifier, onlineVerifier: OnlineSignedDataVerifier?, ledger: PurchaseLedger) -> Router<BasicRequestContext> {
    let router = Router()
    registerOfflineRoutes(on: router, verifier: verifier, ledger: ledger)
    if let onlineVerifier {
        registerOnlineRoutes(on: router.group("online"), onlineVerifier: onlineVerifier, ledger: ledger)
    }
    return router
}
