/// What the Xcode certificate policy requires of one kind of locally signed data: the key the
/// configured certificate must hold, and how messages name the certificate and the data.
///
/// Xcode's StoreKit Testing signs JWS with a P-256 certificate and app receipts with an RSA one;
/// otherwise the rule is the same (exactly the configured certificate, valid at the effective date),
/// so one ``XcodeCertificatePolicy`` serves both.
struct XcodeCertificateRules: Sendable {
    /// How messages name the configured certificate ("Xcode certificate").
    let certificateName: String
    /// What the data is, for messages ("The payload", "The receipt").
    let dataName: String
    /// The keys the configured certificate may hold.
    let key: LeafKeyRequirement
    /// Why another key is refused: which certificate Xcode uses for this kind of data.
    let keyAdvice: String
    /// What was embedded instead of exactly one certificate ("its x5c holds 2 certificates; ...").
    let countMismatch: @Sendable (Int) -> String
    /// How messages name the embedded certificate ("x5c[0]").
    let embeddedPosition: String

    /// JWS (transactions, renewal info, app transactions, notifications) signed by "StoreKit Testing
    /// in Xcode": one P-256 certificate in `x5c`.
    static let signedData = XcodeCertificateRules(
        certificateName: "Xcode certificate",
        dataName: "The payload",
        key: .p256,
        keyAdvice: "Xcode signs JWS with a P-256 key (ES256).",
        countMismatch: { "its x5c holds \($0) certificates; Xcode signs with exactly one, the StoreKit Testing certificate" },
        embeddedPosition: "x5c[0]")

    /// App receipts signed by Xcode's RSA "StoreKit" certificate, the only certificate they embed.
    static let appReceipt = XcodeCertificateRules(
        certificateName: "Xcode receipt certificate",
        dataName: "The receipt",
        key: .rsa(minimumBits: 0),
        keyAdvice: "Xcode signs app receipts with its RSA \"StoreKit\" certificate (the P-256 \"StoreKit Testing in Xcode\" certificate, for JWS, goes in xcodeCertificate).",
        countMismatch: { "it embeds \($0) certificates; Xcode embeds exactly one, its StoreKit certificate" },
        embeddedPosition: "its signing certificate")
}
