import AppStoreServerAPI
import Foundation

extension FakeAppStoreServerAPI {
    /// A Send Consumption Information request (v2, `PUT /inApps/v2/transactions/consumption/{transactionId}`)
    /// the fake received and answered 202, as Apple answers one it accepts: kept in
    /// ``FakeAppStoreServerAPI/consumptionRequests`` so that a test can check what your server sent
    /// in answer to a `CONSUMPTION_REQUEST` notification.
    ///
    /// Two records are equal when they name the same transaction and their bodies carry the same
    /// fields with the same values (``fields`` names every member the body had, so a member your
    /// code should not send makes a difference).
    public struct ReceivedConsumptionRequest: Sendable, Hashable {
        /// The transaction the path names.
        public let transactionId: String
        /// `customerConsented`, if the body had it.
        public let customerConsented: Bool?
        /// `sampleContentProvided`, if the body had it.
        public let sampleContentProvided: Bool?
        /// `deliveryStatus` (`DELIVERED`, `UNDELIVERED_QUALITY_ISSUE`, ...), if the body had it.
        public let deliveryStatus: String?
        /// `consumptionPercentage`, in milliunits (100000 is 100 %), if the body had it.
        public let consumptionPercentage: Int64?
        /// `refundPreference` (`DECLINE`, `GRANT_FULL`, `GRANT_PRORATED`), if the body had it.
        public let refundPreference: String?
        /// The names of every member of the body's JSON object.
        public let fields: Set<String>

        /// A record with these values (to compare with what the fake received); `fields` defaults
        /// to the names of the values given.
        public init(transactionId: String, customerConsented: Bool? = nil, sampleContentProvided: Bool? = nil, deliveryStatus: String? = nil,
                    consumptionPercentage: Int64? = nil, refundPreference: String? = nil, fields: Set<String>? = nil) {
            self.transactionId = transactionId
            self.customerConsented = customerConsented
            self.sampleContentProvided = sampleContentProvided
            self.deliveryStatus = deliveryStatus
            self.consumptionPercentage = consumptionPercentage
            self.refundPreference = refundPreference
            var named = Set<String>()
            if customerConsented != nil { named.insert("customerConsented") }
            if sampleContentProvided != nil { named.insert("sampleContentProvided") }
            if deliveryStatus != nil { named.insert("deliveryStatus") }
            if consumptionPercentage != nil { named.insert("consumptionPercentage") }
            if refundPreference != nil { named.insert("refundPreference") }
            self.fields = fields ?? named
        }

        /// The record of `body` sent for `transactionId`, or `nil` when the body is not a JSON object
        /// whose members have the types Apple documents.
        init?(transactionId: String, body: Data) {
            struct Body: Decodable {
                let customerConsented: Bool?
                let sampleContentProvided: Bool?
                let deliveryStatus: String?
                let consumptionPercentage: Int64?
                let refundPreference: String?
            }
            guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
                  let decoded = try? JSONDecoder().decode(Body.self, from: body) else { return nil }
            self.init(transactionId: transactionId, customerConsented: decoded.customerConsented,
                      sampleContentProvided: decoded.sampleContentProvided, deliveryStatus: decoded.deliveryStatus,
                      consumptionPercentage: decoded.consumptionPercentage, refundPreference: decoded.refundPreference,
                      fields: Set(object.keys))
        }
    }

    /// Every Send Consumption Information request (v2) the fake accepted (answered 202), in order.
    /// A request a queued answer (``enqueue(_:)``) or the rate limits answered is not here (it is in
    /// ``requests``).
    public var consumptionRequests: [ReceivedConsumptionRequest] {
        state.read(\.consumptionRequests)
    }
}

extension FakeAppStoreData {
    /// Send Consumption Information v2: records the request and answers 202 with no body, as Apple
    /// does; a body that is not a JSON object is answered 400. `nil` for any other request.
    mutating func recordConsumption(_ request: FakeAppStoreServerAPI.Request) -> FakeAppStoreServerAPI.Response? {
        guard let ids = request.match("PUT /inApps/v2/transactions/consumption/*") else { return nil }
        guard let record = FakeAppStoreServerAPI.ReceivedConsumptionRequest(transactionId: ids[0], body: request.body) else {
            return .apiError(status: 400, code: APIErrorCode(rawValue: 4000000), message: "Invalid request.")
        }
        consumptionRequests.append(record)
        return FakeAppStoreServerAPI.Response(status: 202)
    }
}
