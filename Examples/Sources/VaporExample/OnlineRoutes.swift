import AppStoreVerification
import Vapor

/// The article's online route: `POST /notifications` verified with `onlineVerifier`, an
/// `OnlineSignedDataVerifier` (OCSP revocation checks): 200 verified, 403 refused (a revoked
/// certificate among them), 400 not a notification, 503 when no OCSP answer could be had (Apple
/// retries a 5xx).
public func registerOnlineRoutes(on app: some RoutesBuilder, onlineVerifier: OnlineSignedDataVerifier, ledger: PurchaseLedger) {
    let store: @Sendable (ResponseBodyV2DecodedPayload) async -> Void = { await ledger.store($0) }

    app.on(.POST, "notifications", body: .collect(maxSize: "1mb")) { req async throws -> Response in
        guard let body = req.body.data else { return Response(status: .badRequest) }
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
                req.logger.info("not a notification: \(error.code)")
                return Response(status: .badRequest)
            case .revocationCheckUnavailable(let error):
                req.logger.warning("retry later: \(error.code)")
                return Response(status: .serviceUnavailable)   // Apple retries a 5xx
            }
        }
    }
}
