import AppStoreServerAPI
import Foundation
import Hummingbird

/// The backend's facts for answering refund requests, behind the access token (backend only):
///
/// - `PUT /customers/{appAccountToken}/consumption-consent` with `{"consented": true|false}`: whether
///   the customer consented, in your app, to sharing consumption data with the App Store (Apple
///   requires it; without it no answer is sent). Answer 200 `{"appAccountToken", "consented"}`.
/// - `PUT /transactions/{transactionId}/consumption` with `{"deliveryStatus": "DELIVERED",
///   "consumptionPercentage": 25000, "sampleContentProvided": true, "refundPreference": "DECLINE"}`
///   (every member optional; what is missing is taken from what the server knows and its
///   defaults): replaces what was stored for the transaction. Answer 200 with what is stored.
///
/// 400 `invalidBody` for a value Apple does not document (a delivery status, a preference, a
/// percentage outside 0...100000); 503 `storageUnavailable` for the database.
struct ConsumptionController: Sendable {
    let server: ReceiptServerContext

    /// Adds both routes to `router`, which the caller guards (the backend only).
    func addRoutes(to router: some RouterMethods<ReceiptRequestContext>) {
        router.put("customers/:appAccountToken/consumption-consent", use: putConsent)
        router.put("transactions/:transactionId/consumption", use: putFacts)
    }

    /// `PUT /customers/{appAccountToken}/consumption-consent`.
    @Sendable func putConsent(_ request: Request, context: ReceiptRequestContext) async throws -> Response {
        let customer = try CustomerKey.required(context.parameters.get("appAccountToken") ?? "")
        let body = try await request.decode(as: ConsentBody.self, context: context)
        let instant = UnixMilliseconds.of(server.configuration.clock.now)
        do {
            try await server.store.backend.saveConsent(customer: customer, consented: body.consented, at: instant)
        } catch {
            throw APIError.storageUnavailable(error)
        }
        return JSONBody.response(ConsentAnswer(appAccountToken: customer, consented: body.consented))
    }

    /// `PUT /transactions/{transactionId}/consumption`.
    @Sendable func putFacts(_ request: Request, context: ReceiptRequestContext) async throws -> Response {
        let transactionId = context.parameters.get("transactionId") ?? ""
        guard !transactionId.isEmpty, transactionId.count <= 64, transactionId.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLetter) }) else {
            throw APIError(.badRequest, code: "invalidTransactionId", "\"\(transactionId.prefix(64))\" is not a transaction ID (digits).")
        }
        let body = try await request.decode(as: FactsBody.self, context: context)
        if let delivery = body.deliveryStatus, !DeliveryStatus.documentedValues.map(\.rawValue).contains(delivery) {
            throw APIError.invalidBody("\"deliveryStatus\" must be one of \(DeliveryStatus.documentedValues.map(\.rawValue).joined(separator: ", ")).")
        }
        if let preference = body.refundPreference, !RefundPreference.documentedValues.map(\.rawValue).contains(preference) {
            throw APIError.invalidBody("\"refundPreference\" must be one of \(RefundPreference.documentedValues.map(\.rawValue).joined(separator: ", ")).")
        }
        if let percentage = body.consumptionPercentage, !(0...Int64(ConsumptionRequest.fullConsumption)).contains(percentage) {
            throw APIError.invalidBody("\"consumptionPercentage\" is in milliunits: from 0 to 100000 (100000 is 100 %).")
        }
        let facts = ConsumptionFacts(transactionId: transactionId, deliveryStatus: body.deliveryStatus, consumptionPercentage: body.consumptionPercentage,
                                     sampleContentProvided: body.sampleContentProvided, refundPreference: body.refundPreference,
                                     updatedAt: UnixMilliseconds.of(server.configuration.clock.now))
        do {
            try await server.store.backend.saveConsumptionFacts(facts)
        } catch {
            throw APIError.storageUnavailable(error)
        }
        return JSONBody.response(facts)
    }

    struct ConsentBody: JSONRequestBody {
        let consented: Bool
        static let shape = #"{"consented": true}"#
    }

    struct ConsentAnswer: Encodable {
        let appAccountToken: String
        let consented: Bool
    }

    struct FactsBody: JSONRequestBody {
        let deliveryStatus: String?
        let consumptionPercentage: Int64?
        let sampleContentProvided: Bool?
        let refundPreference: String?
        static let shape = #"{"deliveryStatus": "DELIVERED", "consumptionPercentage": 25000, "sampleContentProvided": true, "refundPreference": "DECLINE"} (each optional)"#
    }
}
