import AppStoreVerification
import BenchmarkFloors
import Benchmark
import BenchmarkCorpus
import Foundation

/// App receipt verification beside its floor (see Benchmarks/README.md):
/// - `Floor.Receipt`: the OpenSSL work no receipt verifier can skip, with everything pre-parsed —
///   the PKCS#7 signer's RSA signature over the content (digest included) and the leaf
///   certificate's RSA signature under the intermediate's key;
/// - `Ours.Receipt.Warm`: `verifyAppReceipt` on the same receipt bytes with a warm chain cache (what
///   a server sees: the same few App Store certificates in every receipt);
/// - `Ours.Receipt.Cold`: the same with the chain cache off (every call parses and validates the
///   three embedded certificates).
func receiptBenchmarks() {
    let corpus = ReceiptCorpus.load()
    let warmVerifier = corpus.makeVerifier()
    let coldVerifier = corpus.makeVerifier(chainCacheCapacity: 0)
    let floor: RawReceiptVerificationFloor
    do {
        floor = try RawReceiptVerificationFloor(receipt: corpus.receipt)
    } catch {
        fatalError("Cannot pre-parse the receipt for its floor: \(error)")
    }

    Benchmark("Floor.Receipt") { benchmark in
        for _ in benchmark.scaledIterations {
            guard floor.verifyReceiptSignature(), floor.verifyLeafCertificateSignature() else {
                fatalError("Floor.Receipt: a signature does not verify")
            }
        }
    }

    Benchmark("Ours.Receipt.Warm") { benchmark in
        for _ in benchmark.scaledIterations {
            guard case .verified(let receipt)? = try? warmVerifier.verifyAppReceipt(corpus.receipt) else {
                fatalError("Ours.Receipt.Warm: the receipt does not verify")
            }
            blackHole(receipt)
        }
    }

    Benchmark("Ours.Receipt.Cold") { benchmark in
        for _ in benchmark.scaledIterations {
            guard case .verified(let receipt)? = try? coldVerifier.verifyAppReceipt(corpus.receipt) else {
                fatalError("Ours.Receipt.Cold: the receipt does not verify")
            }
            blackHole(receipt)
        }
    }
}
