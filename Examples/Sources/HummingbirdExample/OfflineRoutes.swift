import AppStoreVerification
import Hummingbird

/// The article's offline routes: `POST /transactions` (a StoreKit 2 transaction your app sent) and
/// `POST /notifications` (an App Store Server Notification V2 body), verified with `verifier` (the
/// plain, synchronous entry points).
///
/// Hummingbird streams a request's body: `collect(upTo:)` gathers it and is the route's body limit
/// (beyond it the request is refused with 413). 1 MB leaves room for any notification: one carries
/// its own x5c chain and, nested and encoded again, a signed transaction, renewal info and app
/// transaction with theirs (the repository's notification-valid.jws is 18,700 bytes; one with all
/// three nested items about 27 KB).
public func registerOfflineRoutes<Router: RouterMethods>(on router: Router, verifier: SignedDataVerifier, ledger: PurchaseLedger) {
    let grant: @Sendable (Transaction) async -> Void = { await ledger.grant($0) }
    let store: @Sendable (ResponseBodyV2DecodedPayload) async -> Void = { await ledger.store($0) }

    router.post("/transactions") { request, context -> Response in
        let body = try await request.body.collect(upTo: 1 << 20)
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
            context.logger.info("not a signed transaction: \(error.code)")
            return Response(status: .badRequest)
        }
    }

    router.post("/notifications") { request, context -> Response in
        let body = try await request.body.collect(upTo: 1 << 20)
        do throws(SignedDataDecodingError) {
            switch try verifier.verifyNotification(String(buffer: body)) {
            case .verified(let notification):
                await store(notification)
                return Response(status: .ok)
            case .unverified:
                return Response(status: .forbidden)
            }
        } catch {
            context.logger.info("not a notification: \(error.code)")
            return Response(status: .badRequest)
        }
    }
}
