import Foundation

/// How online revocation checks run: timeouts, caching, clock skew, and what to do when no answer
/// can be had.
///
/// The defaults suit a server verifying App Store data: 5 s per request, 10 s for a whole
/// verification, 5 minutes of clock skew, answers cached for at most 15 minutes (and never past the
/// response's nextUpdate), and no soft-fail.
public struct OCSPOptions: Sendable {
    /// The longest one OCSP request may take (connection, request and response). Default 5 s.
    public var requestTimeout: Duration
    /// The longest the revocation checks of one verification may take in all (both certificates,
    /// including waiting for a request another verification already started). Default 10 s.
    public var overallDeadline: Duration
    /// The clock difference allowed with the responder when checking thisUpdate and nextUpdate.
    /// Default 5 minutes.
    public var clockSkew: Duration
    /// The longest an answer is reused, even when its nextUpdate is later. Default 15 minutes; 0
    /// turns the cache off (every verification then asks the responders).
    ///
    /// It also bounds how old a response without nextUpdate may be (RFC 6960 lets a responder omit
    /// it, meaning newer information is always available): such a response is accepted only while
    /// its thisUpdate is at most `maximumCacheAge` (plus ``clockSkew``) in the past, and it is not
    /// cached.
    public var maximumCacheAge: Duration
    /// The largest response body accepted, in bytes; a longer one is cut off and refused as
    /// unavailable. Default 64 KiB (Apple's responses are about 1.5 KB).
    public var maximumResponseLength: Int
    /// Whether requests carry a random nonce (RFC 8954). A responder that echoes it must echo the
    /// same one; responders that serve pre-signed answers, as Apple's do, echo none, which is accepted.
    /// Default on.
    public var sendsNonce: Bool
    /// How many (certificate, issuer) answers the cache keeps. Default 256.
    public var cacheCapacity: Int
    /// Soft-fail: when no answer can be had (``RevocationCheckUnavailable``), verify anyway as if the
    /// check passed, and report the skipped check to ``onSkippedCheck``. **Weaker**: an attacker who
    /// can block the responder (or a responder outage) switches revocation checking off. Off by
    /// default: without it the verifier throws ``RevocationCheckUnavailable`` and you retry later.
    public var softFail: Bool
    /// Called with each check skipped under ``softFail`` (log it, count it).
    public var onSkippedCheck: (@Sendable (RevocationCheckUnavailable) -> Void)?
    /// How requests reach the responders. Default: ``defaultTransport``, which is
    /// ``SocketOCSPTransport/shared`` on Linux and ``URLSessionOCSPTransport/shared`` on Apple
    /// platforms. Plug in your own (AsyncHTTPClient, a recorder) by conforming to ``OCSPTransport``.
    public var transport: any OCSPTransport

    /// The transport used unless you set one: ``SocketOCSPTransport/shared`` on Linux, where
    /// FoundationNetworking's `URLSession` keeps a thread busy while a response is pending (a
    /// request waiting on a silent responder cost a whole core, measured), and
    /// ``URLSessionOCSPTransport/shared`` on Apple platforms, where `URLSession` waits without
    /// spinning.
    public static var defaultTransport: any OCSPTransport {
        #if canImport(FoundationNetworking)
        SocketOCSPTransport.shared
        #else
        URLSessionOCSPTransport.shared
        #endif
    }

    /// Options for online OCSP checks; every parameter has the documented default.
    public init(
        requestTimeout: Duration = .seconds(5),
        overallDeadline: Duration = .seconds(10),
        clockSkew: Duration = .seconds(300),
        maximumCacheAge: Duration = .seconds(900),
        maximumResponseLength: Int = 65_536,
        sendsNonce: Bool = true,
        cacheCapacity: Int = 256,
        softFail: Bool = false,
        onSkippedCheck: (@Sendable (RevocationCheckUnavailable) -> Void)? = nil,
        transport: any OCSPTransport = OCSPOptions.defaultTransport
    ) {
        self.requestTimeout = requestTimeout
        self.overallDeadline = overallDeadline
        self.clockSkew = clockSkew
        self.maximumCacheAge = maximumCacheAge
        self.maximumResponseLength = maximumResponseLength
        self.sendsNonce = sendsNonce
        self.cacheCapacity = cacheCapacity
        self.softFail = softFail
        self.onSkippedCheck = onSkippedCheck
        self.transport = transport
    }

    /// The options' problems, if any, for the verifier's initializer.
    func configurationProblem() -> String? {
        if requestTimeout <= .zero { return "OCSPOptions.requestTimeout must be positive." }
        if overallDeadline <= .zero { return "OCSPOptions.overallDeadline must be positive." }
        if clockSkew < .zero { return "OCSPOptions.clockSkew must not be negative." }
        if maximumCacheAge < .zero { return "OCSPOptions.maximumCacheAge must not be negative." }
        if maximumResponseLength <= 0 { return "OCSPOptions.maximumResponseLength must be positive." }
        if cacheCapacity < 0 { return "OCSPOptions.cacheCapacity must not be negative." }
        return nil
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var inSeconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// The duration in whole seconds, rounded down.
    var wholeSeconds: Int64 { components.seconds }
}
