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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import appstoreserverlibrary"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
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

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.currentDirectoryURL = TestPaths.packageRoot
        process.arguments = ["python3", scriptRelativePath]
            + roots.flatMap { ["--root", $0] }
            + ["--bundle-id", "com.example.app", "--environment", "Sandbox", "--type", type, inputFile.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain stderr on another thread while reading stdout here, so neither pipe can fill up.
        let errors = ErrorText()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errors.set(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        guard process.terminationStatus == 0 || process.terminationStatus == 1 else {
            throw OracleFailure("apple_verify.py exited with \(process.terminationStatus): \(errors.text)")
        }
        let decoder = JSONDecoder()
        return try String(decoding: output, as: UTF8.self).split(separator: "\n").map {
            try decoder.decode(Verdict.self, from: Data($0.utf8))
        }
    }

    private final class ErrorText: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ value: Data) { lock.withLock { data = value } }
        var text: String { lock.withLock { String(decoding: data.suffix(4000), as: UTF8.self) } }
    }
}

struct OracleFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
