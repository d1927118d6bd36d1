import Dispatch
import Foundation

/// Processes a batch of lines on several threads and returns the results in input order.
///
/// The work per line (verifying, and rendering the output) runs on the workers; only writing the
/// rendered bytes stays on the calling thread, so throughput scales with the cores.
enum ParallelVerification {
    static func map<Result: Sendable>(_ lines: ArraySlice<InputLine>, jobs: Int, _ transform: @Sendable (InputLine) -> Result) -> [Result] {
        guard jobs > 1, lines.count > 1 else {
            return lines.map(transform)
        }
        let slots = Slots<Result>(count: lines.count)
        let base = lines.startIndex
        let workers = min(jobs, lines.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            // Interleaved assignment keeps the workers' shares even whatever the line lengths.
            var offset = worker
            while offset < lines.count {
                slots.store(transform(lines[base + offset]), at: offset)
                offset += workers
            }
        }
        return slots.collect()
    }

    /// One slot per line, in storage allocated once: each slot is written by exactly one worker
    /// (no two workers touch the same memory, and nothing touches the buffer itself), and read
    /// after all of them finished.
    private final class Slots<Value>: @unchecked Sendable {
        private let storage: UnsafeMutableBufferPointer<Value?>

        init(count: Int) {
            storage = .allocate(capacity: count)
            storage.initialize(repeating: nil)
        }

        deinit {
            storage.deinitialize()
            storage.deallocate()
        }

        func store(_ value: Value, at index: Int) {
            storage[index] = value
        }

        func collect() -> [Value] { storage.compactMap { $0 } }
    }
}

/// A progress bar on standard error, drawn only when standard error is a terminal.
struct ProgressBar {
    let total: Int
    let enabled: Bool
    private var lastDrawn = -1

    /// Shown for inputs of at least `threshold` lines when standard error is a terminal.
    init(total: Int, threshold: Int = 2_000) {
        self.total = total
        self.enabled = total >= threshold && isatty(STDERR_FILENO) == 1
    }

    mutating func update(done: Int) {
        guard enabled, total > 0 else { return }
        let percent = done * 100 / total
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        let width = 40
        let filled = width * done / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(bar) \(percent)% (\(done)/\(total))".utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
