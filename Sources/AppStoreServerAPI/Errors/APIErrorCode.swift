import AppStoreVerification

/// An error code the App Store Server API returns in an error response body
/// (`{"errorCode": 4040010, "errorMessage": "..."}`), as Apple's `APIError` lists them.
///
/// Open like the payload enumerations: a code Apple adds later is kept with its raw value.
public struct APIErrorCode: OpenEnumeration {
    /// The numeric code Apple sent.
    public let rawValue: Int64
    /// Creates a code from its number; every number is accepted.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// 4000000: An error that indicates an invalid request.
    /// <https://developer.apple.com/documentation/appstoreserverapi/generalbadrequesterror>
    public static let generalBadRequest = APIErrorCode(rawValue: 4000000)
    /// 4000002: An error that indicates an invalid app identifier.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidappidentifiererror>
    public static let invalidAppIdentifier = APIErrorCode(rawValue: 4000002)
    /// 4000005: An error that indicates an invalid request revision.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidrequestrevisionerror>
    public static let invalidRequestRevision = APIErrorCode(rawValue: 4000005)
    /// 4000006: An error that indicates an invalid transaction identifier.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidtransactioniderror>
    public static let invalidTransactionId = APIErrorCode(rawValue: 4000006)
    /// 4000008: An error that indicates an invalid original transaction identifier.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidoriginaltransactioniderror>
    public static let invalidOriginalTransactionId = APIErrorCode(rawValue: 4000008)
    /// 4000009: An error that indicates an invalid extend-by-days value.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidextendbydayserror>
    public static let invalidExtendByDays = APIErrorCode(rawValue: 4000009)
    /// 4000010: An error that indicates an invalid reason code.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidextendreasoncodeerror>
    public static let invalidExtendReasonCode = APIErrorCode(rawValue: 4000010)
    /// 4000011: An error that indicates an invalid request identifier.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidrequestidentifiererror>
    public static let invalidRequestIdentifier = APIErrorCode(rawValue: 4000011)
    /// 4000012: An error that indicates that the start date is earlier than the earliest allowed date.
    /// <https://developer.apple.com/documentation/appstoreserverapi/startdatetoofarinpasterror>
    public static let startDateTooFarInPast = APIErrorCode(rawValue: 4000012)
    /// 4000013: An error that indicates that the end date precedes the start date, or the two dates are equal.
    /// <https://developer.apple.com/documentation/appstoreserverapi/startdateafterenddateerror>
    public static let startDateAfterEndDate = APIErrorCode(rawValue: 4000013)
    /// 4000014: An error that indicates the pagination token is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidpaginationtokenerror>
    public static let invalidPaginationToken = APIErrorCode(rawValue: 4000014)
    /// 4000015: An error that indicates the start date is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidstartdateerror>
    public static let invalidStartDate = APIErrorCode(rawValue: 4000015)
    /// 4000016: An error that indicates the end date is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidenddateerror>
    public static let invalidEndDate = APIErrorCode(rawValue: 4000016)
    /// 4000017: An error that indicates the pagination token expired.
    /// <https://developer.apple.com/documentation/appstoreserverapi/paginationtokenexpirederror>
    public static let paginationTokenExpired = APIErrorCode(rawValue: 4000017)
    /// 4000018: An error that indicates the notification type or subtype is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidnotificationtypeerror>
    public static let invalidNotificationType = APIErrorCode(rawValue: 4000018)
    /// 4000019: An error that indicates the request is invalid because it has too many constraints applied.
    /// <https://developer.apple.com/documentation/appstoreserverapi/multiplefilterssuppliederror>
    public static let multipleFiltersSupplied = APIErrorCode(rawValue: 4000019)
    /// 4000020: An error that indicates the test notification token is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidtestnotificationtokenerror>
    public static let invalidTestNotificationToken = APIErrorCode(rawValue: 4000020)
    /// 4000021: An error that indicates an invalid sort parameter.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidsorterror>
    public static let invalidSort = APIErrorCode(rawValue: 4000021)
    /// 4000022: An error that indicates an invalid product type parameter.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidproducttypeerror>
    public static let invalidProductType = APIErrorCode(rawValue: 4000022)
    /// 4000023: An error that indicates the product ID parameter is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidproductiderror>
    public static let invalidProductId = APIErrorCode(rawValue: 4000023)
    /// 4000024: An error that indicates an invalid subscription group identifier.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidsubscriptiongroupidentifiererror>
    public static let invalidSubscriptionGroupIdentifier = APIErrorCode(rawValue: 4000024)
    /// 4000025: An error that indicates the query parameter exclude-revoked is invalid. .. deprecated:: 1.5
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidexcluderevokederror>
    public static let invalidExcludeRevoked = APIErrorCode(rawValue: 4000025)
    /// 4000026: An error that indicates an invalid in-app ownership type parameter.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidinappownershiptypeerror>
    public static let invalidInAppOwnershipType = APIErrorCode(rawValue: 4000026)
    /// 4000027: An error that indicates a required storefront country code is empty.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidemptystorefrontcountrycodelisterror>
    public static let invalidEmptyStorefrontCountryCodeList = APIErrorCode(rawValue: 4000027)
    /// 4000028: An error that indicates a storefront code is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidstorefrontcountrycodeerror>
    public static let invalidStorefrontCountryCode = APIErrorCode(rawValue: 4000028)
    /// 4000030: An error that indicates the revoked parameter contains an invalid value.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidrevokederror>
    public static let invalidRevoked = APIErrorCode(rawValue: 4000030)
    /// 4000031: An error that indicates the status parameter is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidstatuserror>
    public static let invalidStatus = APIErrorCode(rawValue: 4000031)
    /// 4000032: An error that indicates the value of the account tenure field is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidaccounttenureerror>
    public static let invalidAccountTenure = APIErrorCode(rawValue: 4000032)
    /// 4000033: An error that indicates the value of the app account token field is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidappaccounttokenerror>
    public static let invalidAppAccountToken = APIErrorCode(rawValue: 4000033)
    /// 4000034: An error that indicates the value of the consumption status field is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidconsumptionstatuserror>
    public static let invalidConsumptionStatus = APIErrorCode(rawValue: 4000034)
    /// 4000035: An error that indicates the customer consented field is invalid or doesn’t indicate that the customer consented.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidcustomerconsentederror>
    public static let invalidCustomerConsented = APIErrorCode(rawValue: 4000035)
    /// 4000036: An error that indicates the value in the delivery status field is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invaliddeliverystatuserror>
    public static let invalidDeliveryStatus = APIErrorCode(rawValue: 4000036)
    /// 4000037: An error that indicates the value in the lifetime dollars purchased field is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidlifetimedollarspurchasederror>
    public static let invalidLifetimeDollarsPurchased = APIErrorCode(rawValue: 4000037)
    /// 4000038: An error that indicates the value in the lifetime dollars refunded field is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidlifetimedollarsrefundederror>
    public static let invalidLifetimeDollarsRefunded = APIErrorCode(rawValue: 4000038)
    /// 4000039: An error that indicates the value in the platform field is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidplatformerror>
    public static let invalidPlatform = APIErrorCode(rawValue: 4000039)
    /// 4000040: An error that indicates the value in the playtime field is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidplaytimeerror>
    public static let invalidPlayTime = APIErrorCode(rawValue: 4000040)
    /// 4000041: An error that indicates the value in the sample content provided field is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidsamplecontentprovidederror>
    public static let invalidSampleContentProvided = APIErrorCode(rawValue: 4000041)
    /// 4000042: An error that indicates the value in the user status field is invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invaliduserstatuserror>
    public static let invalidUserStatus = APIErrorCode(rawValue: 4000042)
    /// 4000043: An error that indicates the transaction identifier doesn’t represent a consumable in-app purchase. .. deprecated:: 1.11
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidtransactionnotconsumableerror>
    public static let invalidTransactionNotConsumable = APIErrorCode(rawValue: 4000043)
    /// 4000044: An error that indicates the refund preference field of a consumption request is
    /// invalid.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidrefundpreferenceerror>
    public static let invalidRefundPreference = APIErrorCode(rawValue: 4000044)
    /// 4000047: An error that indicates the transaction identifier represents an unsupported in-app purchase type.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidtransactiontypenotsupportederror>
    public static let invalidTransactionTypeNotSupported = APIErrorCode(rawValue: 4000047)
    /// 4000048: An error that indicates the endpoint doesn't support an app transaction ID.
    /// <https://developer.apple.com/documentation/appstoreserverapi/apptransactionidnotsupportederror>
    public static let appTransactionIdNotSupportedError = APIErrorCode(rawValue: 4000048)
    /// 4000161: An error that indicates the image that's uploading is invalid.
    /// <https://developer.apple.com/documentation/retentionmessaging/invalidimageerror>
    public static let invalidImage = APIErrorCode(rawValue: 4000161)
    /// 4000162: An error that indicates the header text is too long.
    /// <https://developer.apple.com/documentation/retentionmessaging/headertoolongerror>
    public static let headerTooLong = APIErrorCode(rawValue: 4000162)
    /// 4000163: An error that indicates the body text is too long.
    /// <https://developer.apple.com/documentation/retentionmessaging/bodytoolongerror>
    public static let bodyTooLong = APIErrorCode(rawValue: 4000163)
    /// 4000164: An error that indicates the locale is invalid.
    /// <https://developer.apple.com/documentation/retentionmessaging/invalidlocaleerror>
    public static let invalidLocale = APIErrorCode(rawValue: 4000164)
    /// 4000175: An error that indicates the alternative text for an image is too long.
    /// <https://developer.apple.com/documentation/retentionmessaging/alttexttoolongerror>
    public static let altTextTooLong = APIErrorCode(rawValue: 4000175)
    /// 4000183: An error that indicates the app account token value is not a valid UUID.
    /// <https://developer.apple.com/documentation/appstoreserverapi/invalidappaccounttokenuuiderror>
    public static let invalidAppAccountTokenUuidError = APIErrorCode(rawValue: 4000183)
    /// 4000185: An error that indicates the transaction is for a product the customer obtains through Family Sharing, which the endpoint doesn’t support.
    /// <https://developer.apple.com/documentation/appstoreserverapi/familytransactionnotsupportederror>
    public static let familyTransactionNotSupportedError = APIErrorCode(rawValue: 4000185)
    /// 4000187: An error that indicates the endpoint expects an original transaction identifier.
    /// <https://developer.apple.com/documentation/appstoreserverapi/transactionidisnotoriginaltransactioniderror>
    public static let transactionIdIsNotOriginalTransactionIdError = APIErrorCode(rawValue: 4000187)
    /// 4000209: An error that indicates the consumption percentage field is unsupported for
    /// auto-renewable subscription transactions (the App Store computes it from elapsed time).
    /// <https://developer.apple.com/documentation/appstoreserverapi/consumptionpercentageautorenewablesubscriptionerror>
    public static let consumptionPercentageAutoRenewableSubscription = APIErrorCode(rawValue: 4000209)
    /// 4000211: An error the API returns that indicates the performance test request is invalid.
    /// <https://developer.apple.com/documentation/retentionmessaging/invalidperformancetestrequesterror>
    public static let invalidPerformanceTestRequest = APIErrorCode(rawValue: 4000211)
    /// 4000212: An error that indicates the request ID is invalid.
    /// <https://developer.apple.com/documentation/retentionmessaging/invalidrequestiderror>
    public static let invalidRequestId = APIErrorCode(rawValue: 4000212)
    /// 4000213: An error that indicates an error with an existing test.
    /// <https://developer.apple.com/documentation/retentionmessaging/existingperformancetestrunerror>
    public static let existingPerformanceTestRun = APIErrorCode(rawValue: 4000213)
    /// 4000215: An error that indicates the URL is invalid.
    /// <https://developer.apple.com/documentation/retentionmessaging/badrequestrealtimeurlerror>
    public static let badRequestRealtimeUrl = APIErrorCode(rawValue: 4000215)
    /// 4000216: An error that indicates the image size provided is invalid.
    /// <https://developer.apple.com/documentation/retentionmessaging/badrequestimagesizeerror>
    public static let badRequestImageSize = APIErrorCode(rawValue: 4000216)
    /// 4000218: An error that indicates there are too many bullet points.
    /// <https://developer.apple.com/documentation/retentionmessaging/badrequesttoomanybulletpointserror>
    public static let badRequestTooManyBulletPoints = APIErrorCode(rawValue: 4000218)
    /// 4000219: An error that indicates the text for a bullet point is too long.
    /// <https://developer.apple.com/documentation/retentionmessaging/badrequestbulletpointtexttoolongerror>
    public static let badRequestBulletPointTextTooLong = APIErrorCode(rawValue: 4000219)
    /// 4000224: An error that indicates that no image object is included, but the request indicates that the header should be placed above the image.
    /// <https://developer.apple.com/documentation/retentionmessaging/badrequestaboveimagerequiresanimageerror>
    public static let badRequestAboveImageRequiresAnImage = APIErrorCode(rawValue: 4000224)
    /// 4030004: An error that indicates the subscription doesn't qualify for a renewal-date extension due to its subscription state.
    /// <https://developer.apple.com/documentation/appstoreserverapi/subscriptionextensionineligibleerror>
    public static let subscriptionExtensionIneligible = APIErrorCode(rawValue: 4030004)
    /// 4030005: An error that indicates the subscription doesn’t qualify for a renewal-date extension because it has already received the maximum extensions.
    /// <https://developer.apple.com/documentation/appstoreserverapi/subscriptionmaxextensionerror>
    public static let subscriptionMaxExtension = APIErrorCode(rawValue: 4030005)
    /// 4030007: An error that indicates a subscription isn't directly eligible for a renewal date extension because the user obtained it through Family Sharing.
    /// <https://developer.apple.com/documentation/appstoreserverapi/familysharedsubscriptionextensionineligibleerror>
    public static let familySharedSubscriptionExtensionIneligible = APIErrorCode(rawValue: 4030007)
    /// 4030014: An error that indicates when you reach the maximum number of uploaded images.
    /// <https://developer.apple.com/documentation/retentionmessaging/maximumnumberofimagesreachederror>
    public static let maximumNumberOfImagesReached = APIErrorCode(rawValue: 4030014)
    /// 4030016: An error that indicates when you reach the maximum number of uploaded messages.
    /// <https://developer.apple.com/documentation/retentionmessaging/maximumnumberofmessagesreachederror>
    public static let maximumNumberOfMessagesReached = APIErrorCode(rawValue: 4030016)
    /// 4030017: An error that indicates the message isn't in the approved state, so you can't configure it as a default message.
    /// <https://developer.apple.com/documentation/retentionmessaging/messagenotapprovederror>
    public static let messageNotApproved = APIErrorCode(rawValue: 4030017)
    /// 4030018: An error that indicates the image isn't in the approved state, so you can't configure it as part of a default message.
    /// <https://developer.apple.com/documentation/retentionmessaging/imagenotapprovederror>
    public static let imageNotApproved = APIErrorCode(rawValue: 4030018)
    /// 4030019: An error that indicates the image is currently in use as part of a message, so you can't delete it.
    /// <https://developer.apple.com/documentation/retentionmessaging/imageinuseerror>
    public static let imageInUse = APIErrorCode(rawValue: 4030019)
    /// 4030026: An error that indicates that passing a performance test is required before you can set a URL for the production environment.
    /// <https://developer.apple.com/documentation/retentionmessaging/forbiddennopassingtesterror>
    public static let forbiddenNoPassingTest = APIErrorCode(rawValue: 4030026)
    /// 4040001: An error that indicates the App Store account wasn’t found.
    /// <https://developer.apple.com/documentation/appstoreserverapi/accountnotfounderror>
    public static let accountNotFound = APIErrorCode(rawValue: 4040001)
    /// 4040002: An error response that indicates the App Store account wasn’t found, but you can try again.
    /// <https://developer.apple.com/documentation/appstoreserverapi/accountnotfoundretryableerror>
    public static let accountNotFoundRetryable = APIErrorCode(rawValue: 4040002)
    /// 4040003: An error that indicates the app wasn’t found.
    /// <https://developer.apple.com/documentation/appstoreserverapi/appnotfounderror>
    public static let appNotFound = APIErrorCode(rawValue: 4040003)
    /// 4040004: An error response that indicates the app wasn’t found, but you can try again.
    /// <https://developer.apple.com/documentation/appstoreserverapi/appnotfoundretryableerror>
    public static let appNotFoundRetryable = APIErrorCode(rawValue: 4040004)
    /// 4040005: An error that indicates an original transaction identifier wasn't found.
    /// <https://developer.apple.com/documentation/appstoreserverapi/originaltransactionidnotfounderror>
    public static let originalTransactionIdNotFound = APIErrorCode(rawValue: 4040005)
    /// 4040006: An error response that indicates the original transaction identifier wasn’t found, but you can try again.
    /// <https://developer.apple.com/documentation/appstoreserverapi/originaltransactionidnotfoundretryableerror>
    public static let originalTransactionIdNotFoundRetryable = APIErrorCode(rawValue: 4040006)
    /// 4040007: An error that indicates that the App Store server couldn’t find a notifications URL for your app in this environment.
    /// <https://developer.apple.com/documentation/appstoreserverapi/servernotificationurlnotfounderror>
    public static let serverNotificationUrlNotFound = APIErrorCode(rawValue: 4040007)
    /// 4040008: An error that indicates that the test notification token is expired or the test notification status isn’t available.
    /// <https://developer.apple.com/documentation/appstoreserverapi/testnotificationnotfounderror>
    public static let testNotificationNotFound = APIErrorCode(rawValue: 4040008)
    /// 4040009: An error that indicates the server didn't find a subscription-renewal-date extension request for the request identifier and product identifier you provided.
    /// <https://developer.apple.com/documentation/appstoreserverapi/statusrequestnotfounderror>
    public static let statusRequestNotFound = APIErrorCode(rawValue: 4040009)
    /// 4040010: An error that indicates a transaction identifier wasn't found.
    /// <https://developer.apple.com/documentation/appstoreserverapi/transactionidnotfounderror>
    public static let transactionIdNotFound = APIErrorCode(rawValue: 4040010)
    /// 4040014: An error that indicates the system can't find the image identifier.
    /// <https://developer.apple.com/documentation/retentionmessaging/imagenotfounderror>
    public static let imageNotFound = APIErrorCode(rawValue: 4040014)
    /// 4040015: An error that indicates the system can't find the message identifier.
    /// <https://developer.apple.com/documentation/retentionmessaging/messagenotfounderror>
    public static let messageNotFound = APIErrorCode(rawValue: 4040015)
    /// 4040018: An error the API returns if the service can't find the specified test run.
    /// <https://developer.apple.com/documentation/retentionmessaging/performancetestrunnotfounderror>
    public static let performanceTestRunNotFound = APIErrorCode(rawValue: 4040018)
    /// 4040019: An error response that indicates an app transaction doesn’t exist for the specified customer.
    /// <https://developer.apple.com/documentation/appstoreserverapi/apptransactiondoesnotexisterror>
    public static let appTransactionDoesNotExistError = APIErrorCode(rawValue: 4040019)
    /// 4040020: An error that indicates a default message isn’t configured.
    /// <https://developer.apple.com/documentation/retentionmessaging/defaultmessagenotfounderror>
    public static let defaultMessageNotFound = APIErrorCode(rawValue: 4040020)
    /// 4040021: An error that indicates that the URL for your endpoint isn’t configured.
    /// <https://developer.apple.com/documentation/retentionmessaging/realtimeurlnotfounderror>
    public static let realtimeUrlNotFound = APIErrorCode(rawValue: 4040021)
    /// 4090000: An error that indicates the image identifier already exists.
    /// <https://developer.apple.com/documentation/retentionmessaging/imagealreadyexistserror>
    public static let imageAlreadyExists = APIErrorCode(rawValue: 4090000)
    /// 4090001: An error that indicates the message identifier already exists.
    /// <https://developer.apple.com/documentation/retentionmessaging/messagealreadyexistserror>
    public static let messageAlreadyExists = APIErrorCode(rawValue: 4090001)
    /// 4290000: An error that indicates that the request exceeded the rate limit.
    /// <https://developer.apple.com/documentation/appstoreserverapi/ratelimitexceedederror>
    public static let rateLimitExceeded = APIErrorCode(rawValue: 4290000)
    /// 5000000: An error that indicates a general internal error.
    /// <https://developer.apple.com/documentation/appstoreserverapi/generalinternalerror>
    public static let generalInternal = APIErrorCode(rawValue: 5000000)
    /// 5000001: An error response that indicates an unknown error occurred, but you can try again.
    /// <https://developer.apple.com/documentation/appstoreserverapi/generalinternalretryableerror>
    public static let generalInternalRetryable = APIErrorCode(rawValue: 5000001)

