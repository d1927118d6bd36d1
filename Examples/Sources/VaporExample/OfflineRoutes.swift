import AppStoreVerification
import Vapor

/// The article's offline routes: `POST /transactions` (a StoreKit 2 transaction your app sent) and
/// `POST /notifications` (an App Store Server Notification V2 body), verified with `verifier` (the
/// plain, synchronous entry points).
///
/// A notification is larger than Vapor's default body limit (16 KB): it carries its own x5c chain
/// and, nested and encoded again, a signed transaction, renewal info and app transaction with
/// theirs (the repository's notification-valid.jws is 18,700 bytes; one with all three nested items
/// is about 27 KB). Its route collects up to 1 MB; the transaction route keeps the default (a
/// transaction is about 6 KB).
public func registerOfflineRoutes(on app: some RoutesBuilder, verifier: SignedDataVerifier, ledger: PurchaseLedger) {
    let grant: @Sendable (Transaction) async -> Void = { await ledger.grant($0) }
    let store: @Sendable (ResponseBodyV2DecodedPayload) async -> Void = { await ledger.store($0) }

    app.post("transactions") { req async throws -> Response in
        guard let body = req.body.data else { return Response(status: .badRequest) }
        do throws(SignedDataDecodingError) {
            switch try verifier.verifyTransaction(String(buffer: body)) {   // offline: no await
            case .verified(let transaction):
                await grant(transaction)
                return Response(status: .ok)
            case .unverified:
                return Response(status: .forbidden)
            }
        } catch {
            // error is a SignedDataDecodingError here: error.code, error.message
            req.logger.info("not a signed transaction: \(error.code)")
            return Response(status: .badRequest)
        }
    }

    app.on(.POST, "notifications", body: .collect(maxSize: "1mb")) { req async throws -> Response in
        guard let body = req.body.data else { return Response(status: .badRequest) }
        do throws(SignedDataDecodingError) {
            switch try verifier.verifyNotification(String(buffer: body)) {
            case .verified(let notification):
                await store(notification)
                return Response(status: .ok)
            case .unverified:
                return Response(status: .forbidden)
            }
        } catch {
            req.logger.info("not a notification: \(error.code)")
            return Response(status: .badRequest)
        }
    }
}
