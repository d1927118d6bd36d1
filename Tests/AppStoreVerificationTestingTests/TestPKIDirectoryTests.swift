import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

/// `TestPKI.write(to:)`: private keys are never readable by anyone but their owner, not even for
/// an instant (created 0600, not tightened afterwards).
@Suite("TestPKI.write(to:): key files are the owner's only")
struct TestPKIDirectoryTests {
    @Test("every key file is created 0600 under a umask that would make it world-readable")
    func keyFilesAreOwnerOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pki-modes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A permissive umask: a file created with the default mode would be 0666.
        let previous = umask(0)
        defer { umask(previous) }
        let pki = try TestPKI()
        try pki.write(to: directory)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let keys = names.filter { $0.hasSuffix(".key") }
        #expect(keys.count >= 2, "no key files among \(names)")
        for name in names {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            if keys.contains(name) {
                #expect(mode == 0o600, "\(name) has mode \(String(mode, radix: 8))")
            }
        }
        // No temporary file is left behind.
        #expect(!names.contains { $0.hasPrefix(".") }, "\(names)")
        // The PKI reads back.
        #expect(try TestPKI(contentsOf: directory).root == pki.root)
    }
}
