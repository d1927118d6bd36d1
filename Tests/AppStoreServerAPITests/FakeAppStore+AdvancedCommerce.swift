#if ServerAPIClient
import Foundation

/// The fake's Advanced Commerce API routes (`POST /advancedCommerce/v1/...`). Each checks the
/// method, the path and the members of the body Apple documents as required, remembers the body,
/// and answers with the signed transaction and renewal info a test put in for the transaction ID.
/// Called by ``ExtraRoutes`` under its lock (after the fake checked the bearer token).
extension ExtraRoutes {
    /// What these routes answer with and remember.
    struct AdvancedCommerceState {
        /// The signed data to answer with, by transaction ID.
        var signedData: [String: (transaction: String, renewalInfo: String?)] = [:]
        /// The bodies received, by "operation/transactionId" (`subscription/cancel/42`).
        var bodies: [String: [String: Any]] = [:]
    }

    /// Answers `request` when it is an Advanced Commerce API route, else `nil`.
    func advancedCommerceRoutes(_ request: Request, _ storage: inout Storage) -> Reply? {
        let routes: [(pattern: String, operation: String, check: ([String: Any]) -> Bool)] = [
            ("POST /advancedCommerce/v1/subscription/cancel/*", "subscription/cancel", { _ in true }),
            ("POST /advancedCommerce/v1/subscription/revoke/*", "subscription/revoke", { body in
                body["refundReason"] is String && body["refundType"] is String && body["refundRiskingPreference"] is Bool
            }),
            ("POST /advancedCommerce/v1/transaction/requestRefund/*", "transaction/requestRefund", { body in
                guard let items = body["items"] as? [[String: Any]], !items.isEmpty, body["refundRiskingPreference"] is Bool else { return false }
                return items.allSatisfy { $0["SKU"] is String && $0["refundReason"] is String && $0["refundType"] is String && $0["revoke"] is Bool }
            }),
            ("POST /advancedCommerce/v1/subscription/changeMetadata/*", "subscription/changeMetadata", { body in
                let items = (body["items"] as? [[String: Any]]) ?? []
                return items.allSatisfy { $0["currentSKU"] is String && $0["effective"] is String }
            }),
            ("POST /advancedCommerce/v1/subscription/migrate/*", "subscription/migrate", { body in
                guard let descriptors = body["descriptors"] as? [String: Any], descriptors["description"] is String,
                      descriptors["displayName"] is String, body["targetProductId"] is String, body["taxCode"] is String,
                      let items = body["items"] as? [[String: Any]], !items.isEmpty
                else { return false }
                return items.allSatisfy { $0["SKU"] is String && $0["description"] is String && $0["displayName"] is String }
            }),
            ("POST /advancedCommerce/v1/subscription/changePrice/*", "subscription/changePrice", { body in
                guard let items = body["items"] as? [[String: Any]], !items.isEmpty else { return false }
                return items.allSatisfy { $0["SKU"] is String && $0["price"] is NSNumber }
            }),
        ]
        guard let route = routes.first(where: { request.match($0.pattern) != nil }),
              let transactionId = request.match(route.pattern)?.first
        else { return nil }
        guard request.contentType == "application/json",
              let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
              let requestInfo = body["requestInfo"] as? [String: Any],
              let reference = requestInfo["requestReferenceId"] as? String, UUID(uuidString: reference) != nil, reference == reference.lowercased(),
              route.check(body)
        else { return .apiError(400, code: 4000000, message: "Invalid request.") }
        storage.advancedCommerce.bodies["\(route.operation)/\(transactionId)"] = body
        guard let signed = storage.advancedCommerce.signedData[transactionId] else { return Self.notFound }
        var answer: [String: Any] = ["signedTransactionInfo": signed.transaction]
        if let renewalInfo = signed.renewalInfo { answer["signedRenewalInfo"] = renewalInfo }
        return .jsonObject(answer)
    }
}
#endif
