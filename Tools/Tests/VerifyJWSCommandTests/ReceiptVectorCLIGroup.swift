import AppStoreVerificationTestSupport
import Foundation
import Testing

/// Minted receipt vectors that share one set of manifest options, and the `verify-jws` arguments
/// equivalent to those options: one CLI process verifies the whole group.
struct ReceiptVectorCLIGroup: Sendable, CustomTestStringConvertible {
    /// The `verify-jws` arguments (paths relative to the repository's root, where the CLI tests run).
    var arguments: [String]
    /// The vectors, in manifest order.
    var vectors: [ReceiptVector]

    var testDescription: String {
        "\(vectors.count) vector\(vectors.count == 1 ? "" : "s"): \(arguments.joined(separator: " "))"
    }

    /// Every vector of the manifest, grouped by its options, groups in order of first appearance.
    static let all: [ReceiptVectorCLIGroup] = {
        var groups: [ReceiptVectorCLIGroup] = []
        for vector in ReceiptVector.all {
            let arguments = cliArguments(for: vector.options)
            if let index = groups.firstIndex(where: { $0.arguments == arguments }) {
                groups[index].vectors.append(vector)
            } else {
                groups.append(ReceiptVectorCLIGroup(arguments: arguments, vectors: [vector]))
            }
        }
        return groups
    }()

    /// The flags that give the CLI's verifier a vector's manifest options: each receipt root
    /// (`--root`, with `--type app-receipt` replacing the receipt root), bundle ID, environment (none
    /// when null), effective date, Xcode receipt certificate, and input limit (`--max-input-bytes`,
    /// which bounds the line and the verifier's input alike).
    static func cliArguments(for options: ReceiptVector.Options) -> [String] {
        var arguments = ["--type", "app-receipt"]
        for root in options.receiptRoots {
            arguments += ["--root", "TestVectors/" + root]
        }
        if let bundleId = options.bundleId {
            arguments += ["--bundle-id", bundleId]
        }
        if let environment = options.environment {
            arguments += ["--environment", environment]
        }
        if let effectiveDate = options.effectiveDate {
            arguments += ["--effective-date", effectiveDate]
        }
        if let certificate = options.xcodeReceiptCertificate {
            arguments += ["--xcode-certificate", "TestVectors/" + certificate]
        }
        if let limit = options.maximumInputLength {
            arguments += ["--max-input-bytes", String(limit)]
        }
        return arguments
    }

    /// The vector as one input line: a `.b64` file's text as it stands, a `.der` file's bytes in base64.
    static func line(_ vector: ReceiptVector) throws -> String {
        let url = TestPaths.testVector(vector.file)
        if vector.file.hasSuffix(".b64") { return try TestPaths.text(url) }
        return try Data(contentsOf: url).base64EncodedString()
    }

    /// The exit status `verify-jws` must end with for this group: the worst expected verdict.
    var expectedExitStatus: Int32 {
        let statuses = Set(vectors.map(\.expected.status))
        if statuses.contains("malformed") { return 2 }
        if statuses.contains("unverified") { return 1 }
        return 0
    }
}
