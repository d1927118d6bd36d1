/// The extensions Apple puts in App Store signing certificates to mark their purpose.
enum AppleMarkerExtension {
    /// Marks the leaf: "App Store receipt signing" (1.2.840.113635.100.6.11.1).
    static let receiptSigningLeaf = "1.2.840.113635.100.6.11.1"
    /// Marks the intermediate: Apple Worldwide Developer Relations CA (1.2.840.113635.100.6.2.1).
    static let worldwideDeveloperRelationsIntermediate = "1.2.840.113635.100.6.2.1"
}
