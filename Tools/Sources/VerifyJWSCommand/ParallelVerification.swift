import Foundation

/// Verifies a stream of lines on several threads, writing the results in input order.
///
/// The caller submits lines one at a time; `jobs` worker threads verify and render them; whichever
/// worker finishes the oldest line not yet written writes it and every later one already done, then
/// ends the run (flushing when the output is a pipe). At most `window` lines are in flight
/// (submitted, not yet written), so memory does not grow with the input, and a line is written as
/// soon as it and the lines before it are done.
///
/// Threads sleep only when they must: a worker when no line is waiting, the submitter when the
/// window is full, and then until it is half empty, so that under load lines move in bursts
/// rather than with a wake-up per line.
final class OrderedPipeline<Result: Sendable>: @unchecked Sendable {
    private let window: Int
    private let transform: @Sendable (InputLine) -> Result
    private let consume: (Result) -> Void
    private let endOfRun: () -> Void

    // Everything below is guarded by `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let workAvailable = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let spaceAvailable = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Lines not taken by a worker yet and results not written yet, by sequence number modulo `window`.
    private var lines: [InputLine?]
    private var results: [Result?]
    private var submitted = 0, taken = 0, written = 0
    private var idleWorkers = 0
    private var submitterWaiting = false
    private var closed = false
    private var writing = false
    private let finishedWorkers = DispatchGroup()

    /// - Parameters:
    ///   - jobs: worker threads.
    ///   - window: the most lines in flight.
    ///   - transform: the work per line, on a worker.
    ///   - consume: receives results in input order, one writer at a time (under no lock).
    ///   - endOfRun: called by that writer after each run of results it wrote.
    init(jobs: Int, window: Int, transform: @escaping @Sendable (InputLine) -> Result, consume: @escaping (Result) -> Void, endOfRun: @escaping () -> Void) {
        self.window = max(window, 2)
        self.transform = transform
        self.consume = consume
        self.endOfRun = endOfRun
        lines = Array(repeating: nil, count: self.window)
        results = Array(repeating: nil, count: self.window)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(workAvailable, nil)
        pthread_cond_init(spaceAvailable, nil)
        for index in 0..<jobs {
            finishedWorkers.enter()
            let thread = Thread { [self] in
                work()
                finishedWorkers.leave()
            }
            thread.name = "verify-jws worker \(index + 1)"
            thread.start()
        }
    }

    deinit {
        pthread_cond_destroy(spaceAvailable)
        pthread_cond_destroy(workAvailable)
        pthread_mutex_destroy(mutex)
        spaceAvailable.deallocate()
        workAvailable.deallocate()
        mutex.deallocate()
    }

    /// Adds a line; when the window is full, waits until it is half empty.
    func submit(_ line: InputLine) {
        pthread_mutex_lock(mutex)
        if submitted - written >= window {
            while submitted - written > window / 2 {
                submitterWaiting = true
                pthread_cond_wait(spaceAvailable, mutex)
            }
        }
        lines[submitted % window] = line
        submitted += 1
        if idleWorkers > 0 { pthread_cond_signal(workAvailable) }
        pthread_mutex_unlock(mutex)
    }

    /// Waits until every submitted line is written, then stops the workers.
    func finish() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(workAvailable)
        pthread_mutex_unlock(mutex)
        finishedWorkers.wait()
    }

    private func work() {
        pthread_mutex_lock(mutex)
        while true {
            while taken == submitted && !closed {
                idleWorkers += 1
                pthread_cond_wait(workAvailable, mutex)
                idleWorkers -= 1
            }
            if taken == submitted { break }
            let sequence = taken
            taken += 1
            let line = lines[sequence % window]
            lines[sequence % window] = nil
            pthread_mutex_unlock(mutex)
            let result = line.map(transform)
            pthread_mutex_lock(mutex)
            guard let result else { continue }
            results[sequence % window] = result
            guard !writing, sequence == written else { continue }
            // Write this result and every later one already done, in order; one writer at a time.
            // A result stored while the run was ending is picked up by the check at the bottom.
            writing = true
            repeat {
                while let next = results[written % window] {
                    results[written % window] = nil
                    pthread_mutex_unlock(mutex)
                    consume(next)
                    pthread_mutex_lock(mutex)
                    written += 1
                }
                if submitterWaiting, submitted - written <= window / 2 {
                    submitterWaiting = false
                    pthread_cond_signal(spaceAvailable)
                }
                pthread_mutex_unlock(mutex)
                endOfRun()
                pthread_mutex_lock(mutex)
            } while results[written % window] != nil
            writing = false
        }
        pthread_mutex_unlock(mutex)
    }
}

/// A count of verified lines on standard error, drawn only when standard error is a terminal and
/// the input is large (the total is unknown while streaming).
struct ProgressCounter {
    /// The run's standard error (``CommandContext``), taken when the counter is made.
    private let descriptor: Int32
    private let enabled: Bool
    private var shown = false

    init() {
        descriptor = CommandContext.current.error
        enabled = isatty(descriptor) == 1
    }

    mutating func update(done: Int) {
        guard enabled, done >= 2_000, done % 1_000 == 0 else { return }
        shown = true
        FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(Data("\r\(done) lines verified".utf8))
    }

    func finish() {
        guard shown else { return }
        FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(Data("\r\u{1B}[K".utf8))
    }
}
