import AppStoreVerification
import Foundation

/// The online (OCSP) part of the corpus, written by `Scripts/make-online-corpus.py`: a chain whose
/// leaf and intermediate name OCSP responders, a transaction it signs, and the responders' signed
/// "good" answers, served in process by ``CorpusOCSPTransport`` so a benchmark warms the verifier's
/// OCSP cache with genuine answers and no network.
public struct OnlineCorpus: Sendable {
    /// The DER-encoded root of the online chain.
    public let rootDER: Data
    /// One Sandbox transaction signed by the online chain's leaf.
    public let jws: String
    /// Responder URL → DER OCSPResponse.
    public let answers: [String: Data]

    /// Loads the online corpus, or stops the process with a message saying how to make it.
    public static func load() -> OnlineCorpus {
        let directory = Corpus.directory
        do {
            let jws = try String(contentsOf: directory.appendingPathComponent("online.jws"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            var answers: [String: Data] = [:]
            let lines = try String(contentsOf: directory.appendingPathComponent("online-ocsp.txt"), encoding: .utf8)
                .split(whereSeparator: \.isNewline)
            for line in lines {
                let fields = line.split(separator: " ")
                guard fields.count == 2, let der = Data(base64Encoded: String(fields[1])) else {
                    throw CocoaError(.fileReadCorruptFile)
                }
                answers[String(fields[0])] = der
            }
            guard !jws.isEmpty, answers.count == 2 else { throw CocoaError(.fileReadCorruptFile) }
            return OnlineCorpus(
                rootDER: try Data(contentsOf: directory.appendingPathComponent("online-root.der")),
                jws: jws, answers: answers)
        } catch {
            fatalError("Cannot read the online benchmark corpus in \(directory.path): \(error). Regenerate it with `python3 Benchmarks/Scripts/make-online-corpus.py`.")
        }
    }

    /// A verifier trusting the online root, for the corpus's bundle ID in Sandbox; online (default
    /// ``OCSPOptions`` but for the transport) when `transport` is given, offline otherwise.
    public func makeVerifier() -> SignedDataVerifier {
        do {
            return try SignedDataVerifier(configuration: configuration)
        } catch {
            fatalError("Cannot build the online-corpus verifier: \(error)")
        }
    }

    /// An online verifier of this corpus whose OCSP requests go to `transport`.
    public func makeOnlineVerifier(transport: CorpusOCSPTransport) -> OnlineSignedDataVerifier {
        do {
            return try OnlineSignedDataVerifier(configuration: configuration, revocation: OCSPOptions(transport: transport))
        } catch {
            fatalError("Cannot build the online-corpus online verifier: \(error)")
        }
    }

    private var configuration: SignedDataVerifier.Configuration {
        .init(trustedRoots: [(try? TrustedRoot(derEncoded: rootDER)) ?? .appleRootCAG3], bundleId: Corpus.bundleId, environment: .sandbox)
    }

    /// A transport serving this corpus's answers.
    public func makeTransport() -> CorpusOCSPTransport {
        CorpusOCSPTransport(answers: answers)
    }
}

/// An ``OCSPTransport`` that answers every POST to a corpus responder URL with that responder's
/// pre-signed answer (the documented plug-in point, here without a network). Once ``seal()`` is
/// called, any further request stops the process: a warm-cache benchmark must make none.
public final class CorpusOCSPTransport: OCSPTransport, @unchecked Sendable {
    private let answers: [String: Data]
    private let lock = NSLock()
    private var sealed = false
    private var count = 0

    init(answers: [String: Data]) { self.answers = answers }

    public func post(_ body: Data, to url: URL, timeout: Duration, maximumResponseLength: Int) async throws -> OCSPHTTPResponse {
        let isSealed: Bool = lock.withLock {
            count += 1
            return sealed
        }
        if isSealed {
            fatalError("CorpusOCSPTransport: an OCSP request to \(url.absoluteString) after warm-up: the OCSP cache is not warm")
        }
        guard let answer = answers[url.absoluteString] else {
            throw URLError(.cannotConnectToHost)
        }
        return OCSPHTTPResponse(statusCode: 200, body: answer)
    }

    /// How many requests were made.
    public var requests: Int { lock.withLock { count } }

    /// From now on any request stops the process.
    public func seal() { lock.withLock { sealed = true } }
}

extension OnlineCorpus {
    /// Verifies the online JWS once through `verifier` (online, using `transport`), which must ask
    /// both responders exactly once and give `.verified`, then seals the transport: from then on
    /// the verifier's OCSP cache is warm and any request stops the process. Stops the process on any
    /// other outcome.
    public func warmUp(_ verifier: OnlineSignedDataVerifier, _ transport: CorpusOCSPTransport) async {
        do {
            let result = try await verifier.verifyTransaction(jws)
            guard case .verified = result else {
                fatalError("Online warm-up: expected .verified, got \(result.verificationError.map { "\($0)" } ?? "?")")
            }
        } catch {
            fatalError("Online warm-up: \(error)")
        }
        guard transport.requests == 2 else {
            fatalError("Online warm-up: expected one request to each of the 2 responders, got \(transport.requests)")
        }
        transport.seal()
    }
}
