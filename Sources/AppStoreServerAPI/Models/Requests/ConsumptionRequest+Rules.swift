import AppStoreVerification

extension ConsumptionRequest {
    /// The largest ``consumptionPercentage``: 100 %, in milliunits.
    public static let fullConsumption: Int32 = 100_000

    /// Checks this request against the rules Apple documents for `ConsumptionRequest` and
    /// `consumptionPercentage`, so that a request Apple would refuse is not sent.
    ///
    /// | rule | Apple's answer otherwise |
    /// | --- | --- |
    /// | ``customerConsented`` is true | 400, ``APIErrorCode/invalidCustomerConsented`` (4000035) |
    /// | ``consumptionPercentage`` is from 0 to 100,000 | 400, `ConsumptionPercentageOutOfRangeError` |
    /// | a ``deliveryStatus`` other than `DELIVERED` has no percentage, or 0 | 400, `UndeliveredConsumptionPercentageNonZeroError` |
    /// | an auto-renewable subscription has no percentage (Apple computes it from elapsed time) | 400, ``APIErrorCode/consumptionPercentageAutoRenewableSubscription`` (4000209) |
    /// | ``refundPreference`` `GRANT_PRORATED` comes with a percentage above 0 and below 100,000 | 400 |
    ///
    /// - Parameter productType: the type of the transaction the request answers (from its verified
    ///   `Transaction`), when known: the auto-renewable rule is checked only then.
    /// - Throws: ``AppStoreServerAPIError`` (`invalidRequest`) naming the rule, with
    ///   ``AppStoreServerAPIError/apiError`` set to Apple's code for it where Apple publishes one.
    public func check(productType: ProductType? = nil) throws(AppStoreServerAPIError) {
        guard customerConsented else {
            throw AppStoreServerAPIError(.invalidRequest, "the customer has not consented to sharing consumption data (customerConsented is false); Apple refuses such a request (4000035): send nothing, as Apple asks when there is no consent",
                                         apiError: .invalidCustomerConsented)
        }
        if let percentage = consumptionPercentage {
            guard (0...Self.fullConsumption).contains(percentage) else {
                throw AppStoreServerAPIError(.invalidRequest, "consumptionPercentage \(percentage) is outside 0...100000 (milliunits: 100000 is 100 %); Apple refuses it (ConsumptionPercentageOutOfRangeError)")
            }
            if deliveryStatus != .delivered, percentage != 0 {
                throw AppStoreServerAPIError(.invalidRequest, "consumptionPercentage is \(percentage) while deliveryStatus is \(deliveryStatus.rawValue); Apple requires 0 (or no percentage) for anything not delivered (UndeliveredConsumptionPercentageNonZeroError)")
            }
            if productType == .autoRenewableSubscription {
                throw AppStoreServerAPIError(.invalidRequest, "consumptionPercentage is set for an auto-renewable subscription; leave it nil: Apple computes it from the time elapsed (4000209)",
                                             apiError: .consumptionPercentageAutoRenewableSubscription)
            }
        }
        if refundPreference == .grantProrated, productType != .autoRenewableSubscription {
            guard let percentage = consumptionPercentage, percentage > 0, percentage < Self.fullConsumption else {
                throw AppStoreServerAPIError(.invalidRequest, "refundPreference GRANT_PRORATED needs a consumptionPercentage above 0 and below 100000 (it is \(consumptionPercentage.map(String.init) ?? "nil")); give the share consumed, or prefer GRANT_FULL or DECLINE")
            }
        }
    }
}
