import Foundation
import Testing
@testable import AppStoreVerification

// Differential test against Apple's official App Store Server Library (Python):
// `ReceiptUtility.extract_transaction_id_from_app_receipt` must extract the same transaction ID as
// we do from every receipt that verifies (the real receipts in ../shared, Xcode's receipts with the
// StoreKit certificate, the minted valid receipts).
//
// Deliberate difference: Apple's utility performs no validation ("*NO validation* is performed on
// the receipt"); it extracts an ID from receipts that do not verify too (tampered, another root,
// another signer). We extract only from verified receipts (`VerificationResult.transactionId`
// throws the VerificationError), so those inputs are compared as "Apple extracts, we refuse".

/// Runs Apple's ReceiptUtility over base64 receipts, one a line; `nil` when Python or the library
/// is missing.
enum ReceiptOracle {
    static let script = """
        import json, sys
        from appstoreserverlibrary.receipt_utility import ReceiptUtility
        utility = ReceiptUtility()
        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            try:
                print(json.dumps({"id": utility.extract_transaction_id_from_app_receipt(line)}))
            except Exception as error:
                print(json.dumps({"error": type(error).__name__}))
        """

    static let isAvailable: Bool = {
        guard let output = try? run(["-c", "import appstoreserverlibrary.receipt_utility"], stdin: Data()) else { return false }
        return output.status == 0
    }()

    static func run(_ arguments: [String], stdin: Data) throws -> (status: Int32, stdout: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let out = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        let collected = ResultBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            collected.set(out.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return (process.terminationStatus, collected.get())
    }

    /// Apple's answer per receipt: `.some(id)` (id may be nil), or `nil` when it threw.
    static func extract(_ receipts: [String]) throws -> [String??] {
        let output = try run(["-c", script], stdin: Data((receipts.joined(separator: "\n") + "\n").utf8))
        return String(decoding: output.stdout, as: UTF8.self).split(separator: "\n").map { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            if object["error"] != nil { return nil }
            return .some(object["id"] as? String)
        }
    }

    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
        func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
    }
}

@Suite("App receipts against Apple's ReceiptUtility", .enabled(if: ReceiptOracle.isAvailable, "Apple's Python library is not installed (python3 -m pip install app-store-server-library): skipped"))
struct ReceiptOracleDifferentialTests {
    /// (name, base64, verifier) for every receipt that should verify.
    static func verifiedInputs() throws -> [(String, String, SignedDataVerifier)] {
        var inputs: [(String, String, SignedDataVerifier)] = []
        for vector in ReceiptVector.all where vector.expected.status == "verified" && vector.options.maximumInputLength == nil {
            let url = TestPaths.testVector(vector.file)
            let text = vector.file.hasSuffix(".b64") ? try TestPaths.text(url) : try Data(contentsOf: url).base64EncodedString()
            inputs.append((vector.name, text, try vector.makeVerifier()))
        }
        if TestPaths.sharedIsPresent {
            let apple = try SignedDataVerifier()
            for file in RealAppReceiptTests.allReceiptFiles {
                let bytes = try RealAppReceiptTests.bytes(file)
                let text = file.hasSuffix(".b64")
                    ? String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace } : bytes.base64EncodedString()
                inputs.append((file, text, apple))
            }
            let xcode = try SignedDataVerifier(configuration: .init(xcodeReceiptCertificate: RealAppReceiptTests.storeKitCertificate()))
            for file in RealAppReceiptTests.xcodeReceipts {
                inputs.append((file, try TestPaths.text(TestPaths.sharedFile("vectors/apple/xcode/" + file)).replacingOccurrences(of: "\n", with: ""), xcode))
            }
        }
        return inputs
    }

    @Test("Apple's ReceiptUtility extracts the same transaction ID as we do from every verified receipt")
    func sameTransactionIds() throws {
        let inputs = try Self.verifiedInputs()
        #expect(inputs.count >= 10)
        let apple = try ReceiptOracle.extract(inputs.map(\.1))
        try #require(apple.count == inputs.count, "the oracle answered \(apple.count) of \(inputs.count) lines")
        var compared = 0
        for ((name, text, verifier), appleAnswer) in zip(inputs, apple) {
            let result = try verifier.verifyAppReceipt(text)
            #expect(result.isVerified, "\(name): \(String(describing: result.verificationError))")
            guard let appleId = appleAnswer else {
                Issue.record("\(name): Apple's ReceiptUtility threw on a receipt we verify")
                continue
            }
            #expect(try result.transactionId == appleId, "\(name)")
            compared += 1
        }
        #expect(compared == inputs.count)
    }

    @Test("Apple extracts from receipts that do not verify; we refuse (the deliberate difference)")
    func extractionFromUnverified() throws {
        let names = ["tampered-content", "wrong-root", "impostor-intermediate", "signed-by-other-key", "expired-leaf-at-creation"]
        let vectors = ReceiptVector.all.filter { names.contains($0.name) }
        #expect(vectors.count == names.count)
        let texts = try vectors.map { try Data(contentsOf: TestPaths.testVector($0.file)).base64EncodedString() }
        let apple = try ReceiptOracle.extract(texts)
        for (vector, (text, appleAnswer)) in zip(vectors, zip(texts, apple)) {
            #expect(appleAnswer == .some("2000000000000001"), "\(vector.name): Apple's utility extracts without validation")
            #expect(throws: VerificationError.self, "\(vector.name)") {
                try vector.makeVerifier().extractTransactionIdFromAppReceipt(text)
            }
        }
    }
}
