/// The per-endpoint budgets of one client (``AppStoreServerAPIClient/Pacing``), shared by every
/// task using it.
///
/// Each endpoint's window is cut into slots. A request is counted when it is reserved, and moved
/// to the slot in which its answer came (``settle(_:reserved:now:)``): Apple saw it at the latest
/// then, so however long it travelled, it still counts when Apple's own window would count it.
/// A slot counts until it has wholly left the window, so the count never falls below what the
/// last `window` really held at Apple (a request may wait up to one slot longer than an exact log
/// would make it, never less). A 429's `Retry-After` closes the endpoint to every task until the
/// instant Apple named.
actor RequestPacer {
    /// Slots per window: the granularity of the count (one minute of an hour).
    static let slotsPerWindow = 60

    private let pacing: AppStoreServerAPIClient.Pacing
    private let sandbox: Bool
    private let slot: Duration
    private var endpoints: [String: Usage] = [:]

    /// The requests one endpoint sent in the slots still inside the window.
    private struct Usage {
        var budget: Int
        /// Slot index → requests sent in it.
        var slots: [Int64: Int] = [:]
        var total = 0
        /// No request before this (clock time), after a 429's `Retry-After`.
        var closedUntil: Duration = .zero
    }

    init(pacing: AppStoreServerAPIClient.Pacing, sandbox: Bool) {
        self.pacing = pacing
        self.sandbox = sandbox
        self.slot = pacing.window / Self.slotsPerWindow
    }

    /// What ``reserve(_:now:)`` gave: a request counted in `slot`, or a wait (nothing counted).
    enum Reservation: Sendable {
        case counted(slot: Int64)
        case notPaced
        case wait(Duration)
    }

    /// Counts one request to `limit`'s endpoint at clock time `now`, or returns how long to wait
    /// before asking again (nothing counted).
    func reserve(_ limit: PublishedRateLimit, now: Duration) -> Reservation {
        guard pacing.isOn, slot > .zero else { return .notPaced }
        var usage = endpoints[limit.endpoint] ?? Usage(budget: limit.budget(window: pacing.window, scale: pacing.scale, sandbox: sandbox))
        defer { endpoints[limit.endpoint] = usage }
        if now < usage.closedUntil { return .wait(usage.closedUntil - now) }
        let current = index(of: now)
        // A slot counts until it has wholly left the window: slotsPerWindow + 1 slots.
        let oldestCounted = current - Int64(Self.slotsPerWindow)
        for (index, count) in usage.slots where index < oldestCounted {
            usage.total -= count
            usage.slots[index] = nil
        }
        guard usage.total >= usage.budget else {
            usage.slots[current, default: 0] += 1
            usage.total += 1
            return .counted(slot: current)
        }
        // Wait until the oldest counted slot leaves.
        let oldest = usage.slots.keys.min() ?? current
        let free = slot * Int(oldest + Int64(Self.slotsPerWindow) + 1)
        return .wait(max(free - now, .milliseconds(1)))
    }

    /// Moves a request counted in `reserved` to the slot of `now`, when its answer (or failure)
    /// came.
    func settle(_ limit: PublishedRateLimit, reserved: Int64, now: Duration) {
        guard var usage = endpoints[limit.endpoint] else { return }
        defer { endpoints[limit.endpoint] = usage }
        let current = index(of: now)
        guard current > reserved else { return }
        if let count = usage.slots[reserved], count > 0 {
            usage.slots[reserved] = count > 1 ? count - 1 : nil
        } else {
            // Its slot already left the window (a very long exchange): count it anew.
            usage.total += 1
        }
        usage.slots[current, default: 0] += 1
    }

    /// Closes `limit`'s endpoint until clock time `until` (Apple's `Retry-After` on a 429).
    func close(_ limit: PublishedRateLimit, until: Duration) {
        guard pacing.isOn else { return }
        var usage = endpoints[limit.endpoint] ?? Usage(budget: limit.budget(window: pacing.window, scale: pacing.scale, sandbox: sandbox))
        usage.closedUntil = max(usage.closedUntil, until)
        endpoints[limit.endpoint] = usage
    }

    /// The slot `time` falls in.
    private func index(of time: Duration) -> Int64 {
        Int64((time / slot).rounded(.down))
    }
}
