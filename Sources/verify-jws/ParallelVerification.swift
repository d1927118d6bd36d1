import Foundation

/// Verifies a stream of lines on several threads, writing the results in input order.
///
/// The caller submits lines one at a time (blocking while the window is full); `jobs` worker
/// threads verify and render them; whichever worker finishes the oldest line not yet written
/// writes it and every later one already done, then ends the run (flushing when the output is a
/// pipe). At most `window` lines are in flight (submitted, not yet written), so memory does not
/// grow with the input, and a line is written as soon as it and the lines before it are done.
final class OrderedPipeline<Result: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private let window: Int
    private let transform: @Sendable (InputLine) -> Result
    private let consume: (Result) -> Void
    private let endOfRun: () -> Void
    /// Submitted lines not taken by a worker yet, and results not written yet, by sequence number
    /// modulo `window`. Guarded by `condition`.
    private var lines: [InputLine?]
    private var results: [Result?]
    private var submitted = 0, taken = 0, written = 0
    private var closed = false
    private var writing = false
    private var threads: [Thread] = []
    private let finishedWorkers = DispatchGroup()

    /// - Parameters:
    ///   - jobs: worker threads.
    ///   - window: the most lines in flight.
    ///   - transform: the work per line, on a worker.
    ///   - consume: receives results in input order, one writer at a time (under no lock).
    ///   - endOfRun: called by that writer after each run of results it wrote.
    init(jobs: Int, window: Int, transform: @escaping @Sendable (InputLine) -> Result, consume: @escaping (Result) -> Void, endOfRun: @escaping () -> Void) {
        self.window = window
        self.transform = transform
        self.consume = consume
        self.endOfRun = endOfRun
        lines = Array(repeating: nil, count: window)
        results = Array(repeating: nil, count: window)
        for index in 0..<jobs {
            finishedWorkers.enter()
            let thread = Thread { [self] in
                work()
                finishedWorkers.leave()
            }
            thread.name = "verify-jws worker \(index + 1)"
            thread.stackSize = 1 << 20
            threads.append(thread)
            thread.start()
        }
    }

    /// Adds a line, waiting while `window` lines are in flight.
    func submit(_ line: InputLine) {
        condition.lock()
        while submitted - written >= window { condition.wait() }
        lines[submitted % window] = line
        submitted += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every submitted line is written, then stops the workers.
    func finish() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        finishedWorkers.wait()
    }

    private func work() {
        condition.lock()
        while true {
            while taken == submitted && !closed { condition.wait() }
            if taken == submitted { break }
            let sequence = taken
            taken += 1
            guard let line = lines[sequence % window] else { continue }
            lines[sequence % window] = nil
            condition.unlock()
            let result = transform(line)
            condition.lock()
            results[sequence % window] = result
            guard !writing, sequence == written else { continue }
            // Write this result and every later one already done, in order; one writer at a time.
            // A result stored while the run was ending is picked up by the check at the bottom.
            writing = true
            repeat {
                while let next = results[written % window] {
                    results[written % window] = nil
                    condition.unlock()
                    consume(next)
                    condition.lock()
                    written += 1
                    condition.broadcast()
                }
                condition.unlock()
                endOfRun()
                condition.lock()
            } while results[written % window] != nil
            writing = false
        }
        condition.unlock()
    }
}

/// A count of verified lines on standard error, drawn only when standard error is a terminal and
/// the input is large (the total is unknown while streaming).
struct ProgressCounter {
    private let enabled = isatty(STDERR_FILENO) == 1
    private var shown = false

    mutating func update(done: Int) {
        guard enabled, done >= 2_000, done % 1_000 == 0 else { return }
        shown = true
        FileHandle.standardError.write(Data("\r\(done) lines verified".utf8))
    }

    func finish() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
