/// How the server catches up on App Store Server Notifications it missed (it was down, or
/// answered 5xx for longer than Apple retries): with App Store Server API credentials, it asks Get
/// Notification History at start and every ``interval``, from the latest stored notification's
/// `signedDate` minus ``margin`` (on a database without notifications, ``initialWindow`` back) to
/// now, and stores what it lacks (``NotificationBackfill``).
public struct BackfillConfiguration: Sendable, Hashable {
    /// Time between two runs; the first runs at start.
    public var interval: Duration
    /// How far before the latest stored notification's `signedDate` a run starts, for
    /// notifications Apple signed earlier but delivered (or failed to deliver) later.
    public var margin: Duration
    /// How far back a run starts when no notification is stored yet.
    public var initialWindow: Duration

    /// The furthest back Get Notification History reaches (180 days); longer windows are shortened.
    public static let maximumWindow: Duration = .seconds(180 * 86_400)

    /// Creates a configuration: by default hourly, an hour of margin, 30 days on an empty database.
    ///
    /// - Parameters:
    ///   - interval: time between runs.
    ///   - margin: how far before the latest stored notification a run starts.
    ///   - initialWindow: how far back a run starts on a database without notifications.
    public init(interval: Duration = .seconds(3600), margin: Duration = .seconds(3600), initialWindow: Duration = .seconds(30 * 86_400)) {
        self.interval = interval
        self.margin = margin
        self.initialWindow = initialWindow
    }
}
