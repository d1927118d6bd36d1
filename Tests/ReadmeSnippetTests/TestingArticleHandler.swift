import AppStoreVerification
import Foundation

/// The handler the *Testing your server* article tests: what a server does with a transaction, a
/// notification and an app receipt, reduced to the products a customer owns.
actor PurchaseHandler {
    struct Refused: Error {
        let reason: String
    }

    private let verifier: SignedDataVerifier
    private var owned: Set<String> = []

    init(verifier: SignedDataVerifier) {
        self.verifier = verifier
    }

    func owns(_ productId: String) -> Bool { owned.contains(productId) }

    func handleTransaction(_ jws: String) throws {
        let transaction = try verifier.verifyTransaction(jws).payloadValue
        if transaction.revocationDate == nil { owned.insert(transaction.productId) }
    }

    func handleNotification(body: Data) throws {
        let notification = try verifier.verifyNotification(body).payloadValue
        guard let inner = try notification.transactionInfo?.get() else { throw Refused(reason: "no transaction") }
        let transaction = try inner.payloadValue
        if transaction.revocationDate != nil { owned.remove(transaction.productId) }
    }

    func handleReceipt(_ base64: String) throws {
        let receipt = try verifier.verifyAppReceipt(base64).payloadValue
        for purchase in receipt.inApp where purchase.cancellationDate == nil {
            if let productId = purchase.productId { owned.insert(productId) }
        }
    }
}

/// The route the *Testing your server* article's online section tests: an online verification
/// answered with an HTTP status, as a route answers.
struct OnlineTransactionRoute {
    let verifier: OnlineSignedDataVerifier

    /// 200 verified, 403 refused, 400 not signed data, 503 no revocation answer (retry later).
    func respond(to body: String) async -> Int {
        do throws(OnlineVerificationError) {
            switch try await verifier.verifyTransaction(body) {
            case .verified: return 200
            case .unverified: return 403
            }
        } catch {
            return error.isRetryable ? 503 : 400
        }
    }
}
