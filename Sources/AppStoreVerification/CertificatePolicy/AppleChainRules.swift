/// What Apple's chain policy requires of one kind of signed data: the marker extensions of the leaf
/// and the intermediate, the kind of key the leaf must hold, and how messages name the certificates.
///
/// The shape is the same for every kind Apple signs: exactly leaf → intermediate → a configured
/// trusted root. Only these parameters differ, so one ``AppleChainPolicy`` serves them all.
struct AppleChainRules: Sendable {
    /// What the chain signs, for messages ("App Store signed data").
    let signedDataName: String
    /// The extension every leaf must carry.
    let leafMarker: String
    /// The extension every intermediate must carry.
    let intermediateMarker: String
    /// The leaf keys accepted.
    let leafKey: LeafKeyRequirement
    /// How messages name the leaf and the intermediate ("x5c[0]", "x5c[1]").
    let leafPosition: String
    let intermediatePosition: String
    /// Where the chain's certificates come from, for messages ("The x5c header").
    let chainSource: String

    /// App Store JWS (transactions, renewal info, notifications, ...): a P-256 leaf for ES256, in
    /// the header's `x5c`.
    static let appStoreSignedData = AppleChainRules(
        signedDataName: "App Store signed data",
        leafMarker: AppleMarkerExtension.receiptSigningLeaf,
        intermediateMarker: AppleMarkerExtension.worldwideDeveloperRelationsIntermediate,
        leafKey: .p256,
        leafPosition: "x5c[0]",
        intermediatePosition: "x5c[1]",
        chainSource: "The x5c header")

    /// App receipts (PKCS#7): an RSA leaf, the signer of the receipt, among the receipt's certificates.
    static let appReceipt = AppleChainRules(
        signedDataName: "app receipts",
        leafMarker: AppleMarkerExtension.receiptSigningLeaf,
        intermediateMarker: AppleMarkerExtension.worldwideDeveloperRelationsIntermediate,
        leafKey: .rsa(minimumBits: 2048),
        leafPosition: "the receipt's signing certificate",
        intermediatePosition: "the receipt's intermediate certificate",
        chainSource: "The receipt")
}

/// The keys a leaf may hold.
enum LeafKeyRequirement: Sendable, Hashable, CustomStringConvertible {
    /// A P-256 elliptic-curve key (ES256).
    case p256
    /// An RSA key of at least `minimumBits` bits.
    case rsa(minimumBits: Int)

    /// Whether `kind` satisfies the requirement.
    func accepts(_ kind: KeyKind) -> Bool {
        switch (self, kind) {
        case (.p256, .p256): true
        case (.rsa(let minimum), .rsa(let bits)): bits >= minimum
        default: false
        }
    }

    var description: String {
        switch self {
        case .p256: "a P-256 key (ES256)"
        case .rsa(let minimum): "an RSA key of at least \(minimum) bits"
        }
    }
}
