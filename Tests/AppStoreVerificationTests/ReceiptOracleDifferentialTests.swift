import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

// Differential test against Apple's official App Store Server Library (Python):
// `ReceiptUtility.extract_transaction_id_from_app_receipt` must extract the same transaction ID as
// we do from every receipt that verifies (the real receipts in ../shared, Xcode's receipts with the
// StoreKit certificate, the minted valid receipts), and every receipt on which the answers differ
// (Apple extracts, we refuse: unverified receipts, and malformed ones Apple reads past) is listed,
// with the reason, in ReceiptOracleDeliberateDifferences.swift. An unlisted difference fails.

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
        let run = try ProcessRunner.run("/usr/bin/env", ["python3"] + arguments, stdin: stdin)
        return (run.status, run.stdout)
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

    /// One side's answer: the transaction ID extracted (`nil`: none in the receipt), or a refusal
    /// (ours: "status code"; Apple's: it threw).
    enum Answer: Equatable, CustomStringConvertible {
        case extracted(String?)
        case refused(String)

        var description: String {
            switch self {
            case .extracted(let id): "extracted \(id.map { "\"\($0)\"" } ?? "nil")"
            case .refused(let verdict): "refused (\(verdict))"
            }
        }

        /// Whether the two answers agree: the same ID extracted, or both refusing.
        func agrees(with other: Answer) -> Bool {
            switch (self, other) {
            case (.extracted(let mine), .extracted(let theirs)): mine == theirs
            case (.refused, .refused): true
            default: false
            }
        }
    }

    /// Every receipt the tests know, each with the verifier it is checked with: the minted vectors
    /// with their manifest options, and from ../shared the real receipts, what is not a receipt, and
    /// Xcode's receipts with and without the StoreKit certificate.
    static func allInputs() throws -> [(name: String, text: String, verifier: SignedDataVerifier)] {
        var inputs: [(name: String, text: String, verifier: SignedDataVerifier)] = []
        for vector in ReceiptVector.all {
            // A `.b64` file's text as it stands, a `.der` file's bytes in base64.
            let url = TestPaths.testVector(vector.file)
            let text = vector.file.hasSuffix(".b64") ? try TestPaths.text(url) : try Data(contentsOf: url).base64EncodedString()
            inputs.append((vector.name, text, try vector.makeVerifier()))
        }
        guard TestPaths.sharedIsPresent else { return inputs }
        let apple = try SignedDataVerifier()
        for file in RealAppReceiptTests.allReceiptFiles {
            inputs.append((file, try RealAppReceiptTests.base64Line(file), apple))
        }
        inputs.append(("not_a_receipt", try TestPaths.text(TestPaths.sharedFile(RealAppReceiptTests.directory + "not_a_receipt")), apple))
        inputs.append(("deprecatedSinglesTypeExpiredAppleCert_receipt.b64",
                       String(try TestPaths.text(TestPaths.sharedFile(RealAppReceiptTests.directory + "deprecatedSinglesTypeExpiredAppleCert_receipt.b64")).filter { !$0.isWhitespace }), apple))
        inputs.append(("frank4dd-cacert.der", try RealAppReceiptTests.bytes("frank4dd-cacert.der").base64EncodedString(), apple))
        let xcode = try SignedDataVerifier(configuration: .init(xcodeReceiptCertificate: RealAppReceiptTests.storeKitCertificate()))
        for file in RealAppReceiptTests.xcodeReceipts {
            let text = try TestPaths.text(TestPaths.sharedFile("vectors/apple/xcode/" + file)).replacingOccurrences(of: "\n", with: "")
            inputs.append((file, text, xcode))
            inputs.append(("\(file) without the StoreKit certificate", text, apple))
        }
        return inputs
    }

    /// Our answer: the verifier's verdict, and the ID only from a verified receipt.
    static func ourAnswer(_ text: String, _ verifier: SignedDataVerifier) throws -> Answer {
        let answer: Answer
        do {
            let result = try verifier.verifyAppReceipt(text)
            switch result {
            case .verified: answer = .extracted(try result.transactionId)
            case .unverified(_, let error): answer = .refused("unverified \(error.code)")
            }
        } catch let error as SignedDataDecodingError {
            answer = .refused("malformed \(error.code.description)")
        }
        // The extraction entry point answers the same.
        switch answer {
        case .extracted(let id): #expect(try verifier.extractTransactionIdFromAppReceipt(text) == id)
        case .refused: #expect(throws: (any Error).self) { try verifier.extractTransactionIdFromAppReceipt(text) }
        }
        return answer
    }

    @Test("every receipt on which our answer differs from Apple's ReceiptUtility is a listed deliberate difference, with Apple's answer and ours as listed")
    func everyDifferenceIsListed() throws {
        let inputs = try Self.allInputs()
        #expect(inputs.count >= ReceiptVector.all.count)
        let appleAnswers = try ReceiptOracle.extract(inputs.map(\.text))
        try #require(appleAnswers.count == inputs.count, "the oracle answered \(appleAnswers.count) of \(inputs.count) lines")
        let listed = Dictionary(uniqueKeysWithValues: ReceiptOracleDifferences.deliberate.map { ($0.input, $0) })
        #expect(listed.count == ReceiptOracleDifferences.deliberate.count, "an input is listed twice")
        var differing: Set<String> = []
        for (input, appleAnswer) in zip(inputs, appleAnswers) {
            let apple: Answer = appleAnswer.map { .extracted($0) } ?? .refused("threw")
            let ours = try Self.ourAnswer(input.text, input.verifier)
            guard !ours.agrees(with: apple) else {
                #expect(listed[input.name] == nil, "\(input.name) is listed as a deliberate difference, but both answers agree: Apple \(apple), we \(ours)")
                continue
            }
            differing.insert(input.name)
            guard let entry = listed[input.name] else {
                Issue.record("\(input.name): Apple \(apple), we \(ours): an unlisted difference (a bug, or an entry missing from ReceiptOracleDeliberateDifferences.swift)")
                continue
            }
            #expect(apple == .extracted(entry.appleExtracts), "\(input.name): Apple \(apple), listed: extracted \(entry.appleExtracts ?? "nil")")
            #expect(ours == .refused(entry.ours), "\(input.name): we \(ours), listed: \(entry.ours)")
        }
        // Every entry names an input that was run and differs (entries for ../shared inputs are
        // not run without it).
        let mintedNames = Set(ReceiptVector.all.map(\.name))
        for entry in ReceiptOracleDifferences.deliberate where !differing.contains(entry.input) {
            if TestPaths.sharedIsPresent || mintedNames.contains(entry.input) {
                Issue.record("\(entry.input) is listed as a deliberate difference but was not found to differ")
            }
        }
    }
}
