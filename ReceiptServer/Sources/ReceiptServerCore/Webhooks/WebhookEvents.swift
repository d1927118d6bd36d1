import AppStoreVerification
import Crypto
import Foundation

/// Standard Webhooks 1.0 signatures: `v1,` and the base64 of HMAC-SHA256 over
/// `"<webhook-id>.<webhook-timestamp>.<body>"` with the secret's key.
enum WebhookSignature {
    static func sign(id: String, timestamp: Int64, body: String, secret: WebhookSecret) -> String {
        var message = Data("\(id).\(timestamp).".utf8)
        message.append(Data(body.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: secret.key))
        return "v1," + Data(mac).base64EncodedString()
    }
}

/// What caused an `entitlements.changed` event.
struct WebhookCause: Codable, Sendable, Equatable {
    /// `transaction` (an app's POST or a reconcile), `notification` (Apple's, or the backfill's),
    /// `reverification` (the trusted roots or settings changed) or `time` (an expiry, the end of a
    /// grace period).
    var kind: String
    var transactionId: String?
    var originalTransactionId: String?
    var notificationType: String?
    var subtype: String?
    var notificationUUID: String?

    static let reverification = WebhookCause(kind: "reverification")
    static let time = WebhookCause(kind: "time")

    /// The cause a stored row is: its transaction, or its notification's type and subtype.
    static func of(_ row: SignedDataRow) -> WebhookCause {
        var cause = WebhookCause(kind: row.row.kind == .notification ? "notification" : "transaction",
                                 transactionId: row.row.transactionId, originalTransactionId: row.row.originalTransactionId)
        if case .notification(let result) = row.item {
            let payload = result.unsafePayloadValue
            cause.notificationType = payload.notificationType?.rawValue ?? row.row.notificationType
            cause.subtype = payload.subtype?.rawValue
            cause.notificationUUID = payload.notificationUUID ?? row.row.notificationUUID
        }
        return cause
    }
}

/// The JSON body of every event: `type`, `timestamp` (ISO 8601) and `data`.
struct WebhookEnvelope<Payload: Encodable & Sendable>: Encodable, Sendable {
    var type: String
    var timestamp: String
    var data: Payload
}

/// `entitlements.changed`'s `data`.
struct EntitlementsChangedData: Encodable, Sendable {
    var appAccountToken: String
    var sequence: Int64
    /// The answer of `GET /customers/{appAccountToken}/entitlements` after the change.
    var entitlements: EntitlementsAnswer
    var cause: WebhookCause
}

/// `notification.received`'s `data`.
struct NotificationReceivedData: Encodable, Sendable {
    var notificationType: String?
    var subtype: String?
    var notificationUUID: String?
    var transactionId: String?
    var originalTransactionId: String?
    var appAccountToken: String?
    var signedDate: Int64?
    var signedPayload: String?
}

/// One event to write to the outbox (one row per endpoint).
struct OutboxEvent: Sendable {
    let webhookId: String
    let type: String
    /// The customer: their events are delivered in order; `nil` for none to wait for.
    let orderKey: String?
    let sequence: Int64?
    let body: String
}

/// A customer's last emitted state, as `webhook_customers` keeps it.
struct WebhookCustomerState: Sendable {
    var sequence: Int64
    /// The canonical JSON of the granted entitlements last announced.
    var entitlements: String
}

/// What the outbox does inside the store's write transactions: the events a change makes. Both
/// backends call it with what they read in the same transaction (``SQLiteOutbox``,
/// ``PostgresOutbox``) and write what it returns there, so an event exists exactly when its change
/// committed.
public final class WebhookOutbox: Sendable {
    let configuration: WebhookConfiguration
    let engineConfiguration: EntitlementEngine.Configuration
    /// The clock entitlements are computed at (the server's).
    let clock: AppStoreClock
    /// Wakes the delivery workers after a commit that wrote events.
    let signal = ChangeNotice()

    init(configuration: WebhookConfiguration, engineConfiguration: EntitlementEngine.Configuration, clock: AppStoreClock) {
        self.configuration = configuration
        self.engineConfiguration = engineConfiguration
        self.clock = clock
    }

    var endpoints: [String] { configuration.endpoints.map(\.absoluteString) }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func newWebhookId() -> String {
        "msg_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// What a change of `customer` emits, given their stored records and last announced state.
    ///
    /// - Returns: the customer's new state, the earliest instant (ms) time alone may change their
    ///   entitlements, and the event when their granted entitlements differ from the last announced.
    func entitlementsChange(customer: String, records: [VerifiedRecords], previous: WebhookCustomerState?, cause: WebhookCause)
        throws -> (state: WebhookCustomerState, nextCheck: Int64?, event: OutboxEvent?)
    {
        let instant = clock.now
        let engine = EntitlementEngine(configuration: engineConfiguration, history: try VerifiedRecords.history(of: records))
        let answer = CustomerState(revision: 0, engine: engine, rejected: records.flatMap(\.rejections)).answer(customer: customer, at: instant)
        let nowMilliseconds = UnixMilliseconds.of(instant)
        let nextCheck = answer.statuses.flatMap { [$0.expiresDate, $0.gracePeriodExpiresDate] }.compactMap { $0 }.filter { $0 > nowMilliseconds }.min()
        let canonical = String(decoding: try Self.encoder.encode(answer.entitlements), as: UTF8.self)
        let previous = previous ?? WebhookCustomerState(sequence: 0, entitlements: "[]")
        guard canonical != previous.entitlements else { return (previous, nextCheck, nil) }
        let sequence = previous.sequence + 1
        let envelope = WebhookEnvelope(
            type: "entitlements.changed", timestamp: Self.timestamp(Date()),
            data: EntitlementsChangedData(appAccountToken: customer, sequence: sequence, entitlements: answer, cause: cause))
        let body = String(decoding: try Self.encoder.encode(envelope), as: UTF8.self)
        let event = OutboxEvent(webhookId: Self.newWebhookId(), type: "entitlements.changed", orderKey: customer, sequence: sequence, body: body)
        return (WebhookCustomerState(sequence: sequence, entitlements: canonical), nextCheck, event)
    }

    /// `notification.received` for a newly stored notification.
    func notificationReceived(_ row: SignedDataRow, customer: String?) throws -> OutboxEvent? {
        guard case .notification(let result) = row.item else { return nil }
        let payload = result.unsafePayloadValue
        var transactionId = row.row.transactionId
        var originalTransactionId = row.row.originalTransactionId
        if case .success(let nested)? = payload.transactionInfo {
            transactionId = transactionId ?? nested.unsafePayloadValue.transactionId
            originalTransactionId = originalTransactionId ?? nested.unsafePayloadValue.originalTransactionId
        }
        let data = NotificationReceivedData(
            notificationType: payload.notificationType?.rawValue ?? row.row.notificationType, subtype: payload.subtype?.rawValue,
            notificationUUID: payload.notificationUUID ?? row.row.notificationUUID, transactionId: transactionId,
            originalTransactionId: originalTransactionId, appAccountToken: customer, signedDate: row.row.signedDate,
            signedPayload: configuration.includeSignedPayload ? row.row.jws : nil)
        let envelope = WebhookEnvelope(type: "notification.received", timestamp: Self.timestamp(Date()), data: data)
        let body = String(decoding: try Self.encoder.encode(envelope), as: UTF8.self)
        return OutboxEvent(webhookId: Self.newWebhookId(), type: "notification.received", orderKey: customer, sequence: nil, body: body)
    }
}
