import Foundation
import Testing

/// Messages name what the user can type: the tool's flags, not the library's settings
/// (`appAppleId`, `maximumInputLength`, `Options.deadline`), and they read as sentences (balanced
/// parentheses).
@Suite("verify-jws: messages name the tool's flags")
struct CommandLineMessageTests {
    /// Whether every opening parenthesis or bracket of `text` is closed by its own kind.
    static func isBalanced(_ text: String) -> Bool {
        var stack: [Character] = []
        for character in text {
            switch character {
            case "(", "[": stack.append(character)
            case ")": guard stack.popLast() == "(" else { return false }
            case "]": guard stack.popLast() == "[" else { return false }
            default: break
            }
        }
        return stack.isEmpty
    }

    @Test("Production without an App Apple ID names --app-apple-id, not appAppleId")
    func productionNeedsTheAppAppleIdFlag() throws {
        for arguments in [["--environment", "Production", "--root", "TestVectors/pki/root.der", "TestVectors/jws/transaction-valid.jws"],
                          ["--environment", "production", "TestVectors/jws/transaction-valid.jws"],
                          ["entitlements", "--environment", "Production", "-"]] {
            let output = try Tool.run(arguments, stdin: Data())
            #expect(output.status == 2, "\(arguments)")
            #expect(output.stderr.contains("--app-apple-id"), "\(arguments): \(output.stderr)")
            #expect(!output.stderr.contains("appAppleId"), "\(arguments): \(output.stderr)")
            #expect(Self.isBalanced(output.stderr), "\(arguments): \(output.stderr)")
        }
    }

    @Test("range errors name the flag and read as a sentence")
    func rangeErrorsAreBalanced() throws {
        let timeout = try Tool.run(["--online", "--ocsp-timeout", "0", "TestVectors/jws/transaction-valid.jws"])
        #expect(timeout.status == 2)
        #expect(timeout.stderr.contains("--ocsp-timeout must be more than 0 and at most 600 seconds"), "\(timeout.stderr)")
        #expect(Self.isBalanced(timeout.stderr), "\(timeout.stderr)")
        let input = try Tool.run(["--max-input-bytes", "0", "TestVectors/jws/transaction-valid.jws"])
        #expect(input.status == 2)
        #expect(input.stderr.contains("--max-input-bytes"), "\(input.stderr)")
        #expect(!input.stderr.contains("maximumInputLength"), "\(input.stderr)")
    }
}
