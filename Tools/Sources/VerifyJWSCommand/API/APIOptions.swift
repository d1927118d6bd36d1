import AppStoreServerAPI
import AppStoreVerification
import ArgumentParser
import Foundation

/// The options every `verify-jws api` subcommand takes: the API credentials (flags, else the
/// environment), where the API is, how to verify its answers, and the output format.
struct APIOptions: ParsableArguments {
    @Option(name: .customLong("key"), help: ArgumentHelp("Your In-App Purchase key: the .p8 file from App Store Connect (Users and Access > Integrations > In-App Purchase); never printed. Default: $\(APIEnvironmentVariable.keyFile.rawValue).", valueName: "FILE"))
    var keyFile: String?

    @Option(name: .customLong("key-id"), help: ArgumentHelp("That key's ID. Default: $\(APIEnvironmentVariable.keyId.rawValue).", valueName: "ID"))
    var keyId: String?

    @Option(name: .customLong("issuer-id"), help: ArgumentHelp("Your issuer ID (on the same App Store Connect page). Default: $\(APIEnvironmentVariable.issuerId.rawValue).", valueName: "ID"))
    var issuerId: String?

    @Option(name: .customLong("base-url"), help: ArgumentHelp("Send requests here instead of Apple's production or sandbox API (tests): https, or http to 127.0.0.1, ::1 or localhost only. Default: $\(APIEnvironmentVariable.baseURL.rawValue), else the environment's API.", valueName: "URL"))
    var baseURL: String?

    @Option(name: .customLong("root"), help: ArgumentHelp("A trusted root for the signed data in Apple's answers, DER or PEM (repeatable); default: the embedded Apple Root CA - G3.", valueName: "FILE"))
    var roots: [String] = []

    @OptionGroup var verifierOptions: VerifierOptions

    @Option(name: .customLong("format"), help: ArgumentHelp("Output: 'json' (default), one JSON object per signed item, as verify-jws writes; 'text' for people; 'jws', the signed items themselves, one per line, for a pipe into verify-jws.", valueName: "json|text|jws"))
    var format: APIOutputFormat = .json

    @Option(name: .customLong("deadline"), help: ArgumentHelp("How long one request may take, retries of 429 and 5xx answers included, in seconds (default 60).", valueName: "SECONDS"))
    var deadline: Double = 60

    func validate() throws {
        guard deadline > 0, deadline <= 3600 else {
            throw ValidationError("--deadline must be more than 0 and at most 3600 seconds.")
        }
    }

    /// The client these options describe.
    ///
    /// - Throws: `ValidationError` naming the missing credential (flag and environment variable),
    ///   an unreadable or wrong key, a bad base URL or a bad verifier configuration.
    func makeClient(environment variables: [String: String]) throws -> AppStoreServerAPIClient {
        func required(_ flag: String?, _ name: String, _ variable: APIEnvironmentVariable) throws -> String {
            if let flag, !flag.isEmpty { return flag }
            if let value = variables[variable.rawValue], !value.isEmpty { return value }
            throw ValidationError("\(name) is missing: give --\(variable.flag) or set \(variable.rawValue).")
        }
        let keyPath = try required(keyFile, "The In-App Purchase key", .keyFile)
        let keyId = try required(self.keyId, "The key ID", .keyId)
        let issuerId = try required(self.issuerId, "The issuer ID", .issuerId)

        var configuration: SignedDataVerifier.Configuration
        do {
            configuration = try verifierOptions.makeConfiguration(roots: roots, effectiveDate: .signedDate)
        } catch {
            throw ValidationError(error.commandLineMessage(appAppleIdVariable: APIEnvironmentVariable.appAppleId.rawValue))
        }
        if configuration.bundleId == nil { configuration.bundleId = variables[APIEnvironmentVariable.bundleId.rawValue].flatMap { $0.isEmpty ? nil : $0 } }
        if configuration.environment == nil, let name = variables[APIEnvironmentVariable.environment.rawValue], !name.isEmpty {
            guard let option = EnvironmentOption(argument: name) else {
                throw ValidationError("\(APIEnvironmentVariable.environment.rawValue)=\(name) is not an environment; use Production or Sandbox.")
            }
            configuration.environment = option.environment
        }
        if configuration.appAppleId == nil, let text = variables[APIEnvironmentVariable.appAppleId.rawValue], !text.isEmpty {
            guard let number = Int64(text) else {
                throw ValidationError("\(APIEnvironmentVariable.appAppleId.rawValue)=\(text) is not a number; give your app's Apple ID.")
            }
            configuration.appAppleId = number
        }
        guard let bundleId = configuration.bundleId else {
            throw ValidationError("The bundle ID is missing: give --bundle-id or set \(APIEnvironmentVariable.bundleId.rawValue).")
        }
        let apiEnvironment: AppStoreServerEnvironment
        switch configuration.environment {
        case .production?:
            guard configuration.appAppleId != nil else {
                throw ValidationError("The Production environment needs your app's Apple ID, which production payloads must carry: give --app-apple-id N or set \(APIEnvironmentVariable.appAppleId.rawValue).")
            }
            apiEnvironment = .production
        case .sandbox?:
            apiEnvironment = .sandbox
        case nil:
            throw ValidationError("The environment is missing: give --environment Production or Sandbox, or set \(APIEnvironmentVariable.environment.rawValue).")
        case let other?:
            throw ValidationError("The App Store Server API serves Production and Sandbox data, not \(other.rawValue); give --environment Production or Sandbox.")
        }

        let verifier: SignedDataVerifier
        do {
            verifier = try SignedDataVerifier(configuration: configuration)
        } catch {
            throw ValidationError(error.commandLineMessage(appAppleIdVariable: APIEnvironmentVariable.appAppleId.rawValue))
        }
        let signingKey: SigningKey
        do {
            signingKey = try SigningKey(contentsOf: URL(fileURLWithPath: keyPath))
        } catch {
            throw ValidationError(error.message)
        }
        var options = AppStoreServerAPIClient.Options()
        options.deadline = .milliseconds(Int64((deadline * 1000).rounded()))
        options.requestTimeout = min(options.requestTimeout, options.deadline)
        let base = baseURL ?? variables[APIEnvironmentVariable.baseURL.rawValue].flatMap { $0.isEmpty ? nil : $0 }
        guard let base else {
            return AppStoreServerAPIClient(signingKey: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId,
                                           environment: apiEnvironment, verifier: .offline(verifier), options: options)
        }
        do {
            return AppStoreServerAPIClient(signingKey: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId,
                                           environment: try .baseURL(base), verifier: .offline(verifier), options: options)
        } catch {
            throw ValidationError(error.message)
        }
    }
}

/// The environment variables `verify-jws api` reads when a flag is not given.
enum APIEnvironmentVariable: String, CaseIterable {
    case keyFile = "APP_STORE_API_KEY_FILE"
    case keyId = "APP_STORE_API_KEY_ID"
    case issuerId = "APP_STORE_API_ISSUER_ID"
    case bundleId = "APP_STORE_BUNDLE_ID"
    case environment = "APP_STORE_ENVIRONMENT"
    case appAppleId = "APP_STORE_APP_APPLE_ID"
    case baseURL = "APP_STORE_API_BASE_URL"

    /// The flag it stands in for.
    var flag: String {
        switch self {
        case .keyFile: "key"
        case .keyId: "key-id"
        case .issuerId: "issuer-id"
        case .bundleId: "bundle-id"
        case .environment: "environment"
        case .appAppleId: "app-apple-id"
        case .baseURL: "base-url"
        }
    }
}
