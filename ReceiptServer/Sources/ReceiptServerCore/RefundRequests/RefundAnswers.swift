import AppStoreServerAPI
import Foundation
import Synchronization

/// Answering refund requests, as the routes see it: whether a `CONSUMPTION_REQUEST` gets a pending
/// answer stored with it, and the signal that wakes this process's ``RefundAnswerSender``.
final class RefundAnswers: Sendable {
    let configuration: RefundAnswerConfiguration
    let wakeup = Wakeup()

    init(configuration: RefundAnswerConfiguration) {
        self.configuration = configuration
    }

    /// The pending answer to store with `accepted`, when it is a refund request.
    func pendingRequest(for accepted: AcceptedNotification, receivedAt: Int64) -> RefundRequestRow? {
        RefundRequestRow.pending(for: accepted, receivedAt: receivedAt)
    }

    /// Tells the sender an answer is due now (after the notification's transaction committed).
    func answerDue() {
        wakeup.signal()
    }
}

/// A signal one waiter waits for, with a bound: ``signal()`` before the wait makes the next wait
/// return at once.
final class Wakeup: Sendable {
    private let state = Mutex<(signalled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    /// Wakes the waiter (or the next one).
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.signalled = true
            return nil
        }
        waiter?.resume()
    }

    /// Returns when signalled, after `limit`, or when the task is cancelled.
    func wait(upTo limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: limit) }
            group.addTask { await self.waitForSignal() }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForSignal() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.signalled || Task.isCancelled {
                        state.signalled = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                let waiter = state.waiter
                state.waiter = nil
                return waiter
            }
            waiter?.resume()
        }
    }
}
