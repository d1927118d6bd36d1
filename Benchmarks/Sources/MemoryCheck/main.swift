import AppStoreVerification
import BenchmarkCorpus
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// RSS must stay flat over 1,000,000 warm verifications (the same chain every time, cache on).
//
//     swift run --package-path Benchmarks -c release MemoryCheck [total] [threads] [warm-up]
//
// (defaults: 1,000,000 verifications on 2 threads after 10,000 warm-up verifications)
//
// Prints the resident set size after a warm-up (checkpoint 0) and after every tenth of the run;
// exits 1 if the final RSS exceeds the first (post-warm-up) reading by more than 16 MiB, or if any
// verification does not come back `.verified`.

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let total = arguments.first ?? 1_000_000
let threads = arguments.dropFirst().first ?? 2
let checkpoints = 10
let warmup = arguments.dropFirst(2).first ?? 10_000
let allowedGrowth = 16 * 1024 * 1024

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// `text` right-aligned in `width` columns.
func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

guard total > 0, threads > 0, total % (checkpoints * threads) == 0, warmup >= 0 else {
    printError("total (\(total)) must be a positive multiple of \(checkpoints) × threads (\(threads))")
    exit(2)
}

/// Resident set size in bytes, from /proc/self/statm (second field, in pages).
func residentBytes() -> Int {
    #if os(Linux)
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return -1 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return -1
    #endif
}

func mebibytes(_ bytes: Int) -> String { String(format: "%.2f MiB", Double(bytes) / 1_048_576) }

let corpus = Corpus.load()
let verifier = corpus.makeVerifier()
let jws = corpus.warm

/// Verifies `count` times on each of `threads` threads; returns how many were not `.verified`.
func run(_ count: Int, threads: Int) -> Int {
    let failures = UnsafeMutableBufferPointer<Int>.allocate(capacity: threads)
    failures.initialize(repeating: 0)
    defer { failures.deallocate() }
    nonisolated(unsafe) let slots = failures
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        var failed = 0
        for _ in 0..<count {
            if (try? verifier.verifyTransaction(jws))?.isVerified != true { failed += 1 }
        }
        slots[thread] = failed
    }
    return failures.reduce(0, +)
}

var failed = run(warmup / threads, threads: threads)
let baseline = residentBytes()
guard baseline > 0 else {
    printError("cannot read /proc/self/statm")
    exit(2)
}
print("MemoryCheck: \(total) warm verifications on \(threads) threads (after \(warmup) warm-up verifications)")
print([pad("verified", 9), pad("RSS", 12), pad("vs. 0", 11), pad("ops/s", 9)].joined(separator: "  "))
print([pad("0", 9), pad(mebibytes(baseline), 12), pad("+0.00 MiB", 11), pad("-", 9)].joined(separator: "  "))

let step = total / checkpoints
var done = 0
var last = baseline
let started = DispatchTime.now().uptimeNanoseconds
for _ in 0..<checkpoints {
    let t0 = DispatchTime.now().uptimeNanoseconds
    failed += run(step / threads, threads: threads)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
    done += step
    last = residentBytes()
    let delta = last - baseline
    print([pad(String(done), 9), pad(mebibytes(last), 12), pad((delta >= 0 ? "+" : "-") + mebibytes(abs(delta)), 11),
           pad(String(Int((Double(step) / seconds).rounded())), 9)].joined(separator: "  "))
}
let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9

let growth = last - baseline
print(String(format: "total %.1f s, %.0f verifications/s", elapsed, Double(total) / elapsed)
      + "; RSS growth \(mebibytes(growth)) (limit \(mebibytes(allowedGrowth))); not verified: \(failed)")
if failed > 0 {
    print("FAIL: \(failed) verifications did not come back .verified")
    exit(1)
}
if growth > allowedGrowth {
    print("FAIL: RSS grew by \(mebibytes(growth)), more than \(mebibytes(allowedGrowth))")
    exit(1)
}
print("PASS: RSS flat within \(mebibytes(allowedGrowth))")
