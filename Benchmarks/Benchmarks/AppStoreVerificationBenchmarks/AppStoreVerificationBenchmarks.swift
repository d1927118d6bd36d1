import AppStoreVerification
import AppStoreVerificationBenchmarkSupport
import Benchmark
import BenchmarkCorpus
import Dispatch
import Foundation
import JWTKit

// Every benchmark of the package in one run: `swift package --package-path Benchmarks benchmark`.
// What each measures is in Benchmarks/README.md. Each iteration checks its verdict, so a broken
// corpus or verifier fails the run instead of timing the failure path.

/// Size of one batch in the concurrency-scaling pair (`scalingFactor: .kilo`: the starred metrics
/// are per verification).
private let batchSize = 1_000
private let threads = 2

/// A verdict that is not the expected one stops the benchmark process.
private func expectVerified<T>(_ result: VerificationResult<T>, _ what: @autoclosure () -> String) {
    guard case .verified = result else {
        fatalError("\(what()): expected .verified, got \(result.verificationError.map { "\($0)" } ?? "?")")
    }
}

/// Operations per second for `count` operations started at `start`.
private func rate(_ count: Int, since start: ContinuousClock.Instant) -> Int {
    let elapsed = (ContinuousClock.now - start) / .nanoseconds(1)
    return elapsed > 0 ? Int((Double(count) * 1e9 / elapsed).rounded()) : 0
}

