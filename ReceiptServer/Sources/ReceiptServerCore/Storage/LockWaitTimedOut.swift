/// A write waited longer than the busy timeout for the database.
struct LockWaitTimedOut: Error, CustomStringConvertible {
    let milliseconds: Int
    var description: String {
        "the database stayed busy (locked by another writer, or behind earlier writes) for the busy timeout of \(milliseconds) ms; retry, or raise --busy-timeout"
    }
}