    /// Every code Apple documented when this library was released.
    public static let documentedValues: [APIErrorCode] = [
        .generalBadRequest,
        .invalidAppIdentifier,
        .invalidRequestRevision,
        .invalidTransactionId,
        .invalidOriginalTransactionId,
        .invalidExtendByDays,
        .invalidExtendReasonCode,
        .invalidRequestIdentifier,
        .startDateTooFarInPast,
        .startDateAfterEndDate,
        .invalidPaginationToken,
        .invalidStartDate,
        .invalidEndDate,
        .paginationTokenExpired,
        .invalidNotificationType,
        .multipleFiltersSupplied,
        .invalidTestNotificationToken,
        .invalidSort,
        .invalidProductType,
        .invalidProductId,
        .invalidSubscriptionGroupIdentifier,
        .invalidExcludeRevoked,
        .invalidInAppOwnershipType,
        .invalidEmptyStorefrontCountryCodeList,
        .invalidStorefrontCountryCode,
        .invalidRevoked,
        .invalidStatus,
        .invalidAccountTenure,
        .invalidAppAccountToken,
        .invalidConsumptionStatus,
        .invalidCustomerConsented,
        .invalidDeliveryStatus,
        .invalidLifetimeDollarsPurchased,
        .invalidLifetimeDollarsRefunded,
        .invalidPlatform,
        .invalidPlayTime,
        .invalidSampleContentProvided,
        .invalidUserStatus,
        .invalidTransactionNotConsumable,
        .invalidRefundPreference,
        .invalidTransactionTypeNotSupported,
        .appTransactionIdNotSupportedError,
        .invalidImage,
        .headerTooLong,
        .bodyTooLong,
        .invalidLocale,
        .altTextTooLong,
        .invalidAppAccountTokenUuidError,
        .familyTransactionNotSupportedError,
        .transactionIdIsNotOriginalTransactionIdError,
        .consumptionPercentageAutoRenewableSubscription,
        .invalidPerformanceTestRequest,
        .invalidRequestId,
        .existingPerformanceTestRun,
        .badRequestRealtimeUrl,
        .badRequestImageSize,
        .badRequestTooManyBulletPoints,
        .badRequestBulletPointTextTooLong,
        .badRequestAboveImageRequiresAnImage,
        .subscriptionExtensionIneligible,
        .subscriptionMaxExtension,
        .familySharedSubscriptionExtensionIneligible,
        .maximumNumberOfImagesReached,
        .maximumNumberOfMessagesReached,
        .messageNotApproved,
        .imageNotApproved,
        .imageInUse,
        .forbiddenNoPassingTest,
        .accountNotFound,
        .accountNotFoundRetryable,
        .appNotFound,
        .appNotFoundRetryable,
        .originalTransactionIdNotFound,
        .originalTransactionIdNotFoundRetryable,
        .serverNotificationUrlNotFound,
        .testNotificationNotFound,
        .statusRequestNotFound,
        .transactionIdNotFound,
        .imageNotFound,
        .messageNotFound,
        .performanceTestRunNotFound,
        .appTransactionDoesNotExistError,
        .defaultMessageNotFound,
        .realtimeUrlNotFound,
        .imageAlreadyExists,
        .messageAlreadyExists,
        .rateLimitExceeded,
        .generalInternal,
        .generalInternalRetryable,
    ]
}
