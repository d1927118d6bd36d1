/// What one run of the notification backfill did (logged, counted in `/metrics`, and handed to
/// the server's `onBackfill` observer).
public struct BackfillReport: Sendable, Equatable {
    /// The start of the range asked for, in milliseconds since 1970.
    public var startDate: Int64
    /// The end of the range asked for (exclusive), in milliseconds since 1970.
    public var endDate: Int64
    /// Notifications Apple listed.
    public var received = 0
    /// Those stored now.
    public var stored = 0
    /// Those the database had already (by `notificationUUID`, or the same JWS).
    public var alreadyStored = 0
    /// Those refused: the notification or signed data inside it does not verify (not stored).
    public var refused = 0
    /// Why the run stopped early (the API or the database failed), or `nil` when it read every
    /// page. What was stored before the failure stays stored; the next run starts over.
    public var failure: String?

    /// Creates an empty report for the range.
    public init(startDate: Int64, endDate: Int64) {
        self.startDate = startDate
        self.endDate = endDate
    }
}
