import AppStoreVerification
import Foundation

/// Writes the signed items of Apple's answers as they arrive, one line each, and tallies their
/// verdicts.
///
/// In the JSON and text formats an item's location is `api <subcommand> <ID>` and its 1-based
/// position among the items written, so a line reads like verify-jws's line for a file.
final class APIItemWriter {
    private let format: APIOutputFormat
    private let source: String
    private let writer: OutputWriter
    private(set) var count = 0
    private(set) var worst = Outcome.Status.verified

    init(format: APIOutputFormat, source: String) {
        self.format = format
        self.source = source
        self.writer = OutputWriter(format: format == .text ? .text : .json)
    }

    /// Writes one transaction, renewal info or app transaction.
    func write<Payload: SignedPayload>(_ result: VerificationResult<Payload>) {
        write(Outcome(result), jws: result.jwsRepresentation)
    }

    /// Writes one notification, its nested signed data included.
    func write(notification result: VerificationResult<ResponseBodyV2DecodedPayload>) {
        write(LineVerifier.notificationOutcome(result), jws: result.jwsRepresentation)
    }

    private func write(_ outcome: Outcome, jws: String) {
        count += 1
        worst = Outcome.worse(worst, outcome.overallStatus)
        switch format {
        case .jws:
            writer.write(jws + "\n")
        case .json:
            writer.write(OutputWriter.render(outcome, for: InputLine(source: source, lineNumber: count, text: jws), format: .json))
        case .text:
            writer.write(OutputWriter.render(outcome, for: InputLine(source: source, lineNumber: count, text: jws), format: .text))
        }
        // Each item as it comes: a reader at the other end of a pipe need not wait for the last page.
        writer.endOfRun()
    }

    func flush() { writer.flush() }
}
