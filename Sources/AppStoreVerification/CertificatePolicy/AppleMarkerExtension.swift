/// The extensions Apple puts in its signing certificates to mark their purpose.
///
/// Their value is an ASN.1 NULL; only their presence matters.
enum AppleMarkerExtension {
    /// Marks the leaf: "Mac App Store and iTunes Store Receipt Signing" (1.2.840.113635.100.6.11.1),
    /// on the leaves of App Store JWS and of app receipts.
    static let receiptSigningLeaf = "1.2.840.113635.100.6.11.1"
    /// Marks the intermediate: Apple Worldwide Developer Relations CA (1.2.840.113635.100.6.2.1).
    static let worldwideDeveloperRelationsIntermediate = "1.2.840.113635.100.6.2.1"
}
