import AppStoreVerificationTestSupport
import COpenSSL
import Foundation
import Testing
@testable import AppStoreVerification

/// Whether the oracle can run here: the script beside the repository, `python3`, and Apple's package.
enum AppleOracle {
    /// The script, relative to the package root (the oracle process runs there).
    static let scriptRelativePath = "../shared/oracle/apple_verify.py"

    static let isAvailable: Bool = {
        guard FileManager.default.fileExists(atPath: TestPaths.sharedFile("oracle/apple_verify.py").path),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/env")
        else { return false }
        // `env` exits 127 when python3 is absent; Python exits 1 when the package is missing.
        return (try? ProcessRunner.run("/usr/bin/env", ["python3", "-c", "import appstoreserverlibrary"]))?.status == 0
    }()

    struct Verdict: Decodable, Sendable {
        var status: String
        var code: String?
        var verified: Bool { status == "verified" }
    }

    /// Runs one oracle process over `lines` (written to a temporary file) and returns its verdicts.
    static func verdicts(for lines: [String], roots: [String], type: String = "transaction") throws -> [Verdict] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apple-oracle-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputFile = directory.appendingPathComponent("inputs.txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: inputFile)

        let run = try ProcessRunner.run("/usr/bin/env", ["python3", scriptRelativePath]
            + roots.flatMap { ["--root", $0] }
            + ["--bundle-id", "com.example.app", "--environment", "Sandbox", "--type", type, inputFile.path], in: TestPaths.repositoryRoot)
        guard run.status == 0 || run.status == 1 else {
            throw OracleFailure("apple_verify.py exited with \(run.status): \(String(decoding: run.stderr.suffix(4000), as: UTF8.self))")
        }
        let output = run.stdout
        let decoder = JSONDecoder()
        return try String(decoding: output, as: UTF8.self).split(separator: "\n").map {
            try decoder.decode(Verdict.self, from: Data($0.utf8))
        }
    }
}

struct OracleFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
