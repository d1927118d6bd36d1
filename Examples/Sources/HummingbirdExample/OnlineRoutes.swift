import AppStoreVerification
import Hummingbird

/// The article's online route: `POST /notifications` verified with `onlineVerifier`, an
/// `OnlineSignedDataVerifier` (OCSP revocation checks): 200 verified, 403 refused (a revoked
/// certificate among them), 400 not a notification, 503 when no OCSP answer could be had (Apple
/// retries a 5xx).
public func registerOnlineRoutes<Router: RouterMethods>(on router: Router, onlineVerifier: OnlineSignedDataVerifier, ledger: PurchaseLedger) {
    let store: @Sendable (ResponseBodyV2DecodedPayload) async -> Void = { await ledger.store($0) }

    router.post("/notifications") { request, context -> Response in
        let body = try await request.body.collect(upTo: 1 << 20)
        do throws(OnlineVerificationError) {
            switch try await onlineVerifier.verifyNotification(String(buffer: body)) {
            case .verified(let notification):
                await store(notification)
                return Response(status: .ok)
            case .unverified:
                return Response(status: .forbidden)
            }
        } catch {
            switch error {
            case .decoding(let error):
                context.logger.info("not a notification: \(error.code)")
                return Response(status: .badRequest)
            case .revocationCheckUnavailable(let error):
                context.logger.warning("retry later: \(error.code)")
                return Response(status: .serviceUnavailable)   // Apple retries a 5xx
            }
        }
    }
}
