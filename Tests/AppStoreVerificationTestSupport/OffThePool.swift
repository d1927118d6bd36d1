import Foundation

/// Runs `work`, which blocks (runs processes, waits for a server's line), on a Dispatch thread,
/// and awaits its result without holding a thread of Swift's cooperative pool meanwhile: on a
/// machine with two cores the pool has two threads, and fixtures that blocked them would stall
/// every other test of the process.
public func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try work() })
        }
    }
}
