import Foundation

extension RenewalInfo: DirectlyEncodable {
    /// The members `encode(to:)` writes, in byte order of their names.
    func writeJSON(into bytes: inout [UInt8]) throws {
        var writer = JSONObjectWriter(taking: &bytes)
        try writer.encodable("advancedCommerceInfo", advancedCommerceInfo)
        writer.string("appAccountToken", appAccountToken)
        writer.string("appTransactionId", appTransactionId)
        writer.string("autoRenewProductId", autoRenewProductId)
        writer.open("autoRenewStatus", autoRenewStatus)
        try writer.encodable("commitmentInfo", commitmentInfo)
        writer.string("currency", currency)
        writer.string("deviceVerification", deviceVerification)
        writer.string("deviceVerificationNonce", deviceVerificationNonce)
        writer.strings("eligibleWinBackOfferIds", eligibleWinBackOfferIds)
        writer.open("environment", environment)
        writer.open("expirationIntent", expirationIntent)
        try writer.date("gracePeriodExpiresDate", gracePeriodExpiresDate)
        writer.bool("isInBillingRetryPeriod", isInBillingRetryPeriod)
        writer.open("offerDiscountType", offerDiscountType)
        writer.string("offerIdentifier", offerIdentifier)
        writer.string("offerPeriod", offerPeriod)
        writer.open("offerType", offerType)
        writer.string("originalTransactionId", originalTransactionId)
        writer.open("priceIncreaseStatus", priceIncreaseStatus)
        writer.string("productId", productId)
        try writer.date("recentSubscriptionStartDate", recentSubscriptionStartDate)
        writer.open("renewalBillingPlanType", renewalBillingPlanType)
        try writer.date("renewalDate", renewalDate)
        writer.integer("renewalPrice", renewalPrice)
        try writer.date("signedDate", signedDate)
        bytes = writer.finish()
    }
}