let benchmarks: @Sendable () -> Void = {
    // Throughput in plain operations per second (not rounded to K), times in microseconds.
    let units: [BenchmarkMetric: BenchmarkUnits] = [.throughput: .count, .mallocCountTotal: .count]
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .microseconds,
        units: units,
        warmupIterations: 10,
        maxDuration: .seconds(2),
        maxIterations: 20_000
    )

    let corpus = Corpus.load()
    let warmVerifier = corpus.makeVerifier()
    let coldVerifier = corpus.makeVerifier(chainCacheCapacity: 0)
    let newLeafVerifier = corpus.makeVerifier()

    // MARK: Floors: the OpenSSL work no verifier can skip

    let warmFloor: RawVerificationFloor
    let coldFloors: [RawVerificationFloor]
    do {
        warmFloor = try RawVerificationFloor(jws: corpus.warm)
        coldFloors = try corpus.cold.map { try RawVerificationFloor(jws: $0) }
    } catch {
        fatalError("Cannot pre-parse the corpus for the floor benchmarks: \(error)")
    }

    Benchmark("Floor.ES256") { benchmark in
        for _ in benchmark.scaledIterations {
            guard warmFloor.verifyES256() else { fatalError("Floor.ES256: the signature does not verify") }
        }
    }

    // The floor without hashing: ECDSA P-256 over a precomputed digest. The verifier's warm path
    // hashes only the payload (the header's SHA-256 midstate is cached with the chain).
    Benchmark("Floor.ES256.DigestOnly") { benchmark in
        for _ in benchmark.scaledIterations {
            guard warmFloor.verifyES256Digest() else { fatalError("Floor.ES256.DigestOnly: the signature does not verify") }
        }
    }

    Benchmark("Floor.NewLeaf") { benchmark in
        // Cycles through the cold corpus's leaves, as Ours.Cold does.
        let floor = coldFloors[benchmark.currentIteration % coldFloors.count]
        for _ in benchmark.scaledIterations {
            guard floor.verifyLeafCertificateSignature(), floor.verifyES256() else {
                fatalError("Floor.NewLeaf: a signature does not verify")
            }
        }
    }

    Benchmark("Floor.NewLeafParsed") { benchmark in
        // The new-leaf floor including what OpenSSL 3 needs to read a certificate it has never
        // seen: parsing the leaf's DER, then the two signature checks.
        let floor = coldFloors[benchmark.currentIteration % coldFloors.count]
        for _ in benchmark.scaledIterations {
            guard floor.parseAndVerifyLeafCertificate(), floor.verifyES256() else {
                fatalError("Floor.NewLeafParsed: a signature does not verify")
            }
        }
    }

    // MARK: Ours

    Benchmark("Ours.Warm") { benchmark in
        for _ in benchmark.scaledIterations {
            let result = try warmVerifier.verifyTransaction(corpus.warm)
            expectVerified(result, "Ours.Warm")
            blackHole(result)
        }
    }

    Benchmark("Ours.Cold") { benchmark in
        // Cache disabled (capacity 0) and a distinct leaf per JWS: full path validation every call.
        let jws = corpus.cold[benchmark.currentIteration % corpus.cold.count]
        for _ in benchmark.scaledIterations {
            let result = try coldVerifier.verifyTransaction(jws)
            expectVerified(result, "Ours.Cold")
            blackHole(result)
        }
    }

    Benchmark("Ours.NewLeaf") { benchmark in
        // Default configuration (caches on) and a distinct leaf per JWS, cycling through 256 leaves
        // (more than the chain cache holds): every call misses the chain cache, while the
        // intermediate is one the verifier has seen. Compare with Floor.NewLeaf.
        let jws = corpus.cold[benchmark.currentIteration % corpus.cold.count]
        for _ in benchmark.scaledIterations {
            let result = try newLeafVerifier.verifyTransaction(jws)
            expectVerified(result, "Ours.NewLeaf")
            blackHole(result)
        }
    }

    let payloadJSON: Data
    do {
        payloadJSON = try CompactJWS(parsing: corpus.warm).payloadData
    } catch {
        fatalError("warm.jws does not parse: \(error)")
    }
    Benchmark("Ours.DecodeOnly") { benchmark in
        // What the verifier does for the payload: the strict payload decoder.
        for _ in benchmark.scaledIterations {
            let transaction = try AppStoreJSON.decode(Transaction.self, from: payloadJSON)
            blackHole(transaction)
        }
    }

    Benchmark("Foundation.JSONDecoder") { benchmark in
        // For comparison: Foundation's JSONDecoder on the same payload.
        for _ in benchmark.scaledIterations {
            let transaction = try AppStoreJSON.makeDecoder().decode(Transaction.self, from: payloadJSON)
            blackHole(transaction)
        }
    }

    // The notification and its two nested JWS must all verify; checked once here, then the outer
    // verdict is checked every iteration.
    do {
        let result = try warmVerifier.verifyNotification(corpus.notification)
        expectVerified(result, "Ours.Notification")
        let notification = result.unsafePayloadValue
        guard case .success(let transaction) = notification.transactionInfo, transaction.isVerified,
              case .success(let renewal) = notification.renewalInfo, renewal.isVerified
        else {
            fatalError("Ours.Notification: the nested transaction or renewal info does not verify: \(String(describing: notification.transactionInfo)), \(String(describing: notification.renewalInfo))")
        }
    } catch {
        fatalError("Ours.Notification: \(error)")
    }
    Benchmark("Ours.Notification") { benchmark in
        // Three JWS (the notification, its signedTransactionInfo and signedRenewalInfo), one chain:
        // warm cache.
        for _ in benchmark.scaledIterations {
            let result = try warmVerifier.verifyNotification(corpus.notification)
            expectVerified(result, "Ours.Notification")
            blackHole(result)
        }
    }

    // MARK: Online: the same JWS offline (sync and async) and online with a warm OCSP cache

    // Corpus/online.jws, whose leaf and intermediate name OCSP responders. The online verifier's
    // transport serves the pre-signed answers of Corpus/online-ocsp.txt; the setup hook verifies
    // once (one request per responder), then seals the transport, so any request during the
    // measured iterations stops the run: every measured call is served from the OCSP cache.
    let online = OnlineCorpus.load()
    let onlineOfflineVerifier = online.makeVerifier()
    let onlineOfflineAsyncVerifier = online.makeVerifier()
    let onlineTransport = online.makeTransport()
    let onlineVerifier = online.makeOnlineVerifier(transport: onlineTransport)

    Benchmark("Ours.Warm.Offline") { benchmark in
        // The synchronous offline path on online.jws: Ours.Warm's work on the online chain.
        for _ in benchmark.scaledIterations {
            let result = try onlineOfflineVerifier.verifyTransaction(online.jws)
            expectVerified(result, "Ours.Warm.Offline")
            blackHole(result)
        }
    }

    Benchmark("Ours.Warm.Offline.Async") { benchmark async throws in
        // The offline verifier called from an async closure, as Ours.Online.WarmOCSPCache runs, so
        // the two differ only by the revocation check and the async entry point.
        for _ in benchmark.scaledIterations {
            let result = try onlineOfflineAsyncVerifier.verifyTransaction(online.jws)
            expectVerified(result, "Ours.Warm.Offline.Async")
            blackHole(result)
        }
    }

    Benchmark("Ours.Online.WarmOCSPCache", closure: { benchmark async throws in
        // OnlineSignedDataVerifier (default options, in-process transport), both answers cached.
        for _ in benchmark.scaledIterations {
            let result = try await onlineVerifier.verifyTransaction(online.jws)
            expectVerified(result, "Ours.Online.WarmOCSPCache")
            blackHole(result)
        }
    }, setup: {
        await online.warmUp(onlineVerifier, onlineTransport)
    })

    // MARK: Concurrency scaling: the same batch on one thread, then split over two

    // One iteration is a batch of 1,000 verifications; with `.kilo` the starred metrics are per
    // verification (the built-in throughput is then shown in K/s, rounded, so "Verifications / s"
    // records each batch's exact rate). CPU time (all threads) shows whether both cores were busy.
    let verificationsPerSecond = BenchmarkMetric.custom("Verifications / s", polarity: .prefersLarger, useScalingFactor: false)
    let batchConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .throughput, verificationsPerSecond, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .microseconds,
        units: units.merging([verificationsPerSecond: .count]) { $1 },
        warmupIterations: 1,
        scalingFactor: .kilo,
        maxDuration: .seconds(6),
        maxIterations: 200
    )
    precondition(batchConfiguration.scalingFactor.rawValue == batchSize)

    Benchmark("Ours.Warm.Batch1Thread", configuration: batchConfiguration) { benchmark in
        let start = ContinuousClock.now
        for _ in benchmark.scaledIterations {
            let result = try warmVerifier.verifyTransaction(corpus.warm)
            expectVerified(result, "Ours.Warm.Batch1Thread")
            blackHole(result)
        }
        benchmark.measurement(verificationsPerSecond, rate(batchSize, since: start))
    }

    Benchmark("Ours.Warm.2Threads", configuration: batchConfiguration) { benchmark in
        let start = ContinuousClock.now
        defer { benchmark.measurement(verificationsPerSecond, rate(batchSize, since: start)) }
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<(batchSize / threads) {
                do {
                    let result = try warmVerifier.verifyTransaction(corpus.warm)
                    expectVerified(result, "Ours.Warm.2Threads")
                    blackHole(result)
                } catch {
                    fatalError("Ours.Warm.2Threads: \(error)")
                }
            }
        }
    }

    // MARK: Peer: vapor/jwt-kit 5 X5CVerifier (swift-certificates path validation, swift-crypto ES256)

    let peerVerifier: X5CVerifier
    do {
        peerVerifier = try X5CVerifier(rootCertificates: [corpus.rootPEM])
    } catch {
        fatalError("Cannot build jwt-kit's X5CVerifier: \(error)")
    }
    // The same JSON conventions as ours (dates in milliseconds), so only the verification differs.
    let peerDecoder = AppStoreJSON.makeDecoder()

    Benchmark("Peer.JWTKit.X5C") { benchmark in
        for _ in benchmark.scaledIterations {
            let transaction = try await peerVerifier.verifyJWS(
                corpus.warm, as: PeerTransaction.self, jsonDecoder: peerDecoder, validationTime: .signedDate)
            // The claim checks our verifier makes (bundle ID and environment).
            guard transaction.bundleId == Corpus.bundleId, transaction.environment == "Sandbox" else {
                fatalError("Peer.JWTKit.X5C: unexpected claims \(transaction)")
            }
            blackHole(transaction)
        }
    }

    // MARK: App receipts (ReceiptBenchmarks.swift)

    receiptBenchmarks()
}
