import AppStoreVerification
import ArgumentParser
import Foundation

/// The options that configure the verifier, shared by `verify-jws` and `verify-jws entitlements`
/// (each declares its own `--root`, whose meaning differs: see ``makeConfiguration(roots:effectiveDate:rootScope:forReceipts:routeXcodeCertificateByKey:)``).
struct VerifierOptions: ParsableArguments {
    @Option(name: .customLong("bundle-id"), help: ArgumentHelp("The bundle ID payloads must carry.", valueName: "ID"))
    var bundleId: String?

    @Option(name: .customLong("app-apple-id"), help: ArgumentHelp("The App Apple ID payloads must carry (required with --environment Production).", valueName: "N"))
    var appAppleId: Int64?

    @Option(name: .customLong("environment"), help: ArgumentHelp("The environment payloads must come from.", valueName: "NAME"))
    var environment: EnvironmentOption?

    @Option(name: .customLong("xcode-certificate"), help: ArgumentHelp("The 'StoreKit Testing in Xcode' certificate (DER or PEM) to trust for Xcode-environment data; for app receipts, Xcode's RSA 'StoreKit' certificate.", valueName: "FILE"))
    var xcodeCertificate: String?

    @Flag(name: .customLong("no-strict"), help: "Relax OpenSSL's strict X.509 checks (for test PKIs without key identifiers, such as Apple's library test data).")
    var noStrict = false

    func validate() throws {
        if environment?.isProduction == true, appAppleId == nil {
            throw ValidationError("--environment Production needs --app-apple-id N: your app's Apple ID (the number in App Store Connect, App Information), which production payloads must carry.")
        }
    }

    /// Which roots `--root` replaces.
    enum RootScope {
        /// The JWS roots (`trustedRoots`): JWS only.
        case signedData
        /// The receipt roots (`trustedReceiptRoots`): `--type app-receipt`.
        case appReceipts
        /// Both: `--type auto`, whose lines may be either.
        case signedDataAndAppReceipts
    }

    /// The verifier configuration these options describe.
    ///
    /// - Parameters:
    ///   - roots: the `--root` files;
    ///   - rootScope: which roots they replace.
    ///   - forReceipts: `--xcode-certificate` is Xcode's receipt-signing certificate.
    ///   - routeXcodeCertificateByKey: `--type auto`: Xcode signs JWS with a P-256 certificate and app
    ///     receipts with an RSA one, so the certificate goes to the option that accepts its key.
    func makeConfiguration(roots: [String], effectiveDate: EffectiveDatePolicy, rootScope: RootScope = .signedData, forReceipts: Bool = false, routeXcodeCertificateByKey: Bool = false) throws(VerifierConfigurationError) -> SignedDataVerifier.Configuration {
        var configuration = SignedDataVerifier.Configuration()
        if !roots.isEmpty {
            var trusted: [TrustedRoot] = []
            for path in roots {
                trusted += try TrustedRoot.roots(contentsOf: URL(fileURLWithPath: path))
            }
            switch rootScope {
            case .signedData:
                configuration.trustedRoots = trusted
            case .appReceipts:
                configuration.trustedReceiptRoots = trusted
            case .signedDataAndAppReceipts:
                configuration.trustedRoots = trusted
                configuration.trustedReceiptRoots = trusted
            }
        }
        if let xcodeCertificate {
            let certificates = try TrustedRoot.roots(contentsOf: URL(fileURLWithPath: xcodeCertificate))
            guard certificates.count == 1, let certificate = certificates.first else {
                throw VerifierConfigurationError(.invalidCertificate, "\(xcodeCertificate) holds \(certificates.count) certificates; --xcode-certificate takes exactly one.")
            }
            configuration.xcodeCertificate = certificate
            if forReceipts || (routeXcodeCertificateByKey && (try? SignedDataVerifier(configuration: configuration)) == nil) {
                configuration.xcodeCertificate = nil
                configuration.xcodeReceiptCertificate = certificate
            }
        }
        configuration.bundleId = bundleId
        configuration.appAppleId = appAppleId
        configuration.environment = environment?.environment
        configuration.effectiveDate = effectiveDate
        configuration.strictChecks = !noStrict
        return configuration
    }
}
